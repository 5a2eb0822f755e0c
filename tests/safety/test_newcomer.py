"""What a newcomer met on a first run: the sandbox launcher's "App launch URL" follows
DOCGEMMA_PORT; ``docgemma-sandbox`` trusts the sandbox it starts, not the default :9000
issuers beside it; warning lines never carry the clinician's search terms in a source URL."""

from __future__ import annotations

import io
import json
import logging

from smart_docgemma import logs


def test_launcher_app_url_follows_docgemma_port(monkeypatch, fhir_base):
    from launch.sandbox import create_sandbox

    monkeypatch.setenv("DOCGEMMA_PORT", "8123")
    page = (
        create_sandbox({"FHIR_UPSTREAM": fhir_base}).test_client().get("/").get_data(as_text=True)
    )
    assert 'value="http://127.0.0.1:8123/launch"' in page and ":8000/launch" not in page


def test_stack_trusts_only_the_sandbox_it_starts(monkeypatch):
    from launch.stack import app_base_url, app_config

    monkeypatch.delenv("DOCGEMMA_ISS_ALLOWLIST", raising=False)
    monkeypatch.setenv("DOCGEMMA_PORT", "8123")
    allow = app_config("http://127.0.0.1:9100/fhir")["ISS_ALLOWLIST"]
    assert allow == ["http://127.0.0.1:9100/fhir", "http://localhost:9100/fhir"]
    assert app_base_url() == "http://127.0.0.1:8123"
    monkeypatch.setenv("DOCGEMMA_ISS_ALLOWLIST", json.dumps(["https://ehr.example/fhir"]))
    assert "https://ehr.example/fhir" in app_config("http://127.0.0.1:9100/fhir")["ISS_ALLOWLIST"]


def test_a_retried_source_request_logs_no_search_terms(tmp_path):
    """urllib3 warns on each retry of a refused connection with the request's path and query;
    the log line keeps the path only."""
    from smart_docgemma.tools.sources.http import KnowledgeHttp, SourceError
    from smart_docgemma.tools.sources.openfda import label_safety

    from tests.support.model_server import refused_url

    stream = io.StringIO()
    handler = logs.configure(logging.INFO, stream)
    try:
        http = KnowledgeHttp(
            {
                "OPENFDA_URL": refused_url(),
                "CACHE_PATH": str(tmp_path / "c"),
                "KNOWLEDGE_CONNECT_TIMEOUT_S": 1,
                "KNOWLEDGE_READ_TIMEOUT_S": 1,
                "KNOWLEDGE_MAX_RETRIES": 1,
            }
        )
        try:
            label_safety(http, "zolpidemcasesecret")
        except SourceError:
            pass
        http.close()
    finally:
        logging.getLogger().removeHandler(handler)
    lines = [json.loads(line) for line in stream.getvalue().splitlines() if line.strip()]
    retries = [r for r in lines if r["level"] == "WARNING" and "label.json" in r["message"]]
    assert retries, stream.getvalue()  # the retry warning was logged…
    assert all("zolpidemcasesecret" not in r["message"] for r in lines)  # …without the term
    assert all("label.json?[query removed]" in r["message"] for r in retries)
