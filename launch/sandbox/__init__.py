"""The local EHR sandbox: a SMART App Launch 2.2 authorization server, launcher and
FHIR proxy in front of HAPI, standing in for an EHR (a separate system from the
app: nothing here imports ``smart_docgemma`` but its settings reader, ``config.read``).

``create_sandbox(config=None) -> Flask``; configuration keys and defaults are in
``config.DEFAULTS`` (``SANDBOX_<KEY>`` env vars override). URLs, with ``{S}`` the
sandbox (default http://127.0.0.1:9000):

- ``{S}/`` launcher page; ``{S}/launch?...`` EHR launch contract (``launcher.py``)
- ``{S}/fhir/.well-known/smart-configuration``, ``{S}/fhir/metadata``, ``{S}/.well-known/jwks.json``
- ``{S}/auth/authorize``, ``{S}/auth/token`` (``authserver.py``; token exchange ``exchange.py``),
  ``{S}/auth/register`` (``registration.py``), ``{S}/.well-known/oauth-authorization-server/fhir``
- ``{S}/fhir/*`` the protected FHIR API (``proxy.py`` + ``policy.py``)
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from pathlib import Path

from flask import Flask

from . import authserver, discovery, errors, launcher, proxy, registration, server
from . import config as config_module
from .clients import Client, load_clients
from .directory import Directory
from .keys import SigningKey
from .store import ExpiringStore

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"


@dataclass
class Sandbox:
    """Everything one sandbox app holds (``app.extensions["sandbox"]``)."""

    config: dict
    key: SigningKey
    clients: dict[str, Client]
    upstream: Directory
    launches: ExpiringStore
    codes: ExpiringStore
    refresh_tokens: ExpiringStore
    transactions: ExpiringStore
    pages: ExpiringStore
    metadata_clients: ExpiringStore  # clients known by their metadata document (registration.py)
    server: object = field(default=None, repr=False)

    @property
    def public_url(self) -> str:
        return self.config["PUBLIC_URL"]

    @property
    def fhir_base(self) -> str:
        """The FHIR base apps see: the SMART ``iss``, token ``aud`` and discovery ``issuer``."""
        return f"{self.public_url}/fhir"


def create_sandbox(config: dict | None = None) -> Flask:
    """Build the sandbox app (see module docstring)."""
    values = config_module.load(config)
    app = Flask(__name__, template_folder=str(TEMPLATES), static_folder="static",
                static_url_path="/sandbox-static")
    app.config.update(SECRET_KEY=values.get("SECRET_KEY") or secrets.token_urlsafe(32))
    sandbox = Sandbox(
        config=values,
        key=SigningKey(values["SIGNING_ALG"], values.get("SIGNING_KEY_FILE")),
        clients=load_clients(values["CLIENTS_FILE"], bool(values["LOOPBACK_ANY_PORT"])),
        upstream=Directory(values["FHIR_UPSTREAM"], float(values["UPSTREAM_TIMEOUT_S"])),
        launches=ExpiringStore(values["LAUNCH_TTL_S"]),
        codes=ExpiringStore(values["CODE_TTL_S"]),
        refresh_tokens=ExpiringStore(values["REFRESH_TTL_S"]),
        transactions=ExpiringStore(600),
        pages=ExpiringStore(3600),
        metadata_clients=ExpiringStore(3600),
    )
    app.extensions["sandbox"] = sandbox
    _register(app, sandbox)
    return app


def _register(app: Flask, sandbox: Sandbox) -> None:
    errors.init_app(app)
    sandbox.server = server.create_server(app, sandbox)
    # discovery before the /fhir catch-all
    for module in (discovery, authserver, registration, launcher, proxy):
        app.register_blueprint(module.bp)

    @app.after_request
    def security_headers(response):
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        if response.mimetype == "text/html":
            response.headers.setdefault(
                "Content-Security-Policy",
                "default-src 'self'; form-action 'self' http: https:; frame-ancestors 'none'",
            )
        return response
