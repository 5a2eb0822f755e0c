"""``{app}/mcp``: the MCP SDK's Streamable HTTP transport, served by the Flask (WSGI) app.

The SDK is ASGI (Starlette, anyio); the app is WSGI under gunicorn's threads or werkzeug.
``init_app`` puts a small WSGI dispatcher in front of Flask: requests for the MCP endpoint
and its protected resource metadata go to the SDK's ASGI app through ``a2wsgi`` (each WSGI
thread waits while the request runs on one event loop thread per process), everything else
to Flask. So one port and one process serve both, under ``docgemma``, ``docgemma-sandbox``
and ``flask run`` alike, with no second server to start or proxy to configure.

The transport runs *stateless* with JSON responses: each POST is a whole MCP exchange, and
no MCP session lives in a worker's memory, so any gunicorn worker can answer any request.
The event loop, and the SDK's session manager on it, start at the first MCP request of each
worker process (never before gunicorn forks).

Authorization is the SDK's bearer middleware with our verifier (``authority.py``): no valid
token for this endpoint -> 401 with ``WWW-Authenticate: Bearer resource_metadata="…"``
naming the RFC 9728 metadata at ``/.well-known/oauth-protected-resource/mcp``, which names
the EHR's SMART authorization server and the scopes to ask for.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from urllib.parse import urlsplit

import anyio
import mcp_types as types
from a2wsgi import ASGIMiddleware
from mcp.server.auth.middleware.auth_context import AuthContextMiddleware
from mcp.server.auth.middleware.bearer_auth import (
    BearerAuthBackend,
    RequireAuthMiddleware,
)
from mcp.server.auth.provider import AccessToken
from mcp.server.auth.routes import (
    build_resource_metadata_url,
    create_protected_resource_routes,
)
from mcp.server.lowlevel.server import Server
from mcp.server.streamable_http_manager import (
    StreamableHTTPASGIApp,
    StreamableHTTPSessionManager,
)
from mcp.server.transport_security import TransportSecuritySettings
from pydantic import AnyHttpUrl
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.authentication import AuthenticationMiddleware
from starlette.routing import Route

from .authority import Authority, McpGrant
from .guard import WorkerGuard
from .quota import ClientLimits, quota_for
from .tools import McpToolResult, described, offered, run

log = logging.getLogger(__name__)
INSTRUCTIONS = (
    "DocGemma Connect's clinical tools for the patient in context of your EHR authorization. "
    "Chart writes are proposals: a clinician approves them on DocGemma's card (card_url)."
)


def mcp_url(config) -> str:
    """This endpoint's URL, which is also its resource indicator (see config.py, MCP_URL)."""
    if config.get("MCP_URL"):
        return config["MCP_URL"].rstrip("/")
    base = config.get("PUBLIC_URL") or f"http://{config['HOST']}:{config['PORT']}"
    return base.rstrip("/") + "/mcp"


def authority_for(config) -> Authority:
    issuer = config.get("MCP_AUTHORIZATION_SERVER") or (config.get("ISS_ALLOWLIST") or [""])[0]
    return Authority(
        issuer,
        mcp_url(config),
        config["CLIENT_ID"],
        config.get("CLIENT_SECRET"),
        float(config["HTTP_TIMEOUT_S"]),
    )


