"""The one typed request: a message read once, in four languages, into typed fields; the turn
keeps it and routing and the tools' arguments read it, never the message's words again."""
from __future__ import annotations

import pytest
from smart_docgemma.agent import planning, state
from smart_docgemma.agent.extraction import read
from smart_docgemma.agent.graph import Agent
from smart_docgemma.reading.dosage import Basis
from smart_docgemma.reading.request import Kind, Request
from smart_docgemma.smart.scopes import GrantedScopes
from smart_docgemma.tools.base import ToolContext, ToolResult
from smart_docgemma.tools.words import ward_words
from smart_docgemma.tools.words.windows import Aggregate, Comparator

from ..agent.conftest import FakeTool
from ..support.fixture_charts import chart

READ = chart("02-warfarin.json")  # Robert Mensah's chart as a turn reads it
MENSAH, BRIEF = READ.in_context, READ.brief
SCOPES = GrantedScopes.parse("launch openid fhirUser patient/*.rs patient/ServiceRequest.cu "
                             "patient/Observation.cu patient/MedicationRequest.cu")


@pytest.mark.parametrize("text, tests, when", [
    ("Order a basic metabolic panel tomorrow at 8am", ("basic metabolic panel",),
     "tomorrow at 8am"),
    ("NFS + iono demain à 7h", ("complete blood count", "electrolytes panel"), "demain a 7h"),
    ("hemograma e ureia amanhã às 8h", ("complete blood count", "urea"), "amanha as 8h"),
    ("hemograma y urea mañana a las 8", ("complete blood count", "urea"), "manana a las 8"),
])
def test_a_timed_list_of_tests_is_an_order_with_its_tests_and_time(text, tests, when):
    said = read(text)
    assert said.kind is Kind.ORDER and "order_lab" in said.entities.actions
    assert said.tests == tests
    assert said.ward.when is not None and said.ward.when.startswith(when)


def test_stat_is_the_priority_of_a_bare_test():
    said = read("stat trop")
    assert said.kind is Kind.ORDER and said.ward.priority == "stat"
    assert said.tests == ("troponin i",)


@pytest.mark.parametrize("text, per_day", [
    ("amoxicilina 50 mg/kg/día dividido en 3 tomas x 7 días", 3),
    ("amoxicilline 50 mg/kg/j en 3 prises pendant 7 jours", 3),
    ("amoxicilina 50 mg/kg/dia em 3 tomadas por 7 dias", 3),
    ("amoxicillin 50 mg/kg/day in three divided doses for 7 days", 3),
])
def test_a_days_dose_by_weight_is_typed_with_its_basis_and_doses_a_day(text, per_day):
    dose = read(text).dose
    assert dose is not None
    assert (dose.amount, dose.unit, dose.per_kg, dose.basis) == (50, "mg", True, Basis.PER_DAY)
    assert dose.doses_a_day == per_day and dose.duration == "7 days"


def test_a_plain_dose_is_per_dose_with_route_and_frequency():
    said = read("ceftriaxone 1 g IV q8h")
    assert said.entities.drugs == ("ceftriaxone",)
    dose = said.dose
    assert dose is not None and (dose.amount, dose.unit, dose.per_kg) == (1, "g", False)
    assert dose.basis is Basis.PER_DOSE and dose.route == "IV" and dose.doses_a_day == 3


@pytest.mark.parametrize("text, vitals", [
    ("cbg 3.2 at 0600 - pls record", {"capillary glucose"}),
    ("TA 172/104 FC 96 - registrar", {"blood pressure", "heart rate"}),
])
def test_readings_to_record_are_a_record_with_their_readings(text, vitals):
    said = read(text)
    assert said.kind is Kind.RECORD
    assert {r.vital for r in said.ward.readings} == vitals


def test_another_patient_named_is_another_patient():
    said = read("does Grace Adeyemi have any allergies?", chart=MENSAH)
    assert said.subject.about == "other" and said.subject.others == ("Grace Adeyemi",)


