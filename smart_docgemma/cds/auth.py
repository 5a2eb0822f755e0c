"""Trusting CDS Clients (CDS Hooks 2.0 §Trusting CDS Clients, §JWT Signing Algorithm).

Every call carries ``Authorization: Bearer <JWT>`` signed by the EHR. Checks,
in the order the CDS Hooks best-practices list them:

1. ``iss`` is on the allow-list (config ``CDS_ISSUERS``), which also says
   where that issuer's keys are: ``{"jwks_url": …}`` (fetched, cached,
   refetched once on an unknown ``kid``; ``jku`` is honoured only when it
   equals the configured URL) or ``{"jwks": {...}}`` configured out of band;
2. the header has ``alg`` from an asymmetric allow-list (never ``none`` or
   ``HS*``), ``kid`` and ``typ: JWT``;
3. ``aud`` equals the public URL of the endpoint called (configure
   ``PUBLIC_URL`` behind a proxy: ``request.url`` would be the internal URL); a
   feedback call may name its service's URL or the feedback URL itself (CDS clients
   differ, the reference sandbox sends the latter);
4. ``exp`` is in the future (small leeway) and at most ``CDS_JWT_MAX_LIFETIME_S``
   (5 min, the spec's recommendation) plus leeway after ``iat`` and after now;
   ``iat`` not in the future; claims of the wrong JSON type are refused;
5. the signature verifies with the issuer's key selected by ``kid``;
6. ``jti`` was not seen within the replay window (kept in storage, so it
   holds across threads and instances).

Any failure is a bare 401 with ``WWW-Authenticate: Bearer`` (no detail to the
caller; ``views`` logs the reason, never the token).
"""
from __future__ import annotations

import json
import logging
import threading
import time
from typing import TYPE_CHECKING, Any

import requests
from joserfc import jwt
from joserfc.errors import JoseError
from joserfc.jwk import KeySet
from sqlalchemy import delete, insert
from sqlalchemy.exc import IntegrityError

from ..errors import Unauthorized
from ..extensions import lazy
from ..storage import cds_jti

if TYPE_CHECKING:
    from flask import Flask

CDS_KEYS = "docgemma.cds_keys"

log = logging.getLogger(__name__)

ALGORITHMS = ["ES384", "RS384", "ES256", "RS256", "ES512", "RS512", "PS384"]
LEEWAY_S = 30


class JwksCache:
    """Per-issuer key sets: configured ones, or fetched from ``jwks_url`` with a TTL."""

    def __init__(self, issuers: dict, ttl_s: int = 3600, timeout_s: float = 5):
        self.issuers, self.ttl_s, self.timeout_s = issuers, ttl_s, timeout_s
        self._fetched: dict[str, tuple[float, KeySet]] = {}
        self._lock = threading.Lock()

    def keys(self, iss: str, refresh: bool = False) -> KeySet:
        """The key set for an allow-listed issuer (raises Unauthorized otherwise)."""
        entry = self.issuers.get(iss)
        if entry is None:
            raise Unauthorized("issuer not allowed")
        if "jwks" in entry:
            return KeySet.import_key_set(entry["jwks"])
        with self._lock:
            cached = self._fetched.get(iss)
            if cached and not refresh and time.time() - cached[0] < self.ttl_s:
                return cached[1]
        keyset = self._fetch(entry["jwks_url"])
        with self._lock:
            self._fetched[iss] = (time.time(), keyset)
        return keyset

    def _fetch(self, url: str) -> KeySet:
        try:
            res = requests.get(url, timeout=self.timeout_s)
            res.raise_for_status()
            return KeySet.import_key_set(res.json())
        except (requests.RequestException, ValueError, JoseError) as exc:
            log.warning("CDS client JWKS unavailable at %s: %s", url, type(exc).__name__)
            raise Unauthorized("issuer keys unavailable") from exc


def verify(
    token: str | None,
    audience: str | tuple[str, ...],
    jwks: JwksCache,
    storage,
    window_s: int,
    max_lifetime_s: int = 300,
) -> dict:
    """Verify a CDS client JWT for ``audience`` (one URL, or the URLs any of which it may name);
    returns its claims or raises Unauthorized."""
    if not token:
        raise Unauthorized("missing bearer token")
    header, claims = _unverified(token)
    _check_header(header)
    _check_claims(claims, audience, max_lifetime_s)
    keyset = jwks.keys(claims["iss"])
    if header["kid"] not in {k.kid for k in keyset.keys}:
        keyset = jwks.keys(claims["iss"], refresh=True)  # key rotation
    try:
        jwt.decode(token, keyset, algorithms=ALGORITHMS)
    except (JoseError, ValueError) as exc:
        raise Unauthorized("bad signature") from exc
    _remember_jti(storage, claims, window_s)
    return claims


def _unverified(token: str) -> tuple[dict, dict]:
    import base64

    try:
        head, body, _sig = token.split(".")
        header, claims = (json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))
                          for part in (head, body))
    except (ValueError, TypeError, RecursionError) as exc:
        raise Unauthorized("malformed token") from exc
    if not isinstance(header, dict) or not isinstance(claims, dict):
        raise Unauthorized("malformed token")
    return header, claims


def _check_header(header: dict) -> None:
    if header.get("alg") not in ALGORITHMS:
        raise Unauthorized("algorithm not allowed")
    if not isinstance(header.get("kid"), str) or not header["kid"]:
        raise Unauthorized("kid missing")
    if not isinstance(header.get("typ"), str) or header["typ"].upper() != "JWT":
        raise Unauthorized("typ must be JWT")


def _check_claims(claims: dict, audience: str | tuple[str, ...], max_lifetime_s: int) -> None:
    for name in ("iss", "jti"):
        if not isinstance(claims.get(name), str) or not claims[name]:
            raise Unauthorized(f"claim {name} missing or not text")
    for name in ("exp", "iat"):
        if not isinstance(claims.get(name), (int, float)) or isinstance(claims[name], bool):
            raise Unauthorized(f"claim {name} missing or not a number")
    sent = claims.get("aud")
    aud: list[Any] = sent if isinstance(sent, list) else [sent]
    allowed = {u.rstrip("/") for u in ((audience,) if isinstance(audience, str) else audience)}
    if not allowed & {a.rstrip("/") for a in aud if isinstance(a, str)}:
        raise Unauthorized("audience mismatch")
    now = time.time()
    if claims["exp"] < now - LEEWAY_S:
        raise Unauthorized("token expired")
    if claims["iat"] > now + LEEWAY_S:
        raise Unauthorized("token issued in the future")
    if claims["exp"] - min(claims["iat"], now) > max_lifetime_s + LEEWAY_S:
        raise Unauthorized("token lifetime too long")


def _remember_jti(storage, claims: dict, window_s: int) -> None:
    """Record ``iss|jti``; a second use inside the window is a replay."""
    key = f"{claims['iss']}|{claims['jti']}"[:512]
    now = time.time()
    expires = max(float(claims["exp"]), now) + window_s
    with storage.begin() as conn:
        conn.execute(delete(cds_jti).where(cds_jti.c.expires_at < now))
        try:
            conn.execute(insert(cds_jti).values(key=key, expires_at=expires))
        except IntegrityError as exc:
            raise Unauthorized("replayed jti") from exc


def get_cds_keys(app: Flask | None = None) -> JwksCache:
    """The CDS clients' key sets, fetched once per issuer and kept for their TTL."""
    return lazy(app, CDS_KEYS, lambda app: JwksCache(app.config.get("CDS_ISSUERS") or {}))
