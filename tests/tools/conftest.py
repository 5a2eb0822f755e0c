"""Fixtures for the knowledge-source tools: real HTTP against pytest-httpserver
serving recorded API bodies (``recorded/``, provenance in ``recorded/SOURCES.md``).

Each source gets its own path prefix on the one local server (``/openfda``,
``/eutils`` …), so per-source adapters, limits and TTLs stay distinct.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer
from smart_docgemma.tools.base import ToolContext
from smart_docgemma.tools.sources.http import KnowledgeHttp

RECORDED = Path(__file__).with_name("recorded")
PREFIXES = {"OPENFDA_URL": "/openfda", "EUTILS_URL": "/eutils", "EUROPEPMC_URL": "/europepmc",
            "CTGOV_URL": "/ctgov", "RXNAV_URL": "/rxnav"}


def recorded(path: str) -> dict:
    """A recorded response body, parsed (e.g. ``openfda/error_404_not_found.json``)."""
    return json.loads((RECORDED / path).read_text())


def recorded_text(path: str) -> str:
    return (RECORDED / path).read_text()


@pytest.fixture(scope="session")
def make_httpserver():
    """pytest-httpserver, threaded: a handler that sleeps (timeout tests) must not block the next test."""
    server = HTTPServer(threaded=True)
    server.start()
    yield server
    server.clear()
    server.stop()


@pytest.fixture
def knowledge_config(httpserver, tmp_path) -> dict:
    """App-like config pointing every knowledge source at the local server."""
    cfg = {key: httpserver.url_for(prefix) for key, prefix in PREFIXES.items()}
    cfg.update(CACHE_PATH=str(tmp_path / "knowledge-cache"), KNOWLEDGE_CONNECT_TIMEOUT_S=1,
               KNOWLEDGE_READ_TIMEOUT_S=1, KNOWLEDGE_MAX_RETRIES=2)
    return cfg


@pytest.fixture
def make_ctx(knowledge_config):
    """Build a ToolContext (and its KnowledgeHttp) from the test config plus overrides."""
    made = []

    def build(**overrides) -> ToolContext:
        cfg = {**knowledge_config, **{k: v for k, v in overrides.items() if k.isupper()}}
        http = KnowledgeHttp(cfg)
        made.append(http)
        extra = {k: v for k, v in overrides.items() if not k.isupper()}
        return ToolContext(patient_id=None, scopes=None, http=http, config=cfg, **extra)

    yield build
    for http in made:
        http.close()


@pytest.fixture
def ctx(make_ctx) -> ToolContext:
    return make_ctx()


def requests_to(httpserver, prefix: str) -> list:
    """The requests the local server received under one source prefix."""
    return [req for req, _res in httpserver.log if req.path.startswith(prefix)]
