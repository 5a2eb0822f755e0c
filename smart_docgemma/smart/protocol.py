"""SMART App Launch 2.2, the client side: discovery, authorization, token, refresh.

authlib does the OAuth 2.0 work (PKCE S256, state, code exchange with
``client_secret_basic`` or as a public client, refresh); joserfc validates the
``id_token`` against the server's JWKS. Everything here is a plain function of
configuration and the values the EHR sent, so the blueprint stays thin.

SMART pitfalls handled (each one breaks a real EHR launch): ``iss`` checked against the
allow-list before any network call; discovery endpoints may be relative;
``aud`` = ``iss`` on the authorization request; ``nonce`` when ``openid`` is
asked for; the refresh request does not re-send ``launch`` (authlib would add
the requested scope, so the granted scope minus launch scopes is sent instead).
"""
from __future__ import annotations

import logging
import re
import time
from urllib.parse import urljoin, urlsplit, urlunsplit

import requests
from authlib.common.security import generate_token
from authlib.integrations.base_client.errors import OAuthError
from authlib.integrations.requests_client import OAuth2Session
from authlib.oauth2 import OAuth2Error
from joserfc import jwt
from joserfc.errors import JoseError
from joserfc.jwk import KeySet

from .. import errors

log = logging.getLogger(__name__)

ID_TOKEN_ALGS = ["RS256", "RS384", "ES256", "ES384", "RS512", "ES512", "PS256", "PS384"]
LAUNCH_SCOPES = {"launch", "launch/patient", "launch/encounter"}
# Token-endpoint answers after which the refresh token will never work again (RFC 6749 §5.2).
FINAL_REFRESH_ERRORS = {"invalid_grant", "invalid_client", "unauthorized_client"}
# Authorization errors a relaunch cannot fix: the app's registration or configuration is wrong.
CONFIGURATION_ERRORS = {
    "invalid_client",
    "unauthorized_client",
    "invalid_scope",
    "unsupported_response_type",
}


def normalise_iss(iss: str | None) -> str:
    """Scheme and host lower-cased, default port and trailing slash dropped; "" when not a URL."""
    if not iss or not isinstance(iss, str):
        return ""
    try:
        parts = urlsplit(iss.strip())
        host, port_number = (parts.hostname or "").lower(), parts.port
    except ValueError:  # an unclosed IPv6 bracket, a port out of range: not a URL we can match
        return ""
    default = (parts.scheme, port_number) in (("http", 80), ("https", 443))
    port = f":{port_number}" if port_number and not default else ""
    return urlunsplit((parts.scheme.lower(), host + port, parts.path.rstrip("/"), "", ""))


def allowed_iss(iss: str | None, allowlist: list[str]) -> str:
    """The normalised ``iss`` when it is on the allow-list; UnknownIssuer otherwise."""
    wanted = normalise_iss(iss)
    if not wanted or wanted not in {normalise_iss(a) for a in allowlist or []}:
        raise errors.UnknownIssuer("This EHR is not registered with the assistant. "
                                   "Ask your administrator to add it to the allow-list.")
    return wanted


def discover(iss: str, timeout: float, allow_no_pkce: bool = False) -> dict:
    """``{iss}/.well-known/smart-configuration`` with endpoints made absolute."""
    try:
        res = requests.get(f"{iss}/.well-known/smart-configuration", timeout=timeout,
                           headers={"Accept": "application/json"})
        res.raise_for_status()
        config = res.json()
    except (requests.RequestException, ValueError) as exc:
        log.info("SMART discovery failed for %s: %s", iss, type(exc).__name__)
        raise errors.LaunchError(
            "The EHR's SMART configuration could not be read.", status=502
        ) from exc
    if not isinstance(config, dict):
        raise _malformed(iss, "not a JSON object")
    for key in ("authorization_endpoint", "token_endpoint", "jwks_uri"):
        if config.get(key) is not None:
            config[key] = _endpoint(iss, key, config[key])
    if not config.get("authorization_endpoint") or not config.get("token_endpoint"):
        raise errors.LaunchError(
            "The EHR's SMART configuration has no authorization or token endpoint.", status=502
        )
    if not isinstance(config.get("issuer"), (str, type(None))):
        raise _malformed(iss, "issuer is not text")
    methods = config.get("code_challenge_methods_supported")
    if "S256" not in (methods if isinstance(methods, list) else []) and not allow_no_pkce:
        raise errors.LaunchError(
            "The EHR does not offer PKCE (S256); the assistant refuses to launch without it."
        )
    return config


