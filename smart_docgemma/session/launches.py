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
from sqlalchemy import bindparam, delete, insert, select, update

from .. import errors
from ..audit import for_launch
from ..extensions import get_fhir_pool, get_storage
from ..fhir import FhirGateway
from ..proposals.store import proposal_store
from ..smart import protocol as smart
from ..smart.scopes import GrantedScopes
from ..storage import app_sessions, chart_snapshots, now, oauth_states
from ..tools.base import ToolContext
from ..tools.sources.http import get_http

log = logging.getLogger(__name__)

STATE_TTL_S = 600
REFRESH_LEEWAY_S = 60  # at most; a short-lived token is refreshed in its last quarter instead
DEFAULT_EXPIRES_IN_S = 300  # when the EHR does not say how long its token lives
# built once: read per request
_SESSION = select(app_sessions).where(app_sessions.c.sid == bindparam("sid"))
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
    sealed_tokens: str | None = field(default=None, repr=False)  # as read with the session

    @cached_property
    def audit(self):
        """The session's audit trail (its FHIR gateway reports every read to it). The token is
        looked up only to copy a record to the EHR (AUDIT_TO_EHR)."""
        return for_launch(self, current_app._get_current_object(),
                          token=lambda: self.fhir.server.auth.access_token)

    @cached_property
    def fhir(self) -> FhirGateway:
        """A FHIR gateway with a fresh access token (refreshed if about to expire, and once
        more if the FHIR server refuses it: the EHR may have revoked it early), looked up when
        the gateway first sends a request."""
        app, sid = current_app._get_current_object(), self.sid  # type: ignore[attr-defined]

        def token() -> str:
            with app.app_context():  # the agent's worker thread has no app context of its own
                return access_token(sid, self.sealed_tokens)

        def renew() -> str:
            with app.app_context():
                return refresh_now(sid)
        return FhirGateway(self.iss, token, timeout=app.config["HTTP_TIMEOUT_S"], renew=renew,
                           connections=get_fhir_pool(app), audit=self.audit)

    def tool_context(self) -> ToolContext:
        """The tools' view of this launch (the agent's turns; a card's safety checks after an
        edit)."""
        app = current_app
        return ToolContext(patient_id=self.patient_id, scopes=self.scopes, fhir=self.fhir,
                           http=get_http(app), proposals=proposal_store(app), sid=self.sid,
                           user=self.user, config=dict(app.config))


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
        conn.execute(
            insert(oauth_states).values(
                state=state, browser=browser_id(), created_at=now(), data=store.seal(data)
            )
        )


def pop_pending(state: str | None) -> dict:
    """The pending request for ``state``, deleted as it is read (single use)."""
    if not state:
        raise errors.StateMismatch(
            "The launch could not be verified (no state). Please relaunch the app."
        )
    store = _storage()
    with store.begin() as conn:
        row = conn.execute(select(oauth_states).where(oauth_states.c.state == state)).first()
        deleted = conn.execute(delete(oauth_states).where(oauth_states.c.state == state)).rowcount
    if (
        not row
        or not deleted
        or row.browser != session.get("browser")
        or row.created_at < now() - STATE_TTL_S
    ):
        raise errors.StateMismatch(
            "The launch could not be verified: it was already used, expired, "
            "or started in another browser. Please relaunch the app."
        )
    return store.unseal(row.data) or {}


# -- sessions -------------------------------------------------------------------
def start_session(context: dict, token: dict) -> str:
    """Store a new launch session and put only its id in the cookie."""
    sid = secrets.token_urlsafe(32)
    store = _storage()
    lifetime = current_app.config["SESSION_LIFETIME_S"]
    with store.begin() as conn:
        conn.execute(
            insert(app_sessions).values(
                sid=sid,
                created_at=now(),
                expires_at=now() + lifetime,
                context=json.dumps(context),
                tokens=store.seal(_tokens(token)),
            )
        )
    browser = session.get("browser")
    session.clear()  # rotate: nothing from before the login survives but the browser id
    session["sid"], session["browser"] = sid, browser or secrets.token_urlsafe(24)
    return sid


