"""What operations sees: health and readiness probes, Prometheus metrics, JSON logs.

Probes and metrics are read over the app as a load balancer and Prometheus read them;
the logs are read from the JSON handler the ``docgemma`` command installs, at DEBUG.
"""
from __future__ import annotations

import io
import json
import logging
import re
import shutil
import time

import pytest
from smart_docgemma import logs
from smart_docgemma.agent.state import Turn
from smart_docgemma.errors import Conflict
from smart_docgemma.turns.store import turn_store

from tests.support.servers import free_port
from tests.web.test_chat import ask, chat, chat_app, srv  # noqa: F401  (fixtures)


def sample(client, name: str, **labels) -> float:
    """One sample's value from /metrics (0 when the series does not exist yet)."""
    text = client.get("/metrics").get_data(as_text=True)
    want = ",".join(f'{k}="{v}"' for k, v in labels.items())
    for line in text.splitlines():
        if line.startswith(name + ("{" + want + "}" if want else " ")):
            return float(line.rsplit(" ", 1)[1])
    return 0.0


def test_healthz_answers_at_once_and_says_which_part_is_down(app_config):
    from smart_docgemma import create_app

    dead = f"http://127.0.0.1:{free_port()}"
    app = create_app({**app_config, "ENDPOINT": f"{dead}/v1", "ISS_ALLOWLIST": [f"{dead}/fhir"]})
    client = app.test_client()
    res = client.get("/healthz")
    assert res.status_code == 200 and res.json["status"] == "ok"  # liveness: never waits on a part
    deadline = time.monotonic() + 20
    while client.get("/healthz").json["down"] != ["ehr", "model"] and time.monotonic() < deadline:
        time.sleep(0.2)
    parts = client.get("/healthz").json["parts"]
    assert parts == {"database": "up", "ehr": "down", "model": "down"}
    scraped = client.get("/metrics").text
    assert 'docgemma_part_up{part="ehr"} 0.0' in scraped
    assert 'docgemma_part_up{part="database"} 1.0' in scraped


def test_the_parts_probe_stops_when_nobody_reads_it(app_config, monkeypatch):
    """A worker no probe asks stops probing the EHR and the model; the next read starts it."""
    import threading

    from smart_docgemma import create_app
    from smart_docgemma.web import ops

    monkeypatch.setattr(ops, "PARTS_IDLE_S", 0.5)
    monkeypatch.setattr(ops, "PARTS_EVERY_S", 0.1)
    app = create_app(app_config)
    parts = app.extensions  # the probe's state lives with its app

    def probing() -> bool:
        thread = parts["docgemma.parts"]._thread
        return thread is not None and thread.is_alive() and thread in threading.enumerate()

    app.test_client().get("/healthz")
    assert probing()
    deadline = time.monotonic() + 10
    while probing() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not probing()
    app.test_client().get("/healthz")
    assert probing()


def test_readyz_needs_the_database_and_only_reports_fhir_and_model(app_config, tmp_path):
    from smart_docgemma import create_app

    folder = tmp_path / "db"
    folder.mkdir()
    dead = f"http://127.0.0.1:{free_port()}"
    app = create_app({**app_config, "DATABASE_URL": f"sqlite:///{folder / 'app.sqlite'}",
                      "ENDPOINT": f"{dead}/v1", "ISS_ALLOWLIST": [f"{dead}/fhir"]})
    client = app.test_client()
    res = client.get("/readyz")
    assert res.status_code == 200 and res.json["database"]["up"]
    assert res.json["model"] == {"configured": True, "up": False, "error": "ConnectionError",
                                 "circuit": {"state": "closed", "consecutive_failures": 0}}
    assert res.json["fhir"][0]["up"] is False and res.json["fhir"][0]["url"] == f"{dead}/fhir"

    shutil.rmtree(folder)  # the database is gone: new connections fail
    app.extensions["docgemma.storage"].engine.dispose()
    res = client.get("/readyz")
    assert res.status_code == 503 and res.json["database"] == {"up": False}
    assert client.get("/healthz").status_code == 200


def test_metrics_count_refusals_and_finished_turns(app, client):
    store = turn_store(app)
    before = sample(client, "docgemma_rate_limited_total", reason="turn running")
    store.start("sid-metrics", Turn(message="q"), per_minute=5)
    with pytest.raises(Conflict):
        store.start("sid-metrics", Turn(message="q"), per_minute=5)
    assert sample(client, "docgemma_rate_limited_total", reason="turn running") == before + 1
    text = client.get("/metrics").get_data(as_text=True)
    assert client.get("/metrics").content_type.startswith("text/plain")
    names = set(re.findall(r"^# TYPE (\w+)", text, re.M))
    assert {"docgemma_turns_total", "docgemma_model_call_seconds", "docgemma_tool_calls_total",
            "docgemma_tool_errors_total", "docgemma_cds_hook_seconds", "docgemma_cds_cards_total",
            "docgemma_proposal_decisions_total", "docgemma_rate_limited_total", "docgemma_model_calls_total"} <= names
    assert all(n.startswith("docgemma_") for n in names if not n.startswith(("python_", "process_")))


