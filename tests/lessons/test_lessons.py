"""The experience library: ratings over HTTP, harvest of verified turns, review, retrieval.

Real HAPI, the scripted model server over real HTTP and recorded knowledge
sources (the same stack as the chat view tests)."""
from __future__ import annotations

import pytest
from smart_docgemma.agent.lesson_search import Lesson, best_match, terms
from smart_docgemma.cli.lessons import main as lessons_cli
from smart_docgemma.lessons.store import lesson_store

from tests.support.chat_session import open_session, scripted_app
from tests.support.chat_session import post_question as ask
from tests.support.model_server import ScriptedModelServer


@pytest.fixture
def lessons_app(app_config, sources):
    with ScriptedModelServer() as srv:
        yield scripted_app(app_config, sources, srv)


@pytest.fixture
def chat(lessons_app, fhir_base):
    client = lessons_app.test_client()
    client.csrf = open_session(lessons_app, client, fhir_base, "pt-warfarin")
    return client




def rate(client, turn_id: str, useful: str, reason: str = "", **headers):
    return client.post(f"/app/turns/{turn_id}/rating", data={"useful": useful, "reason": reason,
                                                             "csrf_token": client.csrf}, headers=headers)


def test_rating_without_javascript_returns_to_the_answer_and_is_shown(chat):
    turn = ask(chat, "Check interactions between warfarin and aspirin")
    res = rate(chat, turn, "yes", "clear and sourced")
    assert res.status_code == 303 and res.headers["Location"].endswith(f"/app#turn-{turn}")
    assert "You rated this answer useful." in chat.get("/app").get_data(as_text=True)


def test_rating_refusals(chat, lessons_app, fhir_base):
    turn = ask(chat, "Check interactions between warfarin and aspirin")
    assert rate(chat, turn, "maybe").status_code == 400
    assert chat.post(f"/app/turns/{turn}/rating", data={"useful": "yes"}).status_code == 403  # no CSRF
    other = lessons_app.test_client()
    other.csrf = open_session(lessons_app, other, fhir_base, "pt-warfarin")
    assert rate(other, turn, "yes").status_code == 404  # another session's turn
    assert rate(chat, "0" * 32, "yes").status_code == 404


def test_verified_turn_becomes_a_pending_lesson_used_only_after_approval(chat, lessons_app, capsys):
    turn = ask(chat, "Check interactions between warfarin and aspirin")
    rate(chat, turn, "yes")
    store = lesson_store(lessons_app)
    [lesson_id] = store.harvest()
    assert store.harvest() == []  # a turn is harvested once
    [pending] = store.list("pending")
    assert pending["tools"][0]["tool"] == "check_drug_interactions"
    assert {"warfarin", "aspirin"} <= {d.lower() for d in pending["tools"][0]["args"]["drug_names"]}
    assert store.approved() == []  # nothing learned is used before a person approves it
    cfg = {k: lessons_app.config[k] for k in ("SECRET_KEY", "DATABASE_URL", "TESTING")}
    assert lessons_cli(["approve", lesson_id, "--by", "Dr Okafor"], config=cfg) == 0
    [approved] = store.approved()
    match = best_match("what are the interactions of aspirin with warfarin?", [approved])
    assert match and match[0].id == lesson_id
    assert lessons_cli(["list", "--status", "approved"], config=cfg) == 0
    assert "check_drug_interactions" in capsys.readouterr().out
    assert lessons_cli(["drop", lesson_id], config=cfg) == 0 and store.approved() == []


def test_a_turn_rated_not_useful_is_never_a_lesson(chat, lessons_app):
    turn = ask(chat, "Check interactions between warfarin and aspirin")
    rate(chat, turn, "no", "missed the bleeding risk")
    assert lesson_store(lessons_app).harvest() == []
    assert lesson_store(lessons_app).signals()["rated_not_useful"] == 1


def test_unknown_lesson_is_a_clear_cli_error(lessons_app, capsys):
    cfg = {k: lessons_app.config[k] for k in ("SECRET_KEY", "DATABASE_URL", "TESTING")}
    assert lessons_cli(["approve", "nope"], config=cfg) == 2
    assert "No lesson nope" in capsys.readouterr().err


LIBRARY = [
    Lesson("ddi", "Check interactions between warfarin and aspirin",
           ({"tool": "check_drug_interactions", "args": {"drug_names": ["warfarin", "aspirin"]}},)),
    Lesson("trials", "Are there recruiting trials for glioblastoma?",
           ({"tool": "find_clinical_trials", "args": {"condition": "glioblastoma"}},)),
    Lesson("rx", "Prescribe metformin 500 mg twice daily",
           ({"tool": "prescribe_medication", "args": {"medication": "metformin"}},)),
    Lesson("lit", "Find recent studies on SGLT2 inhibitors in heart failure",
           ({"tool": "search_medical_literature", "args": {"query": "SGLT2 inhibitors heart failure"}},)),
]


@pytest.mark.parametrize("question, expected", [
    ("any interaction between aspirin and warfarin?", "ddi"),
    ("ddi check: warfarin + asa", "ddi"),
    ("recruiting studies for glioblastoma patients", "trials"),
    ("glioblastoma trials near me?", "trials"),
    ("start metformin 500 mg bd", "rx"),
    ("evidence for SGLT2 inhibitors in HFrEF", "lit"),
    ("papers on sglt2 inhibitors and heart failure", "lit"),
])
def test_library_retrieves_the_right_example_for_paraphrases(question, expected):
    lesson, score = best_match(question, LIBRARY, min_score=0.3)
    assert lesson.id == expected, (question, lesson.id, score)


def test_library_stays_silent_on_unrelated_questions_and_unavailable_tools():
    assert best_match("what is hypertension?", LIBRARY) is None
    assert best_match("Check interactions between warfarin and aspirin", LIBRARY,
                      available={"find_clinical_trials"}) is None


def test_terms_fold_plurals_and_shorthand_but_keep_drug_names():
    assert terms("DDIs of the pt's meds") == ["interaction", "medication"]
    assert terms("interactions") == ["interaction"] and terms("lisinopril") == ["lisinopril"]
