"""Browser-facing protections: security headers, CSRF, session cookie flags.

- Headers: a CSP without inline script, ``frame-ancestors`` from config (the
  app must load inside an EHR iframe, so no blanket ``X-Frame-Options: DENY``),
  ``Referrer-Policy: no-referrer`` (launch URLs carry codes), ``nosniff``.
- CSRF: every state-changing request from a browser carries the per-session
  token (form field ``csrf_token`` or header ``X-CSRF-Token``). CDS Hooks
  calls are exempt: they are authenticated by the client's signed JWT.
- Cookies: HttpOnly always; ``SameSite=None; Secure; Partitioned`` when served
  over https: inside a cross-site EHR iframe a Lax cookie is not sent, and a
  partitioned (CHIPS) cookie still works where the browser blocks third-party
  cookies. Over plain http (the local sandbox, same-site with the app) Lax.
"""
from __future__ import annotations

import hmac
import secrets

from flask import session

from .. import errors, inputs
from ..config import setting

CSRF_EXEMPT_PREFIXES = ("/cds-services",)
# Responses here carry patient data or launch secrets: never stored by a browser or proxy.
PATIENT_DATA_PREFIXES = ("/launch", "/callback", "/app", "/api", "/proposals", "/cds-services")


def csrf_token() -> str:
    """The session's CSRF token (created on first use)."""
    if "csrf" not in session:
        session["csrf"] = secrets.token_urlsafe(32)
    return session["csrf"]


def _check_csrf() -> None:
    if inputs.method() in ("GET", "HEAD", "OPTIONS"):
        return
    if inputs.path().startswith(CSRF_EXEMPT_PREFIXES):
        return
    sent = inputs.header("X-CSRF-Token") or inputs.form_value("csrf_token") or ""
    expected = session.get("csrf", "")
    if not expected or not hmac.compare_digest(sent.encode(), expected.encode()):
        raise errors.Forbidden(
            "The form expired or did not come from this app. Reload the page and try again."
        )


def _headers(response):
    from flask import current_app

    ancestors = current_app.config.get("FRAME_ANCESTORS") or "'self'"
    style = setting(current_app.config, "STYLE_SRC_EXTRA")
    response.headers.setdefault(
        "Content-Security-Policy",
        "default-src 'self'; script-src 'self'; style-src 'self' " + style + "; "
        "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
        "form-action 'self' http: https:; frame-ancestors " + ancestors,
    )
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    if inputs.path().startswith(PATIENT_DATA_PREFIXES):
        response.headers.setdefault("Cache-Control", "no-store")
    return response


def cookie_flags(app) -> None:
    """HttpOnly always; SameSite=None+Secure+Partitioned when the public URL is https (EHR
    iframe)."""
    app.config["SESSION_COOKIE_HTTPONLY"] = True
    public = app.config.get("PUBLIC_URL") or ""
    if public.startswith("https://"):
        app.config["SESSION_COOKIE_SECURE"] = True
        app.config["SESSION_COOKIE_SAMESITE"] = "None"
        app.config["SESSION_COOKIE_PARTITIONED"] = True
    else:  # Flask's default is None (no attribute), so "configured" means set to a value
        app.config["SESSION_COOKIE_SAMESITE"] = app.config.get("SESSION_COOKIE_SAMESITE") or "Lax"


def register(app) -> None:
    """Install CSRF checking, cookie flags and headers on ``app``."""
    cookie_flags(app)
    app.before_request(_check_csrf)
    app.after_request(_headers)
    app.jinja_env.globals["csrf_token"] = csrf_token
