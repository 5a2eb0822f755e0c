"""Helpers for driving the EHR sandbox as a hand-rolled SMART client (requests +
authlib's PKCE helper), so each hop of a launch can be checked. The ``sandbox``
fixture itself lives in the root ``tests/conftest.py`` (shared with other suites).
"""
from __future__ import annotations

import secrets
from urllib.parse import parse_qs, urlsplit

import pytest
import requests
from authlib.oauth2.rfc7636 import create_s256_code_challenge

CONFIDENTIAL = ("docgemma", "docgemma-dev-secret")
PUBLIC = "docgemma-public"
REDIRECT = "http://127.0.0.1:8000/callback"
EHR_SCOPE = ("launch openid fhirUser online_access patient/Patient.r patient/Observation.rs "
             "patient/Condition.rs patient/AllergyIntolerance.c")


def query_of(url: str) -> dict:
    """The query parameters of a URL as single values."""
    return {k: v[0] for k, v in parse_qs(urlsplit(url).query).items()}


class SmartClient:
    """A minimal SMART client against the sandbox; nothing is followed automatically."""

    def __init__(self, sandbox, client_id=CONFIDENTIAL[0], secret=CONFIDENTIAL[1], redirect_uri=REDIRECT):
        self.sandbox, self.client_id, self.secret, self.redirect_uri = sandbox, client_id, secret, redirect_uri
        self.http = requests.Session()
        self.verifier = secrets.token_urlsafe(48)
        self.state = secrets.token_urlsafe(24)
        self.nonce = secrets.token_urlsafe(16)

    def launch(self, patient="pt-warfarin", practitioner="dr-okafor", **options) -> str:
        """EHR launch through the sandbox contract; returns the opaque ``launch`` value."""
        res = self.http.get(f"{self.sandbox.url}/launch", allow_redirects=False,
                            params={"patient": patient, "practitioner": practitioner,
                                    "launch_url": "http://127.0.0.1:8000/launch", **options})
        assert res.status_code == 302, res.text
        return query_of(res.headers["Location"])["launch"]

    def params(self, scope=EHR_SCOPE, launch=None, **overrides) -> dict:
        params = {"response_type": "code", "client_id": self.client_id, "redirect_uri": self.redirect_uri,
                  "scope": scope, "state": self.state, "aud": self.sandbox.fhir_url, "nonce": self.nonce,
                  "code_challenge": create_s256_code_challenge(self.verifier), "code_challenge_method": "S256"}
        if launch:
            params["launch"] = launch
        params.update(overrides)
        return {k: v for k, v in params.items() if v is not None}

    def authorize(self, params: dict, method="GET") -> requests.Response:
        url = f"{self.sandbox.url}/auth/authorize"
        if method == "POST":
            return self.http.post(url, data=params, allow_redirects=False)
        return self.http.get(url, params=params, allow_redirects=False)

    def code(self, res: requests.Response) -> str:
        assert res.status_code == 302, res.text
        location = res.headers["Location"]
        assert location.startswith(self.redirect_uri + "?")
        query = query_of(location)
        assert query.get("state") == self.state and "code" in query, query
        return query["code"]

    def token(self, data: dict, auth=True) -> requests.Response:
        basic = (self.client_id, self.secret) if auth and self.secret else None
        if not self.secret:
            data = {**data, "client_id": self.client_id}
        return self.http.post(f"{self.sandbox.url}/auth/token", data=data, auth=basic)

    def exchange(self, code: str, verifier: str | None = None, **extra) -> requests.Response:
        return self.token({"grant_type": "authorization_code", "code": code, "redirect_uri": self.redirect_uri,
                           "code_verifier": verifier or self.verifier, **extra})

    def ehr_token(self, patient="pt-warfarin", scope=EHR_SCOPE, **launch_options) -> dict:
        """Launch, authorize and exchange: the token response JSON."""
        launch = self.launch(patient, **launch_options)
        res = self.exchange(self.code(self.authorize(self.params(scope, launch))))
        assert res.status_code == 200, res.text
        return res.json()

    def fhir(self, method: str, path: str, token: str | None, **kwargs) -> requests.Response:
        headers = {"Accept": "application/fhir+json", **kwargs.pop("headers", {})}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        url = path if path.startswith("http") else f"{self.sandbox.fhir_url}/{path}"
        return self.http.request(method, url, headers=headers, **kwargs)


@pytest.fixture
def smart(sandbox):
    """A confidential-client SmartClient (``docgemma``) with fresh state and PKCE."""
    return SmartClient(sandbox)


@pytest.fixture
def public_smart(sandbox):
    """The public client ``docgemma-public`` on a random loopback port (RFC 8252 §7.3)."""
    return SmartClient(sandbox, PUBLIC, None, "http://127.0.0.1:53123/callback")
