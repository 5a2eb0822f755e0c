"""The rules the seed-419 ward set (``smart_docgemma/evaluation/medagentbench_seed419.yaml``:
dictated, typed fast, times and windows said as the ward says them) found missing, without a
server: one half of a blood pressure corrected by name redraws the card's half; midnight is
00:00; "hw old" asks the age; a time said with the ward's sample is the lab card's new time;
"keep X, drop the recheck" withdraws only the paired lab card; "don't chart that" cancels; "cancel
the magnesium" names the magnesium sulfate card; "mrn <name> 16 mar 1985" is a lookup; the
emergency department by its names asks the encounters. The whole loop against HAPI is
``tests/synthea/test_medagentbench_seeds.py``."""
from __future__ import annotations

from datetime import time

import pytest
from smart_docgemma.agent import amendments
from smart_docgemma.agent.extraction import chart_focus, read
from smart_docgemma.agent.ward_amendments import _only_a_time
from smart_docgemma.approval.types import PendingCard
from smart_docgemma.tools.words.when import clock_said


def _vital(reading: str) -> PendingCard:
    return PendingCard("c1", "record_vital_sign", "vital_sign", f"Record {reading}",
                       {"reading": reading, "taken": "06:00"}, False)


def _lab() -> PendingCard:
    return PendingCard("p1", "order_lab_test", "lab_order", "Order hemoglobin a1c",
                       {"test": "hba1c", "when": None}, False)


@pytest.mark.parametrize(("said", "again"), [
    ("sorry, diastolic was 66", "blood pressure 118/66 mmHg"),
    ("typo, systolic 128", "blood pressure 128/76 mmHg"),
    ("non, la diastolique c'était 70", "blood pressure 118/70 mmHg"),
    ("perdón, la sistólica fue 150", "blood pressure 150/76 mmHg"),
    ("desculpa, a diastólica era 64", "blood pressure 118/64 mmHg"),
])
def test_a_half_of_the_blood_pressure_corrected_by_name_redraws_that_half(said, again):
    assert amendments.corrected_reading(read(said), _vital("blood pressure 118/76 mmHg")) == again


@pytest.mark.parametrize("said", [
    "what was her diastolic yesterday?",  # a question
    "diastolic 66",  # no word of correction: a question of the chart
    "sorry, diastolic 66 and systolic 120",  # two numbers: not one half
    "non, pas 76, 70",  # "pas" is French "not", never the systolic
])
def test_a_question_or_no_single_half_is_no_half_corrected(said):
    assert amendments.corrected_reading(read(said), _vital("blood pressure 118/76 mmHg")) != (
        "blood pressure 118/66 mmHg")


def test_a_half_named_after_another_vital_is_no_correction():
    assert amendments.corrected_reading(read("sorry, diastolic was 66"),
                                        _vital("heart rate 88 beats/min")) is None


@pytest.mark.parametrize("said", [
    "PA 150/95 a la medianoche", "bp 140/90 at midnight", "TA 14/9 à minuit",
    "PA 150/90 à meia-noite"])
def test_midnight_is_00_00(said):
    clock = clock_said(said)
    assert clock is not None and clock.at == time(0, 0)


@pytest.mark.parametrize(("said", "hour"), [
    ("temp 38 tonight", 22), ("last night", 22), ("a la noche", 22), ("à noite", 22)])
def test_the_night_is_still_the_night(said, hour):
    clock = clock_said(said)
    assert clock is not None and clock.at.hour == hour


@pytest.mark.parametrize("said", ["hw old is she?", "hwo old is he", "how old is the pt?"])
def test_how_old_typed_fast_asks_the_age(said):
    assert chart_focus(said) == "age"


@pytest.mark.parametrize("said", ["show old results", "how cold is the room?"])
def test_near_words_ask_no_age(said):
    assert chart_focus(said) != "age"


@pytest.mark.parametrize("said", [
    "tomorrow with the 6am bloods", "tomorrow 7am with the morning bloods",
    "demain avec le bilan de 7h", "amanha com as analises das 6h"])
def test_a_time_said_with_the_wards_sample_is_the_lab_cards_new_time(said):
    assert _only_a_time(said, _lab())


@pytest.mark.parametrize("said", [
    "tomorrow with the 6am bloods add a CRP", "with the bloods", "tomorrow with the 6am insulin"])
