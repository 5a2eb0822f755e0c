"""The rules the seed-257 ward set (``smart_docgemma/evaluation/medagentbench_seed257.yaml``,
the first with a child) found missing, without a server: a child named by what she is ("how old
is the little one?", "quel âge a la petite ?") is the patient in context; her weight or height
asked alone is its own series; "in 2025" is that calendar year; a magnesium converted to mmol/L
keeps two decimals and an HbA1c in mmol/mol none; "in mmol/L?" and "how has it changed…?" after a
result's question ask that result again; "reason: …" is the pending referral's note; "no,
cancélala" withdraws the card; "a las 7 y media" is 07:30; "nacida el 5 de diciembre de 2021" is
a birth date; the first group of an id alone ("latest CBG for 96b29be4?") names a patient. The
whole loop against HAPI is ``tests/synthea/test_medagentbench_seeds.py``."""
from __future__ import annotations

from datetime import UTC, datetime, time

import pytest
from smart_docgemma.agent import amendments, drug_follow_ups
from smart_docgemma.agent.clarification import referred_back
from smart_docgemma.agent.extraction import chart_focus, extract, read
from smart_docgemma.knowledge import analytes
from smart_docgemma.tools.chart.windowanswers import converted
from smart_docgemma.tools.words.when import clock_said
from smart_docgemma.tools.words.windows import asked, bounds


@pytest.mark.parametrize("said", ["how old is the little one?", "quel âge a la petite ?",
                                  "quel âge a le petit ?", "¿qué edad tiene la niña?",
                                  "qual a idade da criança?", "latest weight of the child?"])
def test_a_child_named_by_what_she_is_is_the_patient_in_context(said):
    assert "chart_question" in read(said).entities.actions


@pytest.mark.parametrize(("said", "focus"), [
    ("latest weight?", "vitals:weight"), ("weight trend?", "vitals:weight"),
    ("¿último peso de la niña?", "vitals:weight"), ("poids de la petite ?", "vitals:weight"),
    ("how tall is she? latest height", "vitals:height"), ("e a altura?", "vitals:height"),
    ("vitals and weight", "vitals"), ("temp and weight?", "vitals"),
])
def test_her_weight_or_height_asked_alone_is_its_own_series(said, focus):
    assert chart_focus(said) == focus


def test_a_calendar_year_is_a_window():
    assert asked("how many HbA1c in 2025?").window == "y2025"
    assert asked("quantas HbA1c em 2025?").window == "y2025"
    assert asked("MRN of Kiana Ferry born 20/11/1961").window is None
    w = bounds("y2025", datetime(2026, 12, 5, 12, tzinfo=UTC), UTC)
    assert (w.start, w.end) == (datetime(2025, 1, 1, tzinfo=UTC),
                                datetime(2025, 12, 31, 23, 59, 59, tzinfo=UTC))


def test_a_converted_value_keeps_the_decimals_its_unit_is_reported_with():
    assert converted(2.0 / 2.431, analytes.analyte("Magnesium"), "mmol/L") == "0.82"
    assert converted(45.37, analytes.analyte("HbA1c"), "mmol/mol") == "45"
    assert converted(144 / 18.016, analytes.analyte("Glucose"), "mmol/L") == "8.0"
    assert asked("HbA1c in mmol/mol?").unit == "mmol/mol"


@pytest.mark.parametrize(("before", "said"), [
    ("Mg last 24h?", "in mmol/L?"),
    ("latest weight?", "and how has it changed over the last 2 years?"),
    ("last CBG?", "and the trend?"),
])
def test_a_unit_or_a_course_asked_after_a_result_asks_that_result_again(before, said):
    history = [{"role": "user", "content": before}, {"role": "assistant", "content": "…"}]
    assert referred_back(said, extract(said), history) == f"{before} {said}"


def test_the_reason_given_after_a_referral_is_its_note_and_a_joined_pronoun_cancels():
    note = "painful right hip, worse on walking. X-ray shows advanced osteoarthritis."
    assert amendments.note_given(f"reason: {note}") == note
    assert amendments.note_given(f"motivo: {note}") == note
    for said in ("no, cancélala", "anúlalo", "annule-la", "cancela-a"):
        assert amendments.cancels(said), said


@pytest.mark.parametrize(("said", "clock"), [
    ("FC 58 lpm a las 7 y media, registrar", time(7, 30)), ("às 7 e meia", time(7, 30)),
    ("à 7h et demie", time(7, 30)), ("half past 7", time(7, 30)),
    ("quarter to 8", time(7, 45)), ("8 menos cuarto", time(7, 45)),
    ("a las 7 y cuarto", time(7, 15)), ("T 38 a las 7", time(7, 0)),
])
def test_a_half_or_quarter_hour_said_in_words_is_its_clock_time(said, clock):
    found = clock_said(said)
    assert found is not None and found.at == clock


@pytest.mark.parametrize(("said", "born"), [
    ("MRN de la niña Edris Cassin, nacida el 5 de diciembre de 2021?", "2021-12-05"),
    ("Hien Jones, nascida em 3 de novembro de 1983, MRN?", "1983-11-03"),
    ("mrn for Elvis Glover, born Jan 21st 1997", "1997-01-21"),
    ("MRN de Marget Mitchell, née le 13 juin 1983 ?", "1983-06-13"),
])
def test_a_birth_date_with_its_month_as_a_word_in_any_language_is_read(said, born):
    assert extract(said).birth_date == born


def test_the_first_group_of_an_id_alone_names_a_patient_and_a_word_or_number_does_not():
    assert "96b29be4" in extract("latest CBG for 96b29be4?").patient_ids
    assert extract("latest CBG for 12345678?").patient_ids == ()
    assert extract("is the decade ok").patient_ids == ()


def test_a_results_unit_asked_is_no_dose_follow_up():
    said = "mg last 24h? in mg/dL pls"
    assert drug_follow_ups.asked(said, extract(said)) is None
    assert drug_follow_ups.asked("in mg?", extract("in mg?")) == "mg"
