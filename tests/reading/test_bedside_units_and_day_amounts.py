"""French, Portuguese and Spanish bedside units and order forms, read as meant: a pressure in
cmHg ("TA 16/9", "PA 16x10"), a glycaemia in g/L with or without its unit, a day's amount
divided over the doses said ("1,5 g/dia em 3 tomadas"), a bare strength counted in tablets
("metformine 850 1 cp matin et soir"), "/24h" against the unit, two ingredients joined by a word
("amoxi com clavulanato"), a local brand, a patient named as the new one, a cancel with its
reason, and an order naming the drug it replaces. Pure: no HAPI."""
from __future__ import annotations

import pytest
from smart_docgemma.agent.amendments import cancels
from smart_docgemma.agent.extraction import find_dose
from smart_docgemma.agent.order_lines import order_line
from smart_docgemma.knowledge.mentions import find_drugs
from smart_docgemma.reading.dosage import Dose
from smart_docgemma.reading.people import beside_people
from smart_docgemma.tools.words.ward_words import readings


def _pressure(text: str) -> tuple[tuple[float, ...], str | None] | None:
    found = [r for r in readings(text) if r.vital == "blood pressure"]
    return (found[0].values, found[0].as_written()) if found else None


@pytest.mark.parametrize(("text", "values", "written"), [
    ("TA 16/9 FC 110 a noter", (160.0, 90.0), "16/9 cmHg"),
    ("PA 16x10 FC 104 agora", (160.0, 100.0), "16/10 cmHg"),
    ("PA: 12x8", (120.0, 80.0), "12/8 cmHg"),
    ("TA 13,5/8", (135.0, 80.0), "13.5/8 cmHg"),
    ("TA 14/8, pouls 72", (140.0, 80.0), "14/8 cmHg"),
    ("TA 150/95", (150.0, 95.0), None),
    ("PA 150x90", (150.0, 90.0), None),
])
def test_a_pressure_in_cmhg_is_recorded_in_mmhg_with_what_was_written(text, values, written):
    assert _pressure(text) == (values, written)


@pytest.mark.parametrize("text", ["TA a noter le 16/9", "TA 16/9/2026 vue", "TA 9/16"])
def test_a_date_or_an_upside_down_pair_is_no_cmhg_pressure(text):
    assert _pressure(text) is None


@pytest.mark.parametrize(("text", "mg_dl"), [
    ("glycemie 0,65 g/L a 6h, noter", 65.0),
    ("glycémie capillaire 0,65", 65.0),  # French: a bare glycaemia under 4 is in g/L
    ("dextro 1,2 a noter", 120.0),
    ("glicemia 65", 65.0),
    ("BM 3.2", 57.65),  # English: still mmol/L
    ("glucemia capilar 3,2", 57.65),
])
def test_a_glycaemia_is_read_in_the_unit_its_language_uses(text, mg_dl):
    [reading] = [r for r in readings(text) if r.vital == "capillary glucose"]
    assert reading.values == (mg_dl,)


@pytest.mark.parametrize(("text", "dose", "per_day"), [
    ("amoxicilina 1,5 g/dia em 3 tomadas", "500 mg (1.5 g/day in 3 doses)", "em 3 tomadas"),
    ("paracetamol 3 g/24h en 3 prises", "1 g (3 g/day in 3 doses)", "en 3 prises"),
    ("amoxicillin 1.5 g per day in 3 divided doses", "500 mg (1.5 g/day in 3 doses)", None),
    ("metformine 850 1 cp matin et soir", "850 mg", "matin et soir"),
    ("amoxi 500 2 comp 3x/j", "1000 mg (2 × 500 mg)", "3x/j"),
    ("amlodipine 10 mg/24h", "10 mg", "mg/24h"),
    ("amlodipine 5 mg/j", "5 mg", "mg/j"),
    ("ceftriaxone 1 g IV/24h", "1 g", "iv/24h"),
    ("amoxicilline 3 g/j en 3 prises", "1 g (3 g/day in 3 doses)", "en 3 prises"),
    ("aspirin 81 mg daily", "81 mg", "daily"),  # one dose a day: the day's amount is the dose
    ("paracetamol 1 g 3 fois par jour", "1 g", "3 fois par jour"),
    ("amoxicilline 50 mg/kg/j en 3 prises", "50 mg/kg/day", "en 3 prises"),
])
def test_a_days_amount_is_divided_and_a_counted_strength_multiplied(text, dose, per_day):
    found = find_dose(text)
    assert found and found["dose"] == dose
    assert per_day is None or found["frequency"] == per_day


@pytest.mark.parametrize(("text", "a_day"), [
    ("amlodipine 10 mg/24h", 1.0), ("amlodipine 5 mg/j", 1.0), ("metformina 850 mg/dia", 1.0),
    ("amoxicilline 3 g/j en 3 prises", 3.0), ("amoxicilline 50 mg/kg/j en 3 prises", 3.0),
])
def test_a_slash_against_the_unit_is_the_frequency(text, a_day):
    found = find_dose(text)
    assert found and Dose(frequency=found["frequency"]).doses_a_day == a_day


@pytest.mark.parametrize(("text", "name"), [
    ("amoxi com clavulanato 875 de 12/12h", "amoxicillin-clavulanate"),
    ("amoxicilina con clavulanico", "amoxicillin-clavulanate"),
    ("amoxicillin with clavulanic acid 625 tds", "amoxicillin-clavulanate"),
    ("amoxi et clavulanique", "amoxicillin-clavulanate"),
    ("previscan", "fluindione"),
    ("aspegic pour la fievre", "aspirin"),
    ("un Nolotil", "metamizole"),
    ("Tylex pro menino", "acetaminophen/codeine"),
    ("efferalgan codeine", "acetaminophen/codeine"),
    ("paracetamol con codeina", "acetaminophen/codeine"),
])
def test_a_product_is_read_whole_and_local_brands_by_their_ingredient(text, name):
    assert [d.name for d in find_drugs(text)] == [name]


def test_two_drugs_joined_by_and_stay_two():
    assert [d.name for d in find_drugs("warfarin and aspirin")] == ["warfarin", "aspirin"]


def test_a_glucose_asked_in_spanish_is_no_drug():
    assert find_drugs("la ultima glucosa?") == []


@pytest.mark.parametrize("message", ["esquece, nao vou prescrever", "annule, je ne le prescris pas",
                                     "olvidalo, no lo voy a pautar"])
def test_a_cancel_with_a_declining_clause_withdraws_the_card(message):
    assert cancels(message)


def test_an_order_naming_the_drug_it_replaces_is_one_order():
    drugs = find_drugs("enalapril 10 c/12h en vez del lisinopril")
    assert order_line("enalapril 10 c/12h en vez del lisinopril", [], drugs,
                      {"frequency": "c/12h"})


def test_a_combination_keeps_its_words_as_written():
    [drug] = find_drugs("amoxi com clavulanato 875 de 12/12h")
    assert drug.surface == "amoxi com clavulanato"


@pytest.mark.parametrize("text", [
    "el paciente nuevo es alergico a algo?", "le nouveau patient a des allergies?",
    "o doente novo tem alergia?", "the new patient in bay 3 allergies?",
])
def test_the_new_patient_is_someone_else(text):
    assert beside_people(text)


@pytest.mark.parametrize("text", ["novo esquema de insulina para ela", "la nueva dosis",
                                  "new patient information leaflet for her"])
def test_new_things_are_no_person(text):
    assert beside_people(text) == []