def test_a_test_a_drug_or_no_time_beside_the_sample_is_no_new_time(said):
    assert not _only_a_time(said, _lab())


@pytest.mark.parametrize(("said", "clause"), [
    ("keep the potassium, drop the recheck", "drop the recheck"),
    ("garde le potassium, annule le controle", "annule le controle"),
    ("drop the FBC, just the INR", "drop the FBC"),
])
def test_the_cancels_clause_is_the_one_with_the_cancel(said, clause):
    assert amendments.cancel_clause(said) == clause


@pytest.mark.parametrize("said", [
    "drop the recheck", "annule le controle", "cancela o controlo", "quita el control"])
def test_the_recheck_names_the_paired_lab_card(said):
    assert amendments.names_the_recheck(said)


@pytest.mark.parametrize("said", ["drop the FBC", "recheck K tomorrow", "drop the potassium"])
def test_a_test_or_an_order_is_not_the_recheck(said):
    assert not amendments.names_the_recheck(said)


def test_a_kept_clause_is_no_reason_for_cancelling_every_card():
    titles = ["Give potassium chloride 20 mEq oral route once", "Order serum potassium"]
    assert not amendments.cancels("keep the potassium, drop the recheck", titles)
    assert amendments.cancels("pharmacy says out of stock, cancel", titles)


@pytest.mark.parametrize("said", [
    "forget it, don't chart that", "don't chart that", "don't document it", "nao registes isso",
    "no lo anotes", "ne le notez pas"])
def test_a_reading_not_to_be_written_cancels_its_card(said):
    assert amendments.cancels(said)


@pytest.mark.parametrize("said", ["chart that", "don't chart that yet, chart the BP",
                                  "document it at 8"])
def test_a_reading_to_be_written_is_no_cancel(said):
    assert not amendments.cancels(said)


@pytest.mark.parametrize(("drug", "ingredient", "named"), [
    ("magnesium", "magnesium sulfate", True), ("potassium", "potassium chloride", True),
    ("magnesium sulfate", "magnesium sulfate", True), ("sulfate", "magnesium sulfate", False),
    ("potassium", "magnesium sulfate", False)])
def test_a_drug_named_without_its_salt_is_the_cards_ingredient(drug, ingredient, named):
    assert amendments.names_ingredient(drug, ingredient) is named


@pytest.mark.parametrize(("said", "name", "born"), [
    ("mrn jose candelaria 16 mar 1985", "jose candelaria", "1985-03-16"),
    ("mrn jose candelaria mar 16 1985", "jose candelaria", "1985-03-16"),
    ("mrn jose candelaria 16-Mar-1985", "jose candelaria", "1985-03-16"),
])
def test_an_mrn_asked_of_a_name_and_a_date_with_its_month_is_a_lookup(said, name, born):
    ent = read(said).entities
    assert ent.patient_names == (name,) and born in ent.birth_dates


@pytest.mark.parametrize("said", ["mrn for check 16 mar 1985", "mrn for her 16 mar 1985"])
def test_words_of_the_assistant_before_the_date_name_no_one(said):
    assert read(said).entities.patient_names == ()


@pytest.mark.parametrize("said", [
    "when was she last seen in the ER?", "has he been to A&E this year?",
    "emergency room visits?", "est-elle passée aux urgences ?", "foi ao pronto-socorro?",
    "¿vino a urgencias?"])
def test_the_emergency_department_by_its_names_asks_the_encounters(said):
    assert chart_focus(said) == "encounters"


@pytest.mark.parametrize("said", ["er, what's her K?", "is this an emergency?",
                                  "emergency contact?"])
def test_er_or_emergency_alone_asks_no_encounters(said):
    assert chart_focus(said) != "encounters"


@pytest.mark.parametrize("said", ["a1c in mmol/mol pls", "glucose in mmol/L please"])
def test_a_result_asked_in_a_unit_is_asked_of_the_chart_not_ordered(said):
    # found by the seeds' figure test after merging main: seed 367's "a1c in mmol/mol pls" had
    # become a test ordered for hours ahead (no source matched)
    actions = read(said).entities.actions
    assert "chart_question" in actions and "order_lab" not in actions


@pytest.mark.parametrize("said", ["K+ in 4 hours please", "potassium in 6 hrs pls"])
def test_a_test_for_hours_ahead_is_still_ordered(said):
    assert "order_lab" in read(said).entities.actions