LOOPBACK_HOSTS = {"127.0.0.1", "localhost", "::1"}


def _endpoint(iss: str, key: str, value) -> str:
    """A discovery endpoint made absolute; https, or http on loopback only (the browser
    is sent to the authorization endpoint: never to a ``javascript:`` or plain-http URL)."""
    if not isinstance(value, str) or not value.strip():
        raise _malformed(iss, f"{key} is not a URL")
    try:
        url = urljoin(iss + "/", value.strip())
        parts = urlsplit(url)
        host = (parts.hostname or "").lower()
        parts.port  # noqa: B018  (raises ValueError when out of range)
    except ValueError as exc:
        raise _malformed(iss, f"{key} is not a URL") from exc
    if not host or not (
        parts.scheme == "https" or (parts.scheme == "http" and host in LOOPBACK_HOSTS)
    ):
        raise _malformed(iss, f"{key} is neither https nor loopback http")
    return url


def _malformed(iss: str, why: str) -> errors.LaunchError:
    log.warning("SMART discovery for %s refused: %s", iss, why)
    return errors.LaunchError(
        "The EHR's SMART configuration is malformed; the assistant cannot launch "
        "from it. Ask your administrator to check the EHR's registration.",
        status=502,
    )


def client_session(
    cfg: dict, redirect_uri: str | None = None, scope: str | None = None
) -> OAuth2Session:
    """An authlib session for our registration (confidential when a secret is set)."""
    secret = cfg.get("CLIENT_SECRET") or None
    return OAuth2Session(cfg["CLIENT_ID"], secret, scope=scope, redirect_uri=redirect_uri,
                         code_challenge_method="S256",
                         token_endpoint_auth_method="client_secret_basic" if secret else "none")


def authorization_request(cfg: dict, discovery: dict, iss: str, redirect_uri: str,
                          scope: str, launch: str | None) -> dict:
    """The authorize URL plus the secrets to keep server-side (state, verifier, nonce)."""
    verifier = generate_token(64)
    state = generate_token(43)  # > 128 bits of entropy
    extra = {"aud": iss}
    if launch:
        extra["launch"] = launch
    nonce = generate_token(32) if "openid" in scope.split() else None
    if nonce:
        extra["nonce"] = nonce
    url, _ = client_session(cfg, redirect_uri, scope).create_authorization_url(
        discovery["authorization_endpoint"], state=state, code_verifier=verifier, **extra)
    return {"url": url, "state": state, "verifier": verifier, "nonce": nonce}


def exchange_code(cfg: dict, pending: dict, callback_url: str, timeout: float) -> dict:
    """Trade the code for tokens; TokenExchangeError with no secret echoed on failure."""
    session = client_session(cfg, pending["redirect_uri"])
    try:
        token = session.fetch_token(
            pending["token_endpoint"],
            authorization_response=callback_url,
            state=pending["state"],
            code_verifier=pending["verifier"],
            timeout=timeout,
        )
    except (OAuth2Error, OAuthError, requests.RequestException, ValueError) as exc:
        code = getattr(exc, "error", None) or type(exc).__name__
        log.warning("token exchange failed at %s: %s", pending["token_endpoint"], code)
        if _needs_administrator(code, getattr(exc, "description", None)):
            raise errors.TokenExchangeError(
                f"The EHR did not issue a token ({code}). {ADMINISTRATOR}"
            ) from exc
        raise errors.TokenExchangeError(
            "The EHR did not issue a token for this launch. Please relaunch the app.") from exc
    if not isinstance(token.get("access_token"), str) or not token["access_token"]:
        raise errors.TokenExchangeError("The EHR's token response had no access token.")
    return dict(token)


ADMINISTRATOR = (
    "Relaunching will not help: the assistant's registration with this EHR needs fixing. "
    "Contact your administrator."
)
_ERROR_CODE = re.compile(r"[a-z][a-z0-9_]{0,63}")


