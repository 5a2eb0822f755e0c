"""Ward English as typed: deprescribing and "safe combo?" with no drug named are the whole-list
review; "the other pt", a title with an initial ("Mr O") and a name typed in capitals are
someone else; "P 92" is a pulse; "chuck him on …" orders; the highest and lowest result of a
window are a statistic. Each rule beside the near words it must not read. Pure: no HAPI."""
from __future__ import annotations

from datetime import UTC, datetime

import pytest
from smart_docgemma.agent.extraction import asks_chart, find_actions, find_names
from smart_docgemma.knowledge import analytes
from smart_docgemma.knowledge.mentions import find_drugs
from smart_docgemma.reading.people import beside_people, unshouted
from smart_docgemma.tools.chart.answers import chart_focus
from smart_docgemma.tools.chart.labs import LabResult
from smart_docgemma.tools.chart.windowanswers import extreme_answer
from smart_docgemma.tools.words.ward_words import readings
from smart_docgemma.tools.words.windows import Aggregate, asked, bounds


def _review(text: str) -> bool:
    drugs = find_drugs(text)
    return chart_focus(text) == "review" and asks_chart(text, find_actions(text), drugs)


@pytest.mark.parametrize("text", [
    "anything to stop?", "deprescribe?", "any room to deprescribe here", "safe combo?",
    "is this combination ok?", "rationalise his meds before discharge", "what can we stop for him?",
    "plan colon review medications for interactions full stop", "is his regimen safe",
])
def test_the_whole_list_review_asked_with_no_drug_named(text):
    assert _review(text)


@pytest.mark.parametrize("text", [
    "anything to stop the bleeding?", "what's the rationale for warfarin?",
    "is amoxicillin and clavulanate a safe combo?", "stop the aspirin", "combo inhaler technique",
    "what stopped the pain?",
])
def test_near_words_are_no_whole_list_review(text):
    assert not _review(text)


@pytest.mark.parametrize(("text", "who"), [
    ("and the other pt, whats her creat?", "the other pt"),
    ("another patient's INR", "another patient"),
    ("l'autre patiente a des allergies ?", "l'autre patiente"),
    ("y la otra paciente?", "la otra paciente"),
    ("o outro doente tem alergia?", "o outro doente"),
])
def test_someone_named_only_as_not_her_is_someone_else(text, who):
    assert beside_people(text) == [who]


@pytest.mark.parametrize("text", [
    "the other day he fell", "other patients with CKD do fine", "another dose?", "outra vez",
    "on the other hand", "la otra pierna",
])
def test_other_without_a_person_names_no_one(text):
    assert beside_people(text) == []


@pytest.mark.parametrize(("text", "names"), [
    ("DOES AMARA NWOSU HAVE ANY ALLERGIES", ["Amara Nwosu"]),
    ("WHAT ABOUT GRACE?", ["Grace"]),
    ("MRS THOMPSON'S EGFR?", ["Thompson"]),
    ("did Mr O get his a1c done?", ["O"]),
    ("Mrs T's bloods back?", ["T"]),
    ("Mr J Smith in bay 2", ["J Smith", "bay 2"]),
])
def test_a_name_typed_in_capitals_or_as_an_initial(text, names):
    assert find_names(text, find_drugs(text)) == names


@pytest.mark.parametrize("text", [
    "ANY PROBLEMS WITH HIS CURRENT MEDS", "LEVOFLOXACIN 500 OD FOR HIS CHEST - OK?",
    "RECORD BP 158/88", "PLS SEND LIPIDS AND TSH WITH AM BLOODS", "AMOXICILLIN 90MG/KG/DAY BD",
    "MAG PROTOCOL", "ANY NAUSEA?", "ask Dr O about it", "vitamin D level", "SORRY 2.5MG",
])
def test_capitals_and_initials_that_name_no_one(text):
    assert find_names(text, find_drugs(text)) == []


def test_a_message_with_a_lower_case_letter_keeps_its_capitals():
    assert unshouted("BP 150/95 for Grace") == "BP 150/95 for Grace"
    assert unshouted("HOW IS KOFI'S WEIGHT") == "How Is Kofi's Weight"


@pytest.mark.parametrize(("text", "pulse"), [
    ("obs 0800: bp 168/92, p 92, t 37.8", 92.0), ("P 88 BP 142/78 @ 1600", 88.0),
])
def test_p_with_a_number_is_the_pulse(text, pulse):
    assert [r.values for r in readings(text) if r.vital == "heart rate"] == [(pulse,)]


@pytest.mark.parametrize("text", [
    "amoxicillin 500mg p.o. tds", "amoxicillin 500mg po tds", "G2P1 at 30 weeks", "page 2",
    "the p value was 0.05",
])
def test_p_that_is_no_pulse(text):
    assert not [r for r in readings(text) if r.vital == "heart rate"]


@pytest.mark.parametrize("text", [
    "chuck him on naproxen for the knee", "pop her on amlodipine 5mg", "stick him on co-amoxiclav",
])
def test_putting_the_patient_on_a_drug_orders_it(text):
    assert "prescribe_drug" in find_actions(text)


@pytest.mark.parametrize(("text", "statistic", "window"), [
    ("highest K in the last 6 months?", Aggregate.MAX, "180d"),
    ("lowest egfr this yr", Aggregate.MIN, "365d"),
    ("lowest BM in the last 24h?", Aggregate.MIN, "24h"),
    ("K max sur 1 an", Aggregate.MAX, "365d"),
    ("potássio máximo em 6 meses", Aggregate.MAX, "180d"),
    ("la glucemia más baja hoy", Aggregate.MIN, "today"),
])
def test_the_highest_and_the_lowest_are_a_statistic(text, statistic, window):
    said = asked(text)
    assert (said.statistic, said.window) == (statistic, window)


@pytest.mark.parametrize("text", [
    "max dose of paracetamol for her", "what's the most recent K", "highest dose in 24h",
    "maximum infusion rate of potassium",
])
def test_a_dose_or_the_latest_is_no_extreme(text):
    assert asked(text).statistic is None


@pytest.mark.parametrize(("text", "focus"), [
    ("highest K in 6 months", "lab:Potassium"), ("K le plus haut sur 1 an", "lab:Potassium"),
    ("lowest BM today", "lab:Capillary glucose"), ("vitamin k max", None),
])
def test_k_or_bm_with_an_extreme_is_the_result(text, focus):
    assert chart_focus(text) == focus


def _k(value: float, day: int) -> LabResult:
    when = datetime(2026, 11, day, 8, tzinfo=UTC)
    return LabResult("Potassium", "2823-3", "serum/plasma", value, "mmol/L", f"{value} mmol/L",
                     when, f"Observation/k{day}")


def test_the_extreme_answer_names_the_value_its_time_and_the_count():
    k = analytes.table()["Potassium"]
    inside = [_k(5.2, 20), _k(5.6, 10), _k(4.9, 1)]  # newest first, as the chart reads them
    w = bounds("30d", datetime(2026, 11, 30, tzinfo=UTC), UTC)
    high = extreme_answer(k, inside, asked("highest K in the last 30 days"), w, UTC)
    low = extreme_answer(k, inside, asked("lowest K in the last 30 days"), w, UTC)
    assert high == ("Highest potassium in the last 30 days: 5.6 mmol/L at 08:00 (2026-11-10) "
                    "(of 3 results).")
    assert low is not None and low.startswith("Lowest potassium in the last 30 days: 4.9 mmol/L")
    assert extreme_answer(k, inside, asked("mean K in the last 30 days"), w, UTC) is None
