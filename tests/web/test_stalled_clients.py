"""Clients that stall cannot keep the ``docgemma`` command's threads (gunicorn, real worker):
with two threads, two clients that send half a body and stop would leave ``/healthz`` unanswered
for good; each request's socket times out after ``CLIENT_IO_TIMEOUT_S`` instead (``408``), and a
standing ``GET /mcp`` is answered at once."""
from __future__ import annotations

import os
import socket
import sys
import time

import requests
from smart_docgemma import create_app

from tests.support.app_process import docgemma
from tests.support.chat_session import session_cookie
from tests.support.servers import free_port


def stalled(port: int, path: str, headers: str = "") -> socket.socket:
    """A POST that promises 1000 bytes, sends 10, then neither sends nor reads."""
    sock = socket.create_connection(("127.0.0.1", port))
    sock.sendall(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
                 f"{headers}Content-Length: 1000\r\n\r\n{{\"message\"".encode())
    return sock


def test_stalled_clients_lose_their_connection_and_the_worker_answers_again(tmp_path, fhir_base):
    port, database = free_port(), f"sqlite:///{tmp_path / 'app.sqlite'}"
    env = {**os.environ, "DOCGEMMA_PORT": str(port), "DOCGEMMA_WORKERS": "1", "DOCGEMMA_THREADS": "2",
           "DOCGEMMA_CLIENT_IO_TIMEOUT_S": "2", "DOCGEMMA_SECRET_KEY": "stalled-test",
           "DOCGEMMA_DATABASE_URL": database, "PYTHONPATH": os.getcwd()}
    cookies, csrf = session_cookie(create_app({"SECRET_KEY": "stalled-test", "DATABASE_URL": database,
                                               "CACHE_PATH": str(tmp_path / "cache")}), fhir_base)
    clinician = "".join(f"Cookie: {k}={v}\r\n" for k, v in cookies.items()) + f"X-CSRF-Token: {csrf}\r\n"
    command = [sys.executable, "-c", "from smart_docgemma.cli.server import main; main()"]
    with docgemma(command, env, tmp_path) as (url, _log):
        standing = requests.get(f"{url}/mcp", headers={"Accept": "text/event-stream"}, timeout=5)
        assert standing.status_code == 405 and standing.headers["Allow"] == "POST"
        # the MCP guard reads the whole body first; the chat reads a clinician's question
        clients = [stalled(port, "/mcp"), stalled(port, "/api/chat", clinician)]
        time.sleep(0.5)  # both threads are now blocked reading a body that never comes
        started = time.monotonic()
        health = requests.get(f"{url}/healthz", timeout=15)
        waited = time.monotonic() - started
        assert health.status_code == 200 and waited < 6, waited
        for sock in clients:  # each was answered 408 and closed
            sock.settimeout(5)
            answer = sock.recv(4096)
            assert answer.startswith(b"HTTP/1.1 408"), answer[:80]
            sock.close()