def tool_server(app, authority: Authority, token_of, app_url: str) -> Server:
    """The MCP server: tools listed and called for the grant ``token_of(ctx)`` returns."""

    async def list_tools(ctx, params) -> types.ListToolsResult:
        _token, grant = token_of(ctx)
        return types.ListToolsResult(tools=[described(t) for t in offered(grant)])

    async def call_tool(ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
        token, grant = token_of(ctx)
        result = await _bounded(
            lambda: run(app, authority, token, grant, params.name, params.arguments, app_url),
            float(app.config["MCP_CALL_TIMEOUT_S"]),
            params.name,
        )
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=result.text)],
            structured_content=result.model_dump(mode="json"),
            is_error=result.status == "error",
        )

    return Server(
        "DocGemma Connect",
        version="0.1.0",
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


async def _bounded(call, timeout_s: float, tool: str) -> McpToolResult:
    """``call()`` in a worker thread, or a timeout result after ``timeout_s``: the request is
    answered and its thread freed, while the tool's thread finishes on its own (a thread cannot
    be stopped; what it reads is dropped, and a write it was making stays a proposal)."""
    with anyio.move_on_after(timeout_s):
        return await anyio.to_thread.run_sync(call, abandon_on_cancel=True)
    log.warning("MCP tool %s did not finish within %.0f s", tool, timeout_s)
    return McpToolResult(
        status="error",
        error_kind="timeout",
        text=(f"{tool} did not finish within {timeout_s:.0f} s, so there is no result to show. "
              "Nothing reaches the chart without a clinician's approval; a write request may "
              "still appear among the patient's pending proposals."),
        could_not_check=[f"{tool}: no answer within {timeout_s:.0f} s"],
    )


def _http_grant(ctx) -> tuple[str, McpGrant]:
    """The verified token of this HTTP request (the bearer middleware put it on the request)."""
    user = ctx.request.scope["user"]
    return user.access_token.token, McpGrant.from_claims(user.access_token.claims or {})


class _Verifier:
    """The SDK's TokenVerifier over ``Authority.verify`` (which does blocking HTTP: in a thread)."""

    def __init__(self, authority: Authority):
        self.authority = authority

    async def verify_token(self, token: str) -> AccessToken | None:
        claims = await anyio.to_thread.run_sync(self.authority.verify, token)
        if claims is None:
            return None
        return AccessToken(
            token=token,
            client_id=str(claims.get("client_id") or ""),
            scopes=str(claims.get("scope") or "").split(),
            expires_at=claims["exp"],
            resource=self.authority.mcp_url,
            subject=claims.get("sub"),
            claims=claims,
        )


def asgi_app(
    app, authority: Authority, scopes: list[str]
) -> tuple[Starlette, StreamableHTTPSessionManager]:
    """The SDK's pieces composed as its own ``streamable_http_app`` does, except that the metadata
    offers ``scopes`` without requiring any one of them (each tool checks its own)."""
    url = authority.mcp_url
    parts = urlsplit(url)
    security = TransportSecuritySettings(
        allowed_hosts=[parts.netloc], allowed_origins=[f"{parts.scheme}://{parts.netloc}"]
    )
    server = tool_server(
        app, authority, _http_grant, url[: -len(parts.path)] if parts.path else url
    )
    manager = StreamableHTTPSessionManager(
        app=server, json_response=True, stateless=True, security_settings=security
    )
    metadata_url = build_resource_metadata_url(AnyHttpUrl(url))
    limited = ClientLimits(
        StreamableHTTPASGIApp(manager),
        quota_for(app),
        app.config["MCP_CLIENT_CONCURRENCY"],
        app.config["MCP_WORKER_CONCURRENCY"],
    )
    endpoint = _ScopeChallenge(RequireAuthMiddleware(limited, [], metadata_url), scopes)
    routes = [
        Route(parts.path or "/", endpoint=endpoint),
        *create_protected_resource_routes(
            AnyHttpUrl(url),
            [AnyHttpUrl(authority.issuer)],
            scopes_supported=scopes,
            resource_name="DocGemma Connect",
        ),
    ]
    backend = BearerAuthBackend(_Verifier(authority), resource_server_url=AnyHttpUrl(url))
    middleware = [
        Middleware(AuthenticationMiddleware, backend=backend),
        Middleware(AuthContextMiddleware),
    ]
    return Starlette(routes=routes, middleware=middleware), manager


class _ScopeChallenge:
    """Adds the scopes to ask for to the SDK's 401 challenge (``scope="…"``, RFC 6750 §3), so a
    client knows them from the challenge alone, as the authorization specification asks."""

    def __init__(self, app, scopes: list[str]):
        self.app, self.scope = app, " ".join(scopes).replace('"', "")

    async def __call__(self, scope, receive, send):
        async def challenged(message):
            if message["type"] == "http.response.start" and message["status"] == 401:
                message = {
                    **message,
                    "headers": [
                        (
                            k,
                            v + f', scope="{self.scope}"'.encode()
                            if k == b"www-authenticate"
                            else v,
                        )
                        for k, v in message["headers"]
                    ],
                }
            await send(message)

        await self.app(scope, receive, challenged)


class McpDispatcher:
    """WSGI: the MCP paths to the SDK (started on first use in this process), the rest to Flask."""

    def __init__(self, flask_app, wsgi_app):
        self.flask_app, self.wsgi_app = flask_app, wsgi_app
        config = flask_app.config
        self.authority = authority_for(config)
        self.endpoint = (urlsplit(self.authority.mcp_url).path or "/").rstrip("/")
        self.metadata = urlsplit(
            str(build_resource_metadata_url(AnyHttpUrl(self.authority.mcp_url)))
        ).path.rstrip("/")
        self.scopes = str(config["MCP_SCOPES"]).split()
        self.guard = WorkerGuard(config["JSON_MAX_BYTES"], config["JSON_MAX_DEPTH"])
        self._mcp = None
        self._lock = threading.Lock()

    def __call__(self, environ, start_response):
        path = environ.get("PATH_INFO", "").rstrip("/")
        if path == self.endpoint:  # methods, size and this worker's share: guard.py
            return self.guard(self._started(), environ, start_response)
        if path == self.metadata:
            return self._started()(environ, start_response)
        return self.wsgi_app(environ, start_response)

    def _started(self):
        with self._lock:
            if self._mcp is None:
                starlette, manager = asgi_app(self.flask_app, self.authority, self.scopes)
                self._mcp = ASGIMiddleware(starlette, loop=_loop_running(manager))
            return self._mcp


def _loop_running(manager: StreamableHTTPSessionManager) -> asyncio.AbstractEventLoop:
    """An event loop on a daemon thread, with the session manager's task group running on it."""
    loop = asyncio.new_event_loop()
    threading.Thread(target=loop.run_forever, name="mcp-loop", daemon=True).start()
    ready = threading.Event()

    async def hold():
        async with manager.run():
            ready.set()
            await asyncio.Event().wait()  # for the life of the process

    asyncio.run_coroutine_threadsafe(hold(), loop)
    if not ready.wait(10):
        raise RuntimeError("The MCP transport did not start.")
    return loop


def init_app(app) -> None:
    """Serve MCP at the app's MCP URL path (see module docstring)."""
    app.wsgi_app = McpDispatcher(app, app.wsgi_app)
