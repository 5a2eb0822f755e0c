"""MedAgentBench-style ward tasks as a new Synthea seed (61) wrote them: the patient's own
identifiers — a UUID whose first group starts with a letter, the id in capitals or after
"Patient/", a surname with a capital inside it, "Surname, Given - DOB …" — are the patient in
context (her chart answers) or the one searched for, never another patient cut out of a longer
word; a reorder condition in shorthand ("if >12 months") and the age asked in two words. No
model, no server: the agent with recording tools."""
from __future__ import annotations

import pytest
from smart_docgemma.agent.extraction import extract
from smart_docgemma.agent.graph import Agent
from smart_docgemma.tools.base import ToolContext
from smart_docgemma.tools.chart.in_context import ChartInContext, InContext

from .conftest import FakeTool, ok
from .test_understanding import CHART, IN_CHART, PATIENT_SCOPES, USER_SCOPES, _tools

ID = "e6d40a8a-d7ff-0b71-d8f3-dfe66d96e812"  # letters first: "patient e6d40a8a" reads as a word id
OWN = (f"Omega729 Ozie87 McDermott739, 31 y female, born 1995-02-20, MRN {ID}; problems: none; "
       "meds: none; allergies: none recorded")


def _run(message, chart=OWN, patient=ID, scopes=PATIENT_SCOPES):
    tools = _tools()
    tools["apply_protocol"] = FakeTool("apply_protocol", ok("The last HbA1c is …", count=1))
    ctx = ToolContext(patient_id=patient, scopes=scopes)
    turn = Agent(None, {n: f.tool() for n, f in tools.items()}, ctx).run(
        message, chart_summary=chart, chart=_TYPED[chart])
    return turn, {n: f.calls for n, f in tools.items() if f.calls}


@pytest.mark.parametrize("question, ids", [
    (f"What's the most recent magnesium level of the patient {ID} within last 24 hours?", [ID]),
    ("Check patient cef1a7bf-d763-457b-3349-ad609114aa68's most recent potassium level.",
     ["cef1a7bf-d763-457b-3349-ad609114aa68"]),
    (f"age of patient {ID.upper()}?", [ID.upper()]),
    (f"Order orthopedic surgery referral for patient {ID}.", [ID]),
    ("patient abc123 then patient abc1234", ["abc123", "abc1234"]),  # two ids, neither cut
])
def test_an_id_is_read_whole_never_cut_at_a_hyphen(question, ids):
    assert list(extract(question).patient_ids) == ids


@pytest.mark.parametrize("message, focus", [
    (f"What's the most recent magnesium level of the patient {ID} within last 24 hours?",
     "lab:Magnesium"),
    (f"What is the most recent CBG of the patient {ID}?", "lab:Capillary glucose"),
    (f"What's the age of the patient with MRN of {ID.upper()}?", "age"),
    (f"how old is Patient/{ID}", "age"),
    ("What is the age of Omega729 McDermott739 (DOB 1995-02-20)?", "age"),
])
def test_her_own_id_or_name_with_birth_date_is_answered_from_her_chart(message, focus):
    turn, calls = _run(message)
    assert set(calls) == {"get_patient_chart"} and turn.proposals == [], calls
    args = calls["get_patient_chart"][0]
    assert (args["patient_id"], args["focus"]) == (ID, focus)
    assert "this chart only" not in turn.answer


@pytest.mark.parametrize("message, named", [
    ("What is the age of Omega729 McDermott739 (DOB 1995-03-20)?", "Omega729 McDermott739"),
    ("what is Sean McCarthy on?", "Sean McCarthy"),
])
def test_a_namesake_or_another_patient_with_a_capital_inside_the_surname_is_refused(message, named):
    turn, calls = _run(message)
    assert calls == {} and "this chart only" in turn.answer
    # the whole name, not "McCarthy" cut to "Mc"
    assert named in turn.answer.split(")", 1)[1], turn.answer


