"""OAuth 2.0 Dynamic Client Registration (RFC 7591) at ``/auth/register``, and clients
identified by a Client ID Metadata Document (``metadata_client``).

MCP clients (desktop assistants, the MCP Inspector, the SDK's client) register themselves
before their first authorization, usually with a loopback redirect URI on a port of their
choosing. A registered client is kept in memory, like every other grant record of this
sandbox, and behaves like a client from ``clients.json``: PKCE S256 always, redirect URIs
matched exactly (loopback on any port when ``LOOPBACK_ANY_PORT``). A client that asks for
``none`` is public; otherwise it receives a secret for ``client_secret_basic`` or
``client_secret_post``. Registration grants no scopes of its own: the user's approval at
``/auth/authorize`` does.
"""

from __future__ import annotations

import json
import secrets
import time
from urllib.parse import urlsplit

import requests
from flask import Blueprint, jsonify, request

from .authserver import state
from .clients import LOOPBACK_HOSTS, Client

bp = Blueprint("sandbox_registration", __name__)
AUTH_METHODS = ("none", "client_secret_basic", "client_secret_post")
GRANT_TYPES = ("authorization_code", "refresh_token")
MAX_REDIRECT_URIS = 10


class InvalidMetadata(ValueError):
    """Client metadata the sandbox cannot register (RFC 7591 §3.2.2)."""

    def __init__(self, description: str, error: str = "invalid_client_metadata"):
        super().__init__(description)
        self.error = error


@bp.route("/auth/register", methods=["POST"])
def register():
    if not state().config["REGISTRATION"]:
        return _error(
            InvalidMetadata("Dynamic registration is switched off here.", "access_denied"), 403
        )
    try:
        body = request.get_json(silent=True)
    except RecursionError:  # nested too deeply for the JSON parser: not metadata either
        body = None
    try:
        client = _client_from(body if isinstance(body, dict) else None)
    except InvalidMetadata as exc:
        return _error(exc, 400)
    state().clients[client.client_id] = client
    return jsonify(_registered(client)), 201, {"Cache-Control": "no-store"}


def _client_from(body: dict | None) -> Client:
    if body is None:
        raise InvalidMetadata("The registration request must be a JSON object.")
    uris = body.get("redirect_uris")
    if (
        not isinstance(uris, list)
        or not 0 < len(uris) <= MAX_REDIRECT_URIS
        or not all(map(_redirect_ok, uris))
    ):
        raise InvalidMetadata(
            "redirect_uris: one to ten https URLs, or http on a loopback host (no fragments).",
            "invalid_redirect_uri",
        )
    method = body.get("token_endpoint_auth_method") or "client_secret_basic"
    grant_types = body.get("grant_types") or ["authorization_code"]
    if method not in AUTH_METHODS:
        raise InvalidMetadata(
            f"token_endpoint_auth_method must be one of {', '.join(AUTH_METHODS)}."
        )
    if not isinstance(grant_types, list) or not all(g in GRANT_TYPES for g in grant_types):
        raise InvalidMetadata(f"grant_types may only be {', '.join(GRANT_TYPES)}.")
    if body.get("response_types") not in (None, ["code"]):
        raise InvalidMetadata("response_types may only be ['code'].")
    name = body.get("client_name") if isinstance(body.get("client_name"), str) else ""
    return Client(
        client_id="dyn-" + secrets.token_urlsafe(12),
        redirect_uris=list(uris),
        client_secret="" if method == "none" else secrets.token_urlsafe(32),
        token_endpoint_auth_method=method,
        grant_types=list(grant_types),
        loopback_any_port=bool(state().config["LOOPBACK_ANY_PORT"]),
        client_name=name[:100],
    )


def _redirect_ok(uri) -> bool:
    """https anywhere, http on loopback only (RFC 8252 §7.3); never a fragment."""
    if not isinstance(uri, str) or len(uri) > 500:
        return False
    try:
        parts = urlsplit(uri)
        parts.port  # noqa: B018 - raises ValueError on a malformed port
    except ValueError:
        return False
    secure = parts.scheme == "https" or (
        parts.scheme == "http" and parts.hostname in LOOPBACK_HOSTS
    )
    return secure and bool(parts.hostname) and not parts.fragment


def _registered(client: Client) -> dict:
    body = {
        "client_id": client.client_id,
        "client_id_issued_at": int(time.time()),
        "redirect_uris": client.redirect_uris,
        "grant_types": client.grant_types,
        "response_types": ["code"],
        "token_endpoint_auth_method": client.token_endpoint_auth_method,
    }
    if client.client_secret:
        body.update(client_secret=client.client_secret, client_secret_expires_at=0)
    if client.client_name:
        body["client_name"] = client.client_name
    return body


METADATA_MAX_BYTES = 20_000
METADATA_TTL_S = 3600
METADATA_DEADLINE_S = 5


def metadata_client(sandbox, client_id: str | None) -> Client | None:
    """A client whose ``client_id`` is the URL of its metadata document (the MCP authorization
    specification's preferred way): https, or http on a loopback host in this dev sandbox. The
    document is fetched (no redirects, small), must name that very URL as its ``client_id``,
    declares a public client (PKCE only) and its redirect URIs; it is kept for an hour."""
    if not (client_id and sandbox.config["CLIENT_METADATA_DOCUMENTS"] and _redirect_ok(client_id)):
        return None
    known = sandbox.metadata_clients.get(client_id)
    if known is not None:
        return known
    doc = _fetched(client_id)
    if not isinstance(doc, dict) or doc.get("client_id") != client_id:
        return None
    try:
        client = _client_from({**doc, "token_endpoint_auth_method": "none"})
    except InvalidMetadata:
        return None
    client.client_id, client.client_secret = client_id, ""
    sandbox.metadata_clients.put(client, key=client_id, ttl_s=METADATA_TTL_S)
    return client


def _fetched(url: str) -> dict | None:
    """The metadata document at ``url``: at most METADATA_MAX_BYTES, within METADATA_DEADLINE_S in
    all (a server that dribbles bytes cannot hold the token request's thread); None otherwise."""
    deadline = time.monotonic() + METADATA_DEADLINE_S
    try:
        with requests.get(url, timeout=METADATA_DEADLINE_S, allow_redirects=False, stream=True,
                          headers={"Accept": "application/json"}) as res:
            if res.status_code != 200:
                return None
            body = b""
            # what has arrived: a deadline check per arrival
            while chunk := res.raw.read1(4096, decode_content=True):
                body += chunk
                if len(body) > METADATA_MAX_BYTES or time.monotonic() > deadline:
                    return None
        doc = json.loads(body)
    except (requests.RequestException, ValueError, RecursionError):
        return None
    return doc if isinstance(doc, dict) else None


def _error(exc: InvalidMetadata, status: int):
    return jsonify({"error": exc.error, "error_description": str(exc)}), status
