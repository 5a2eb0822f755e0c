"""The user's side of an MCP client's OAuth flow against the sandbox, for tests.

``SandboxUser`` stands in for the clinician's browser: it opens the authorization URL the
client hands over, picks the patient on the sandbox's picker page, approves, and reads the
code from the redirect (the loopback callback is never served: the Location is enough).
``authorize_token`` runs the whole authorization-code flow with PKCE and a ``resource`` by
plain HTTP, for tokens with other scopes than the MCP metadata offers.
"""

from __future__ import annotations

import base64
import hashlib
import re
import secrets
from urllib.parse import parse_qs, urlencode, urlsplit

import requests
from mcp.client.auth import OAuthClientProvider, TokenStorage
from mcp.shared.auth import (
    AuthorizationCodeResult,
    OAuthClientInformationFull,
    OAuthClientMetadata,
    OAuthToken,
)

REDIRECT = "http://127.0.0.1:33418/callback"


class MemoryStorage(TokenStorage):
    def __init__(self):
        self.tokens: OAuthToken | None = None
        self.client: OAuthClientInformationFull | None = None

    async def get_tokens(self):
        return self.tokens

    async def set_tokens(self, tokens):
        self.tokens = tokens

    async def get_client_info(self):
        return self.client

    async def set_client_info(self, client_info):
        self.client = client_info


class SandboxUser:
    """Approves authorization requests on the sandbox's picker page for ``patient``."""

    def __init__(self, patient: str):
        self.patient = patient
        self.http = requests.Session()
        self.seen_authorize: list[str] = []
        self._result: AuthorizationCodeResult | None = None

    async def redirect(self, url: str) -> None:
        self.seen_authorize.append(url)
        page = self.http.get(url, allow_redirects=False, timeout=30)
        assert page.status_code == 200, page.text[:500]
        txn = re.search(r'name="txn" value="([^"]+)"', page.text).group(1)
        base = f"{urlsplit(url).scheme}://{urlsplit(url).netloc}"
        done = self.http.post(
            f"{base}/auth/decide",
            allow_redirects=False,
            timeout=30,
            data={"txn": txn, "decision": "approve", "patient": self.patient},
        )
        assert done.status_code == 302, done.text[:500]
        query = {k: v[0] for k, v in parse_qs(urlsplit(done.headers["Location"]).query).items()}
        self._result = AuthorizationCodeResult(
            code=query["code"], state=query.get("state"), iss=query.get("iss")
        )

    async def callback(self) -> AuthorizationCodeResult:
        return self._result


def oauth_provider(
    mcp_url: str,
    user: SandboxUser,
    storage: MemoryStorage | None = None,
    name: str = "Test MCP client",
) -> OAuthClientProvider:
    """The SDK's own OAuth client: discovery, dynamic registration, PKCE, resource indicator."""
    metadata = OAuthClientMetadata(
        client_name=name,
        redirect_uris=[REDIRECT],
        grant_types=["authorization_code", "refresh_token"],
        response_types=["code"],
        token_endpoint_auth_method="none",
    )
    return OAuthClientProvider(
        server_url=mcp_url,
        client_metadata=metadata,
        storage=storage or MemoryStorage(),
        redirect_handler=user.redirect,
        callback_handler=user.callback,
    )


def register(sandbox_url: str, name: str = "Plain HTTP client") -> str:
    res = requests.post(
        f"{sandbox_url}/auth/register",
        timeout=30,
        json={
            "client_name": name,
            "redirect_uris": [REDIRECT],
            "token_endpoint_auth_method": "none",
            "grant_types": ["authorization_code"],
            "response_types": ["code"],
        },
    )
    assert res.status_code == 201, res.text
    return res.json()["client_id"]


def authorize_token(
    sandbox_url: str,
    client_id: str,
    scope: str,
    resource: str,
    patient: str | None,
    token_resource: str | None = None,
    expect: int = 200,
) -> dict:
    """The authorization-code flow with PKCE S256 and ``resource`` (``token_resource`` at the
    token endpoint, the same unless given); returns the token response's body."""
    verifier = secrets.token_urlsafe(48)
    challenge = (
        base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    )
    params = {
        "response_type": "code",
        "client_id": client_id,
        "redirect_uri": REDIRECT,
        "scope": scope,
        "state": secrets.token_urlsafe(8),
        "resource": resource,
        "code_challenge": challenge,
        "code_challenge_method": "S256",
    }
    http = requests.Session()
    res = http.get(
        f"{sandbox_url}/auth/authorize?{urlencode(params)}", allow_redirects=False, timeout=30
    )
    if res.status_code == 200:  # the picker: launch/patient without a launch
        txn = re.search(r'name="txn" value="([^"]+)"', res.text).group(1)
        res = http.post(
            f"{sandbox_url}/auth/decide",
            allow_redirects=False,
            timeout=30,
            data={"txn": txn, "decision": "approve", "patient": patient or ""},
        )
    assert res.status_code == 302, res.text[:500]
    code = parse_qs(urlsplit(res.headers["Location"]).query)["code"][0]
    token = http.post(
        f"{sandbox_url}/auth/token",
        timeout=30,
        data={
            "grant_type": "authorization_code",
            "code": code,
            "redirect_uri": REDIRECT,
            "client_id": client_id,
            "code_verifier": verifier,
            "resource": token_resource or resource,
        },
    )
    assert token.status_code == expect, token.text
    return token.json()


def call_over_mcp(mcp_url: str, patient: str, tool: str, arguments: dict):
    """One tool call by the SDK's own client over Streamable HTTP, doing the whole OAuth flow
    (discovery, registration, PKCE, resource) with ``patient`` picked on the sandbox's page."""
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    async def call():
        auth = oauth_provider(mcp_url, SandboxUser(patient))
        async with (
            httpx2.AsyncClient(auth=auth, timeout=60) as http,
            Client(streamable_http_client(mcp_url, http_client=http)) as client,
        ):
            return await client.call_tool(tool, arguments)

    return run_async(call)


def run_async(func, *args):
    """``anyio.run`` on a thread of its own: the browser tests' Playwright (sync API) keeps an
    event loop running on the main thread for the whole session, where a second loop cannot start."""
    from concurrent.futures import ThreadPoolExecutor

    import anyio

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(anyio.run, func, *args).result()
