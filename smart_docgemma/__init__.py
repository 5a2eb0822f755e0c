"""DocGemma Connect as a SMART on FHIR app: the Flask application factory.

``create_app(config=None)`` builds the app: defaults from ``config.DEFAULTS``,
then ``DOCGEMMA_*`` environment variables, then the ``config`` mapping (tests).
Per-app objects (storage, HTTP clients) live in ``app.extensions``; nothing is
created at import time.
"""
from __future__ import annotations

import os
import secrets
from pathlib import Path

from flask import Flask

from . import config as config_module
from . import errors, security
from .storage import Storage

PROJECT_ROOT = Path(__file__).resolve().parent.parent


def create_app(config: dict | None = None) -> Flask:
    """Build and configure the app (see module docstring for precedence)."""
    app = Flask(__name__, template_folder=str(PROJECT_ROOT / "templates"),
                static_folder="static", instance_relative_config=True)
    app.config.from_mapping(config_module.DEFAULTS)
    app.config.from_prefixed_env("DOCGEMMA")
    if config:
        app.config.from_mapping(config)
    os.makedirs(app.instance_path, exist_ok=True)
    _secrets(app)
    app.extensions["docgemma.storage"] = Storage(_database_url(app), app.config["TOKEN_KEY"])
    errors.register(app)
    security.register(app)
    _blueprints(app)
    return app


def _secrets(app: Flask) -> None:
    """A stable SECRET_KEY: configured, or generated once into the instance folder."""
    if not app.config.get("SECRET_KEY"):
        path = Path(app.instance_path) / "secret_key"
        if not path.exists():
            path.write_text(secrets.token_urlsafe(48))
            path.chmod(0o600)
        app.config["SECRET_KEY"] = path.read_text().strip()
    app.config["TOKEN_KEY"] = app.config.get("TOKEN_KEY") or app.config["SECRET_KEY"]


def _database_url(app: Flask) -> str:
    return app.config.get("DATABASE_URL") or f"sqlite:///{Path(app.instance_path) / 'docgemma.sqlite'}"


def _blueprints(app: Flask) -> None:
    from . import cds, chat, launch, proposals  # one blueprint per surface

    for module in (launch, chat, proposals, cds):
        app.register_blueprint(module.bp)


def get_storage(app=None) -> Storage:
    """The app's storage (``current_app`` when no app is given)."""
    from flask import current_app

    return (app or current_app).extensions["docgemma.storage"]
