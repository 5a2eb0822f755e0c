"""Choose and start the HAPI FHIR R4 server behind the sandbox and the tests.

One API for ``docgemma-sandbox`` and the pytest fixture (DESIGN.md):

1. ``FHIR_UPSTREAM_URL`` if set: an existing server (we only wait for it);
2. testcontainers ``hapiproject/hapi`` (pinned) when a Docker engine answers;
3. the project's own HAPI JPA module in ``launch/hapi`` (Java 17 + Maven),
   built once and reused until its sources change.

Processes we start are stopped by ``Upstream.stop()``, at interpreter exit,
and, for the Java child, by the kernel if Python dies (PR_SET_PDEATHSIG):
no orphans after Ctrl-C or a failed test run.
"""
from __future__ import annotations

import atexit
import ctypes
import hashlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import requests

HAPI_DIR = Path(__file__).resolve().parent / "hapi"
JAR = HAPI_DIR / "target" / "docgemma-hapi.jar"
HASH_FILE = HAPI_DIR / "target" / ".source-hash"
DOCKER_IMAGE = "hapiproject/hapi:v8.10.0-3"  # pinned; newest starter image tag (notes/hapi-local.md §3)
JAVA_OPTS = ["-Xmx1280m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xss1m"]
READY_TIMEOUT_S = 180


class UpstreamUnavailable(RuntimeError):
    """No FHIR server can be had on this machine; the message says what to install."""


@dataclass
class Upstream:
    """A running FHIR server: ``base_url`` ends in ``/fhir``; ``stop()`` is idempotent."""

    base_url: str
    kind: str  # external | testcontainers | local-java
    _stop: callable = field(default=lambda: None, repr=False)
    started_s: float = 0.0

    def stop(self) -> None:
        stop, self._stop = self._stop, (lambda: None)
        stop()

    def __enter__(self) -> "Upstream":
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


def start_upstream(port: int | None = None, log_dir: Path | None = None) -> Upstream:
    """Start (or find) a FHIR R4 server in the order of the module docstring."""
    external = os.environ.get("FHIR_UPSTREAM_URL")
    if external:
        base = external.rstrip("/")
        wait_ready(base, READY_TIMEOUT_S)
        return Upstream(base, "external")
    if _docker_answers():
        return _start_container()
    return start_local(port if port is not None else int(os.environ.get("HAPI_PORT", "8080")), log_dir)


