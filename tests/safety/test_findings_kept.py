"""Findings cannot be lost: a model answering over real HTTP (the scripted OpenAI-compatible
server) that leaves out a critical finding the tools returned still produces an answer holding
it, visibly added by code; the page says which model answers ("small test model" for the
plumbing models)."""

from __future__ import annotations

import pytest
from smart_docgemma.checks.mentions import HEADING

from tests.safety import charts
from tests.support.chat_session import open_session, post_question, scripted_app
from tests.support.model_server import ScriptedModelServer

SMALL = "HuggingFaceTB/SmolLM2-135M-Instruct"
PREGNANT_ON_LISINOPRIL = {
    "id": "kept-pregnant",
    "chart": {"age": 31, "sex": "female", "pregnant": True, "meds": ["lisinopril"]},
}


@pytest.fixture
def srv():
    with ScriptedModelServer(model=SMALL) as server:
        yield server


@pytest.fixture
def chat(app_config, sources, srv, fhir_base):
    app = scripted_app(app_config, sources, srv, MODEL=SMALL)
    client = app.test_client()
    client.patient = charts.load(fhir_base, PREGNANT_ON_LISINOPRIL)
    client.csrf = open_session(app, client, fhir_base, client.patient)
    client.app = app
    return client


def answer(client, message: str) -> str:
    from smart_docgemma.turns.store import turn_store

    turn_id = post_question(client, message)
    with client.app.app_context():
        return turn_store(client.app).get(turn_id).turn.answer


def test_a_critical_finding_the_model_left_out_is_added_to_the_answer(chat, srv):
    srv.say("Lisinopril is a well tolerated ACE inhibitor; continue the current dose.")
    text = answer(chat, "Is her lisinopril safe?")
    assert text.startswith("Lisinopril is a well tolerated ACE inhibitor")  # the model's words stay
    assert HEADING in text
    added = text.split(HEADING, 1)[1]
    assert "CRITICAL — " in added and "lisinopril" in added.lower() and "pregnan" in added.lower()


def test_a_finding_the_model_did_state_is_not_repeated(chat, srv):
    srv.say(
        "Avoid lisinopril: she is pregnant and ACE inhibitors cause fetal renal toxicity. "
        "Switch to labetalol."
    )
    text = answer(chat, "Is her lisinopril safe?")
    assert HEADING not in text


def test_the_asked_pair_is_answered_and_its_avoid_finding_kept(chat, srv):
    srv.say("These two can be taken together.")
    text = answer(chat, "Any interaction between warfarin and aspirin?")
    added = text.split(HEADING, 1)[1] if HEADING in text else ""
    assert "warfarin" in added.lower() and "aspirin" in added.lower() and "CRITICAL — " in added


def test_the_page_names_the_model_and_says_a_small_test_model_is_one(chat, srv):
    srv.say("Noted.")
    answer(chat, "Is her lisinopril safe?")
    html = chat.get("/app").get_data(as_text=True)
    assert f"Answers are written by <strong>{SMALL} (small test model)</strong>" in html
    assert f"Answered by {SMALL} (small test model)" in html and "Model unavailable" not in html
