"""Server-side launch sessions: the only thing in the browser is an opaque id.

After a successful launch the context (iss, patient, encounter, user, granted
scopes, banner/style hints) and the tokens are stored in ``app_sessions``;
tokens are sealed with Fernet (``storage.seal``) so a copied database leaks no
token. Flask's signed cookie carries just ``sid`` (plus a random browser id that
binds pending OAuth ``state`` values to this browser, and the CSRF token).

``current_launch()`` returns a :class:`LaunchContext` for the request or raises
``SessionExpired``; its ``fhir`` attribute is a :class:`FhirGateway` with an
access token that is refreshed shortly before it expires.
"""
from __future__ import annotations

import json
import logging
import secrets
import threading
from dataclasses import dataclass, field
from functools import cached_property

from flask import current_app, g, session
from sqlalchemy import delete, insert, select, update

from .. import errors
from ..extensions import get_storage
from . import protocol as smart
from ..fhir import FhirGateway
from .scopes import GrantedScopes
from ..storage import app_sessions, now, oauth_states

log = logging.getLogger(__name__)

STATE_TTL_S = 600
REFRESH_LEEWAY_S = 60
_refresh_lock = threading.Lock()  # one refresh at a time per process (rotating refresh tokens)


@dataclass
class LaunchContext:
    """What the app knows about the launch behind this browser session."""

    sid: str
    iss: str
    patient_id: str | None
    encounter_id: str | None
    user: str | None  # fhirUser as a relative reference, e.g. Practitioner/dr-okafor
    scopes: GrantedScopes
    need_patient_banner: bool = True
    smart_style_url: str | None = None
    fhir_context: list = field(default_factory=list)

    @property
    def fhir_base(self) -> str:
        return self.iss

    @cached_property
    def fhir(self) -> FhirGateway:
        """A FHIR gateway with a fresh access token (refreshed if about to expire)."""
        return FhirGateway(self.iss, access_token(self.sid), timeout=current_app.config["HTTP_TIMEOUT_S"])


def _storage():
    return get_storage()


def browser_id() -> str:
    """A random id for this browser (binds pending OAuth states to it)."""
    if "browser" not in session:
        session["browser"] = secrets.token_urlsafe(24)
    return session["browser"]


# -- pending authorization requests (state) -------------------------------------
def save_pending(state: str, data: dict) -> None:
    store = _storage()
    with store.begin() as conn:
        conn.execute(delete(oauth_states).where(oauth_states.c.created_at < now() - STATE_TTL_S))
        conn.execute(insert(oauth_states).values(state=state, browser=browser_id(), created_at=now(),
                                                 data=store.seal(data)))


def pop_pending(state: str | None) -> dict:
    """The pending request for ``state``, deleted as it is read (single use)."""
    if not state:
        raise errors.StateMismatch("The launch could not be verified (no state). Please relaunch the app.")
    store = _storage()
    with store.begin() as conn:
        row = conn.execute(select(oauth_states).where(oauth_states.c.state == state)).first()
        deleted = conn.execute(delete(oauth_states).where(oauth_states.c.state == state)).rowcount
    if not row or not deleted or row.browser != session.get("browser") or row.created_at < now() - STATE_TTL_S:
        raise errors.StateMismatch("The launch could not be verified: it was already used, expired, "
                                   "or started in another browser. Please relaunch the app.")
    return store.unseal(row.data) or {}


# -- sessions -------------------------------------------------------------------
def start_session(context: dict, token: dict) -> str:
    """Store a new launch session and put only its id in the cookie."""
    sid = secrets.token_urlsafe(32)
    store = _storage()
    lifetime = current_app.config["SESSION_LIFETIME_S"]
    with store.begin() as conn:
        conn.execute(insert(app_sessions).values(sid=sid, created_at=now(), expires_at=now() + lifetime,
                                                 context=json.dumps(context), tokens=store.seal(_tokens(token))))
    browser = session.get("browser")
    session.clear()  # rotate: nothing from before the login survives but the browser id
    session["sid"], session["browser"] = sid, browser or secrets.token_urlsafe(24)
    return sid


def _tokens(token: dict, previous: dict | None = None) -> dict:
    expires_in = float(token.get("expires_in") or 300)
    return {"access_token": token["access_token"], "expires_at": now() + expires_in,
            "refresh_token": token.get("refresh_token") or (previous or {}).get("refresh_token"),
            "scope": token.get("scope") or (previous or {}).get("scope", "")}


def current_launch() -> LaunchContext:
    """The launch for this request, or SessionExpired (401 page: relaunch)."""
    if "docgemma_launch" in g:
        return g.docgemma_launch
    sid = session.get("sid")
    row = None
    if sid:
        with _storage().begin() as conn:
            row = conn.execute(select(app_sessions).where(app_sessions.c.sid == sid)).first()
    if not row or row.expires_at < now():
        raise errors.SessionExpired("Your session has ended. Close this window and open the assistant "
                                    "again from the patient's chart.")
    ctx = json.loads(row.context)
    g.docgemma_launch = LaunchContext(
        sid=sid, iss=ctx["iss"], patient_id=ctx.get("patient"), encounter_id=ctx.get("encounter"),
        user=ctx.get("user"), scopes=GrantedScopes.parse(ctx.get("scope")),
        need_patient_banner=bool(ctx.get("need_patient_banner", True)),
        smart_style_url=ctx.get("smart_style_url"), fhir_context=ctx.get("fhir_context") or [])
    return g.docgemma_launch


def access_token(sid: str) -> str:
    """The session's access token, refreshed first when it expires within a minute."""
    store = _storage()
    with store.begin() as conn:
        row = conn.execute(select(app_sessions).where(app_sessions.c.sid == sid)).first()
    tokens = store.unseal(row.tokens if row else None)
    if not tokens:
        raise errors.SessionExpired("Your session has ended. Please relaunch the app.")
    if tokens["expires_at"] - REFRESH_LEEWAY_S > now():
        return tokens["access_token"]
    return _refresh(sid, json.loads(row.context), tokens)


def _refresh(sid: str, context: dict, tokens: dict) -> str:
    if not tokens.get("refresh_token"):
        raise errors.SessionExpired("Your EHR session has expired and cannot be renewed. "
                                    "Close this window and relaunch the app from the patient's chart.")
    cfg, store = current_app.config, _storage()
    with _refresh_lock:
        token = smart.refresh(cfg, context["token_endpoint"], tokens["refresh_token"],
                              tokens.get("scope", ""), cfg["HTTP_TIMEOUT_S"])
        fresh = _tokens(token, tokens)
        with store.begin() as conn:
            conn.execute(update(app_sessions).where(app_sessions.c.sid == sid).values(tokens=store.seal(fresh)))
    log.info("refreshed access token for a session")
    return fresh["access_token"]


def end_session() -> None:
    sid = session.pop("sid", None)
    if sid:
        with _storage().begin() as conn:
            conn.execute(delete(app_sessions).where(app_sessions.c.sid == sid))
