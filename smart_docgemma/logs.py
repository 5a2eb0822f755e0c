"""Structured logs: one JSON object per line, each carrying the request id.

``configure()`` is called by the commands (``docgemma``, ``docgemma-sandbox``), never at
import or by ``create_app``: a library must not take over its host's logging. Modules log
with ``logging.getLogger(__name__)`` as usual; this module only decides the handler and
format.

- Request id: ``X-Request-ID`` from the proxy in front is kept when it is a short token
  (letters, digits, ``-_.:``), else a new one is made; it is echoed in the response and in
  every record logged while the request runs.
- Never a token or patient text: the request line has the path without its query (the
  launch callback's ``code``, a search's patient name), and every message passes a redactor
  that blanks bearer tokens, JWTs and ``*_token=`` values whatever a caller put in it.
  Records come from code that names what happened, not from questions or chart text.
"""
from __future__ import annotations

import json
import logging
import re
import sys
import time
import uuid
from contextvars import ContextVar

from flask import Flask, g

from . import inputs

REQUEST_ID_HEADER = "X-Request-ID"
_VALID_ID = re.compile(r"^[A-Za-z0-9\-_.:]{1,128}$")
_request_id: ContextVar[str | None] = ContextVar("docgemma_request_id", default=None)

_SECRETS = (
    re.compile(
        r"eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*"
    ),  # JWT (id/access tokens)
    re.compile(r"(?i)(bearer\s+)[^\s,;\"']+"),
    re.compile(
        r"(?i)((?:access|refresh|id)_token|code|client_secret|"
        r"code_verifier)([\"']?\s*[=:]\s*[\"']?)[^\s&,;\"']+"
    ),
)


# A URL's or path's query string ("/drug/label.json?search=...", "/esearch.fcgi?term=...") holds
# the clinician's search terms; urllib3's retry warnings print it. Only the path is kept.
_QUERY = re.compile(r"((?:https?://[^\s/'\"]+)?/[^\s?'\"]*)\?\S+")


def redact(text: str) -> str:
    """``text`` with anything shaped like a credential replaced by ``[redacted]`` and query strings
    of URLs (search terms) replaced by ``?[query removed]``."""
    text = _SECRETS[0].sub("[redacted]", text)
    text = _SECRETS[1].sub(r"\1[redacted]", text)
    text = _SECRETS[2].sub(r"\1\2[redacted]", text)
    return _QUERY.sub(r"\1?[query removed]", text)


class JsonFormatter(logging.Formatter):
    """time, level, logger, worker pid, message, request_id (+ the redacted traceback)."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S") + f".{int(record.msecs):03d}Z",
            "level": record.levelname,
            "logger": record.name,
            "pid": record.process,
            "message": redact(record.getMessage()),
            "request_id": getattr(record, "request_id", None) or _request_id.get(),
        }
        for key in ("method", "path", "status", "ms"):
            if hasattr(record, key):
                entry[key] = getattr(record, key)
        if record.exc_info:
            entry["exception"] = redact(self.formatException(record.exc_info))
        return json.dumps(entry, ensure_ascii=False)


JsonFormatter.converter = time.gmtime


# The model client's HTTP library logs every request at INFO (two lines a turn): the calls
# are counted and timed in /metrics (docgemma_model_call_seconds), and warnings still pass.
QUIET = ("httpx", "httpx2", "httpcore", "httpcore2")


def configure(level: str | int = "INFO", stream=None) -> logging.Handler:
    """One JSON handler on the root logger (replacing earlier handlers); returns it."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # its access lines carry query strings
    for name in QUIET:
        logging.getLogger(name).setLevel(logging.WARNING)
    return handler


def gunicorn_config(level: str | int = "INFO") -> dict:
    """gunicorn's ``logconfig_dict``: gunicorn configures logging again in every process
    (replacing the root handler), so its own records and the app's leave as the same JSON."""
    return {"version": 1, "disable_existing_loggers": False,
            "formatters": {"json": {"()": JsonFormatter}},
            "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "json",
                                     "stream": "ext://sys.stderr"}},
            "loggers": {"gunicorn.error": {"handlers": [], "propagate": True, "level": "INFO"},
                        # the app writes one line per request itself (request id, no query
                        # string): gunicorn's access line would be a second, with the query string
                        "gunicorn.access": {"handlers": [], "propagate": True, "level": "WARNING"},
                        "werkzeug": {"level": "WARNING"},
                        **{name: {"level": "WARNING"} for name in QUIET}},
            "root": {"handlers": ["console"], "level": level}}


def init_app(app: Flask) -> None:
    """Request ids and one request line per request (method, path, status, ms)."""
    app.before_request(_begin)
    app.after_request(_end)
    app.teardown_request(_forget_request_id)


def _begin() -> None:
    sent = inputs.header(REQUEST_ID_HEADER)
    g.request_id = sent if _VALID_ID.match(sent) else uuid.uuid4().hex
    g.request_started = time.monotonic()
    _request_id.set(g.request_id)


def _end(response):
    request_id = g.get("request_id")
    if request_id:
        response.headers[REQUEST_ID_HEADER] = request_id
        ms = round((time.monotonic() - g.request_started) * 1000, 1)
        logging.getLogger("docgemma.request").info(
            "%s %s %s",
            inputs.method(),
            inputs.path(),
            response.status_code,
            extra={
                "method": inputs.method(),
                "path": inputs.path(),
                "status": response.status_code,
                "ms": ms,
            },
        )
    return response


def _forget_request_id(exc: BaseException | None) -> None:
    _request_id.set(None)