def _tokens(token: dict, previous: dict | None = None) -> dict:
    lifetime = token.get("expires_in")
    if isinstance(lifetime, str) and lifetime.isdigit():
        lifetime = int(lifetime)
    if not isinstance(lifetime, (int, float)) or isinstance(lifetime, bool) or lifetime <= 0:
        lifetime = DEFAULT_EXPIRES_IN_S
    refresh = token.get("refresh_token") if isinstance(token.get("refresh_token"), str) else None
    scope = token.get("scope") if isinstance(token.get("scope"), str) else None
    return {
        "access_token": token["access_token"],
        "expires_at": now() + lifetime,
        "lifetime": lifetime,
        "refresh_token": refresh or (previous or {}).get("refresh_token"),
        "scope": scope or (previous or {}).get("scope", ""),
    }


def _leeway(tokens: dict) -> float:
    """Refresh this long before expiry: a minute, or a quarter of a short token's life
    (a 60 s token refreshed 60 s early would never be used at all)."""
    return min(REFRESH_LEEWAY_S, float(tokens.get("lifetime") or DEFAULT_EXPIRES_IN_S) / 4)


def current_launch() -> LaunchContext:
    """The launch for this request, or SessionExpired (401 page: relaunch)."""
    if "docgemma_launch" in g:
        return g.docgemma_launch
    sid = session.get("sid")
    row = None
    if sid:
        with _storage().read() as conn:
            row = conn.execute(_SESSION, {"sid": sid}).first()
    if not row or row.expires_at < now():
        raise errors.SessionExpired(
            "Your session has ended. Close this window and open the assistant "
            "again from the patient's chart."
        )
    ctx = json.loads(row.context)
    g.docgemma_launch = LaunchContext(
        sid=str(sid),
        iss=ctx["iss"],
        patient_id=ctx.get("patient"),
        encounter_id=ctx.get("encounter"),
        user=ctx.get("user"),
        scopes=GrantedScopes.parse(ctx.get("scope")),
        need_patient_banner=bool(ctx.get("need_patient_banner", True)),
        smart_style_url=ctx.get("smart_style_url"),
        fhir_context=ctx.get("fhir_context") or [],
        sealed_tokens=row.tokens,
    )
    return g.docgemma_launch


def _session_tokens(sid: str) -> tuple[dict, dict]:
    store = _storage()
    with store.read() as conn:
        row = conn.execute(_SESSION, {"sid": sid}).first()
    tokens = store.unseal(row.tokens if row else None)
    if not tokens:
        raise errors.SessionExpired("Your session has ended. Please relaunch the app.")
    return tokens, json.loads(row.context)


def access_token(sid: str, sealed: str | None = None) -> str:
    """The session's access token, refreshed first when it is about to expire. ``sealed``:
    the tokens as read with the session at the start of this request, used when still valid
    (no second read of the session)."""
    kept = _storage().unseal(sealed)
    if kept and _fresh(kept):
        return kept["access_token"]
    tokens, context = _session_tokens(sid)
    if _fresh(tokens):
        return tokens["access_token"]
    return _refresh(sid, context, tokens)


def _fresh(tokens: dict) -> bool:
    """Usable without a refresh (not within the leeway of its expiry)."""
    return tokens["expires_at"] - _leeway(tokens) > now()


def refresh_now(sid: str) -> str:
    """Refresh whatever the expiry says (the FHIR server refused the current token)."""
    log.info("FHIR server refused the access token; refreshing once")
    tokens, context = _session_tokens(sid)
    return _refresh(sid, context, tokens)


def _refresh(sid: str, context: dict, tokens: dict) -> str:
    if not tokens.get("refresh_token"):
        raise errors.SessionExpired(
            "Your EHR session has expired and cannot be renewed. "
            "Close this window and relaunch the app from the patient's chart."
        )
    cfg, store = current_app.config, _storage()
    with _refresh_lock:
        try:
            token = smart.refresh(cfg, context["token_endpoint"], tokens["refresh_token"],
                                  tokens.get("scope", ""), cfg["HTTP_TIMEOUT_S"])
        except errors.RefreshRefused:
            # the refresh token is dead: asking again on every request cannot help
            _delete_session(sid)
            log.warning("session ended: the EHR refused its refresh token")
            raise
        fresh = _tokens(token, tokens)
        with store.begin() as conn:
            conn.execute(
                update(app_sessions)
                .where(app_sessions.c.sid == sid)
                .values(tokens=store.seal(fresh))
            )
    log.info("refreshed the access token of a session (lifetime %s s)", fresh["lifetime"])
    return fresh["access_token"]


def _delete_session(sid: str) -> None:
    with _storage().begin() as conn:
        conn.execute(delete(app_sessions).where(app_sessions.c.sid == sid))
        # chart data goes with it
        conn.execute(delete(chart_snapshots).where(chart_snapshots.c.sid == sid))