def test_a_turn_with_a_model_and_tools_shows_in_metrics(chat, srv):
    tools = sample(chat, "docgemma_tool_calls_total", source="knowledge", tool="check_drug_interactions")
    srv.say("Warfarin with aspirin raises bleeding risk.")
    assert ask(chat, "Check interactions between warfarin and aspirin").status_code == 200
    text = chat.get("/metrics").get_data(as_text=True)
    assert sample(chat, "docgemma_tool_calls_total", source="knowledge", tool="check_drug_interactions") == tools + 1
    assert re.search(r'^docgemma_turns_total\{outcome="done",route="tool"\} [1-9]', text, re.M)
    assert re.search(r'^docgemma_model_call_seconds_count\{node="\w+"\} [1-9]', text, re.M)


def test_a_turn_paused_on_a_card_and_resumed_counts_once(app, client):
    store, sid = turn_store(app), "sid-paused"
    def ended():
        text = client.get("/metrics").get_data(as_text=True)
        return sum(float(v) for v in re.findall(r'^docgemma_turns_total\{outcome="\w+",route="proposal"\} (\S+)', text,
                                                re.M))
    before = ended()
    turn_id = store.start(sid, Turn(message="Prescribe amoxicillin"), per_minute=5)
    store.finish(turn_id, Turn(message="Prescribe amoxicillin", proposals=["p-1"]), status="paused")
    assert ended() == before  # waiting for the clinician: not over yet
    store.finish(turn_id, Turn(message="Prescribe amoxicillin", proposals=["p-1"]), status="done")
    assert ended() == before + 1


@pytest.fixture
def json_log():
    stream = io.StringIO()
    handler = logs.configure(logging.DEBUG, stream)
    yield stream
    logging.getLogger().removeHandler(handler)


def records(stream) -> list[dict]:
    return [json.loads(line) for line in stream.getvalue().splitlines() if line.strip()]


def test_request_id_is_kept_or_made_and_on_every_record(client, json_log):
    res = client.get("/healthz", headers={"X-Request-ID": "lb-1234.abc"})
    assert res.headers["X-Request-ID"] == "lb-1234.abc"
    line = [r for r in records(json_log) if r["logger"] == "docgemma.request"][-1]
    assert line["request_id"] == "lb-1234.abc" and line["path"] == "/healthz" and line["status"] == 200
    forged = client.get("/healthz", headers={"X-Request-ID": "bad id; <script>" + "x" * 200})
    made = forged.headers["X-Request-ID"]
    assert re.fullmatch(r"[0-9a-f]{32}", made)
    assert records(json_log)[-1]["request_id"] == made


def test_credentials_are_redacted_whatever_a_caller_logs(json_log):
    jwt = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJkci1va2Fmb3IifQ.c2lnbmF0dXJlLWJ5dGVz"
    logging.getLogger("smart_docgemma.smart").warning(
        "refresh failed: Authorization: Bearer abc.def-123 id_token=%s access_token=tok-9 code=xyz", jwt)
    message = records(json_log)[-1]["message"]
    assert not any(s in message for s in (jwt, "abc.def-123", "tok-9", "xyz"))
    assert message.count("[redacted]") == 4


def test_no_token_or_patient_text_in_the_logs_of_a_launch_and_a_question(launched_app, sandbox, json_log):
    import requests

    from tests.support.smart_browser import Browser, ehr_launch, finish, stored_tokens

    app, url = launched_app
    browser = Browser()
    _, hop3 = ehr_launch(browser, sandbox, url)
    assert finish(browser, hop3, url).status_code == 200
    csrf = re.search(r'name="csrf-token" content="([^"]+)"', browser.get(f"{url}/app").text)
    question = "Zorblatt presented with left-sided chest pain radiating to the jaw since Tuesday"
    res = browser.http.post(f"{url}/api/chat", data={"message": question},
                            headers={"X-CSRF-Token": csrf.group(1) if csrf else ""}, timeout=60)
    assert res.status_code == 200, res.text[:300]
    tokens = stored_tokens(app)
    text = json_log.getvalue()
    assert '"docgemma.request"' in text and "/api/chat" in text
    for secret in (tokens["access_token"], tokens["refresh_token"], question, "Zorblatt", "chest pain"):
        assert secret not in text
    assert requests  # real HTTP throughout (browser.http is a requests.Session)
