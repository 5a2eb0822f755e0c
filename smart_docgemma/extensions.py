"""Per-app objects, wired one way: ``init_app`` registers them, accessors reach them.

Everything an app shares between requests lives in ``app.extensions`` under one
key per object, so two apps in one process (tests, a worker per app) never share
a client and nothing is created at import time. Storage is made when the app is
built; the HTTP client, the model client, the FHIR connection pool and the CDS
key cache are made on first use, because many requests never need them and the
model client probes its server once when it is made.
"""
from __future__ import annotations

from pathlib import Path

from flask import Flask, current_app

from .storage import Storage

STORAGE = "docgemma.storage"
HTTP = "docgemma.http"
MODEL = "docgemma.model"
CDS_KEYS = "docgemma.cds_keys"
FHIR_POOL = "docgemma.fhir_pool"


def init_app(app: Flask) -> None:
    """Register the app's storage (the database URL comes from config)."""
    app.extensions[STORAGE] = Storage(_database_url(app), app.config["TOKEN_KEY"],
                                      pool_size=int(app.config["DATABASE_POOL_SIZE"]))


def _database_url(app: Flask) -> str:
    return app.config.get("DATABASE_URL") or f"sqlite:///{Path(app.instance_path) / 'docgemma.sqlite'}"


def _app(app: Flask | None) -> Flask:
    return app or current_app._get_current_object()


def _lazy(app: Flask | None, key: str, make):
    app = _app(app)
    obj = app.extensions.get(key)
    if obj is None:
        obj = app.extensions[key] = make(app)
    return obj


def get_storage(app: Flask | None = None) -> Storage:
    """The app's storage (``current_app`` when no app is given)."""
    return _app(app).extensions[STORAGE]


def get_http(app: Flask | None = None):
    """The app's knowledge-source HTTP client (cache in the instance folder by default)."""
    def make(app):
        from .tools.http import KnowledgeHttp

        path = app.config.get("CACHE_PATH") or str(Path(app.instance_path) / "knowledge-cache")
        return KnowledgeHttp(app.config, cache_path=path)
    return _lazy(app, HTTP, make)


def get_model(app: Flask | None = None):
    """The app's model client, or None in degraded mode (one per app: the dialect probe runs once)."""
    from .agent import model_from_config

    app = _app(app)
    if MODEL not in app.extensions:
        app.extensions[MODEL] = model_from_config(app.config)
    return app.extensions[MODEL]


def get_fhir_pool(app: Flask | None = None):
    """Open connections to the EHRs' FHIR servers, shared by every session's gateway: a chart
    read is several requests at once, and opening a connection per request costs both sides."""
    def make(app):
        from requests.adapters import HTTPAdapter

        return HTTPAdapter(pool_connections=8, pool_maxsize=64)
    return _lazy(app, FHIR_POOL, make)


def get_cds_keys(app: Flask | None = None):
    """The CDS clients' key sets, fetched once per issuer and kept for their TTL."""
    def make(app):
        from .cds.auth import JwksCache

        return JwksCache(app.config.get("CDS_ISSUERS") or {})
    return _lazy(app, CDS_KEYS, make)
