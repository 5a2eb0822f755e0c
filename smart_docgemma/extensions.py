"""Per-app objects, wired one way: ``init_app`` registers them, accessors reach them.

Everything an app shares between requests lives in ``app.extensions`` under one
key per object, so two apps in one process (tests, a worker per app) never share
a client and nothing is created at import time. Storage is made when the app is
built; other objects are made on first use by ``lazy``, because many requests
never need them. Each accessor lives beside what it builds, so this base module
imports nothing above it: ``get_storage`` and ``get_fhir_pool`` here,
``tools.sources.http.get_http`` (knowledge sources), ``web.modelstatus.get_model`` (the
model client, which probes its server once when it is made) and
``cds.auth.get_cds_keys`` (the CDS clients' key sets).
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from flask import Flask, current_app

from .storage import Storage

T = TypeVar("T")

STORAGE = "docgemma.storage"
FHIR_POOL = "docgemma.fhir_pool"


def init_app(app: Flask) -> None:
    """Register the app's storage (the database URL comes from config)."""
    app.extensions[STORAGE] = Storage(_database_url(app), app.config["TOKEN_KEY"],
                                      pool_size=int(app.config["DATABASE_POOL_SIZE"]))


def _database_url(app: Flask) -> str:
    return (
        app.config.get("DATABASE_URL") or f"sqlite:///{Path(app.instance_path) / 'docgemma.sqlite'}"
    )


def _app(app: Flask | None) -> Flask:
    return app or current_app._get_current_object()  # type: ignore[attr-defined]


def lazy(app: Flask | None, key: str, make: Callable[[Flask], T]) -> T:
    """The app's object under ``key`` (``current_app`` when no app is given), made once by
    ``make``."""
    app = _app(app)
    obj = app.extensions.get(key)
    if obj is None:
        obj = app.extensions[key] = make(app)
    return obj


def get_storage(app: Flask | None = None) -> Storage:
    """The app's storage (``current_app`` when no app is given)."""
    return _app(app).extensions[STORAGE]


def get_fhir_pool(app: Flask | None = None):
    """Open connections to the EHRs' FHIR servers, shared by every session's gateway: a chart
    read is several requests at once, and opening a connection per request costs both sides."""
    def make(app):
        from requests.adapters import HTTPAdapter

        return HTTPAdapter(pool_connections=8, pool_maxsize=64)
    return lazy(app, FHIR_POOL, make)

