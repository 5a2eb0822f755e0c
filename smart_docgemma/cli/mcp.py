"""``docgemma-mcp``: DocGemma's MCP tools over stdio, for an MCP client that starts it locally.

A stdio server has no HTTP request to carry a bearer token, and the MCP authorization flow
is for HTTP transports; the credentials come from the environment instead:
``DOCGEMMA_MCP_ACCESS_TOKEN`` holds a token the EHR issued for this app's MCP resource
(``MCP_URL``), obtained the way an HTTP client gets one (docs/mcp.md). It is verified exactly
as the HTTP endpoint verifies tokens (issuer, signature, audience, expiry), exchanged for FHIR
tokens the same way, and checked for expiry on every request. The other settings are the
app's (``DOCGEMMA_*``: database, MCP_AUTHORIZATION_SERVER, CLIENT_ID/SECRET...). Proposals go
into the app's database, so the clinician approves them on the app's page as usual.
"""

from __future__ import annotations

import os
import sys
import time

import anyio
from mcp.server.stdio import stdio_server

from ..mcpserver.authority import McpGrant
from ..mcpserver.endpoint import authority_for, mcp_url, tool_server

TOKEN_ENV = "DOCGEMMA_MCP_ACCESS_TOKEN"


class TokenExpired(Exception):
    """The environment's token has expired: the client must start the server with a new one."""


def main() -> int:
    from .. import create_app, logs

    logs.configure(
        os.environ.get("DOCGEMMA_LOG_LEVEL", "WARNING"), stream=sys.stderr
    )  # stdout is MCP's
    app = create_app()
    token = os.environ.get(TOKEN_ENV, "").strip()
    authority = authority_for(app.config)
    claims = authority.verify(token) if token else None
    if claims is None:
        print(
            f"docgemma-mcp: {TOKEN_ENV} must hold a valid, unexpired token issued by "
            f"{authority.issuer} for {authority.mcp_url}.",
            file=sys.stderr,
        )
        return 2
    grant = McpGrant.from_claims(claims)

    def token_of(ctx):
        if grant.expires_at <= time.time():
            raise TokenExpired(f"The token in {TOKEN_ENV} has expired; restart with a new one.")
        return token, grant

    app_url = mcp_url(app.config)[: -len("/mcp")]
    server = tool_server(app, authority, token_of, app_url)

    async def serve():
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    anyio.run(serve)
    return 0


if __name__ == "__main__":
    sys.exit(main())