def wait_ready(base_url: str, timeout_s: float, process: subprocess.Popen | None = None,
               log: Path | None = None) -> None:
    """Poll ``{base}/metadata`` until it answers 200; fail early if the process died."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise UpstreamUnavailable(f"HAPI exited with {process.returncode}.\n{_tail(log)}")
        try:
            if requests.get(f"{base_url}/metadata", timeout=5).status_code == 200:
                return
        except requests.RequestException:
            pass
        time.sleep(0.5)
    raise UpstreamUnavailable(f"FHIR server at {base_url} not ready after {timeout_s:.0f} s.\n{_tail(log)}")


# -- local Java -----------------------------------------------------------------
def source_hash() -> str:
    """Hash of the module's pom and sources: the jar is rebuilt only when it changes."""
    digest = hashlib.sha256()
    for path in sorted([HAPI_DIR / "pom.xml", *(HAPI_DIR / "src").rglob("*")]):
        if path.is_file():
            digest.update(str(path.relative_to(HAPI_DIR)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def needs_build() -> bool:
    return not JAR.exists() or not HASH_FILE.exists() or HASH_FILE.read_text().strip() != source_hash()


def build(force: bool = False) -> float:
    """Build the jar with Maven if needed; returns seconds spent (0 when reused)."""
    if not force and not needs_build():
        return 0.0
    _require_tools()
    started = time.monotonic()
    cmd = ["mvn", "-B", "-q", "-DskipTests", "-f", str(HAPI_DIR / "pom.xml"), "package"]
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode != 0:
        raise UpstreamUnavailable("Maven build of launch/hapi failed:\n" + (result.stdout + result.stderr)[-4000:])
    HASH_FILE.write_text(source_hash())
    return time.monotonic() - started


def start_local(port: int = 8080, log_dir: Path | None = None) -> Upstream:
    """Build if needed, then run the jar on ``port`` (0 = any free port) until ready."""
    build()
    port = port or _free_port()
    log = Path(log_dir or tempfile.mkdtemp(prefix="hapi-")) / "hapi.log"
    started = time.monotonic()
    with open(log, "wb") as out:
        proc = subprocess.Popen(["java", *JAVA_OPTS, "-jar", str(JAR), f"--server.port={port}"],
                                stdout=out, stderr=subprocess.STDOUT, preexec_fn=_die_with_parent)
    stop = _stopper(proc)
    atexit.register(stop)
    base = f"http://127.0.0.1:{port}/fhir"
    try:
        wait_ready(base, READY_TIMEOUT_S, proc, log)
    except BaseException:
        stop()
        raise
    return Upstream(base, "local-java", stop, time.monotonic() - started)


def _stopper(proc: subprocess.Popen):
    def stop() -> None:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=5)
    return stop


def _die_with_parent() -> None:
    # Linux: the kernel sends SIGTERM to the JVM if this Python process dies
    # (even by SIGKILL), so a crashed test run leaves no HAPI behind.
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except OSError:
        pass
    os.setpgrp()  # Ctrl-C in the terminal goes to us; we stop the JVM ourselves


def _require_tools() -> None:
    missing = [tool for tool in ("java", "mvn") if shutil.which(tool) is None]
    if missing:
        raise UpstreamUnavailable(
            "No FHIR server available: install Java 17 and Maven (for the local HAPI FHIR server), "
            "or Docker (for hapiproject/hapi), or set FHIR_UPSTREAM_URL to an existing FHIR R4 server. "
            f"Missing: {', '.join(missing)}.")


# -- testcontainers ---------------------------------------------------------------
def _docker_answers() -> bool:
    """True only when a Docker engine answers a ping (the CLI alone is not enough)."""
    try:
        import docker

        client = docker.from_env(timeout=3)
        return bool(client.ping())
    except Exception:  # no engine, no socket, no permission: fall through to Java
        return False


def _start_container() -> Upstream:
    from testcontainers.core.container import DockerContainer

    container = (DockerContainer(DOCKER_IMAGE).with_exposed_ports(8080)
                 .with_env("hapi.fhir.reuse_cached_search_results_millis", "0")
                 .with_env("hapi.fhir.client_id_strategy", "ALPHANUMERIC")
                 .with_env("hapi.fhir.allow_multiple_delete", "true")
                 .with_env("JAVA_TOOL_OPTIONS", "-Xmx1280m"))
    started = time.monotonic()
    container.start()
    base = f"http://{container.get_container_host_ip()}:{container.get_exposed_port(8080)}/fhir"
    try:
        wait_ready(base, READY_TIMEOUT_S)
    except BaseException:
        container.stop()
        raise
    return Upstream(base, "testcontainers", container.stop, time.monotonic() - started)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _tail(log: Path | None, lines: int = 40) -> str:
    if not log or not Path(log).exists():
        return ""
    return "\n".join(Path(log).read_text(errors="replace").splitlines()[-lines:])


def main(argv: list[str] | None = None) -> int:
    """``python -m launch.upstream --build``: build the jar (CI), printing the time."""
    args = argv if argv is not None else sys.argv[1:]
    if "--build" in args:
        seconds = build(force="--force" in args)
        print(f"launch/hapi jar {'built in %.0f s' % seconds if seconds else 'up to date'}: {JAR}")
        return 0
    with start_upstream() as upstream:
        print(f"{upstream.kind} FHIR server ready at {upstream.base_url} in {upstream.started_s:.0f} s; Ctrl-C stops it")
        try:
            signal.pause()
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
