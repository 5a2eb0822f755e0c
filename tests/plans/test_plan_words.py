"""The words that route care gaps, problem plans and reconciliation (no model, no FHIR): the
request in four languages, the value stated, and the neighbours that must not be taken for them."""
from __future__ import annotations

import pytest
from smart_docgemma.agent import ward_requests as w
from smart_docgemma.agent.extraction import read
from smart_docgemma.reading.ward import read_ward
from smart_docgemma.tools.words.windows import asked


def _actions(text: str) -> list[str]:
    """The ward's actions of ``text``, read with its ward words and window as a turn reads them."""
    return w.actions(text, read_ward(text), asked(text))


@pytest.mark.parametrize("text, action", [
    ("care gaps for this diabetic", "care_gaps"), ("what's overdue for her?", "care_gaps"),
    ("quelles sont ses lacunes de soins ?", "care_gaps"), ("¿qué exámenes pendientes tiene?", "care_gaps"),
    ("order the overdue labs", "order_gaps"), ("order the overdue ones", "order_gaps"),
    ("K is 5.6 — what's driving it and what should I do?", "plan"), ("INR 3.4 — plan?", "plan"),
    ("kaliémie à 6,1 : que faire ?", "plan"), ("INR 3,4 — qual a conduta?", "plan"),
    ("he also takes ibuprofen OTC and omeprazole", "reconcile"), ("il prend aussi de l'ibuprofène", "reconcile"),
    ("ela também toma omeprazol sem receita", "reconcile"), ("también toma ibuprofeno sin receta", "reconcile"),
    ("she stopped taking the aspirin", "reconcile"),
])
def test_the_request_is_understood(text, action):
    assert _actions(text) == [action]


@pytest.mark.parametrize("text", [
    "what is her K?", "K low? replace per protocol", "ele toma marevan, pode tomar ibuprofeno?",
    "revisar sus laboratorios y buscar evidencia sobre manejo del potasio en aumento",
    "nota: pcte visto hoy, INR 3,4, plan omitir 1 dosis de warfarina", "is he taking warfarin?",
])
def test_neighbours_are_not_taken_for_them(text):
    assert not set(_actions(text)) & {"care_gaps", "order_gaps", "plan", "reconcile"}


@pytest.mark.parametrize("text, problem, value", [
    ("K is 5.6 — plan?", "high_potassium", 5.6), ("INR 3,4 — conduta?", "high_inr", 3.4),
    ("kaliémie à 6,1 : que faire ?", "high_potassium", 6.1),
    ("hyperkalaemia — what should I do?", "high_potassium", None),
])
def test_the_stated_value_is_read(text, problem, value):
    args = w.arguments("plan_problem", read(text), "p1")
    assert args == {"patient_id": "p1", "problem": problem, "stated_value": value}


@pytest.mark.parametrize("text, parts", [
    ("switch her to labetalol 100 mg twice daily",
     {"new_drug": "labetalol", "dosage": "100 mg", "frequency": "twice daily"}),
    ("switch from lisinopril to methyldopa 250 mg twice daily",
     {"new_drug": "methyldopa", "dosage": "250 mg", "frequency": "twice daily", "replaces": "lisinopril"}),
    ("passer à labétalol 100 mg deux fois par jour",
     {"new_drug": "labetalol", "dosage": "100 mg", "frequency": "deux fois par jour"}),
])
def test_a_switch_reads_the_new_drug_its_dose_and_what_it_replaces(text, parts):
    assert _actions(text) == ["switch"]
    assert w.arguments("switch_medication", read(text), "p1") == {"patient_id": "p1", **parts}


def test_a_switch_without_a_dose_is_not_drafted():
    assert w.arguments("switch_medication", read("switch her to labetalol"), "p1") is None


@pytest.mark.parametrize("text, day, wrong", [
    ("surgery Tuesday 15 December — what do I stop and when?", "2026-12-15", None),
    ("surgery Monday 15 December", "2026-12-15", "monday"),
    ("chirurgie mardi 15 décembre", "2026-12-15", None), ("cirugía el 15 de diciembre", "2026-12-15", None),
    ("colonoscopy on 2027-01-12", "2027-01-12", None), ("surgery 3 march", "2027-03-03", None),
    ("surgery Tuesday 15 December 2037", "2037-12-15", None),
    ("cirugía el martes 15 de diciembre de 2037", "2037-12-15", None),
    ("surgery Monday 15 December 2037", "2037-12-15", "monday"),
])
def test_the_surgery_date_is_the_next_one_and_a_wrong_weekday_is_caught(text, day, wrong):
    from datetime import date

    from smart_docgemma.tools.writes.periop import surgery_date
    assert surgery_date(text, date(2026, 12, 4)) == (date.fromisoformat(day), wrong)
