"""The ``launch`` blueprint: SMART EHR and standalone launch, the callback, the landing page.

- ``GET /launch?iss=…&launch=…`` — EHR launch (``launch`` present) or standalone launch
  (only ``iss``): check ``iss`` against the allow-list before anything else, read discovery,
  redirect to the EHR's authorization endpoint with PKCE S256, ``state``, ``aud`` and
  ``nonce``.
- ``GET /callback`` — check ``state`` (single use, this browser), exchange the code,
  validate the id_token, store context and sealed tokens server-side, go to ``/app``.
- then ``GET /app`` (the ``chat`` blueprint) — the assistant page.

Every failure is an ``errors`` exception: a clear page with the right 4xx status,
logged by error code only — never a token, code or verifier.
"""
from __future__ import annotations

import logging

from flask import Blueprint, current_app, redirect, url_for

from .. import errors, inputs
from ..session import launches as sessions
from ..smart import protocol as smart

log = logging.getLogger(__name__)

bp = Blueprint("launch", __name__)


@bp.get("/launch")
def launch():
    cfg = current_app.config
    iss = smart.allowed_iss(inputs.arg("iss"), cfg["ISS_ALLOWLIST"])  # before any network call
    launch_value = inputs.arg("launch")
    allow_no_pkce = iss in {smart.normalise_iss(i) for i in cfg.get("ALLOW_NO_PKCE_ISS") or []}
    discovery = smart.discover(iss, cfg["HTTP_TIMEOUT_S"], allow_no_pkce)
    scope = _scope(cfg, standalone=not launch_value)
    redirect_uri = _redirect_uri()
    auth = smart.authorization_request(cfg, discovery, iss, redirect_uri, scope, launch_value)
    sessions.save_pending(
        auth["state"],
        {
            "iss": iss,
            "issuer": discovery.get("issuer"),
            "state": auth["state"],
            "verifier": auth["verifier"],
            "nonce": auth["nonce"],
            "redirect_uri": redirect_uri,
            "token_endpoint": discovery["token_endpoint"],
            "jwks_uri": discovery.get("jwks_uri"),
            "scope": scope,
        },
    )
    log.info("launch: %s launch for %s", "EHR" if launch_value else "standalone", iss)
    return redirect(auth["url"], code=302)


@bp.get("/callback")
def callback():
    if inputs.has_arg("error"):
        _consume_quietly(inputs.arg("state"))
        refusal = smart.authorization_error(inputs.arg("error"), inputs.arg("error_description"))
        log.warning("callback: authorization refused (%s)", refusal.error)
        raise refusal
    pending = sessions.pop_pending(inputs.arg("state"))
    cfg = current_app.config
    token = smart.exchange_code(cfg, pending, inputs.url(), cfg["HTTP_TIMEOUT_S"])
    claims = {}
    if token.get("id_token") and "openid" in pending["scope"].split():
        if not pending.get("jwks_uri"):
            raise errors.TokenExchangeError(
                "The EHR publishes no keys to verify the identity token."
            )
        claims = smart.validate_id_token(
            token["id_token"], pending, cfg["CLIENT_ID"], cfg["HTTP_TIMEOUT_S"]
        )
    sessions.start_session(_context(pending, token, claims), token)
    log.info(
        "callback: session started for %s (patient in context: %s)",
        pending["iss"],
        bool(token.get("patient")),
    )
    return redirect(url_for("chat.app_page"), code=302)


def _scope(cfg, standalone: bool) -> str:
    if standalone:
        return cfg.get("STANDALONE_SCOPES") or cfg["SCOPES"].replace(
            "launch ", "launch/patient ", 1
        )
    return cfg["SCOPES"]


def _redirect_uri() -> str:
    base = current_app.config.get("PUBLIC_URL") or inputs.host_url()
    return base.rstrip("/") + url_for("launch.callback")


def _consume_quietly(state: str | None) -> None:
    try:
        sessions.pop_pending(state)
    except errors.StateMismatch:
        pass


def _context(pending: dict, token: dict, claims: dict) -> dict:
    """What to remember about the launch (no secrets): SMART token response context."""
    user = _text(claims.get("fhirUser")) or _text(token.get("fhirUser"))
    return {
        "iss": pending["iss"],
        "token_endpoint": pending["token_endpoint"],
        "patient": _text(token.get("patient")),
        "encounter": _text(token.get("encounter")),
        "user": _relative_ref(user),
        "scope": _text(token.get("scope")) or pending["scope"],
        "need_patient_banner": bool(token.get("need_patient_banner", True)),
        "smart_style_url": _text(token.get("smart_style_url")),
        "fhir_context": token.get("fhirContext")
        if isinstance(token.get("fhirContext"), list)
        else [],
    }


def _text(value) -> str | None:
    """A token-response member that must be text (an EHR sending another type is ignored)."""
    return value if isinstance(value, str) and value else None


def _relative_ref(ref: str | None) -> str | None:
    """``https://ehr/fhir/Practitioner/1`` → ``Practitioner/1`` (HAPI refuses foreign
    references)."""
    if not ref:
        return None
    parts = ref.rstrip("/").split("/")
    return "/".join(parts[-2:]) if len(parts) >= 2 else ref
