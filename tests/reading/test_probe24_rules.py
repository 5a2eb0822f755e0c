"""probe24_en's rules, each with near words that must not trigger: a plan told in the past put
to the assistant is a question, never an order; a dose titrated is a change of the pending card;
"add" before a drug is the drug's verb, never a word of recording a reading told beside it; an
order line may open with its dose; a whole-list review says which rules do not hold each drug
(never "nothing found" standing for a table that lacks it)."""
from __future__ import annotations

import pytest
from smart_docgemma.agent.amendments import changes_a_field
from smart_docgemma.agent.extraction import read
from smart_docgemma.checks import drug_safety
from smart_docgemma.checks.hookdata import HookData
from smart_docgemma.languages import fold
from smart_docgemma.reading.ward import read_ward


@pytest.mark.parametrize("said", [
    "BP 150/100 in antenatal clinic, was going to add ramipril",
    "was going to start him on ibuprofen 400 tds", "we were going to give her co-amox",
    "j'allais lui mettre de l'ibuprofène", "eu ia começar ibuprofeno nela", "iba a darle ibuprofeno",
])
def test_a_plan_told_in_the_past_is_asked_not_ordered(said):
    assert "give" in read(said).entities.actions


@pytest.mark.parametrize("said", [
    "start ibuprofen 400 tds", "add ramipril 2.5 od", "the plan was ibuprofen 400 tds, start it",
])
def test_near_words_still_order(said):
    assert "give" not in read(said).entities.actions


@pytest.mark.parametrize("said", [
    "titrate to 10", "uptitrate to 80mg", "bump it up to 1 g bd", "wean to 5 mg", "taper to 20",
    "titrate up to 40", "increase the dose to 10", "titular para 10",
])
def test_a_dose_titrated_changes_the_pending_card(said):
    assert changes_a_field(fold(said).lower())


@pytest.mark.parametrize("said", ["titration chart please", "weaning well", "tapered off last year"])
def test_near_words_change_no_card(said):
    assert not changes_a_field(fold(said).lower())


@pytest.mark.parametrize("said, records", [
    ("BP 150/100 in antenatal clinic, was going to add ramipril", False),
    ("bp 150/95 - can we add ramipril?", False), ("put in amoxicillin 500 tds, temp 38.5", False),
    ("add a BP of 150/90", True), ("add bp 150/90", True), ("pls add temp 38.2", True),
    ("add 150/90 to her obs", True),
])
def test_add_before_a_drug_is_not_a_word_of_recording(said, records):
    assert read_ward(said).record_words is records


@pytest.mark.parametrize("said", [
    "10 mg/kg ibuprofen every 8 hours", "500mg amoxicillin tds", "1 g de paracetamol c/8h",
])
def test_an_order_line_may_open_with_its_dose(said):
    assert "order_line" in read(said).entities.actions


@pytest.mark.parametrize("said", ["500mg amoxicillin - is that ok?", "10 mg/kg ibuprofen?"])
def test_near_words_a_dose_first_asked_is_no_order(said):
    assert "order_line" not in read(said).entities.actions


def _order(name: str) -> dict:
    return {"resourceType": "MedicationRequest", "id": name, "status": "active",
            "intent": "order", "medicationCodeableConcept": {"text": name}}


def _egfr(value: float) -> dict:
    return {"resourceType": "Observation", "id": "e1", "status": "final",
            "code": {"coding": [{"system": "http://loinc.org", "code": "33914-3"}]},
            "valueQuantity": {"value": value, "unit": "mL/min/{1.73_m2}"},
            "effectiveDateTime": "2026-11-10"}


def test_a_review_says_a_drug_the_renal_rules_lack_is_not_covered():
    data = HookData(resources={"medications": [_order("amlodipine"), _order("metformin")],
                               "conditions": [], "pregnancy": [], "labs": [_egfr(38)],
                               "allergies": []})
    report = drug_safety.review(data)
    assert report.renal_uncovered == ["amlodipine"]
    assert any("renal rules have no entry for amlodipine" in line for line in report.lines())
    alone = HookData(resources={**data.resources, "medications": [_order("amlodipine")]})
    said = " ".join(drug_safety.review(alone).lines())
    assert "nothing found" not in said and "no finding in the rules that hold it" in said


def test_a_drug_every_table_holds_is_still_said_clean():
    data = HookData(resources={"medications": [], "conditions": [], "pregnancy": [],
                               "labs": [_egfr(38)], "allergies": []})
    said = " ".join(drug_safety.check(["metformin"], data, None, True).lines())
    assert "nothing found in the" in said or "metformin" in said
    assert "renal rules have no entry" not in said


@pytest.mark.parametrize("said, dose", [
    ("paracetamol 1gr qds", "1 g"), ("amoxicilina 1 gr c/8h", "1 g"), ("ceftriaxona 2gr IV c/24h", "2 g"),
    ("paracetamol 1 grm c/8h", "1 g"),
])
def test_gr_after_a_number_is_grams_never_a_bare_milligram(said, dose):
    assert read(said).entities.dose.written == dose


@pytest.mark.parametrize("said", ["gr 2 murmur, start aspirin 75", "grade 2 reflux"])
def test_near_words_gr_alone_is_no_unit(said):
    dose = read(said).entities.dose
    assert dose is None or " g" not in (dose.written or "")


@pytest.mark.parametrize("said", [
    "he weighs 22 kg today - amoxicillin 40mg/kg/day bd", "ear infection again; amoxicillin 500 tds",
])
def test_an_order_line_after_a_clause_ended_by_a_dash_or_semicolon(said):
    assert "order_line" in read(said).entities.actions


def test_near_words_a_drug_before_the_dash_is_no_order_line():
    assert "order_line" not in read("amoxicillin 500 tds - is that ok?").entities.actions


@pytest.mark.parametrize("said, focus", [
    ("her last clinic letter?", "notes"), ("any notes from the last visit?", "notes"),
    ("le dernier compte rendu ?", "notes"), ("a última carta da clínica?", "notes"),
    ("el último informe?", "notes"), ("any letters on file?", "notes"),
])
def test_the_notes_and_letters_on_file_are_asked(said, focus):
    from smart_docgemma.tools.chart.answers import chart_focus

    assert chart_focus(said) == focus


@pytest.mark.parametrize("said", ["note down BP 140/90", "last discharge summary?", "her latest K?"])
def test_near_words_ask_no_notes(said):
    from smart_docgemma.tools.chart.answers import chart_focus

    assert chart_focus(said) != "notes"


@pytest.mark.parametrize("said, note", [
    ("le dernier compte rendu ?", False), ("compte rendu : patient vu ce jour, TA 130/80", True),
    ("fais un compte rendu de la consultation", True),
])
def test_a_report_asked_is_read_and_one_dictated_is_a_note(said, note):
    assert ("save_note" in read(said).entities.actions) is note


def test_a_review_names_uncovered_disorders_without_tags_and_never_findings():
    def condition(text: str) -> dict:
        return {"resourceType": "Condition", "id": text[:5], "code": {"text": text},
                "clinicalStatus": {"coding": [{"code": "active"}]}}

    problems = [condition("Essential hypertension (disorder)"), condition("Stress (finding)"),
                condition("Full-time employment (finding)")]
    data = HookData(resources={"medications": [_order("amlodipine")], "conditions": problems,
                               "pregnancy": [], "labs": [], "allergies": []})
    report = drug_safety.review(data)
    assert report.uncovered == ["Essential hypertension"]