def test_her_own_mrn_asks_what_follows_it():
    said = read("MRN-100587 any allergies on file?", chart=MENSAH)
    assert said.subject.about == "patient" and said.focus == "allergies"
    assert "100587" not in said.asked_of_her


def test_her_name_with_another_birth_date_is_a_namesake():
    said = read("Robert Mensah born 1951-09-30, meds?", chart=MENSAH)
    assert said.subject.about == "other" and said.subject.reason == "birth_date"


def test_a_window_question_carries_its_window_threshold_and_mean():
    low = read("any glucose <4 in the last 48h?")
    assert low.focus is not None and low.focus.startswith("lab:") and low.window.window == "48h"
    assert [(t.comparator, t.value) for t in low.window.thresholds] == [(Comparator.LT, 4.0)]
    mean = read("TA moyenne cette semaine ?")
    assert mean.focus == "vitals:bp" and mean.window.window == "7d"
    assert mean.window.statistic is Aggregate.MEAN


@pytest.mark.parametrize("text, focus", [
    ("med review pls", "review"),
    ("revue des ttt svp - qqch d'inquiétant ?", "review"),  # a "revue" of her list
    ("anything i should worry about in his meds?", "medications"),
])
def test_a_whole_list_review_is_a_review(text, focus):
    said = read(text, chart=MENSAH)
    assert said.kind is Kind.REVIEW and said.focus == focus


def test_general_knowledge_of_a_drug_is_marked():
    assert read("demi-vie de l'apixaban ?").general_knowledge
    assert not read("INR 3,4 - suspendo a varfarina?").general_knowledge


def test_the_request_round_trips_with_the_stored_turn():
    said = read("amoxicilina 50 mg/kg/día dividido en 3 tomas, cbg 3.2 at 0600 - pls record")
    turn = state.merge(state.new_turn("x"), {"request": said, "entities": said.entities})
    assert state.loads(state.dumps(turn)).request == said


