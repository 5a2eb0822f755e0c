"""A launch session for view tests, without going through the OAuth dance.

The SMART launch itself is tested end to end under ``tests/web/test_launch.py`` and
``tests/launch/``; the chat and card views only need what a launch leaves
behind: an ``app_sessions`` row (context + sealed tokens) and the session
cookie naming it. ``iss`` is HAPI itself here (no proxy, no auth), so the
views read and write real FHIR with a token HAPI ignores.
"""
from __future__ import annotations

import json
import re
import secrets

from smart_docgemma.storage import app_sessions, now

from tests.support.launch_context import PATIENT_SCOPES

LAUNCH_SCOPES = "launch openid fhirUser " + PATIENT_SCOPES


def open_session(app, client, fhir_base: str, patient: str | None = "pt-ckd-elder", *,
                 scope: str = LAUNCH_SCOPES, **context) -> str:
    """Store a session for ``patient`` and log ``client`` into it; returns the CSRF token."""
    sid = secrets.token_urlsafe(16)
    ctx = {"iss": fhir_base, "token_endpoint": "http://127.0.0.1:9/token", "patient": patient,
           "encounter": None, "user": "Practitioner/dr-okafor", "scope": scope,
           "need_patient_banner": True, "smart_style_url": None, "fhir_context": [], **context}
    store = app.extensions["docgemma.storage"]
    tokens = {"access_token": "view-test-token", "expires_at": now() + 3600, "refresh_token": None, "scope": scope}
    with store.begin() as conn:
        conn.execute(app_sessions.insert().values(sid=sid, created_at=now(), expires_at=now() + 3600,
                                                  context=json.dumps(ctx), tokens=store.seal(tokens)))
    csrf = secrets.token_urlsafe(16)
    with client.session_transaction() as s:
        s["sid"], s["csrf"], s["browser"] = sid, csrf, "view-test"
    return csrf


def session_cookie(app, fhir_base: str, patient: str | None = "pt-ckd-elder", *,
                   scope: str = LAUNCH_SCOPES) -> tuple[dict, str]:
    """A stored launch session for a client speaking real HTTP: ``(cookies, csrf)``.

    The cookie is signed exactly as Flask signs its own session cookie."""
    client = app.test_client()
    csrf = open_session(app, client, fhir_base, patient, scope=scope)
    with client.session_transaction() as s:
        data = dict(s)
    value = app.session_interface.get_signing_serializer(app).dumps(data)
    return {app.config["SESSION_COOKIE_NAME"]: value}, csrf


def scripted_app(app_config: dict, sources: dict, srv, **extra):
    """An app whose model is the scripted server ``srv`` and whose knowledge sources are the
    recorded bodies ``sources`` (the stack of the chat, lessons and stored-evaluation tests)."""
    from smart_docgemma import create_app

    return create_app({**app_config, **sources, "ENDPOINT": srv.url, "MODEL": srv.model,
                       "SCHEMA_DIALECT": "json_schema", "MODEL_RETRIES": 0, "MODEL_TIMEOUT_S": 10, **extra})


def post_question(client, message: str) -> str:
    """Ask ``message`` over the chat view (the whole stream is read); returns the turn id."""
    res = client.post("/api/chat", data={"message": message}, headers={"X-CSRF-Token": client.csrf},
                      content_type="multipart/form-data")
    return re.search(r'"id": "([0-9a-f]{32})"', res.get_data(as_text=True)).group(1)

