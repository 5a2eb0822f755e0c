"""Choose and start the HAPI FHIR R4 server behind the sandbox and the tests.

One API for ``docgemma-sandbox`` and the pytest fixture::

    with start_upstream(port=0) as upstream:      # port=None -> $HAPI_PORT or 8080
        requests.get(f"{upstream.base_url}/metadata")  # base_url ends in /fhir

Selection order:

1. ``FHIR_UPSTREAM_URL`` if set: an existing server (we only wait for it);
2. testcontainers ``hapiproject/hapi`` (pinned tag) when a Docker engine answers a ping;
3. the project's own HAPI JPA module in ``launch/hapi`` (Java 17 + Maven), built once
   and rebuilt only when the hash of its pom and sources changes.

The local Java server keeps its data in memory (gone when it stops) unless ``HAPI_DATA_DIR``
names a folder: then it is an H2 database file there, as a production EHR keeps its chart
on disk, so the server can be killed and restarted with everything it wrote.

Processes we start are stopped by ``Upstream.stop()``, at interpreter exit, on SIGTERM,
and, for the Java child, by the kernel if Python dies (PR_SET_PDEATHSIG): no orphans
after Ctrl-C, a kill or a failed test run.
"""
from __future__ import annotations

import atexit
import ctypes
import fcntl
import hashlib
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import requests

HAPI_DIR = Path(__file__).resolve().parent / "hapi"
JAR_NAME = "docgemma-hapi.jar"
HASH_NAME = ".source-hash"
# pinned: the newest hapi starter image tag, for reproducible runs
DOCKER_IMAGE = "hapiproject/hapi:v8.10.0-3"
# C1 only + serial GC: on 2 cores the C2 and G1 threads compete with start-up work (measured ~2x
# faster).
JAVA_OPTS = ["-Xmx1280m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xss1m"]
READY_TIMEOUT_S = 180.0
PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
INSTALL_HINT = ("install Java 17 and Maven (the project's own HAPI FHIR server in launch/hapi), "
                "or Docker with the sandbox extra (pip install -e '.[sandbox]': hapiproject/hapi), "
                "or set FHIR_UPSTREAM_URL to an existing FHIR R4 server")

_LIVE: list[Callable[[], None]] = []  # stop functions of everything we started and not yet stopped


class UpstreamUnavailable(RuntimeError):
    """No FHIR server can be had on this machine; the message says why and what to install."""


@dataclass
class Upstream:
    """A running FHIR server: ``base_url`` ends in ``/fhir``; ``stop()`` is idempotent."""

    base_url: str
    kind: str  # "external" | "testcontainers" | "local-java"
    _stop: Callable[[], None] = field(default=lambda: None, repr=False)
    started_s: float = 0.0  # seconds from launch to /metadata 200 (0 for external)
    pid: int | None = None  # the Java process, for local-java
    log: Path | None = None  # its stdout/stderr, for local-java

    def stop(self) -> None:
        stop, self._stop = self._stop, (lambda: None)
        stop()

    def __enter__(self) -> Upstream:
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


def start_upstream(port: int | None = None, log_dir: Path | None = None) -> Upstream:
    """Start (or find) a FHIR R4 server in the order of the module docstring.

    ``port`` is for the local Java server: None means ``$HAPI_PORT`` or 8080, 0 a free port.
    """
    external = os.environ.get("FHIR_UPSTREAM_URL", "").strip()
    if external:
        base = external.rstrip("/")
        wait_ready(base, READY_TIMEOUT_S)
        return Upstream(base, "external")
    if docker_answers():
        return start_container()
    if port is None:
        port = int(os.environ.get("HAPI_PORT", "8080"))
    return start_local(port, log_dir)


def wait_ready(base_url: str, timeout_s: float, process: subprocess.Popen | None = None,
               log: Path | None = None) -> None:
    """Poll ``{base}/metadata`` until it answers 200; fail early if the process died.

    The read timeout is long because HAPI builds its CapabilityStatement on the first
    request (several seconds on 2 cores); a short one would abort and restart that work.
    """
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise UpstreamUnavailable(
                f"HAPI FHIR exited with code {process.returncode}; log {log}:\n{_tail(log)}"
            )
        try:
            read_timeout = max(1.0, min(60.0, deadline - time.monotonic()))
            if requests.get(f"{base_url}/metadata", timeout=(2, read_timeout)).status_code == 200:
                return
        except requests.RequestException:
            pass
        time.sleep(0.5)
    raise UpstreamUnavailable(f"FHIR server at {base_url} not ready after {timeout_s:.0f} s"
                              + (f"; log {log}:\n{_tail(log)}" if log else "."))


