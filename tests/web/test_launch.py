"""SMART App Launch end to end: the app, the EHR sandbox and HAPI, over real HTTP.

Each hop is driven by the test (no automatic redirects) so PKCE, ``aud``, ``state``
and the token handling can be checked where they happen. The sandbox shares no code
with the app, as a real EHR would.
"""
from __future__ import annotations

import json
import logging
import re

import requests
from sqlalchemy import update

from tests.support.smart_browser import Browser, ehr_launch, finish, query, stored_tokens


def test_ehr_launch_checks_every_hop_and_shows_the_banner(launched_app, sandbox, caplog):
    app, app_url = launched_app
    caplog.set_level(logging.DEBUG)
    browser = Browser()
    hop2, hop3 = ehr_launch(browser, sandbox, app_url)
    auth = query(hop2.headers["Location"])
    assert hop2.headers["Location"].startswith(f"{sandbox.url}/auth/authorize?")
    assert auth["code_challenge_method"] == "S256" and len(auth["code_challenge"]) >= 43
    assert auth["aud"] == sandbox.fhir_url and auth["launch"]
    assert len(auth["state"]) >= 43 and auth["nonce"] and "launch" in auth["scope"].split()
    assert query(hop3.headers["Location"])["state"] == auth["state"]
    page = finish(browser, hop3, app_url)
    assert page.status_code == 200
    assert "Robert Mensah" in page.text and "MRN-100587" in page.text and "1950-09-30" in page.text

    tokens = stored_tokens(app)
    secrets = [tokens["access_token"], tokens["refresh_token"]]
    assert all(secrets)
    for res in browser.seen:
        blob = res.text + json.dumps(dict(res.headers))
        assert not any(s in blob for s in secrets), res.url
    for cookie in browser.http.cookies:
        assert not any(s in (cookie.value or "") for s in secrets)
    # Every log line of the app (the sandbox runs in this process too; its authorization
    # server's own debug log of what it issued is the EHR's business, not the app's).
    app_lines = [r.getMessage() for r in caplog.records
                 if not r.name.startswith(("authlib.oauth2.rfc6749", "launch."))]
    assert app_lines and not any(s in line for line in app_lines for s in secrets)


def test_standalone_launch_uses_the_patient_picker(launched_app, sandbox):
    app, app_url = launched_app
    browser = Browser()
    start = browser.get(f"{app_url}/launch", params={"iss": sandbox.fhir_url})
    assert "launch/patient" in query(start.headers["Location"])["scope"].split()
    picker = browser.get(start.headers["Location"])
    assert picker.status_code == 200 and "pt-child" in picker.text
    txn = re.search(r'name="txn" value="([^"]+)"', picker.text).group(1)
    decided = browser.post(f"{sandbox.url}/auth/decide", data={"txn": txn, "patient": "pt-child",
                                                               "decision": "approve"})
    page = finish(browser, decided, app_url)
    assert "Kofi Asante" in page.text


def test_expired_access_token_is_refreshed_without_relaunch(launched_app, sandbox):
    from smart_docgemma.storage import app_sessions

    app, app_url = launched_app
    browser = Browser()
    _, hop3 = ehr_launch(browser, sandbox, app_url)
    finish(browser, hop3, app_url)
    store = app.extensions["docgemma.storage"]
    old = stored_tokens(app)
    with store.begin() as conn:
        conn.execute(update(app_sessions).values(tokens=store.seal({**old, "expires_at": 0})))
    page = browser.get(f"{app_url}/app")
    assert page.status_code == 200 and "Robert Mensah" in page.text
    new = stored_tokens(app)
    assert new["access_token"] != old["access_token"] and new["expires_at"] > old["expires_at"]


def test_expired_session_without_refresh_asks_to_relaunch(launched_app, sandbox):
    from smart_docgemma.storage import app_sessions

    app, app_url = launched_app
    browser = Browser()
    _, hop3 = ehr_launch(browser, sandbox, app_url)
    finish(browser, hop3, app_url)
    store = app.extensions["docgemma.storage"]
    with store.begin() as conn:
        conn.execute(update(app_sessions).values(tokens=store.seal({**stored_tokens(app), "expires_at": 0,
                                                                    "refresh_token": None})))
    page = browser.get(f"{app_url}/app")
    assert page.status_code == 401 and "relaunch" in page.text.lower()


def test_unknown_iss_is_refused_before_any_request(launched_app, sandbox):
    _, app_url = launched_app
    res = requests.get(f"{app_url}/launch", params={"iss": "http://127.0.0.1:1/fhir", "launch": "x"},
                       allow_redirects=False, timeout=10)
    assert res.status_code == 400 and "not registered" in res.text
    assert "Traceback" not in res.text


def test_replayed_state_is_refused(launched_app, sandbox):
    _, app_url = launched_app
    browser = Browser()
    _, hop3 = ehr_launch(browser, sandbox, app_url)
    finish(browser, hop3, app_url)
    replay = browser.get(hop3.headers["Location"])
    assert replay.status_code == 400 and "already used" in replay.text


def test_state_from_another_browser_is_refused(launched_app, sandbox):
    _, app_url = launched_app
    _, hop3 = ehr_launch(Browser(), sandbox, app_url)
    other = Browser().get(hop3.headers["Location"])
    assert other.status_code == 400


def test_access_denied_renders_403(launched_app, sandbox):
    _, app_url = launched_app
    browser = Browser()
    hop2, _ = ehr_launch(browser, sandbox, app_url, consent="1")
    consent = browser.get(hop2.headers["Location"])
    txn = re.search(r'name="txn" value="([^"]+)"', consent.text).group(1)
    denied = browser.post(f"{sandbox.url}/auth/decide", data={"txn": txn, "decision": "deny"})
    assert "error=access_denied" in denied.headers["Location"]
    page = browser.get(denied.headers["Location"])
    assert page.status_code == 403 and "did not grant" in page.text


def test_token_endpoint_error_renders_502(launched_app, sandbox):
    _, app_url = launched_app
    browser = Browser()
    _, hop3 = ehr_launch(browser, sandbox, app_url)
    bad = hop3.headers["Location"].replace("code=", "code=tampered")
    page = browser.get(bad)
    assert page.status_code == 502 and "did not issue a token" in page.text


def test_no_session_is_401(launched_app):
    _, app_url = launched_app
    assert requests.get(f"{app_url}/app", timeout=10).status_code == 401


def test_narrower_consent_hides_the_patient_banner_data(launched_app, sandbox):
    """A grant without Patient read: the banner read is refused by the EHR → 403 page."""
    _, app_url = launched_app
    browser = Browser()
    hop2, _ = ehr_launch(browser, sandbox, app_url, consent="1")
    consent = browser.get(hop2.headers["Location"])
    txn = re.search(r'name="txn" value="([^"]+)"', consent.text).group(1)
    scopes = [s for s in re.findall(r'name="scope" value="([^"]+)"',
                                    consent.text) if not s.startswith("patient/Patient")]
    decided = browser.post(f"{sandbox.url}/auth/decide", data={"txn": txn, "decision": "approve", "scope": scopes})
    page = finish(browser, decided, app_url)
    assert page.status_code == 403
