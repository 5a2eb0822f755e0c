"""Shared fixtures: a real HAPI FHIR server with the scenario fixtures loaded,
the app factory, and helpers that serve apps over real HTTP.

The FHIR server is chosen by ``launch.upstream.start_upstream``:
``FHIR_UPSTREAM_URL`` → testcontainers HAPI when Docker answers → the
project's own HAPI JPA module built with Maven. It starts once per session.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from tests.support.servers import serve

# Benchmarks run with ``python -m tests.bench``, never in the default test run.
collect_ignore = ["bench"]

# Fixtures that start a process the fast loop (``pytest -m "not slow"``) must not wait for: a
# JVM (HAPI, Synthea), the sandbox in front of it, PostgreSQL, Chromium, a model server, a wheel
# built into a virtualenv. A test that uses one, directly or through another fixture, is slow.
HEAVY_FIXTURES = frozenset({
    "fhir_base", "synthea", "sandbox", "postgres", "launched_app", "browser", "page",
    "llama_endpoint", "real_model", "installed", "synthea_codes",
})
# Programs no fast test may start (checked by ``_no_heavy_process`` below).
HEAVY_PROGRAMS = ("java", "mvn", "chromium", "chrome", "initdb", "pg_ctl", "postgres", "node",
                  "npx", "gunicorn", "llama")
HEAVY_MODULES = ("llama_cpp", "smart_docgemma.modelserver", "launch.upstream", "launch.synthea",
                 "gunicorn")
# Folders whose every test drives a real model or a browser (some start it in the test's body).
HEAVY_FOLDERS = ("realmodel", "browser")


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config):
    """One process where a test's own output or a debugger is asked (``-s``, ``--pdb``): the
    two workers of ``setup.cfg`` would swallow what ``-s`` shows. ``-n 0`` asks it too."""
    if config.getoption("capture", None) == "no" or config.getoption("usepdb", False):
        config.option.numprocesses = 0


def pytest_collection_modifyitems(config, items):
    for item in items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        folder = Path(str(item.fspath)).relative_to(Path(__file__).parent).parts[0]
        if (
            HEAVY_FIXTURES & set(getattr(item, "fixturenames", ()))
            or params.get("database") == "postgresql"
            or folder in HEAVY_FOLDERS
        ):
            item.add_marker(pytest.mark.slow)


# Seconds per test file (setup, call and teardown), printed after the slowest tests: where the
# full run's time goes, a file at a time (docs/testing.md, "Where the time goes").
_FILE_SECONDS: dict[str, float] = {}


def pytest_runtest_logreport(report):
    path = report.nodeid.split("::", 1)[0]
    _FILE_SECONDS[path] = _FILE_SECONDS.get(path, 0.0) + report.duration


def pytest_terminal_summary(terminalreporter):
    if len(_FILE_SECONDS) < 20:  # one file or a folder: the slowest tests say it already
        return
    terminalreporter.section("slowest 20 files")
    for path, seconds in sorted(_FILE_SECONDS.items(), key=lambda kv: -kv[1])[:20]:
        terminalreporter.write_line(f"{seconds:8.1f}s  {path}")
    terminalreporter.write_line(f"{sum(_FILE_SECONDS.values()):8.1f}s  in all")


def _heavy(args, env) -> str:
    """The heavy program or module a command starts, or "". A stand-in script a test wrote
    into its temporary folder (a fake ``java`` or ``mvn`` on PATH) is not heavy."""
    words = ([os.fsdecode(args)] if isinstance(args, (str, bytes, os.PathLike))
             else [os.fsdecode(a) for a in args])
    words = " ".join(words).split()
    name = Path(words[0]).name if words else ""
    if name.startswith(HEAVY_PROGRAMS):
        found = shutil.which(words[0], path=(env or os.environ).get("PATH"))
        stand_in = found and Path(found).resolve().is_relative_to(tempfile.gettempdir())
        return "" if stand_in else name
    module = words[words.index("-m") + 1] if "-m" in words[:-1] else ""
    return module if module.startswith(HEAVY_MODULES) else ""


@pytest.fixture(autouse=True)
def _no_heavy_process(request, monkeypatch):
    """A test not marked slow that starts a JVM, a browser, PostgreSQL or a model server fails
    at once, naming the program: the mark is what keeps the fast loop fast."""
    if request.node.get_closest_marker("slow"):
        yield
        return
    real = subprocess.Popen.__init__

    def guarded(self, args, *a, **kw):
        name = _heavy(args, kw.get("env"))
        if name:
            pytest.fail(f"{request.node.nodeid} starts {name}: mark it slow", pytrace=False)
        real(self, args, *a, **kw)

    monkeypatch.setattr(subprocess.Popen, "__init__", guarded)
    yield


@pytest.fixture(scope="session")
def fhir_base(tmp_path_factory):
    """Base URL of a real HAPI FHIR R4 server with ``fhir_fixtures/`` loaded."""
    from launch.fixtures import load_fixtures
    from launch.upstream import start_upstream

    upstream = start_upstream(port=0, log_dir=tmp_path_factory.mktemp("hapi"))
    try:
        load_fixtures(upstream.base_url)
        yield upstream.base_url
    finally:
        upstream.stop()


@pytest.fixture(scope="session")
def synthea(fhir_base):
    """The Synthea population (``launch.synthea``: seed 42, generated once and cached under
    ``~/.cache/smart_docgemma/synthea``) loaded into ``fhir_base`` with stable ids
    (``launch.population``); a ``LoadedPopulation`` whose ``patients`` name ids and bundles."""
    from launch.population import load_population

    return load_population(fhir_base)


@pytest.fixture(scope="session")
def sandbox(fhir_base):
    """The local EHR sandbox (``launch.sandbox``) on real HTTP in front of ``fhir_base``.

    Yields the running server with ``.url`` (sandbox base), ``.fhir_url`` (= ``{url}/fhir``,
    the SMART ``iss``/``aud``) and ``.app`` (the Flask app; ``.app.extensions["sandbox"]``).
    Registered clients come from ``launch/clients.json``; any loopback port matches their
    ``http://127.0.0.1:8000/callback`` redirect URI (RFC 8252 §7.3, LOOPBACK_ANY_PORT).
    """
    from launch.sandbox import create_sandbox

    from tests.support.servers import free_port

    port = free_port()
    app = create_sandbox({"FHIR_UPSTREAM": fhir_base, "HOST": "127.0.0.1", "PORT": port,
                          "PUBLIC_URL": f"http://127.0.0.1:{port}"})
    with serve(app, port) as server:
        server.app = app
        server.fhir_url = f"{server.url}/fhir"
        yield server


@pytest.fixture(scope="session")
def postgres():
    """A throwaway PostgreSQL cluster (``tests.support.postgres``), started on first use."""
    from tests.support.postgres import Cluster

    cluster = Cluster().start()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def database(request, tmp_path):
    """The test's database URL: SQLite in tmp_path, or a fresh PostgreSQL database when a
    module is parametrised with ``tests.support.postgres.BOTH_DATABASES``."""
    if getattr(request, "param", "sqlite") == "postgresql":
        return request.getfixturevalue("postgres").new_database()
    return f"sqlite:///{tmp_path / 'app.sqlite'}"


@pytest.fixture
def app_config(tmp_path, database):
    """Config for a test app: its own database and secret, no model (degraded). No prefill
    of the next turn after an answer: tests that read a turn's model requests would find it
    racing in after the turn (tests/agent/test_prompt_reuse.py turns it on)."""
    return {
        "TESTING": True,
        "SECRET_KEY": "test-secret-key",
        "DATABASE_URL": database,
        "CACHE_PATH": str(tmp_path / "http-cache"),
        "ENDPOINT": None,
        "MODEL_PREFILL_NEXT_TURN": False,
    }


@pytest.fixture
def app(app_config):
    from smart_docgemma import create_app

    return create_app(app_config)


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def live(app):
    """The app served over real HTTP on a free loopback port."""
    with serve(app) as server:
        yield server


@pytest.fixture
def launched_app(app_config, sandbox):
    """The app on a real port, trusting the sandbox as its EHR."""
    from smart_docgemma import create_app

    app_config["ISS_ALLOWLIST"] = [sandbox.fhir_url]
    app = create_app(app_config)
    with serve(app) as server:
        yield app, server.url


@pytest.fixture(scope="module")
def sources():
    """Config pointing every public knowledge source at its recorded real bodies (real HTTP)."""
    from tests.bench.knowledge import recorded_sources

    with recorded_sources() as config:
        yield config

