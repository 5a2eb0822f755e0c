"""Drive a SMART launch the way a browser would, hop by hop (no automatic redirects)."""
from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import requests
from sqlalchemy import select


def query(url: str) -> dict:
    return {k: v[0] for k, v in parse_qs(urlsplit(url).query).items()}


class Browser:
    """A requests session that records every response, like a browser's network log."""

    def __init__(self):
        self.http = requests.Session()
        self.seen: list[requests.Response] = []

    def get(self, url, **kw):
        res = self.http.get(url, allow_redirects=False, timeout=30, **kw)
        self.seen.append(res)
        return res

    def post(self, url, **kw):
        res = self.http.post(url, allow_redirects=False, timeout=30, **kw)
        self.seen.append(res)
        return res


def ehr_launch(browser: Browser, sandbox, app_url: str, patient="pt-warfarin", **options):
    """Sandbox launch → app /launch → authorize → callback → /app; returns the hops."""
    hop1 = browser.get(f"{sandbox.url}/launch", params={"patient": patient, "practitioner": "dr-okafor",
                                                         "launch_url": f"{app_url}/launch", **options})
    assert hop1.status_code == 302 and hop1.headers["Location"].startswith(f"{app_url}/launch?")
    hop2 = browser.get(hop1.headers["Location"])
    assert hop2.status_code == 302, hop2.text
    hop3 = browser.get(hop2.headers["Location"])
    return hop2, hop3


def finish(browser: Browser, hop3, app_url: str):
    assert hop3.status_code == 302 and hop3.headers["Location"].startswith(f"{app_url}/callback?"), hop3.text
    hop4 = browser.get(hop3.headers["Location"])
    assert hop4.status_code == 302 and hop4.headers["Location"].endswith("/app"), hop4.text
    return browser.get(f"{app_url}/app")


def stored_tokens(app) -> dict:
    from smart_docgemma.storage import app_sessions

    store = app.extensions["docgemma.storage"]
    with store.begin() as conn:
        row = conn.execute(select(app_sessions)).first()
    return store.unseal(row.tokens)
