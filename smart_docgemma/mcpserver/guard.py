"""What keeps MCP clients from holding a worker's threads (docs/mcp.md, "Limits").

Every MCP request holds one gunicorn thread while it runs (the WSGI thread waits for the SDK's
event loop, ``endpoint.py``). So, before any of the SDK runs:

- ``GET /mcp`` (and any method but POST) is answered ``405`` with ``Allow: POST``: the transport
  is stateless with JSON responses, so the server never has a message to push on a standing
  event stream; the Streamable HTTP transport lets a server that offers no such stream say so
  with 405, and clients then carry on with POST alone;
- the body is read here, whole, before anything else: one above ``JSON_MAX_BYTES`` is refused
  unread (``413``), one without a length too (``411``: the SDK's bridge reads by length), one
  nested deeper than ``JSON_MAX_DEPTH`` (``400``: the SDK's parser fails on it with a 500), and a
  client that stops sending it loses the request (``408``, after ``CLIENT_IO_TIMEOUT_S``).

Every refusal is a JSON-RPC error a client can read (the SDK's client raises it with its
message) and is counted in ``docgemma_mcp_refused``. The limits that need the verified token —
calls a minute and at once per client, calls at once per worker — are ``quota.py``'s.
"""

from __future__ import annotations

import io
import json

from werkzeug.exceptions import RequestTimeout

from .. import metrics
from ..inputs import nesting

SERVER_BUSY = -32000  # JSON-RPC's range for implementation-defined server errors
TOO_MANY = -32001
NOT_SERVED = -32002
ALLOW = "POST"


def error_body(code: int, message: str, request_id=None, **data) -> bytes:
    """A JSON-RPC 2.0 error response (``id`` null when the request's own is unknown)."""
    error = {"code": code, "message": message, **({"data": data} if data else {})}
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "error": error}).encode()


def refusal(status: str, body: bytes, start_response, headers: dict[str, str]) -> list[bytes]:
    """Answer a WSGI request with a JSON-RPC error and nothing else."""
    start_response(status, [("Content-Type", "application/json"),
                            ("Content-Length", str(len(body))),
                            ("Cache-Control", "no-store"), *headers.items()])
    return [body]


class WorkerGuard:
    """The WSGI side of the limits: methods and the body."""

    def __init__(self, max_bytes: int, max_depth: int):
        self.max_bytes, self.max_depth = int(max_bytes), int(max_depth)

    def __call__(self, app, environ, start_response):
        method = environ.get("REQUEST_METHOD", "")
        if method != "POST":
            metrics.mcp_refused("method")
            message = (f"{method} is not served here: this MCP endpoint answers JSON-RPC over POST "
                       "only and offers no server-sent event stream.")
            return refusal(
                "405 Method Not Allowed",
                error_body(NOT_SERVED, message),
                start_response,
                {"Allow": ALLOW},
            )
        refused = self._body(environ)
        if refused is not None:
            metrics.mcp_refused(refused[2])
            return refusal(refused[0], error_body(NOT_SERVED, refused[1]), start_response, {})
        return app(environ, start_response)

    def _body(self, environ) -> tuple[str, str, str] | None:
        """Read the body here, whole, or say why not (status, message, reason). The SDK's bridge
        reads exactly Content-Length bytes, so a body must say its length; a client that stops
        sending it loses the request after the server's socket timeout (``cli/server.py``)."""
        declared = _content_length(environ)
        if declared is None:
            return (
                "411 Length Required",
                "Send the JSON-RPC body with a Content-Length.",
                "too_large",
            )
        if declared > self.max_bytes:
            return (
                "413 Content Too Large",
                f"The request body is over {self.max_bytes} bytes.",
                "too_large",
            )
        try:
            body = environ["wsgi.input"].read(declared) if declared else b""
        except (OSError, RequestTimeout):  # TimeoutError is an OSError
            return "408 Request Timeout", "The request body stopped arriving.", "stalled"
        if len(body) < declared:
            return "400 Bad Request", "The request body ended before its Content-Length.", "stalled"
        if _too_deep(body, self.max_depth):  # the SDK's parser fails on deep nesting with a 500
            return (
                "400 Bad Request",
                f"The JSON body is nested more than {self.max_depth} levels deep.",
                "too_deep",
            )
        environ["wsgi.input"] = io.BytesIO(body)
        return None


def _too_deep(body: bytes, depth: int) -> bool:
    """Nested deeper than ``depth`` (a body that is not JSON is the SDK's to refuse)."""
    try:
        return nesting(json.loads(body)) > depth
    except RecursionError:
        return True
    except ValueError:
        return False


def _content_length(environ) -> int | None:
    try:
        return int(environ.get("CONTENT_LENGTH") or "")
    except ValueError:
        return None
