"""SMART token lifecycle against the sandbox's real OAuth server and FHIR proxy, over real HTTP:
short-lived tokens, a refused refresh ending the session, one refresh after a FHIR 401,
the EHR's own words on authorization errors, and log records that never carry a token."""
from __future__ import annotations

import logging
from contextlib import contextmanager

import requests
from smart_docgemma.storage import app_sessions
from sqlalchemy import select, update

from tests.support.servers import serve
from tests.support.smart_browser import Browser, ehr_launch, finish, stored_tokens


@contextmanager
def sandbox_config(sandbox, **values):
    config = sandbox.app.extensions["sandbox"].config
    saved = {k: config[k] for k in values}
    config.update(values)
    try:
        yield
    finally:
        config.update(saved)


def launched(sandbox, app_url) -> Browser:
    browser = Browser()
    _, hop3 = ehr_launch(browser, sandbox, app_url)
    page = finish(browser, hop3, app_url)
    assert page.status_code == 200, page.text
    return browser


def seal(app, **changes) -> None:
    store = app.extensions["docgemma.storage"]
    with store.begin() as conn:
        conn.execute(update(app_sessions).values(tokens=store.seal({**stored_tokens(app), **changes})))


def session_rows(app) -> int:
    with app.extensions["docgemma.storage"].begin() as conn:
        return len(conn.execute(select(app_sessions.c.sid)).all())


def test_a_token_living_30_s_is_used_not_refreshed_at_once(launched_app, sandbox):
    app, app_url = launched_app
    with sandbox_config(sandbox, TOKEN_TTL_S=30):
        browser = launched(sandbox, app_url)
    first = stored_tokens(app)
    page = browser.get(f"{app_url}/app")
    assert page.status_code == 200 and "Robert Mensah" in page.text
    assert stored_tokens(app)["access_token"] == first["access_token"]


def test_a_refused_refresh_ends_the_session_instead_of_retrying(launched_app, sandbox, caplog):
    app, app_url = launched_app
    browser = launched(sandbox, app_url)
    seal(app, expires_at=0, refresh_token="revoked-" + "0" * 56)
    caplog.set_level(logging.INFO)
    first = browser.get(f"{app_url}/app")
    assert first.status_code == 401 and "relaunch" in first.text.lower()
    assert session_rows(app) == 0
    refreshes = [r for r in caplog.records if "refresh" in r.getMessage()]
    again = browser.get(f"{app_url}/app")
    assert again.status_code == 401
    assert [r for r in caplog.records if "refresh" in r.getMessage()] == refreshes  # not asked again
    assert any("invalid_grant" in r.getMessage() for r in refreshes)


def test_a_fhir_401_refreshes_once_before_giving_up(launched_app, sandbox, caplog):
    app, app_url = launched_app
    browser = launched(sandbox, app_url)
    old = stored_tokens(app)
    seal(app, access_token=old["access_token"][:-8] + "AAAAAAAA")  # the EHR no longer accepts it
    caplog.set_level(logging.INFO)
    page = browser.get(f"{app_url}/app")
    assert page.status_code == 200 and "Robert Mensah" in page.text
    assert stored_tokens(app)["access_token"] != old["access_token"]
    assert any("refreshing once" in r.getMessage() for r in caplog.records)
    lines = " ".join(r.getMessage() for r in caplog.records if r.name.startswith("smart_docgemma"))
    assert old["access_token"] not in lines and old["refresh_token"] not in lines
    seal(app, access_token=old["access_token"][:-8] + "AAAAAAAA", refresh_token=None)
    assert browser.get(f"{app_url}/app").status_code == 401


def test_authorization_errors_keep_the_ehrs_words_and_say_when_relaunching_cannot_help(launched_app):
    _, app_url = launched_app
    said = "Scope <b>system/*.*</b> is not allowed"
    res = requests.get(f"{app_url}/callback", params={"error": "invalid_scope", "error_description": said,
                                                      "state": "x"}, timeout=10)
    assert res.status_code == 400 and "invalid_scope" in res.text
    assert "Scope &lt;b&gt;system/*.*&lt;/b&gt; is not allowed" in res.text and "<b>" not in res.text
    assert "administrator" in res.text and "will not help" in res.text
    for error in ("invalid_client", "unauthorized_client"):
        res = requests.get(f"{app_url}/callback", params={"error": error}, timeout=10)
        assert res.status_code == 400 and "administrator" in res.text
    redirect = requests.get(f"{app_url}/callback", params={
        "error": "invalid_request", "error_description": "redirect_uri is not registered"}, timeout=10)
    assert "administrator" in redirect.text
    denied = requests.get(f"{app_url}/callback", params={"error": "access_denied",
                                                         "error_description": "The user said no"}, timeout=10)
    assert denied.status_code == 403 and "The user said no" in denied.text and "administrator" not in denied.text
    odd = requests.get(f"{app_url}/callback", params={"error": "<script>", "error_description": "\x00" * 5}, timeout=10)
    assert odd.status_code == 400 and "<script>" not in odd.text


def test_a_wrong_client_secret_says_to_contact_the_administrator(app_config, sandbox, caplog):
    from smart_docgemma import create_app

    app = create_app({**app_config, "ISS_ALLOWLIST": [sandbox.fhir_url], "CLIENT_SECRET": "not-the-secret"})
    caplog.set_level(logging.INFO)
    with serve(app) as server:
        browser = Browser()
        _, hop3 = ehr_launch(browser, sandbox, server.url)
        page = browser.get(hop3.headers["Location"])
    assert page.status_code == 502 and "administrator" in page.text and "invalid_client" in page.text
    messages = [r.getMessage() for r in caplog.records if r.name.startswith("smart_docgemma")]
    assert any("launch:" in m for m in messages) and any("token exchange failed" in m for m in messages)
