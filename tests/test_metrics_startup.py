"""/metrics of a freshly started ``docgemma`` (gunicorn, 2 workers, multiprocess metrics) lists
every series an operator alerts on before any question is asked: zero values for the known
label sets, request counts and latency by route and status class, model calls by outcome,
the circuit state, and knowledge answers served from offline copies."""
from __future__ import annotations

import json
import os
import re
import sys

import requests

from tests.support.app_process import docgemma
from tests.support.servers import free_port


def test_every_series_is_there_from_start_up(tmp_path, postgres):
    port, dead = free_port(), f"http://127.0.0.1:{free_port()}/v1"
    # PostgreSQL: two workers starting at once on a fresh SQLite file race to create its tables
    config = {"SECRET_KEY": "metrics-test", "DATABASE_URL": postgres.new_database(),
              "CACHE_PATH": str(tmp_path / "cache"), "ENDPOINT": dead}
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DOCGEMMA_", "PROMETHEUS_"))}
    env.update({f"DOCGEMMA_{k}": v if isinstance(v, str) else json.dumps(v) for k, v in config.items()})
    env.update(DOCGEMMA_PORT=str(port), DOCGEMMA_WORKERS="2", DOCGEMMA_THREADS="4",
               PYTHONPATH=os.getcwd())
    command = [sys.executable, "-c", "from smart_docgemma.cli.server import main; main()"]
    with docgemma(command, env, tmp_path) as (url, _log):
        text = requests.get(f"{url}/metrics", timeout=10).text

    def value(series: str) -> float:
        found = re.search(rf"^{re.escape(series)} (\S+)$", text, re.M)
        assert found, f"missing: {series}"
        return float(found.group(1))

    assert value('docgemma_model_calls_total{node="synthesize",outcome="timeout"}') == 0
    assert value('docgemma_model_calls_total{node="intent_classify",outcome="circuit_open"}') == 0
    assert value(f'docgemma_model_circuit_open{{endpoint="{dead}"}}') == 0
    assert value(f'docgemma_model_circuit_transitions_total{{endpoint="{dead}",state="open"}}') == 0
    assert value('docgemma_knowledge_responses_total{served="stale",source="openfda"}') == 0
    assert value('docgemma_knowledge_responses_total{served="too_old",source="ctgov"}') == 0
    assert value('docgemma_model_fallback_turns_total{reason="circuit_open"}') == 0
    assert value("docgemma_turns_interrupted_total") == 0
    assert value('docgemma_turns_total{outcome="failed",route="error"}') == 0
    assert value('docgemma_tool_calls_total{source="knowledge",tool="check_drug_safety"}') == 0
    assert value('docgemma_http_requests_total{endpoint="/api/chat",method="POST",status="5xx"}') == 0
    assert value('docgemma_http_request_seconds_count{endpoint="/api/chat"}') == 0
    assert value('docgemma_http_requests_total{endpoint="/healthz",method="GET",status="2xx"}') >= 1
    assert value('docgemma_http_request_seconds_bucket{endpoint="/healthz",le="0.1"}') >= 1
