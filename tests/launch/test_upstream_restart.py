"""The sandbox's HAPI stops and starts again at once on the same port, and never outlives the
process that started it (``launch/upstream.py``). Real HAPI (the project's jar), on ports of its
own: never 8080, the team's shared server."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
import requests

from launch import upstream

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _listening(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.exists() and stat.read_text().split(") ", 1)[1].startswith("Z"))  # a zombie is gone


def _time_wait_on(port: int) -> None:
    """Leave a connection in TIME_WAIT on ``port``'s side, as a server that closes first does."""
    with socket.socket() as server:
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind(("127.0.0.1", port))
        server.listen()
        client = socket.create_connection(("127.0.0.1", port))
        conn, _ = server.accept()
        conn.close()  # the server side closes first: its end waits in TIME_WAIT
        client.close()


def test_a_port_left_in_time_wait_is_free_and_a_listened_one_is_not():
    port = _free_port()
    _time_wait_on(port)
    upstream._require_free(port)  # the connections a stopped server leaves do not hold the port
    with socket.socket() as listener:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", port))
        listener.listen()
        with pytest.raises(upstream.UpstreamUnavailable, match=f"Port {port} is already in use"):
            upstream._require_free(port)


@pytest.mark.slow
def test_hapi_stops_and_starts_again_at_once_on_the_same_port(tmp_path):
    port = _free_port()
    first = upstream.start_local(port, tmp_path / "first")
    try:
        assert requests.get(f"{first.base_url}/metadata", timeout=60).status_code == 200
    finally:
        first.stop()
    assert not _listening(port)
    second = upstream.start_local(port, tmp_path / "second")  # at once: no "Port … already in use"
    try:
        assert second.base_url == f"http://127.0.0.1:{port}/fhir"
        assert requests.get(f"{second.base_url}/metadata", timeout=60).status_code == 200
    finally:
        second.stop()


@pytest.mark.slow
def test_hapi_dies_with_the_process_that_started_it_even_by_sigkill(tmp_path):
    port = _free_port()
    script = textwrap.dedent(f"""
        import signal, sys
        from pathlib import Path
        from launch import upstream
        server = upstream.start_local({port}, Path({str(tmp_path)!r}))
        print(server.pid, flush=True)
        signal.pause()
    """)
    parent = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT, stdout=subprocess.PIPE, text=True,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        java = int(parent.stdout.readline())  # printed once HAPI answers
        assert _alive(java) and _listening(port)
        assert os.getsid(java) == java  # a session of its own: Ctrl-C on the sandbox does not reach it
        parent.send_signal(signal.SIGKILL)  # no atexit, no SIGTERM handler runs
        parent.wait(10)
        deadline = time.monotonic() + 60
        while (_alive(java) or _listening(port)) and time.monotonic() < deadline:
            time.sleep(0.5)
        assert not _alive(java), "HAPI outlived the process that started it"
        assert not _listening(port)
    finally:
        if parent.poll() is None:
            parent.kill()
