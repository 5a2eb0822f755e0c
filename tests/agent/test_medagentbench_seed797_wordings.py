"""The rules the seed-797 ward set (``smart_docgemma/evaluation/medagentbench_seed797.yaml``: the
benchmark's own wording with the patient's id, dictation, shorthand and typos, a middle name that
is a word, accents dropped, two dead patients on living ones' birth dates, other patients of the
population named in one chart) found missing, without a server. Found by the tuned split: one
half of a pending blood pressure corrected with the card's own value after "not" ("sorry,
systolic was 126 not 162" left the 162/94 card to be approved); a clock said after "at" without
its am/pm read as the pending replacement's dose ("actually do the recheck at 11 instead" drafted
11 mEq of potassium). The whole loop against HAPI is
``tests/synthea/test_medagentbench_seeds.py``."""
from __future__ import annotations

import pytest
from smart_docgemma.agent import amendments
from smart_docgemma.agent.extraction import read
from smart_docgemma.approval.types import PendingCard, PendingOrder


def _vital(reading: str) -> PendingCard:
    return PendingCard("c1", "record_vital_sign", "vital_sign", f"Record {reading}",
                       {"reading": reading, "taken": None}, False)


@pytest.mark.parametrize(("said", "again"), [
    ("sorry, systolic was 126 not 162", "blood pressure 126/94 mmHg"),
    ("systolic 126 not 162", "blood pressure 126/94 mmHg"),
    ("typo - diastolic was 84 not 94", "blood pressure 162/84 mmHg"),
    ("sorry, the diastolic was 84, not 94", "blood pressure 162/84 mmHg"),
    ("non, la systolique c'était 126 et pas 162", "blood pressure 126/94 mmHg"),
    ("desculpa, a sistólica era 126 e não 162", "blood pressure 126/94 mmHg"),
    ("perdón, la sistólica fue 126 y no 162", "blood pressure 126/94 mmHg"),
    ("sorry, diastolic was 66", "blood pressure 162/66 mmHg"),  # one number, as before
])
def test_a_half_said_in_place_of_the_cards_own_value_redraws_that_half(said, again):
    assert amendments.corrected_reading(read(said), _vital("blood pressure 162/94 mmHg")) == again


@pytest.mark.parametrize("said", [
    "sorry, systolic was 126 not 150",  # 150 is not the card's systolic: unclear
    "sorry, systolic was 126 not 94",  # the card's other half named as the old value
    "sorry, diastolic 66 and systolic 120",  # two halves
    "systolic 126 not 162?",  # a question
])
def test_no_half_is_changed_unless_the_old_value_is_the_named_halfs(said):
    assert amendments.corrected_reading(read(said), _vital("blood pressure 162/94 mmHg")) in (
        None, "blood pressure 162/94 mmHg")


def _potassium() -> PendingOrder:
    return PendingOrder("p1", "pt", "potassium chloride", "potassium chloride", "30 meq", "once",
                        "route oral")


@pytest.mark.parametrize("said", [
    "actually do the recheck at 11 instead", "make the recheck at 11 instead",
    "actually recheck @ 11", "mejor el control a las 11", "na verdade o controle às 11",
])
def test_an_hour_said_after_at_is_no_dose(said):
    change = amendments.read(read(said), _potassium())
    assert change is None or change.dose is None


@pytest.mark.parametrize(("said", "dose"), [
    ("actually make it 40", "40"), ("make it 20 instead", "20"), ("cambia a 40", "40"),
    ("actually 40, recheck at 11", "40"), ("na verdade 20", "20"),
])
def test_a_dose_said_beside_a_clock_is_still_the_dose(said, dose):
    change = amendments.read(read(said), _potassium())
    assert change is not None and change.dose is not None and change.dose.startswith(dose)


@pytest.mark.parametrize(("said", "dose"), [
    ("actually leave it at 5", "5"), ("actually keep it at 20", "20"), ("make it start at 10", "10"),
])
def test_a_dose_kept_at_a_number_without_the_recheck_named_is_still_the_dose(said, dose):
    # "at" is an hour only beside the recheck; without it the number says the dose, as before
    assert amendments._bare_dose(said) == dose
