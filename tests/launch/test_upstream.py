"""``launch.upstream``: which FHIR server is chosen, when the HAPI jar is rebuilt, how a
missing toolchain is reported, and that nothing it starts outlives it.

The selection and lifecycle tests run against a stand-in ``java`` (a tiny Python HTTP
server answering ``/fhir/metadata``) and a stand-in ``mvn``, so they take seconds; the real
HAPI server is exercised through the session fixture ``fhir_base`` (``FHIR_UPSTREAM_URL``
pointed at it, and the local module's CORS/query/paging settings).
"""
from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import requests

from launch import upstream

REPO = Path(__file__).resolve().parents[2]
NO_DOCKER = "unix:///nonexistent/docker.sock"

FAKE_JAVA = '''#!{python}
"""Stand-in for `java -jar docgemma-hapi.jar --server.port=N`: serves /fhir/metadata."""
import http.server, os, sys
port = int([a for a in sys.argv if a.startswith("--server.port=")][0].split("=")[1])
print("fake java pid", os.getpid(), "args", sys.argv[1:], flush=True)
if os.environ.get("FAKE_JAVA") == "crash":
    print("APPLICATION FAILED TO START: boom", flush=True)
    sys.exit(3)

class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        ok = self.path == "/fhir/metadata"
        body = b'{{"resourceType": "CapabilityStatement", "fhirVersion": "4.0.1"}}'
        self.send_response(200 if ok else 404)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *args):
        pass

http.server.HTTPServer(("127.0.0.1", port), Handler).serve_forever()
'''

FAKE_MVN = '''#!{python}
"""Stand-in for `mvn ... -f POM package`: counts calls, makes the jar and its lib/, or fails."""
import os, pathlib, sys
pom = pathlib.Path(sys.argv[sys.argv.index("-f") + 1])
calls = pom.parent / "mvn-calls"
calls.write_text(str(int(calls.read_text() or 0) + 1) if calls.exists() else "1")
if os.environ.get("FAKE_MVN") == "fail":
    print("[ERROR] COMPILATION ERROR: cannot find symbol FhirServerConfig")
    sys.exit(1)
(pom.parent / "target" / "lib").mkdir(parents=True, exist_ok=True)
(pom.parent / "target" / "docgemma-hapi.jar").write_text("jar")
'''


def _script(path: Path, text: str) -> Path:
    path.write_text(text.format(python=sys.executable))
    path.chmod(0o755)
    return path


@pytest.fixture
def module(tmp_path) -> Path:
    """A copy-shaped HAPI module (pom + src) with no jar yet."""
    mod = tmp_path / "hapi"
    (mod / "src" / "main" / "java").mkdir(parents=True)
    (mod / "pom.xml").write_text("<project/>")
    (mod / "src" / "main" / "java" / "App.java").write_text("class App {}")
    return mod


def _built(mod: Path) -> Path:
    """Make ``mod`` look freshly built: a jar, its lib/ and the matching source hash."""
    (mod / "target" / "lib").mkdir(parents=True, exist_ok=True)
    (mod / "target" / upstream.JAR_NAME).write_text("jar")
    (mod / "target" / upstream.HASH_NAME).write_text(upstream.source_hash(mod))
    return mod


@pytest.fixture
def toolbin(tmp_path) -> Path:
    """An otherwise empty PATH directory; tests drop stand-in tools into it."""
    path = tmp_path / "bin"
    path.mkdir()
    return path


@pytest.fixture
def isolated(monkeypatch, module, toolbin):
    """No FHIR_UPSTREAM_URL, no Docker engine, PATH = toolbin only, HAPI_DIR = module."""
    monkeypatch.delenv("FHIR_UPSTREAM_URL", raising=False)
    monkeypatch.delenv("HAPI_JAVA_OPTS", raising=False)
    monkeypatch.setenv("DOCKER_HOST", NO_DOCKER)
    monkeypatch.setenv("PATH", str(toolbin))
    monkeypatch.setattr(upstream, "HAPI_DIR", module)
    return module


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")


def _wait_dead(pid: int, seconds: float = 15) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not _alive(pid):
            return True
        time.sleep(0.1)
    return False


