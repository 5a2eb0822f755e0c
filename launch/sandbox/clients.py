"""Registered OAuth clients, read from ``launch/clients.json``.

Format: ``{"clients": [{"client_id", "client_secret"?, "token_endpoint_auth_method"
("client_secret_basic" | "client_secret_post" | "none"), "redirect_uris": [...], "grant_types"?,
"scope"?, "client_name"?}]}``. Clients may also register themselves (``registration.py``).
A client with a secret is confidential (HTTP Basic at the token endpoint, SMART
client-confidential-symmetric); without one it is public (``client_id`` in the body, PKCE as its
only protection).
"""
from __future__ import annotations

import hmac
import json
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from authlib.oauth2.rfc6749 import ClientMixin

from .policy import known_scope

LOOPBACK_HOSTS = {"127.0.0.1", "localhost", "::1"}


@dataclass
class Client(ClientMixin):
    """One registered client (authlib's ClientMixin contract)."""

    client_id: str
    redirect_uris: list[str]
    client_secret: str = ""
    token_endpoint_auth_method: str = "client_secret_basic"
    grant_types: list[str] = field(default_factory=lambda: ["authorization_code", "refresh_token"])
    scope: str | None = None  # None -> any SMART scope the sandbox knows
    loopback_any_port: bool = False
    client_name: str = ""  # shown on the consent page; named in its tokens (``client_name``)

    @property
    def is_public(self) -> bool:
        return self.token_endpoint_auth_method == "none"

    def get_client_id(self) -> str:
        return self.client_id

    def get_default_redirect_uri(self) -> str | None:
        # SMART requires redirect_uri on every request: never fall back to a default.
        return None

    def get_allowed_scope(self, scope: str | None) -> str:
        """The requested scopes the sandbox understands (and this client may have).

        Unknown scopes are dropped rather than refused: SMART lets the server grant
        fewer scopes than asked, and the token response says which were granted.
        """
        allowed = set(self.scope.split()) if self.scope else None
        kept = [
            s for s in (scope or "").split() if known_scope(s) and (allowed is None or s in allowed)
        ]
        return " ".join(dict.fromkeys(kept))

    def check_redirect_uri(self, redirect_uri: str) -> bool:
        """Exact match (RFC 6749 §3.1.2), or loopback on any port (RFC 8252 §7.3) if enabled."""
        if redirect_uri in self.redirect_uris:
            return True
        return self.loopback_any_port and any(
            _same_loopback(redirect_uri, r) for r in self.redirect_uris
        )

    def check_client_secret(self, client_secret: str) -> bool:
        # as bytes: compare_digest refuses str with non-ASCII characters (a TypeError, a 500)
        return bool(self.client_secret) and hmac.compare_digest(self.client_secret.encode(),
                                                                 (client_secret or "").encode())

    def check_endpoint_auth_method(self, method: str, endpoint: str) -> bool:
        return method == self.token_endpoint_auth_method

    def check_response_type(self, response_type: str) -> bool:
        return response_type == "code"

    def check_grant_type(self, grant_type: str) -> bool:
        return grant_type in self.grant_types


def _same_loopback(candidate: str, registered: str) -> bool:
    """Same http loopback host, path and query; only the port may differ."""
    try:
        a, b = urlsplit(candidate), urlsplit(registered)
        a.port, b.port  # noqa: B018 - raises ValueError on a malformed port
    except ValueError:
        return False
    return (a.scheme == b.scheme == "http" and a.hostname in LOOPBACK_HOSTS
            and a.hostname == b.hostname and a.username is None and a.password is None
            and a.path == b.path and a.query == b.query and not a.fragment)


def load_clients(path: str, loopback_any_port: bool = False) -> dict[str, Client]:
    """Clients by id from the JSON file (a missing file is a clear start-up error)."""
    data = json.loads(Path(path).read_text())
    clients = {}
    for entry in data["clients"]:
        client = Client(**entry, loopback_any_port=loopback_any_port)
        clients[client.client_id] = client
    return clients
