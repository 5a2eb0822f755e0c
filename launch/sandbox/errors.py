"""Error answers of the sandbox's authorization server: OAuth JSON, never Werkzeug's HTML.

Clients of the token, registration, discovery and key endpoints parse JSON: an HTTP error
there (a GET to ``/auth/token``, an unknown well-known path) is an OAuth error object
(RFC 6749 §5.2) with the status and headers (``Allow``) Werkzeug chose, and an unexpected
failure is ``server_error`` in JSON (logged with its traceback here, never sent). The
browser endpoints (``/auth/authorize``, ``/auth/decide``) answer with the sandbox's own
error page. Other paths (the FHIR proxy, the launcher) keep their own handling.
"""
from __future__ import annotations

import logging

from flask import jsonify, render_template, request
from werkzeug.exceptions import HTTPException, InternalServerError

log = logging.getLogger(__name__)
JSON_PATHS = ("/auth/token", "/auth/register", "/auth/introspect", "/auth/revoke", "/.well-known/",
              "/fhir/.well-known/", "/jwks")
PAGE_PATHS = ("/auth/authorize", "/auth/decide")


def init_app(app) -> None:
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(Exception, _unexpected)


def _kind() -> str | None:
    path = request.path
    if path.startswith(JSON_PATHS):
        return "json"
    if path.startswith(PAGE_PATHS):
        return "page"
    return None


def _http_error(exc: HTTPException):
    kind = _kind()
    if kind is None:
        return exc
    headers = [(k, v) for k, v in exc.get_headers() if k.lower() != "content-type"]
    if kind == "page":
        return render_template("error.html", message=exc.description), exc.code or 400, headers
    code = "invalid_request" if (exc.code or 500) < 500 else "server_error"
    body = jsonify({"error": code, "error_description": exc.description})
    return body, exc.code or 500, headers + [("Cache-Control", "no-store")]


def _unexpected(exc: Exception):
    log.exception("sandbox: %s %s failed", request.method, request.path)
    kind = _kind()
    if kind == "json":
        return jsonify({"error": "server_error",
                        "error_description": "The authorization server failed; try again."}), 500
    if kind == "page":
        return render_template(
            "error.html", message="The EHR failed while handling this request."
        ), 500
    return InternalServerError(original_exception=exc)
