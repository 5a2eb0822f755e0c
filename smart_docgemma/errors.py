"""The app's error hierarchy and its single mapping to HTTP responses.

::

    DocGemmaError                 500  internal (never shown with details)
    ├── BadRequest                400  malformed input from the browser or EHR
    │   ├── PayloadTooLarge       413
    │   └── UnsupportedMedia      415
    ├── LaunchError               400  SMART launch could not proceed
    │   ├── UnknownIssuer         400  iss not on the allow-list
    │   ├── StateMismatch         400  state missing, wrong or replayed
    │   ├── AccessDenied          403  the EHR or user refused authorization
    │   └── TokenExchangeError    502  the token endpoint failed
    ├── SessionExpired            401  no session, or tokens expired and cannot refresh
    ├── Forbidden                 403  scope not granted / other patient
    ├── NotFound                  404
    ├── Conflict                  409  e.g. a proposal already decided
    ├── RateLimited               429
    ├── UpstreamError             502  FHIR server, model or knowledge source failed
    │   ├── FHIRError             502  (FHIR 401/403/404 are mapped to the classes above)
    │   ├── ModelError            503  model unreachable, timed out or gave invalid output
    │   └── SourceUnavailable     503  a public knowledge source is unreachable
    └── CDSError                  (CDS Hooks statuses: 400, 401, 412)

Each class carries an ``error`` code (authlib style) and an HTTP ``status``.
``register(app)`` renders them as a page (HTML) or JSON, and turns any other
exception into a plain 500 page without a stack trace.
"""
from __future__ import annotations

import logging

from flask import jsonify, render_template, request
from werkzeug.exceptions import HTTPException

log = logging.getLogger(__name__)


class DocGemmaError(Exception):
    """Base class: ``error`` is a short code, ``status`` the HTTP status."""

    error = "server_error"
    status = 500
    title = "Something went wrong"

    def __init__(self, description: str = "", *, status: int | None = None):
        super().__init__(description or self.title)
        self.description = description or self.title
        if status is not None:
            self.status = status


class BadRequest(DocGemmaError):
    error, status, title = "bad_request", 400, "The request could not be understood"


class PayloadTooLarge(BadRequest):
    error, status, title = "payload_too_large", 413, "The upload is too large"


class UnsupportedMedia(BadRequest):
    error, status, title = "unsupported_media", 415, "This file type is not supported"


class LaunchError(DocGemmaError):
    error, status, title = "launch_error", 400, "The app could not be launched"


class UnknownIssuer(LaunchError):
    error, title = "unknown_iss", "This EHR is not registered with the assistant"


class StateMismatch(LaunchError):
    error, title = "state_mismatch", "The launch could not be verified"


class AccessDenied(LaunchError):
    error, status, title = "access_denied", 403, "Access was not granted"


class TokenExchangeError(LaunchError):
    error, status, title = "token_error", 502, "The EHR did not issue a token"


class SessionExpired(DocGemmaError):
    error, status, title = "session_expired", 401, "Your session has ended"


class Forbidden(DocGemmaError):
    error, status, title = "forbidden", 403, "Not permitted"


class NotFound(DocGemmaError):
    error, status, title = "not_found", 404, "Not found"


class Conflict(DocGemmaError):
    error, status, title = "conflict", 409, "Already done"


class RateLimited(DocGemmaError):
    error, status, title = "rate_limited", 429, "Too many requests"
    retry_after: int | None = None  # seconds, sent as Retry-After


class UpstreamError(DocGemmaError):
    error, status, title = "upstream_error", 502, "A connected service failed"


class FHIRError(UpstreamError):
    error, title = "fhir_error", "The EHR's FHIR server returned an error"


class ModelError(UpstreamError):
    error, status, title = "model_error", 503, "The language model is unavailable"


class SourceUnavailable(UpstreamError):
    error, status, title = "source_unavailable", 503, "A knowledge source is unavailable"


class CDSError(DocGemmaError):
    error, status, title = "cds_error", 400, "CDS Hooks request rejected"


def _wants_json() -> bool:
    if request.path.startswith(("/cds-services", "/api/")):
        return True
    best = request.accept_mimetypes.best_match(["text/html", "application/json"])
    return best == "application/json"


def render_error(exc: DocGemmaError):
    """Render ``exc`` as JSON or as the error page, with its status."""
    headers = {"Retry-After": str(exc.retry_after)} if getattr(exc, "retry_after", None) else {}
    if _wants_json():
        body = {"error": exc.error, "error_description": exc.description}
        return jsonify(body), exc.status, headers
    return render_template("error.html", error=exc), exc.status, headers


def register(app) -> None:
    """Install the one place where exceptions become HTTP responses."""

    @app.errorhandler(DocGemmaError)
    def _docgemma(exc: DocGemmaError):
        level = logging.ERROR if exc.status >= 500 else logging.INFO
        log.log(level, "%s %s -> %s %s", request.method, request.path, exc.status, exc.error)
        return render_error(exc)

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException):
        err = DocGemmaError(exc.description or exc.name, status=exc.code or 500)
        err.error, err.title = exc.name.lower().replace(" ", "_"), exc.name
        return render_error(err)

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception):
        log.exception("unhandled error on %s %s", request.method, request.path)
        return render_error(DocGemmaError("An unexpected error occurred. It has been logged."))