# -- local Java: build ------------------------------------------------------------
def source_hash(module: Path | None = None) -> str:
    """Hash of the module's pom and sources: the jar is rebuilt only when it changes."""
    module = module or HAPI_DIR
    digest = hashlib.sha256()
    for path in sorted([module / "pom.xml", *(module / "src").rglob("*")]):
        if path.is_file():
            digest.update(path.relative_to(module).as_posix().encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def needs_build(module: Path | None = None) -> bool:
    """True when the jar or its ``lib/`` is missing or was built from other sources than the current
    ones."""
    target = (module or HAPI_DIR) / "target"
    jar, stamp = target / JAR_NAME, target / HASH_NAME
    return (not jar.exists() or not (target / "lib").is_dir() or not stamp.exists()
            or stamp.read_text().strip() != source_hash(module))


def build(force: bool = False, module: Path | None = None) -> float:
    """Build the jar with Maven if needed; returns seconds spent (0 when reused).

    A file lock serialises concurrent builds (several test runs share one checkout); the
    old jar is unlinked first so JVMs still running from it keep their open copy (Maven
    copies a dependency into ``target/lib`` only when it is not there yet or newer).
    """
    module = module or HAPI_DIR
    if not force and not needs_build(module):
        return 0.0
    target = module / "target"
    target.mkdir(parents=True, exist_ok=True)
    with open(target / ".build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not force and not needs_build(module):
            return 0.0  # another process built it while we waited
        _require_tools("java", "mvn")
        return _run_maven(module)


def _run_maven(module: Path) -> float:
    """``mvn package`` of the module; writes the source hash beside the jar on success."""
    print(f"Building {module} with Maven (first build downloads ~210 MB into ~/.m2)...",
          file=sys.stderr, flush=True)
    started = time.monotonic()
    (module / "target" / JAR_NAME).unlink(missing_ok=True)
    cmd = ["mvn", "-B", "-q", "-DskipTests", "-f", str(module / "pom.xml"), "package"]
    result = subprocess.run(cmd, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    if result.returncode != 0:
        raise UpstreamUnavailable(
            f"Maven build of {module} failed:\n" + (result.stdout + result.stderr)[-4000:]
        )
    (module / "target" / HASH_NAME).write_text(source_hash(module))
    return time.monotonic() - started


def _require_tools(*tools: str) -> None:
    missing = [tool for tool in tools if shutil.which(tool) is None]
    if missing:
        raise UpstreamUnavailable(
            f"No FHIR server available ({', '.join(missing)} not found on PATH and "
            f"no Docker engine answered): {INSTALL_HINT}."
        )


# -- local Java: run ----------------------------------------------------------------
def start_local(
    port: int = 8080, log_dir: Path | None = None, module: Path | None = None
) -> Upstream:
    """Build if needed, then run the jar on ``port`` (0 = any free port) until ready."""
    module = module or HAPI_DIR
    _require_tools("java", *(["mvn"] if needs_build(module) else []))
    built_s = build(module=module)
    if built_s:
        print(f"HAPI jar built in {built_s:.0f} s; starting it...", file=sys.stderr, flush=True)
    port = port or _free_port()
    _require_free(port)
    log = Path(log_dir or tempfile.mkdtemp(prefix="hapi-")) / "hapi.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    proc = _spawn_java(module / "target" / JAR_NAME, port, log)
    stop = _track(_stopper(proc))
    base = f"http://127.0.0.1:{port}/fhir"
    try:
        wait_ready(base, READY_TIMEOUT_S, proc, log)
    except BaseException:
        stop()
        raise
    return Upstream(base, "local-java", stop, time.monotonic() - started, proc.pid, log)


def _spawn_java(jar: Path, port: int, log: Path) -> subprocess.Popen:
    """The JVM in a session of its own (Ctrl-C reaches only us; we stop it in order), bound to
    die with us all the same (``_die_with_parent``)."""
    opts = (
        shlex.split(os.environ["HAPI_JAVA_OPTS"]) if os.environ.get("HAPI_JAVA_OPTS") else JAVA_OPTS
    )
    # PDEATHSIG fires when the *thread* that forked exits: only safe from the main thread.
    on_main = threading.current_thread() is threading.main_thread()
    parent = os.getpid()
    with open(log, "wb") as out:
        return subprocess.Popen(["java", *opts, "-jar", str(jar), f"--server.port={port}",
                                 *_storage_args(os.environ.get("HAPI_DATA_DIR", "").strip())],
                                stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                start_new_session=True,
                                preexec_fn=(lambda: _die_with_parent(parent)) if on_main else None)


def _storage_args(data_dir: str) -> list[str]:
    """Spring arguments for a file-based H2 database in ``data_dir`` (none: in memory).
    AUTO_SERVER off: one JVM owns the file; a kill -9 leaves it consistent (H2's MVStore)."""
    if not data_dir:
        return []
    folder = Path(data_dir).expanduser().resolve()
    folder.mkdir(parents=True, exist_ok=True)
    return [f"--spring.datasource.url=jdbc:h2:file:{folder / 'hapi'};DB_CLOSE_ON_EXIT=FALSE"]


def _die_with_parent(parent: int) -> None:
    """In the child, before exec: the kernel sends it SIGTERM when this Python process dies, even
    by SIGKILL (a session of its own would otherwise outlive us, holding the port). If the
    parent died before the request took effect, the child stops at once."""
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):
        return  # not Linux: atexit and SIGTERM handling still apply
    if os.getppid() != parent:
        os._exit(1)


def _stopper(proc: subprocess.Popen) -> Callable[[], None]:
    """terminate, wait up to 20 s (Spring shuts down cleanly), then kill."""
    def stop() -> None:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)
    return stop


def _require_free(port: int) -> None:
    """Fail when something listens on ``port``. SO_REUSEADDR, as the JVM's own server socket sets
    it: the TIME_WAIT connections a HAPI just stopped leaves behind do not count as in use (without
    it a restart right after a stop failed for up to a minute with nothing listening)."""
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            raise UpstreamUnavailable(
                f"Port {port} is already in use: set HAPI_PORT to a free port, or "
                f"FHIR_UPSTREAM_URL=http://127.0.0.1:{port}/fhir to use that server."
            ) from None


# -- stopping what we started -------------------------------------------------------
def _track(stop: Callable[[], None]) -> Callable[[], None]:
    """Register ``stop`` for atexit/SIGTERM; the returned function runs it once and unregisters."""
    _install_exit_handlers()
    done = threading.Event()

    def once() -> None:
        if not done.is_set():
            done.set()
            if once in _LIVE:
                _LIVE.remove(once)
            stop()
    _LIVE.append(once)
    return once


def stop_all() -> None:
    """Stop every server this process started and has not stopped yet (newest first)."""
    for stop in reversed(list(_LIVE)):
        try:
            stop()
        except Exception as exc:  # keep stopping the others
            print(f"launch.upstream: stopping failed: {exc}", file=sys.stderr)


_handlers_installed = False


def _install_exit_handlers() -> None:
    """atexit always; SIGTERM only from the main thread, chaining to any previous handler."""
    global _handlers_installed
    if _handlers_installed:
        return
    _handlers_installed = True
    atexit.register(stop_all)
    if threading.current_thread() is not threading.main_thread():
        return
    previous = signal.getsignal(signal.SIGTERM)

    def on_sigterm(signum, frame) -> None:
        stop_all()
        if callable(previous):
            previous(signum, frame)
        elif previous != signal.SIG_IGN:
            raise SystemExit(128 + signum)
    signal.signal(signal.SIGTERM, on_sigterm)


# -- testcontainers -------------------------------------------------------------------
def docker_answers() -> bool:
    """True only when a Docker engine answers a ping (the docker CLI alone is not enough)."""
    try:
        import docker

        return bool(docker.from_env(timeout=3).ping())
    except Exception:  # no package, engine, socket or permission: fall through to Java
        return False


def start_container() -> Upstream:
    """hapiproject/hapi with test-friendly settings; stopped by stop(), atexit or Ryuk."""
    from testcontainers.core.container import DockerContainer

    container = (DockerContainer(DOCKER_IMAGE).with_exposed_ports(8080)
                 .with_env("hapi.fhir.reuse_cached_search_results_millis", "0")
                 .with_env("hapi.fhir.client_id_strategy", "ALPHANUMERIC")
                 .with_env("hapi.fhir.allow_multiple_delete", "true")
                 .with_env("hapi.fhir.expunge_enabled", "true")
                 .with_env("JAVA_TOOL_OPTIONS", "-Xmx1280m"))
    started = time.monotonic()
    container.start()
    stop = _track(container.stop)
    base = f"http://{container.get_container_host_ip()}:{container.get_exposed_port(8080)}/fhir"
    try:
        wait_ready(base, READY_TIMEOUT_S)
    except BaseException:
        stop()
        raise
    return Upstream(base, "testcontainers", stop, time.monotonic() - started)


# -- helpers ----------------------------------------------------------------------------
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _tail(log: Path | None, lines: int = 40) -> str:
    if not log or not Path(log).exists():
        return ""
    return "\n".join(Path(log).read_text(errors="replace").splitlines()[-lines:])


def main(argv: list[str] | None = None) -> int:
    """``python -m launch.upstream [--build [--force]]``: build the jar (CI), or run a server."""
    args = argv if argv is not None else sys.argv[1:]
    if "--build" in args:
        seconds = build(force="--force" in args)
        print(f"launch/hapi jar {f'built in {seconds:.0f} s' if seconds else 'up to date'}: "
              f"{HAPI_DIR / 'target' / JAR_NAME}")
        return 0
    with start_upstream() as upstream:
        print(f"{upstream.kind} FHIR server ready at {upstream.base_url} "
              f"in {upstream.started_s:.0f} s; Ctrl-C stops it", flush=True)
        try:
            signal.pause()
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
