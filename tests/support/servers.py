"""Run WSGI apps on real loopback ports for tests (real HTTP, no test client)."""
from __future__ import annotations

import socket
import threading
from contextlib import contextmanager

from werkzeug.serving import make_server


def free_port() -> int:
    """A TCP port that is free right now on 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LiveServer:
    """A threaded werkzeug server for ``app`` on ``port``; ``.url`` is its base URL."""

    def __init__(self, app, port: int | None = None):
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self._server = make_server("127.0.0.1", self.port, app, threaded=True)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def start(self) -> LiveServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()  # the port refuses connections from now on (a stopped server)
        self._thread.join(timeout=5)


@contextmanager
def serve(app, port: int | None = None):
    """Context manager: a ``LiveServer`` running ``app`` for the duration."""
    server = LiveServer(app, port).start()
    try:
        yield server
    finally:
        server.stop()
