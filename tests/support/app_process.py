"""The ``docgemma`` command as a separate process (gunicorn, real workers), for tests
that need what one process cannot show: several workers, an installed wheel."""
from __future__ import annotations

import json
import subprocess
import time
from contextlib import contextmanager
from pathlib import Path

import requests


@contextmanager
def docgemma(command: list[str], env: dict, cwd: Path, timeout: float = 120):
    """Run ``command`` (``docgemma`` or an equivalent) until ready at /healthz; yields
    ``(url, log_path)``. Stopped (SIGTERM, gunicorn's graceful stop) on exit."""
    log = Path(cwd) / "docgemma.log"
    url = f"http://127.0.0.1:{env['DOCGEMMA_PORT']}"
    proc = subprocess.Popen(command, cwd=cwd, env=env, stdout=open(log, "w"), stderr=subprocess.STDOUT)
    try:
        _wait(f"{url}/healthz", proc, log, timeout)
        yield url, log
    finally:
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()


def json_lines(log: Path) -> list[dict]:
    out = []
    for line in log.read_text().splitlines():
        try:
            out.append(json.loads(line))
        except ValueError:
            pass
    return out


def _wait(url: str, proc, log: Path, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"docgemma exited {proc.returncode}:\n{log.read_text()[-3000:]}")
        try:
            if requests.get(url, timeout=2).status_code == 200:
                return
        except requests.RequestException:  # not listening yet, or a worker still loading
            pass
        time.sleep(0.3)
    raise AssertionError(f"docgemma not up after {timeout} s:\n{log.read_text()[-3000:]}")
