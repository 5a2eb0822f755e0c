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
from . import extensions
from .extensions import get_storage  # noqa: F401  (public: tests and tools reach storage here)

PROJECT_ROOT = Path(__file__).resolve().parent.parent


def create_app(config: dict | None = None) -> Flask:
    """Build and configure the app (see module docstring for precedence)."""
    app = Flask(__name__, template_folder="templates",  # smart_docgemma/templates, in the wheel too
                static_folder="static", instance_relative_config=True)
    app.config.from_mapping(config_module.read(config))
    os.makedirs(app.instance_path, exist_ok=True)
    _secrets(app)
    extensions.init_app(app)
    _surfaces(app)
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


def _surfaces(app: Flask) -> None:
    """One blueprint per surface; each maps the error hierarchy to HTTP for its own callers."""
    from . import logs
    from .admin.views import bp as audit_admin
    from .cds.views import bp as cds
    from .web import errorpages, language, security, sentences
    from .web.apidoc import bp as apidoc
    from .web.chat import bp as chat
    from .web.followups import bp as followups
    from .web.languagechoice import bp as language_choice
    from .web.launch import bp as launch
    from .web.ops import bp as ops
    from .web.proposals import bp as proposals

    logs.init_app(app)
    errorpages.register(app)
    security.register(app)
    language.init_app(app)
    sentences.init_app(app)
    for blueprint in (launch, chat, followups, proposals, language_choice, cds, audit_admin, apidoc,
                      ops):
        app.register_blueprint(blueprint)
    from . import mcpserver

    # {app}/mcp: a WSGI dispatcher in front of Flask (mcpserver/endpoint.py)
    mcpserver.init_app(app)
