"""The rules the seed-311 ward set (``smart_docgemma/evaluation/medagentbench_seed311.yaml``, two
children whose latest weights are months old) found missing, without a server: how much a child
has grown is her height over time, in four languages, and a culture's growth or a growth hormone
is not; a weight on file but too old for a child's dose is said with its age on the card, never
as "no weight on file"; "b. 1 Aug 1953", "nasc. 08/02/1985" are birth dates; "does he have
multiple myeloma on his list?" asks his problem list, and a result or a fever asked so does not; a
time alone after a lab order's card ("para amanhã às 8h") is its new time. The whole loop
against HAPI is ``tests/synthea/test_medagentbench_seeds.py``."""
from __future__ import annotations

from datetime import date

import pytest
from smart_docgemma.agent.extraction import chart_focus, read
from smart_docgemma.agent.ward_amendments import _only_a_time
from smart_docgemma.approval.types import PendingCard
from smart_docgemma.checks import patient_rules
from smart_docgemma.checks.chart_values import ChartWeight
from smart_docgemma.languages import english


@pytest.mark.parametrize("said", [
    "how much has he grown between his last two visits?", "has she grown since last year?",
    "growth over the last two visits?", "¿cuánto ha crecido entre las dos últimas visitas?",
    "quanto cresceu desde a última consulta?", "il a grandi depuis l'an dernier ?",
])
def test_how_much_a_child_has_grown_is_her_height_over_time(said):
    assert chart_focus(said) == "vitals:height"


@pytest.mark.parametrize("said", ["any growth on the blood cultures?",
                                  "growth hormone level?", "weight growth?"])
def test_a_cultures_growth_or_a_growth_hormone_is_no_height(said):
    assert chart_focus(said) != "vitals:height"


def test_a_weight_too_old_for_a_childs_dose_is_said_with_its_age_not_as_missing():
    weight = ChartWeight(54.6, date(2026, 5, 26), "w1", "", 193)
    finding = patient_rules._old_weight("ibuprofen", weight, 90, {}, "k")
    shown = english(finding.message)
    assert "90 days old" in shown and "193 days old" in shown
    assert "no weight on file" not in shown


@pytest.mark.parametrize(("said", "name", "born"), [
    ("kristofer schimmel b. 1 Aug 1953 - mrn?", "kristofer schimmel", "1953-08-01"),
    ("mrn for kristofer schimmel b. 1 Aug 1953", "kristofer schimmel", "1953-08-01"),
    ("Wes Crist nasc. 08/02/1985 - prontuário?", "Wes Crist", "1985-02-08"),
    ("Lucia Gomez nac. 3/4/1990 mrn?", "Lucia Gomez", "1990-04-03"),
])
def test_a_born_abbreviated_before_a_date_is_a_birth_date(said, name, born):
    entities = read(said).entities
    assert entities.patient_names == (name,) and entities.birth_dates == (born,)


def test_a_letter_and_a_dot_before_a_number_is_no_birth_date():
    assert read("vit b. 12 level?").entities.birth_dates == ()


@pytest.mark.parametrize("said", [
    "does he have multiple myeloma on his list?", "does he have diabetes?",
    "is she known to have asthma?", "a-t-il un diabète ?", "ela tem asma?", "¿tiene diabetes?",
])
def test_whether_she_has_a_condition_is_her_problem_list(said):
    assert chart_focus(said) == "problems"


@pytest.mark.parametrize(("said", "focus"), [
    ("does she have a Mg in the last 24h?", "lab:Magnesium"), ("does he have any allergies?",
                                                               "allergies"),
    # a fever asked whole is her temperatures (walk 80), never her problem list
    ("does he have any admissions?", "encounters"), ("does he have a fever?", "lab:Temperature"),
    ("does she have a K this morning?", None), ("tem interação claritromicina e sinvastatina?", None),
    ("tem ensaios clinicos para doenca renal diabetica?", None),
])
def test_a_result_an_allergy_or_a_fever_asked_so_keeps_its_own_reading(said, focus):
    assert chart_focus(said) == focus


def _lab_card() -> PendingCard:
    return PendingCard("p1", "order_lab_test", "lab_order", "Order hemoglobin a1c",
                       {"test": "hba1c", "when": None}, False)


@pytest.mark.parametrize(("said", "alone"), [
    ("para amanha as 8h", True), ("for tomorrow 8am pls", True), ("demain 7h", True),
    ("manana a las 6", True), ("e o potassio amanha as 8h", False), ("ok 8", False),
    ("para o joao", False),
])
def test_a_time_alone_after_a_lab_card_is_its_new_time(said, alone):
    assert _only_a_time(said, _lab_card()) is alone