class _Count:
    """Counts the calls of one of the ward's word readers (the real one runs)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
        self.calls, real = 0, getattr(ward_words, name)

        def counted(*args: object, **kw: object) -> object:
            self.calls += 1
            return real(*args, **kw)

        monkeypatch.setattr(ward_words, name, counted)


def _order(args, ctx):
    return ToolResult(status="proposal", text="Lab order prepared.", proposal_id="p-1")


def test_a_lab_order_turn_reads_its_tests_and_priority_once(monkeypatch):
    """"Order a basic metabolic panel tomorrow at 8am": the tests and the priority are read
    once, into the turn's request; routing and the tool's arguments read the request (before,
    the tests were read three times on the way to the card and the priority twice)."""
    tests, priority = _Count(monkeypatch, "lab_tests"), _Count(monkeypatch, "priority")
    lab = FakeTool("order_lab_test", run=_order)
    ctx = ToolContext(patient_id="pt-warfarin", scopes=SCOPES)
    turn = Agent(None, {"order_lab_test": lab.tool()}, ctx).run(
        "Order a basic metabolic panel tomorrow at 8am", chart_summary=BRIEF, chart=MENSAH)
    request = turn.state.request
    assert isinstance(request, Request) and request.kind is Kind.ORDER
    assert lab.calls == [{"patient_id": "pt-warfarin", "test": "basic metabolic panel",
                          "when": "tomorrow at 8am"}]
    assert (tests.calls, priority.calls) == (1, 1)


@pytest.mark.parametrize("text, tool, reader, want", [
    ("switch to losartan 50 mg once daily from lisinopril", "switch_medication", "switch_parts",
     {"new_drug": "losartan", "dosage": "50 mg", "frequency": "once daily",
      "replaces": "lisinopril"}),
    ("K is 5.6 - what should I do?", "plan_problem", "plan_problem",
     {"problem": "high_potassium", "stated_value": 5.6, "bleeding": False}),
    ("K 3.1 - replace per protocol", "apply_protocol", "protocol_named",
     {"protocol": "potassium_oral", "stated_value": 3.1}),
])
def test_a_workflow_turn_reads_its_words_once(monkeypatch, text, tool, reader, want):
    """A switch, a problem's plan and a protocol are read once, into the turn's request
    (``Request.workflow``); the tool's arguments are the request's (before, each was read once
    for the route and again for the arguments)."""
    from smart_docgemma.agent import ward_requests

    calls, real = [], getattr(ward_requests, reader)
    monkeypatch.setattr(ward_requests, reader, lambda *a: calls.append(a) or real(*a))
    written = FakeTool(tool, run=_order)
    ctx = ToolContext(patient_id="pt-warfarin", scopes=SCOPES)
    Agent(None, {tool: written.tool()}, ctx).run(text, chart_summary=BRIEF, chart=MENSAH)
    assert written.calls == [{"patient_id": "pt-warfarin", **want}]
    assert len(calls) == 1


def test_planning_reads_the_turns_request_not_the_message():
    """A turn whose request was read from other words is routed by its request: the message
    is never read again downstream."""
    said = read("NFS + iono demain à 7h", chart=MENSAH)
    turn = state.merge(state.new_turn("something else entirely", patient_id="pt-warfarin",
                                      chart_summary=BRIEF, chart=MENSAH),
                       {"request": said, "entities": said.entities})
    args = planning.deterministic_args("order_lab_test", turn)
    assert args is not None and args["test"] == "complete blood count and electrolytes panel"


@pytest.mark.parametrize("text, words", [
    ("cbg 3.2 at 0600 - pls record", "06:00"),
    ("TA 160/95 à 22h", "22:00"),
    ("glicemia capilar 3,2 ontem às 23h - registrar", "23:00 yesterday"),
    ("BP 150/90 HR 88 - record", None),
])
def test_readings_carry_the_time_they_were_taken(text, words):
    """The time a reading was taken is read with it, typed, and the vital-sign tool receives it
    read ("06:00"), never the message's words to read again."""
    said = read(text, chart=MENSAH)
    assert said.ward.readings
    assert (said.ward.taken.words() if said.ward.taken else None) == words
    turn = state.merge(state.new_turn(text, patient_id="pt-warfarin", chart_summary=BRIEF,
                                      chart=MENSAH),
                       {"request": said, "entities": said.entities})
    args = planning.deterministic_args("record_vital_sign", turn)
    assert args is not None and args.get("taken") == words


def test_each_drug_is_named_with_the_dose_written_for_it():
    """"add losartan 50mg od, bp still high on the lisinopril": losartan is ordered, with its
    dose; lisinopril is what she is on, with none."""
    said = read("add losartan 50mg od, bp still high on the lisinopril", chart=MENSAH)
    assert said.ordered == "losartan"
    doses = {d.name: d.dose.written if d.dose else None for d in said.drugs}
    assert doses == {"losartan": "50 mg", "lisinopril": None}


def test_what_a_message_asks_beyond_its_entities_is_read_with_it():
    """The planning's questions of the words (a label asked, her own state, a note's text and
    type, a trials topic) are the request's, read on the message as written."""
    assert read("boxed warning of warfarin and aspirin?").words.label
    kidneys = read("can she have metformin with her kidneys?").words
    assert kidneys.her_state and not kidneys.her_medications
    note = read("Save a progress note: stable overnight, afebrile").words
    assert (note.note_type, note.note_text) == ("progress note", "stable overnight, afebrile")
    assert read("any recruiting trials for glioblastoma?").words.topic == "glioblastoma"
    assert read("document a penicillin allergy").words.allergy_substance


def test_a_turn_stored_before_the_typed_dose_reads_back_its_dose():
    """A paused turn stored with the dose as a dict ({"dose": "500 mg", …}) resumes with the
    same dose, typed."""
    stored = state.to_dict(state.new_turn("x"))
    stored.pop("request")
    stored["entities"]["dose"] = {"dose": "500 mg", "frequency": "tid", "route": "oral"}
    dose = state.from_dict(stored).entities.dose
    assert dose is not None and (dose.written, dose.frequency, dose.route) == (
        "500 mg", "tid", "oral")
