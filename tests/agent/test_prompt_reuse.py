"""Through the chat as a clinician uses it (the page's read of the chart, the turn store's
history): the answer's prompt of a question starts with the whole answer's prompt of the
question before, so a model server that keeps computed prompts computes only the last answer
and the new question — the chart, in the fixed part, once per session."""
from __future__ import annotations

import time

import pytest

from tests.support.chat_session import open_session, post_question, scripted_app
from tests.support.model_server import ScriptedModelServer


@pytest.fixture
def srv():
    with ScriptedModelServer() as server:
        yield server


def _synthesis(srv, since: int) -> list[dict]:
    (request,) = [r for r in srv.requests[since:] if r.get("stream")]
    return request["messages"]


def test_each_answer_prompt_starts_with_the_one_before_and_the_chart_is_read_once(app_config, sources, srv,
                                                                                  fhir_base):
    app = scripted_app(app_config, sources, srv)
    client = app.test_client()
    client.csrf = open_session(app, client, fhir_base, "pt-warfarin")
    assert client.get("/app").status_code == 200  # the page reads the chart for the first question
    prompts = []
    for question in ("what are her active medications?", "summarise this patient", "any allergies?"):
        srv.say(f"Answer to: {question}")
        since = len(srv.requests)
        post_question(client, question)
        prompts.append(_synthesis(srv, since))
    for before, now in zip(prompts, prompts[1:], strict=False):
        assert now[:len(before)] == before  # the earlier prompt whole, then its answer, then the question
        assert [m["role"] for m in now[len(before):]] == ["assistant", "user"]
    fixed = prompts[0][0]["content"]
    assert "warfarin sodium 5 MG Oral Tablet" in fixed
    assert all("warfarin sodium 5 MG" not in m["content"] for p in prompts for m in p[1:])


def test_opening_the_assistant_computes_the_first_answer_prompt_fixed_part(app_config, sources, srv, fhir_base):
    app = scripted_app(app_config, sources, srv)
    client = app.test_client()
    client.csrf = open_session(app, client, fhir_base, "pt-warfarin")
    assert client.get("/app").status_code == 200
    deadline = time.monotonic() + 10
    while not any(r.get("max_tokens") == 1 for r in srv.requests) and time.monotonic() < deadline:
        time.sleep(0.05)
    (prefill,) = [r for r in srv.requests if r.get("max_tokens") == 1]
    srv.say("Warfarin and aspirin.")
    since = len(srv.requests)
    post_question(client, "what are her active medications?")
    first = _synthesis(srv, since)
    assert prefill["messages"][0] == first[0]  # the fixed part, byte for byte: computed before the question
    assert "warfarin sodium 5 MG Oral Tablet" in prefill["messages"][0]["content"]


def test_no_prefill_when_it_is_switched_off(app_config, sources, srv, fhir_base):
    app = scripted_app(app_config, sources, srv, MODEL_PREFILL_ON_OPEN=False)
    client = app.test_client()
    client.csrf = open_session(app, client, fhir_base, "pt-warfarin")
    assert client.get("/app").status_code == 200
    time.sleep(1)
    assert not [r for r in srv.requests if r.get("max_tokens") == 1]


def _wait_for(srv, count: int) -> list[dict]:
    deadline = time.monotonic() + 10
    while len([r for r in srv.requests if r.get("max_tokens") == 1]) < count and time.monotonic() < deadline:
        time.sleep(0.05)
    return [r for r in srv.requests if r.get("max_tokens") == 1]


def test_after_each_answer_the_next_turns_prompts_are_computed_up_to_its_question(app_config, sources, srv,
                                                                                  fhir_base):
    app = scripted_app(app_config, sources, srv, MODEL_PREFILL_ON_OPEN=False, MODEL_PREFILL_NEXT_TURN=True)
    client = app.test_client()
    client.csrf = open_session(app, client, fhir_base, "pt-warfarin")
    srv.say("She takes warfarin 5 mg daily.")
    post_question(client, "what are her active medications?")
    intent_prefill, answer_prefill = _wait_for(srv, 2)[-2:]
    srv.say("Hypertension is a persistently raised blood pressure.")
    since = len(srv.requests)
    post_question(client, "what is hypertension?")
    (intent,) = [r for r in srv.requests[since:] if r.get("max_tokens") != 1 and not r.get("stream")
                 and "intent" in str(r.get("response_format"))]
    answer = _synthesis(srv, since)
    for prefill, real in ((intent_prefill["messages"], intent["messages"]), (answer_prefill["messages"], answer)):
        # everything before the question, byte for byte: the turn before (its question and answer)
        # was computed while the clinician read the answer
        assert prefill[:-1] == real[:-1]
        assert real[-1]["content"].startswith(prefill[-1]["content"])
        assert [m["role"] for m in prefill] == ["system", "user", "assistant", "user"]
    assert "She takes warfarin 5 mg daily." in answer_prefill["messages"][2]["content"]


def test_no_next_turn_prefill_when_it_is_switched_off(app_config, sources, srv, fhir_base):
    app = scripted_app(app_config, sources, srv, MODEL_PREFILL_ON_OPEN=False, MODEL_PREFILL_NEXT_TURN=False)
    client = app.test_client()
    client.csrf = open_session(app, client, fhir_base, "pt-warfarin")
    post_question(client, "what are her active medications?")
    time.sleep(1)
    assert not [r for r in srv.requests if r.get("max_tokens") == 1]