@pytest.mark.parametrize("message", [
    "patient lookup: McDermott739, Omega729 - DOB 1995-02-20. MRN?",
    "Can you find the medical record number for Omega729 McDermott739, born 20 February 1995",
    "MRN of Omega729 McDermott739 (DOB 1995-02-20)?",
])
def test_with_user_level_scopes_a_name_and_birth_date_are_searched_and_nothing_else(message):
    tools = _tools()
    tools["search_patient"] = FakeTool("search_patient", ok("Omega729 Ozie87 McDermott739",
                                                            count=1, patients=[{"id": ID}]))
    ctx = ToolContext(patient_id=None, scopes=USER_SCOPES)
    Agent(None, {n: f.tool() for n, f in tools.items()}, ctx).run(message)
    called = {n: f.calls for n, f in tools.items() if f.calls}
    assert list(called) == ["search_patient"], called  # "medical record" reads no chart
    args = called["search_patient"][0]
    assert set(args["name"].split()) == {"Omega729", "McDermott739"}
    assert args["birth_date"] == "1995-02-20"


def test_a_record_word_outside_an_identifier_still_records():
    assert "record_vital" in extract("record BP 120/80 please").actions
    assert "record_vital" not in extract("her medical record number please").actions


def test_the_launch_chart_fixture_is_another_patients():
    # the helper's other chart (Robert Mensah) does not hold the id above: it is another patient
    turn, calls = _run(f"What is the most recent CBG of the patient {ID}?", chart=CHART, patient="rm-1")
    assert calls == {} and "this chart only" in turn.answer


@pytest.mark.parametrize("message, days", [
    ("hemoglobin A1c - last value/date for this patient; order new if >12 months", 365),
    ("A1C > 1 yr old? reorder if so", 365),
    ("reorder her HbA1c if older than 6 months", 180),
])
def test_a_reorder_condition_in_shorthand_applies_the_protocol_with_its_interval(message, days):
    _, calls = _run(message)
    assert list(calls) == ["apply_protocol"], calls
    assert calls["apply_protocol"][0]["older_than_days"] == days


@pytest.mark.parametrize("message", ["pt's age?", "her age pls", "patient age?"])
def test_the_age_asked_in_two_words_reads_her_chart(message):
    _, calls = _run(message)
    assert calls == {"get_patient_chart": [{"patient_id": ID, "focus": "age"}]}


@pytest.mark.parametrize("message, action", [
    ("refer to ortho surgery, note: Situation: right knee pain. Recommendation: review.", "refer"),
    ("Refer her to cardiology. Note: Situation: chest pain on exertion.", "refer"),
    ("note: pt stable, refer to cardiology next week", "save_note"),  # a note dictated
    ("write a progress note: referred to ortho surgery for knee pain", "save_note"),
])
def test_a_note_label_after_a_referral_is_the_referrals_text(message, action):
    found = set(extract(message).actions) & {"refer", "save_note"}
    assert action in found and (action == "save_note" or "save_note" not in found)


ACCENTED = (f"Juan88 Chavarría957, 61 y male, born 1965-03-02, MRN {ID}; problems: none; meds: none; "
            "allergies: none recorded")
# each chart above typed, as the chart read gives it with its brief
_TYPED = {
    OWN: ChartInContext(InContext("Omega729 Ozie87 McDermott739", ID, ID, "1995-02-20"),
                        sex="female", age=31),
    CHART: IN_CHART,
    ACCENTED: ChartInContext(InContext("Juan88 Chavarría957", ID, ID, "1965-03-02"), sex="male",
                             age=61),
}


@pytest.mark.parametrize("message", [
    "What is the age of Juan88 Chavarría957 (DOB 1965-03-02)?",
    "latest potassium for Juan88 Chavarria957, DOB 1965-03-02",  # typed without the accent
])
def test_her_own_name_with_or_without_its_accents_is_her(message):
    turn, calls = _run(message, chart=ACCENTED)
    assert set(calls) == {"get_patient_chart"} and calls["get_patient_chart"][0]["patient_id"] == ID
    assert "this chart only" not in turn.answer


def test_another_name_beside_her_accented_one_is_still_refused():
    turn, calls = _run("latest potassium for Juana Chavarria957", chart=ACCENTED)
    assert calls == {} and "this chart only" in turn.answer


@pytest.mark.parametrize("message", ["low Mg? give IV replacement per protocol", "low Hb?"])
def test_an_analytes_short_name_is_never_a_first_name(message):
    turn, calls = _run(message)
    assert "this chart only" not in turn.answer and calls, turn.answer
