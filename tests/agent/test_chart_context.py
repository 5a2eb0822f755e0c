"""The answer's prompt carries the session's chart once, in its fixed part: a question about the
chart costs its own words, the model still reads everything the turn read, newer data wins, and
the notes (untrusted text) never become standing context.

Real chart reads over HAPI (the fixtures' warfarin and prompt-injection patients), the real
agent over HTTP to the scripted model server; what is checked is the requests it sent."""
from __future__ import annotations

import requests
from smart_docgemma.agent.graph import Agent
from smart_docgemma.fhir import FhirGateway
from smart_docgemma.grounding.evidence import turn_evidence
from smart_docgemma.smart.scopes import GrantedScopes
from smart_docgemma.tools.base import ToolContext
from smart_docgemma.tools.chart.chart import read_for_turn
from smart_docgemma.tools.registry import tools_for

from tests.support.launch_context import PATIENT_SCOPES, clone_patient
from tests.support.model_server import ScriptedModelServer

from .conftest import client_for

MEDS = "what are her active medications?"


def _ctx(fhir_base: str, patient: str) -> tuple[ToolContext, dict]:
    scopes = GrantedScopes.parse(PATIENT_SCOPES)
    return ToolContext(patient_id=patient, scopes=scopes, fhir=FhirGateway(fhir_base, None)), tools_for(scopes)


def _synthesis(srv: ScriptedModelServer, agent: Agent, question: str, chart, history=()) -> tuple[dict, object]:
    srv.say("Answer.")
    before = len(srv.requests)
    turn = agent.run(question, history=list(history), chart_summary=chart.brief, chart_text=chart.text,
                     chart=chart.in_context)
    (request,) = [r for r in srv.requests[before:] if r.get("stream")]
    return request, turn


def test_a_chart_question_costs_its_own_words_and_the_fixed_part_is_the_same_every_turn(fhir_base):
    ctx, tools = _ctx(fhir_base, "pt-warfarin")
    chart = read_for_turn(ctx)
    with ScriptedModelServer() as srv:
        agent = Agent(client_for(srv, timeout=10), tools, ctx)
        first, turn = _synthesis(srv, agent, "summarise this patient", chart)
        second, _ = _synthesis(srv, agent, MEDS, chart,
                               [{"role": "user", "content": "summarise this patient"},
                                {"role": "assistant", "content": turn.answer}])
    fixed = first["messages"][0]["content"]
    assert fixed == second["messages"][0]["content"]  # byte for byte: computed once per session
    assert "warfarin sodium 5 MG Oral Tablet" in fixed and "aspirin 81 MG" in fixed
    asked = second["messages"][-1]["content"]
    assert MEDS in asked
    assert "As in the patient's chart above:" in asked and "Active medications (2)" in asked
    assert "warfarin sodium 5 MG" not in asked  # not computed twice
    # a fact the model read in the fixed part is evidence for the answer's checker
    assert any("aspirin 81 MG" in e.text for e in turn_evidence(turn.state, None))


def test_a_chart_changed_since_the_session_read_it_is_read_in_full(fhir_base):
    patient = clone_patient(fhir_base, "pt-warfarin")
    ctx, tools = _ctx(fhir_base, patient)
    chart = read_for_turn(ctx)  # the session's read: two medications
    new = {"resourceType": "MedicationRequest", "status": "active", "intent": "order",
           "subject": {"reference": f"Patient/{patient}"},
           "medicationCodeableConcept": {"text": "amiodarone 200 MG Oral Tablet"}}
    requests.post(f"{fhir_base}/MedicationRequest", json=new, timeout=30,
                  headers={"Content-Type": "application/fhir+json"}).raise_for_status()
    with ScriptedModelServer() as srv:
        request, _ = _synthesis(srv, Agent(client_for(srv, timeout=10), tools, ctx), MEDS, chart)
    asked = request["messages"][-1]["content"]
    assert "amiodarone 200 MG" not in request["messages"][0]["content"]
    assert "amiodarone 200 MG" in asked and "warfarin sodium 5 MG" in asked  # the newer section, whole


def test_notes_are_read_with_the_question_never_kept_in_the_fixed_part(fhir_base):
    ctx, tools = _ctx(fhir_base, "pt-injection")
    chart = read_for_turn(ctx)
    assert "Recent notes" in chart.text
    with ScriptedModelServer() as srv:
        request, _ = _synthesis(srv, Agent(client_for(srv, timeout=10), tools, ctx), "summarise this patient", chart)
    fixed, asked = request["messages"][0]["content"], request["messages"][-1]["content"]
    assert "Recent notes" not in fixed
    assert "Recent notes" in asked  # screened as this turn's tool result, every time it is read


def test_a_model_whose_context_cannot_hold_the_whole_chart_reads_it_in_brief(fhir_base):
    ctx, tools = _ctx(fhir_base, "pt-warfarin")
    chart = read_for_turn(ctx)
    with ScriptedModelServer() as srv:
        agent = Agent(client_for(srv, timeout=10, context_tokens=4096), tools, ctx)
        request, _ = _synthesis(srv, agent, MEDS, chart)
    fixed, asked = request["messages"][0]["content"], request["messages"][-1]["content"]
    assert chart.brief in fixed and "Labs (oldest" not in fixed
    assert "warfarin sodium 5 MG" in asked and "As in the patient's chart above" not in asked  # read whole
