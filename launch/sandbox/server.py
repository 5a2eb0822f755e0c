"""The sandbox's authlib authorization server, assembled from its parts: the SMART grants and
token store (``authserver.py``), token exchange for CDS clients (``exchange.py``) and clients
registered by metadata document (``registration.py``). Kept apart so those modules import
``authserver`` and it imports none of them (no import circle).
"""
from __future__ import annotations

from . import authserver
from .exchange import TokenExchangeGrant
from .registration import metadata_client


def create_server(app, sandbox) -> authserver.SmartAuthorizationServer:
    """The authlib server with the SMART grants, token generator and token store."""
    def query_client(client_id):
        return sandbox.clients.get(client_id) or metadata_client(sandbox, client_id)

    server = authserver.SmartAuthorizationServer(
        app,
        query_client=query_client,
        save_token=lambda token, req: authserver.save_token(sandbox, token, req),
    )
    server.register_token_generator(
        "default", lambda **kw: authserver.generate_token(sandbox, **kw)
    )
    server.register_grant(
        authserver.SmartAuthorizationCodeGrant,
        [authserver.SmartCodeChallenge(required=True), authserver.SmartOpenIDCode()],
    )
    server.register_grant(authserver.SmartRefreshTokenGrant)
    server.register_grant(TokenExchangeGrant)
    return server