def authorization_error(code, description) -> errors.LaunchError:
    """The EHR's refusal (``error``/``error_description`` on the callback) in its own words,
    saying whether a relaunch can help (the page escapes the text)."""
    code = code if isinstance(code, str) and _ERROR_CODE.fullmatch(code) else "invalid_request"
    description = " ".join(description.split())[:300] if isinstance(description, str) else ""
    said = f"The EHR answered {code}" + (f": {description}" if description else "") + "."
    exc: errors.LaunchError
    if code == "access_denied":
        exc = errors.AccessDenied(f"The EHR did not grant the assistant access. {said} "
                                  "Relaunch it from the patient's chart to try again.")
    elif _needs_administrator(code, description):
        exc = errors.LaunchError(f"{said} {ADMINISTRATOR}")
    else:
        exc = errors.LaunchError(f"{said} Relaunch the app from the patient's chart to try again.")
    exc.error = code
    return exc


def _needs_administrator(code: str, description: str | None) -> bool:
    """invalid_client, invalid_scope and friends, or a redirect URI the EHR does not know."""
    return code in CONFIGURATION_ERRORS or (code in ("invalid_request", "invalid_grant")
                                            and "redirect" in (description or "").lower())


def validate_id_token(id_token: str, pending: dict, client_id: str, timeout: float) -> dict:
    """Verify signature (server JWKS), iss, aud, exp and nonce; returns the claims."""
    try:
        if not isinstance(id_token, str):
            raise ValueError("id_token is not text")
        keys = KeySet.import_key_set(requests.get(pending["jwks_uri"], timeout=timeout).json())
        claims = jwt.decode(id_token, keys, algorithms=ID_TOKEN_ALGS).claims
    except (
        requests.RequestException,
        ValueError,
        TypeError,
        KeyError,
        AttributeError,
        JoseError,
    ) as exc:
        log.warning("identity token from %s not verified: %s", pending["iss"], type(exc).__name__)
        raise errors.TokenExchangeError("The EHR's identity token could not be verified.") from exc
    audience = claims.get("aud")
    audiences = audience if isinstance(audience, list) else [audience]
    expires = claims.get("exp")
    problems = [
        normalise_iss(claims.get("iss")) != normalise_iss(pending.get("issuer") or pending["iss"]),
        client_id not in audiences,
        not isinstance(expires, (int, float))
        or isinstance(expires, bool)
        or expires < time.time() - 60,
        pending.get("nonce") and claims.get("nonce") != pending["nonce"],
    ]
    if any(problems):
        raise errors.TokenExchangeError("The EHR's identity token did not match this launch.")
    return claims


def refresh(
    cfg: dict, token_endpoint: str, refresh_token: str, granted_scope: str, timeout: float
) -> dict:
    """Refresh without the launch scopes (SMART 2.x: context is not re-requested)."""
    scope = " ".join(s for s in granted_scope.split() if s not in LAUNCH_SCOPES)
    session = client_session(cfg, scope=scope)
    try:
        token = session.refresh_token(token_endpoint, refresh_token=refresh_token, timeout=timeout)
    except (OAuth2Error, OAuthError) as exc:
        code = getattr(exc, "error", "") or type(exc).__name__
        log.warning("token refresh refused by %s: %s", token_endpoint, code)
        kind = errors.RefreshRefused if code in FINAL_REFRESH_ERRORS else errors.SessionExpired
        raise kind("Your EHR session has ended. Close this window and relaunch the app "
                   "from the patient's chart.") from exc
    except (requests.RequestException, ValueError) as exc:
        log.warning("token refresh failed at %s: %s", token_endpoint, type(exc).__name__)
        raise errors.SessionExpired("The EHR could not renew your session. Close this window and "
                                    "relaunch the app from the patient's chart.") from exc
    if not isinstance(token.get("access_token"), str) or not token["access_token"]:
        raise errors.SessionExpired(
            "The EHR's refresh response had no access token. Please relaunch the app."
        )
    log.info("token refresh succeeded at %s", token_endpoint)
    return dict(token)
