"""One degraded path, whatever the cause: a configured model that refuses connections, times out,
answers 5xx or answers unusable output answers the turn exactly as no-model mode (same tools,
same arguments, same templated answer), labelled; the circuit breaker stops calling a dead
endpoint, probes it in the background and closes when it answers; a slow model is reported."""
from __future__ import annotations

import time

import pytest
from smart_docgemma.agent.model import ModelClient
from smart_docgemma.tools.base import ToolResult

from tests.support.model_server import ScriptedModelServer, http_error, refused_url, reply
from tests.support.servers import free_port

from .conftest import FakeTool, make_agent, ok

DEGRADED = "Model unavailable — summary of tool results, no AI interpretation."
# Questions once answered "No information source matched" with a dead endpoint,
# and a few of each kind that code can route.
QUESTIONS = [
    "any allergies on file?",
    "Find recent studies on SGLT2 inhibitors in CKD",
    "pubmed: dapagliflozin heart failure outcomes",
    "note: pt counselled on diet and exercise, f/u 6 weeks",
    "FDA warnings for dofetilide",
    "Check interactions between warfarin and aspirin",
    "recruiting trials for glioblastoma",
    "What is hypertension?",
]


def tools() -> list[FakeTool]:
    proposal = ToolResult(status="proposal", text="Clinical note prepared.", proposal_id="p-1")
    return [FakeTool("get_patient_chart", ok("Allergies: penicillin (rash).", count=None)),
            FakeTool("search_medical_literature", ok("3 articles.", count=3)),
            FakeTool("find_clinical_trials", ok("2 trials.", count=2)),
            FakeTool("check_drug_safety", ok("BOXED WARNING: QT prolongation.", count=None)),
            FakeTool("check_drug_interactions", ok("Bleeding risk.", count=None)),
            FakeTool("save_clinical_note", proposal)]


def run(model, question: str, **kw):
    fakes = tools()
    turn = make_agent(model, *fakes, **kw).run(question)
    calls = [(f.name, c) for f in fakes for c in f.calls]
    return turn, calls


def client(url: str, **kw) -> ModelClient:
    opts = {"dialect": "json_schema", "timeout": 2, "retries": 1} | kw
    return ModelClient(url, model="google/medgemma-1.5-4b-it", **opts)


@pytest.mark.parametrize("question", QUESTIONS)
def test_a_refused_endpoint_answers_exactly_as_no_model_mode(question):
    expected, expected_calls = run(None, question)
    turn, calls = run(client(refused_url()), question)
    assert calls == expected_calls
    assert turn.answer == expected.answer and DEGRADED in turn.answer
    assert turn.degraded and turn.state.degraded_reason
    assert any(e["type"] == "model_fallback" for e in turn.events)


@pytest.mark.parametrize("how", ["http_500", "timeout", "invalid"])
def test_5xx_timeout_and_unusable_output_answer_as_no_model_mode(how):
    question = "Find recent studies on SGLT2 inhibitors in CKD"
    expected, expected_calls = run(None, question)
    with ScriptedModelServer() as srv:
        if how == "http_500":
            srv.inject(http_error(500), times=20)
        elif how == "timeout":
            srv.inject(reply("{}", delay=1.0), times=20)
        else:  # every reply breaks every schema
            srv.inject(reply("this is not json"), times=20)
        turn, calls = run(client(srv.url, timeout=0.4), question)
    assert calls == expected_calls and turn.answer == expected.answer
    assert turn.degraded and DEGRADED in turn.answer


def test_a_source_already_consulted_is_not_consulted_again():
    """The model failed after the tool ran (classifying its result): the no-model answer uses
    that run; nothing runs twice."""
    with ScriptedModelServer() as srv:
        srv.script("ResultAssessment", "garbage", "garbage")
        safety = FakeTool("check_drug_safety", ok("BOXED WARNING: QT prolongation.", count=None))
        turn = make_agent(client(srv.url), safety).run("FDA warnings for dofetilide")
        assert len(srv.requests_for("ResultAssessment")) == 2
    assert safety.calls == [{"drug_name": "dofetilide"}]
    assert turn.degraded and "BOXED WARNING: QT prolongation." in turn.answer


def test_the_circuit_opens_stops_calling_probes_and_closes_when_the_model_answers():
    port = free_port()
    model = client(f"http://127.0.0.1:{port}/v1", retries=0, circuit_failures=2,
                   circuit_cooldown=0.5)
    first, _ = run(model, "What is hypertension?")
    second, _ = run(model, "What is hypertension?")  # the second failure opens the circuit
    assert first.degraded and second.degraded and model.circuit.is_open
    with ScriptedModelServer(port=port) as srv:
        third, _ = run(model, "What is hypertension?")
        # no call, so no timeout paid (a wall-clock bound here failed on a loaded machine)
        assert third.degraded and third.model_calls == 0 and srv.requests == []
        deadline = time.monotonic() + 10
        while model.circuit.is_open and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not model.circuit.is_open  # the background probe found it answering
        srv.script("IntentClassification", {"intent": "DIRECT", "task_summary": "definition"})
        srv.say("Hypertension is persistently raised blood pressure.")
        fourth, _ = run(model, "What is hypertension?")
    assert not fourth.degraded
    assert fourth.answer == "Hypertension is persistently raised blood pressure."


def test_a_slow_first_token_is_reported_while_waiting():
    seen: list[dict] = []
    with ScriptedModelServer() as srv:
        srv.script("IntentClassification", {"intent": "DIRECT", "task_summary": "definition"})
        srv.say(reply("Hypertension is raised blood pressure.", delay=0.8))
        model = client(srv.url, first_token_s=0.3)
        turn = make_agent(model).run("What is hypertension?", emit=seen.append)
    assert turn.answer == "Hypertension is raised blood pressure."
    slow = [e for e in seen if e["type"] == "model_slow"]
    assert slow == [{"type": "model_slow", "node": "synthesize", "seconds": 0.3}]
