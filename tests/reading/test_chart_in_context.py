"""The chart reaches the reading typed: built once from the chart read (the scenario patients'
own FHIR resources, ``fhir_fixtures/``), with the readers the safety checks use, and consumed by
the reading and the routing without the chart's text being read again."""
from __future__ import annotations

import json
from dataclasses import replace

from smart_docgemma.agent import planning, state
from smart_docgemma.agent.extraction import read
from smart_docgemma.agent.graph import Agent
from smart_docgemma.checks import chart_values
from smart_docgemma.checks.context import HookData
from smart_docgemma.smart.scopes import GrantedScopes
from smart_docgemma.tools.base import ToolContext
from smart_docgemma.tools.chart.in_context import ChartInContext, InContext

from ..agent.conftest import FakeTool, ok
from ..support.fixture_charts import FIXTURES, chart

SCOPES = GrantedScopes.parse("launch openid fhirUser patient/*.rs patient/MedicationRequest.cu")


def test_her_medications_are_typed_with_generic_name_rxnorm_code_and_dose():
    mensah = chart("02-warfarin.json").in_context
    assert mensah.drugs == ("warfarin", "aspirin")
    warfarin = mensah.medications[0]
    assert (warfarin.text, warfarin.rxnorm) == ("warfarin sodium 5 MG Oral Tablet", "855332")
    assert warfarin.dose == "5 mg once per day"


def test_who_she_is_comes_from_her_patient_resource():
    mensah = chart("02-warfarin.json").in_context
    assert mensah.patient == InContext(name="Robert Mensah", id="pt-warfarin", mrn="MRN-100587",
                                       born="1950-09-30")
    assert mensah.sex == "male" and mensah.age is not None and mensah.age >= 76
    assert mensah.read and not ChartInContext().read


def test_the_latest_results_are_typed_with_unit_and_date():
    inr = chart("02-warfarin.json").in_context.result("6301-6")
    assert inr is not None and (inr.value, inr.unit, inr.taken) == (3.4, "{INR}", "2026-10-05")
    thompson = chart("01-ckd-elder.json").in_context
    egfr = thompson.result("33914-3")
    assert egfr is not None and (egfr.analyte, egfr.value) == ("eGFR", 38.0)
    assert thompson.result("2160-0") is not None and thompson.result("6301-6") is None


def test_the_weight_is_the_latest_in_kg_with_its_date_as_the_checks_read_it():
    """Kofi was weighed three times: the reading's weight is the newest, the one the paediatric
    dose check works the dose from."""
    kofi = chart("09-child-weights.json")
    assert kofi.in_context.weight is not None
    assert (kofi.in_context.weight.kg, kofi.in_context.weight.taken) == (20.1, "2026-11-19")
    bundle = json.loads((FIXTURES / "09-child-weights.json").read_text())
    checked = chart_values.latest_weight(HookData({"weight": [
        e["resource"] for e in bundle["entry"] if e["resource"]["resourceType"] == "Observation"]}))
    assert checked is not None
    assert (checked.kg, checked.when.isoformat()) == (20.1, "2026-11-19")
    assert chart("02-warfarin.json").in_context.weight is None  # never weighed: no weight


def test_pregnancy_conditions_and_allergies_are_typed():
    amara = chart("08-pregnant.json").in_context
    assert amara.pregnant and "Pregnancy" in [c.text for c in amara.conditions]
    assert not chart("02-warfarin.json").in_context.pregnant
    grace = chart("03-penicillin-allergy.json").in_context
    assert [(a.substance, a.criticality, a.no_known) for a in grace.allergies] == [
        ("Penicillin", "high", False)]


def test_the_typed_chart_survives_the_turn_store():
    mensah = chart("02-warfarin.json")
    turn = state.new_turn("meds?", patient_id="pt-warfarin", chart_summary=mensah.brief,
                          chart=mensah.in_context)
    assert state.loads(state.dumps(turn)).chart == mensah.in_context


def test_who_the_message_is_about_is_read_against_the_typed_chart():
    """Her name, MRN and birth date are the typed chart's: no brief text is read for them."""
    mensah = chart("02-warfarin.json").in_context
    assert read("does Grace Adeyemi have any allergies?", chart=mensah).subject.about == "other"
    assert read("MRN-100587 any allergies on file?", chart=mensah).subject.about == "patient"
    namesake = read("Robert Mensah born 1951-09-30, meds?", chart=mensah).subject
    assert (namesake.about, namesake.reason) == ("other", "birth_date")
    # the same message in a turn with only the brief and no typed chart names nobody as her
    turn = state.new_turn("MRN-100587 any allergies on file?", patient_id="pt-warfarin",
                          chart_summary=chart("02-warfarin.json").brief)
    assert planning.in_context(turn) == InContext(id="pt-warfarin")


def test_one_drug_with_her_medicines_is_checked_against_the_typed_medications():
    """Her medications are the typed chart's, every active one (the brief lists six at most);
    the interaction check takes the drug asked and the first of them, as many as it holds."""
    mensah = chart("02-warfarin.json")
    more = tuple(replace(mensah.in_context.medications[0], text=f"drug {i}", names=(name,))
                 for i, name in enumerate(("metoprolol", "atorvastatin", "omeprazole",
                                           "amlodipine", "lisinopril", "furosemide")))
    typed = replace(mensah.in_context, medications=mensah.in_context.medications + more)
    assert len(typed.drugs) == 8
    check = FakeTool("check_drug_interactions", ok("Major interaction", count=1))
    ctx = ToolContext(patient_id="pt-warfarin", scopes=SCOPES)
    Agent(None, {"check_drug_interactions": check.tool()}, ctx).run(
        "can he have ibuprofen with his current meds?", chart_summary=mensah.brief, chart=typed)
    assert check.calls == [{"drug_names": ["ibuprofen", *typed.drugs[:5]]}]


def test_a_turn_stored_before_the_chart_was_typed_still_loads():
    """A stored turn's request held her medications as generic names: it loads, each a
    medication of that name (a paused turn stored before still resumes)."""
    stored = json.loads(state.dumps(state.new_turn("meds?", patient_id="pt-warfarin")))
    said = read("meds?", chart=chart("02-warfarin.json").in_context)
    stored["request"] = json.loads(state.dumps(replace(state.new_turn("meds?"), request=said)))[
        "request"]
    stored["request"]["chart"]["medications"] = ["warfarin", "aspirin"]
    stored["entities"]["chart_drugs"] = ["warfarin", "aspirin"]
    loaded = state.loads(json.dumps(stored))
    assert loaded.request is not None and loaded.request.chart.drugs == ("warfarin", "aspirin")
