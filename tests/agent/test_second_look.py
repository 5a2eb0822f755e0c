"""The second look: when it runs, what it finds, and what it costs (model over real HTTP)."""
from __future__ import annotations

import pytest
from smart_docgemma.agent.model import ModelClient
from smart_docgemma.agent.second_look import deterministic, needs_second_look, recommends_change, review

from tests.support.model_server import ScriptedModelServer, http_error


@pytest.fixture
def srv():
    with ScriptedModelServer() as server:
        yield server


@pytest.fixture
def model(srv):
    return ModelClient(srv.url, model=srv.model, dialect="json_schema", retries=0, timeout=5)


@pytest.mark.parametrize("answer", [
    "Stop aspirin and start clopidogrel 75 mg daily.",
    "Consider reducing the warfarin dose and recheck the INR in 3 days.",
    "I recommend switching to apixaban.",
    "- Hold metformin while eGFR is below 30",
    "Avoid NSAIDs in this patient.",
])
def test_therapy_change_recommendations_get_a_second_look(answer):
    assert recommends_change(answer) and needs_second_look(answer, [])


@pytest.mark.parametrize("answer", [
    "Warfarin with aspirin increases bleeding risk (major interaction).",
    "Hypertension is a persistently raised blood pressure.",
    "The patient started warfarin in 2020; the latest INR is 3.4.",
    "Increased INR was noted on 12 March.",
    "Three recruiting trials were found for glioblastoma.",
])
def test_plain_answers_never_pay_for_a_second_look(answer):
    assert not needs_second_look(answer, [])


def test_every_write_proposal_gets_a_second_look():
    assert needs_second_look("Here is the prescription for your approval.", ["p1"])


def test_deterministic_part_needs_no_model_and_is_labelled():
    flags = [{"severity": "critical", "kind": "allergy", "text": "Documented penicillin allergy (anaphylaxis)"},
             {"severity": "warning", "kind": "unchecked", "text": "allergy records could not be read"}]
    look = review(None, "Start amoxicillin 500 mg three times daily", [], flags)
    assert look.severity == "high" and look.reviewed_by == "deterministic"
    assert any("critical allergy finding above" in f for f in look.findings)
    assert any("did not run" in f for f in look.findings)
    assert "Model unavailable" in look.note
    assert deterministic([]).severity == "none"


def test_model_review_is_one_constrained_call_on_the_sources_only(srv, model):
    srv.script("SecondLookReview", {"severity": "high", "unsupported_claims": ["INR target 4-5"],
                                "contradictions": [], "missing_checks": ["renal function"]})
    look = review(model, "Increase warfarin; INR target 4-5.", ["INR 3.4 on 2026-11-01"])
    assert srv.schema_names() == ["SecondLookReview"]  # exactly one call
    sent = srv.requests[0]["messages"][-1]["content"]
    assert "INR 3.4 on 2026-11-01" in sent and "Increase warfarin" in sent
    assert look.severity == "high" and look.reviewed_by == "deterministic+model"
    assert "Not supported by the sources: INR target 4-5" in look.findings
    assert "Check not done: renal function" in look.findings


def test_model_never_lowers_a_deterministic_high(srv, model):
    srv.script("SecondLookReview", {"severity": "none", "unsupported_claims": [], "contradictions": [],
                                "missing_checks": []})
    flags = [{"severity": "critical", "kind": "interaction", "text": "warfarin + ketorolac: bleeding"}]
    assert review(model, "Start ketorolac 10 mg", [], flags).severity == "high"


def test_a_failed_model_call_keeps_the_deterministic_review_and_says_so(srv, model):
    srv.inject(http_error(500), times=3)
    look = review(model, "Stop lisinopril.", ["K+ 6.1"])
    assert look.reviewed_by == "deterministic" and "did not run" in look.note


# ------------------------------------------------------------------ inside the agent
from smart_docgemma.agent.lesson_search import Lesson  # noqa: E402

from tests.agent.conftest import FakeTool, client_for, make_agent, ok, script_trials_turn  # noqa: E402

TRIALS_LESSON = Lesson("l1", "Which studies are enrolling patients with glioblastoma near us?",
                       ({"tool": "find_clinical_trials", "args": {"condition": "glioblastoma"}},))


def test_an_approved_lesson_is_the_worked_example_for_a_paraphrase(srv):
    script_trials_turn(srv)
    trials = FakeTool("find_clinical_trials", ok("3 recruiting trials", count=None))
    agent = make_agent(client_for(srv), trials, FakeTool("check_drug_safety", ok("x")))
    agent.lessons = (TRIALS_LESSON,)
    turn = agent.run("any studies enrolling for glioblastoma?")
    prompt = srv.requests_for("ToolSelection")[0]["messages"][1]["content"]
    assert TRIALS_LESSON.question in prompt
    assert "second_look" not in {e["type"] for e in turn.events}  # a plain answer: no second-look call
    assert "SecondLookReview" not in srv.schema_names()


def test_without_an_approved_lesson_the_stock_example_is_used(srv):
    script_trials_turn(srv)
    trials = FakeTool("find_clinical_trials", ok("3 recruiting trials", count=None))
    make_agent(client_for(srv), trials, FakeTool("check_drug_safety", ok("x"))).run(
        "any studies enrolling for glioblastoma?")
    prompt = srv.requests_for("ToolSelection")[0]["messages"][1]["content"]
    assert TRIALS_LESSON.question not in prompt and "Are there recruiting trials for glioblastoma?" in prompt


def test_a_lesson_never_adds_a_write():
    from types import SimpleNamespace

    from smart_docgemma.agent.nodes import _lesson_hint

    write = Lesson("w", "Prescribe metformin 500 mg twice daily",
                   ({"tool": "prescribe_medication", "args": {"medication_name": "metformin"}},))
    deps = SimpleNamespace(lessons=(write,), tools={"prescribe_medication": object()})
    hint = _lesson_hint("Prescribe metformin 500 mg twice daily", deps)
    assert hint["lesson"]["tool"] == "prescribe_medication" and hint["lesson_tools"] == ()


def test_a_therapy_change_answer_gets_one_second_look_under_it(srv):
    srv.script("IntentClassification", {"intent": "DIRECT", "task_summary": "Warfarin and INR 3.4"})
    srv.say("Consider reducing the warfarin dose and recheck the INR in 3 days.")
    srv.script("SecondLookReview", {"severity": "low", "unsupported_claims": [], "contradictions": [],
                                "missing_checks": ["no INR result was retrieved"]})
    turn = make_agent(client_for(srv)).run("INR is 3.4 on warfarin, what now?")
    assert turn.nodes[-2:] == ["SYNTHESIZE", "SECOND_LOOK"]
    assert srv.schema_names() == ["IntentClassification", "", "SecondLookReview"]
    assert turn.state.second_look.severity == "low" and turn.state.second_look.answer_reviewed
    assert turn.model_calls == 3