def _port_open(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


# -- rebuild decision ------------------------------------------------------------------
def test_needs_build_follows_the_source_hash(module):
    assert upstream.needs_build(module), "no jar yet"
    _built(module)
    assert not upstream.needs_build(module)

    (module / "src" / "main" / "java" / "App.java").write_text("class App { int x; }")
    assert upstream.needs_build(module), "a source edit must trigger a rebuild"
    _built(module)
    (module / "src" / "main" / "resources").mkdir()
    (module / "src" / "main" / "resources" / "application.yaml").write_text("server: {}")
    assert upstream.needs_build(module), "a new resource file must trigger a rebuild"
    _built(module)
    (module / "pom.xml").write_text("<project><!-- new dep --></project>")
    assert upstream.needs_build(module), "a pom edit must trigger a rebuild"
    _built(module)
    (module / "target" / upstream.JAR_NAME).unlink()
    assert upstream.needs_build(module), "a missing jar must trigger a rebuild"
    _built(module)
    (module / "target" / "lib").rmdir()
    assert upstream.needs_build(module), "the jar runs from target/lib: a missing lib/ must trigger a rebuild"


def test_build_runs_maven_only_when_sources_changed(isolated, toolbin):
    _script(toolbin / "mvn", FAKE_MVN)
    _script(toolbin / "java", FAKE_JAVA)
    calls = isolated / "mvn-calls"

    assert upstream.build() > 0
    assert calls.read_text() == "1"
    assert (isolated / "target" / upstream.HASH_NAME).read_text() == upstream.source_hash(isolated)
    assert upstream.build() == 0.0 and calls.read_text() == "1", "up-to-date jar is reused"

    (isolated / "src" / "main" / "java" / "App.java").write_text("class App { }  // edited")
    upstream.build()
    assert calls.read_text() == "2"
    upstream.build(force=True)
    assert calls.read_text() == "3"


def test_failed_build_reports_maven_output_and_keeps_no_stamp(isolated, toolbin, monkeypatch):
    _script(toolbin / "mvn", FAKE_MVN)
    _script(toolbin / "java", FAKE_JAVA)
    monkeypatch.setenv("FAKE_MVN", "fail")
    with pytest.raises(upstream.UpstreamUnavailable, match="cannot find symbol FhirServerConfig"):
        upstream.build()
    assert upstream.needs_build()


def test_real_module_is_not_rebuilt_once_built():
    """After one build of launch/hapi the stamp matches, so the next run reuses the jar."""
    upstream.build()
    assert not upstream.needs_build()
    assert upstream.build() == 0.0


# -- missing toolchain ----------------------------------------------------------------
def test_no_java_no_maven_no_docker_says_what_to_install(isolated):
    with pytest.raises(upstream.UpstreamUnavailable) as err:
        upstream.start_upstream(port=0)
    message = str(err.value)
    for needle in ("java", "mvn", "Java 17", "Maven", "Docker", "FHIR_UPSTREAM_URL"):
        assert needle in message, (needle, message)


def test_built_jar_without_java_still_says_what_to_install(isolated):
    _built(isolated)
    with pytest.raises(upstream.UpstreamUnavailable, match="install Java 17 and Maven"):
        upstream.start_upstream(port=0)


def test_docker_ping_without_engine_is_false_and_fast(monkeypatch):
    monkeypatch.setenv("DOCKER_HOST", NO_DOCKER)
    started = time.monotonic()
    assert upstream.docker_answers() is False
    assert time.monotonic() - started < 5


# -- selection order ------------------------------------------------------------------
def test_external_url_wins_and_is_left_running(fhir_base, monkeypatch):
    monkeypatch.setenv("FHIR_UPSTREAM_URL", fhir_base + "/")
    monkeypatch.setattr(upstream, "docker_answers", lambda: pytest.fail("Docker must not be probed"))
    with upstream.start_upstream(port=0) as found:
        assert (found.kind, found.base_url) == ("external", fhir_base.rstrip("/"))
        assert not found.base_url.endswith("/")
    meta = requests.get(f"{fhir_base}/metadata", timeout=30)
    assert meta.status_code == 200 and meta.json()["fhirVersion"] == "4.0.1", "stop() must not touch it"


def test_unreachable_external_url_fails_with_its_address(monkeypatch):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setenv("FHIR_UPSTREAM_URL", f"http://127.0.0.1:{port}/fhir")
    monkeypatch.setattr(upstream, "READY_TIMEOUT_S", 1.5)
    with pytest.raises(upstream.UpstreamUnavailable, match=f"127.0.0.1:{port}/fhir not ready"):
        upstream.start_upstream()


def test_docker_is_chosen_before_java_when_it_answers(isolated, monkeypatch):
    sentinel = upstream.Upstream("http://127.0.0.1:1/fhir", "testcontainers")
    monkeypatch.setattr(upstream, "docker_answers", lambda: True)
    monkeypatch.setattr(upstream, "start_container", lambda: sentinel)
    monkeypatch.setattr(upstream, "start_local", lambda *a, **k: pytest.fail("Java must not start"))
    assert upstream.start_upstream(port=0) is sentinel


def test_hapi_port_env_is_the_default_port(isolated, monkeypatch):
    seen = {}
    monkeypatch.setattr(upstream, "start_local", lambda port, log_dir: seen.setdefault("port", port))
    monkeypatch.setenv("HAPI_PORT", "18081")
    upstream.start_upstream()
    assert seen["port"] == 18081


# -- local Java lifecycle (stand-in java) ------------------------------------------------
def test_local_java_starts_on_a_free_port_and_stops(isolated, toolbin, tmp_path):
    _built(isolated)
    _script(toolbin / "java", FAKE_JAVA)
    with upstream.start_upstream(port=0, log_dir=tmp_path / "logs") as hapi:
        assert hapi.kind == "local-java"
        assert hapi.base_url.startswith("http://127.0.0.1:") and hapi.base_url.endswith("/fhir")
        assert requests.get(f"{hapi.base_url}/metadata", timeout=5).status_code == 200
        port = urlsplit(hapi.base_url).port
        log = (tmp_path / "logs" / "hapi.log").read_text()
        assert "-XX:+UseSerialGC" in log and f"--server.port={port}" in log
    assert _wait_dead(hapi.pid) and not _port_open(port)
    hapi.stop()  # idempotent


def test_java_that_dies_during_start_up_reports_the_log_tail(isolated, toolbin, monkeypatch):
    _built(isolated)
    _script(toolbin / "java", FAKE_JAVA)
    monkeypatch.setenv("FAKE_JAVA", "crash")
    started = time.monotonic()
    with pytest.raises(upstream.UpstreamUnavailable, match="(?s)exited with code 3.*boom"):
        upstream.start_upstream(port=0)
    assert time.monotonic() - started < 20, "a dead JVM must not be waited on for 180 s"


def test_port_in_use_is_a_clear_error(isolated, toolbin):
    _built(isolated)
    _script(toolbin / "java", FAKE_JAVA)
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        with pytest.raises(upstream.UpstreamUnavailable, match=f"Port {port} is already in use"):
            upstream.start_upstream(port=port)


DRIVER = textwrap.dedent('''
    import json, sys
    from pathlib import Path
    import launch.upstream as u
    u.HAPI_DIR = Path(sys.argv[1])
    hapi = u.start_upstream(port=0)
    print(json.dumps({"pid": hapi.pid, "base": hapi.base_url}), flush=True)
    sys.stdin.read()  # until the test closes stdin or kills us
''')


@pytest.mark.parametrize("ending", ["sigkill", "sigterm", "exit"])
def test_no_orphan_when_python_ends(isolated, toolbin, ending):
    """However the owning Python process ends, the server it started goes with it."""
    _built(isolated)
    _script(toolbin / "java", FAKE_JAVA)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    driver = subprocess.Popen([sys.executable, "-c", DRIVER, str(isolated)], env=env, text=True,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        started = json.loads(driver.stdout.readline())
        assert requests.get(f"{started['base']}/metadata", timeout=5).status_code == 200
        if ending == "sigkill":
            driver.kill()
        elif ending == "sigterm":
            driver.send_signal(signal.SIGTERM)
        else:
            driver.stdin.close()
        driver.wait(timeout=30)
        assert _wait_dead(started["pid"]), f"server pid {started['pid']} outlived Python ({ending})"
        if ending == "sigterm":
            assert driver.returncode == 128 + signal.SIGTERM
    finally:
        driver.kill()


# -- the real local server's settings ----------------------------------------------------
@pytest.fixture(scope="module")
def local_hapi(fhir_base, tmp_path_factory):
    """launch/hapi's own server: the session's one when it is local, else a fresh one."""
    if not (os.environ.get("FHIR_UPSTREAM_URL") or upstream.docker_answers()):
        yield fhir_base
        return
    with upstream.start_local(0, tmp_path_factory.mktemp("local-hapi")) as server:
        yield server.base_url


def test_cors_preflight_allows_conditional_headers(local_hapi):
    res = requests.options(f"{local_hapi}/Patient", timeout=30, headers={
        "Origin": "http://127.0.0.1:8000", "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "if-none-exist,if-match,authorization,content-type"})
    assert res.status_code == 200, res.text
    allowed = res.headers.get("Access-Control-Allow-Headers", "").lower()
    assert "if-none-exist" in allowed and "if-match" in allowed
    assert res.headers.get("Access-Control-Allow-Origin") in ("*", "http://127.0.0.1:8000")


def test_unencoded_pipe_in_token_search_is_accepted(local_hapi):
    """``server.tomcat.relaxed-query-chars: "|"`` (requests would encode it; http.client does not)."""
    url = urlsplit(local_hapi)
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
    try:
        conn.request("GET", f"{url.path}/Patient?identifier=urn:test|nothing&_summary=count",
                     headers={"Accept": "application/fhir+json"})
        res = conn.getresponse()
        assert res.status == 200, res.read()[:300]
    finally:
        conn.close()


def test_capability_statement_and_system_batch(local_hapi):
    """Transactions are advertised, batch works at the base, Patient/$everything is offered."""
    cap = requests.get(f"{local_hapi}/metadata", timeout=30).json()
    rest = cap["rest"][0]
    assert "transaction" in {i["code"] for i in rest.get("interaction", [])}
    patient = next(r for r in rest["resource"] if r["type"] == "Patient")
    assert "everything" in {op["name"] for op in patient.get("operation", [])}
    batch = {"resourceType": "Bundle", "type": "batch",
             "entry": [{"request": {"method": "GET", "url": "Patient?_summary=count"}}]}
    res = requests.post(local_hapi, json=batch, timeout=60, headers={"Content-Type": "application/fhir+json"})
    assert res.status_code == 200, res.text[:300]
    assert res.json()["type"] == "batch-response"
    assert res.json()["entry"][0]["response"]["status"].startswith("200")
