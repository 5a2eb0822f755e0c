"""Fixtures for the real-model tests: llama-cpp-python's server on the
checksum-verified SmolLM2-135M GGUF (``tests/support/llama_server.py``), a
recording proxy in front of it, the real tool registry over real HAPI, and
the knowledge sources served from recorded API bodies on a local HTTP server.

The server runs with one thread: CI shares its two cores with HAPI and other
test processes, and one llama.cpp thread measured faster there than two.
"""
from __future__ import annotations

import uuid

import pytest
from smart_docgemma.agent.graph import Agent
from smart_docgemma.agent.model import ModelClient
from smart_docgemma.fhir import FhirGateway
from smart_docgemma.proposals.store import proposal_store
from smart_docgemma.smart.scopes import GrantedScopes
from smart_docgemma.tools.base import ToolContext
from smart_docgemma.tools.registry import tools_for
from smart_docgemma.tools.sources.http import KnowledgeHttp
from tests.bench.knowledge import recorded_sources
from tests.realmodel.recording import RecordingProxy
from tests.support.launch_context import PATIENT_SCOPES, new_patient
from tests.support.llama_server import small_model


@pytest.fixture(scope="session")
def llama_endpoint():
    """The running small-model server (``EmbeddedModel``: .endpoint, .model, .dialect)."""
    with small_model(n_ctx=2048, threads=1) as model:
        yield model


@pytest.fixture(scope="session")
def recorder(llama_endpoint):
    proxy = RecordingProxy(llama_endpoint.endpoint).start()
    yield proxy
    proxy.stop()


@pytest.fixture(scope="session")
def real_model(recorder, llama_endpoint) -> ModelClient:
    """One client for the session, as the app builds it: dialect ``auto`` (probed once)."""
    return ModelClient(recorder.url, model=llama_endpoint.model, dialect="auto",
                       timeout=180, retries=1)


@pytest.fixture(scope="session")
def knowledge_sources():
    """App config pointing every knowledge source at one real recorded body (tests/bench/knowledge)."""
    with recorded_sources() as config:
        yield config


@pytest.fixture
def session_ctx(fhir_base, knowledge_sources, app, tmp_path):
    """A launch on a fresh patient with every scope the app asks for: real tools."""
    cfg = dict(knowledge_sources)
    cfg.update(CACHE_PATH=str(tmp_path / "knowledge-cache"), KNOWLEDGE_CONNECT_TIMEOUT_S=2,
               KNOWLEDGE_READ_TIMEOUT_S=10, KNOWLEDGE_MAX_RETRIES=0)
    http = KnowledgeHttp(cfg)
    scopes = GrantedScopes.parse(PATIENT_SCOPES)
    ctx = ToolContext(patient_id=new_patient(fhir_base, "Realmodel"), scopes=scopes,
                      fhir=FhirGateway(fhir_base, None), http=http, proposals=proposal_store(app),
                      sid=uuid.uuid4().hex, user="Practitioner/dr-okafor", config=cfg)
    yield ctx, tools_for(scopes)
    http.close()


@pytest.fixture
def agent(real_model, session_ctx) -> Agent:
    ctx, tools = session_ctx
    return Agent(real_model, tools, ctx)
