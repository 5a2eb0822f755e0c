"""Where the error hierarchy (``smart_docgemma.errors``) becomes HTTP responses.

An error is rendered as JSON for API and CDS callers and for clients that ask
for JSON, and as the error page otherwise; any other exception becomes a plain
500 page without a stack trace (it is logged).
"""
from __future__ import annotations

import logging

from flask import jsonify, render_template
from flask.globals import request_ctx
from werkzeug.exceptions import HTTPException

from .. import inputs
from ..errors import DatabaseUnavailable, DocGemmaError, ServerBusy
from ..languages import N_, message
from ..storage import UNREACHABLE
from .sentences import error_text

log = logging.getLogger(__name__)


def wants_json() -> bool:
    """API and CDS paths always; elsewhere when the client prefers JSON to HTML."""
    if inputs.path().startswith(("/cds-services", "/api/")):
        return True
    best = inputs.best_accepted(["text/html", "application/json"])
    return best == "application/json"


def render_error(exc: DocGemmaError):
    """Render ``exc`` as JSON or as the error page, with its status."""
    headers = dict(exc.headers or {})
    retry_after = getattr(exc, "retry_after", None)
    if retry_after:
        headers["Retry-After"] = str(retry_after)
    body = {"error": exc.error, "error_description": exc.description}
    # the Host header could not be routed: no page links can be built
    if request_ctx.url_adapter is None:
        return jsonify(body), exc.status, headers
    body["error_description"] = error_text(exc)  # in the page's language where it has a message
    if wants_json():
        return jsonify(body), exc.status, headers
    return render_template("error.html", error=exc), exc.status, headers


def register(app) -> None:
    """Install the one place where exceptions become HTTP responses."""

    @app.errorhandler(DocGemmaError)
    def _docgemma(exc: DocGemmaError):
        # a worker at its stream limit is working as configured, not failing
        level = (
            logging.INFO
            if exc.status < 500
            else logging.WARNING
            if isinstance(exc, ServerBusy)
            else logging.ERROR
        )
        log.log(level, "%s %s -> %s %s", inputs.method(), inputs.path(), exc.status, exc.error)
        return render_error(exc)

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException):
        err = DocGemmaError(exc.description or exc.name, status=exc.code or 500)
        err.error, err.title = exc.name.lower().replace(" ", "_"), exc.name
        return render_error(err)

    def _database(exc: Exception):
        log.error("database unavailable on %s %s (%s)", inputs.method(), inputs.path(),
                  type(getattr(exc, "orig", None) or exc).__name__)
        return render_error(DatabaseUnavailable(message=message(N_(
            "The assistant's database is not answering, so nothing was done. "
            "Try again in a minute; if it goes on, tell the administrator."))))
    for unreachable in UNREACHABLE:
        app.register_error_handler(unreachable, _database)

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception):
        log.exception("unhandled error on %s %s", inputs.method(), inputs.path())
        return render_error(DocGemmaError("An unexpected error occurred. It has been logged."))
