"""probe31_intl's rules, each with near words that must not trigger: a dictated pause before an
order line ("euh", "tipo", "o sea") is no word of the line, so the line stays an order, while a
word that only begins with those letters ("humalog", "tipos", "umbral") keeps its place; the
Quebec "FSC" (formule sanguine complète) is the complete blood count; a fever said with a
plausible value ("febre de 38,7") is a temperature reading, while a fever with a span or a count
("febre de 3 dias") records nothing; the half of a clock hour ("a las 8 y media") is a time, never
a mean, while "promedio", "moyenne", "média" still ask it."""
from __future__ import annotations

import pytest
from smart_docgemma.agent import planning, state
from smart_docgemma.agent.extraction import read
from smart_docgemma.agent.order_lines import _after_leading
from smart_docgemma.tools.words import windows
from smart_docgemma.tools.words.ward_words import lab_tests, readings

from ..support.fixture_charts import chart

CHILD = chart("09-child-weights.json")  # 20.1 kg


def _tools(message: str, here=CHILD) -> list[str]:
    said = read(message, chart=here.in_context)
    turn = state.merge(state.new_turn(message, patient_id="pt-child", chart_summary=here.brief,
                                      chart=here.in_context),
                       {"request": said, "entities": said.entities})
    return planning.required_tools(turn)


@pytest.mark.parametrize("said", [
    "euh la moxicilline 100 mg/kg/jour en trois fois",   # p31-fr-8
    "euh, amoxicilline 80 mg/kg/jour en trois fois",
    "tipo, amoxicilina 50 mg/kg/dia de 8/8h",
    "o sea amoxicilina 80 mg/kg/día c/8h",
    "um amoxicillin 250 mg tds",
])
def test_a_dictated_pause_before_the_line_keeps_it_an_order(said):
    assert "prescribe_medication" in _tools(said)


@pytest.mark.parametrize("said", [
    "humalog 10 units tds",          # a drug that begins with the pause's letters
    "tipos de amoxicilina",          # a word that begins with "tipo"
    "umbral de 5",
    "euhydrique",
])
def test_near_words_that_begin_with_a_pause_keep_their_place(said):
    assert _after_leading(said) == said


@pytest.mark.parametrize("said", [
    "pour demain matin 6h30 il me faut une FSC, des électrolytes pis une créatinine",
    "FSC demain 7h", "formule sanguine complète et créatinine",
])
def test_the_quebec_fsc_is_the_complete_blood_count(said):
    assert "complete blood count" in lab_tests(said)


@pytest.mark.parametrize("said", ["fsh demain 7h", "fs demain", "fscore"])
def test_near_words_of_fsc_are_no_blood_count(said):
    assert "complete blood count" not in lab_tests(said)


@pytest.mark.parametrize(("said", "value"), [
    ("febre de 38,7 medida às 19h15, registra no prontuário", 38.7),
    ("fièvre à 39,2 ce soir", 39.2),
    ("fiebre de 38.5 a las 3", 38.5),
])
def test_a_fever_with_a_plausible_value_is_a_temperature(said, value):
    found = [r for r in readings(said) if r.vital == "body temperature"]
    assert found and found[0].values == (value,)


@pytest.mark.parametrize("said", [
    "febre de 3 dias, o que faço?",       # a span
    "fièvre depuis 2 jours",
    "fiebre de 40 horas",                 # plausible number, but a span
    "febre, paracetamol 500 mg 6/6h",     # no value at all
])
def test_near_words_a_fever_with_a_span_or_no_value_records_nothing(said):
    assert not [r for r in readings(said) if r.vital == "body temperature"]


@pytest.mark.parametrize("said", [
    "sácale mañana a las 8 y media una analítica con hemograma",
    "hemograma às 7 e meia", "NFS demain à 6 et demie", "a las ocho y media hemograma",
])
def test_the_half_of_a_clock_hour_is_no_mean(said):
    assert windows.asked(said).statistic is None


@pytest.mark.parametrize("said", [
    "promedio de glucemias desde las 8 y media",   # the mean still asked beside a time
    "média do potássio nas últimas 48h", "moyenne des K+ sur 48 heures", "la media de la glucosa",
])
def test_near_words_a_mean_asked_stays_a_mean(said):
    assert windows.asked(said).statistic == windows.Aggregate.MEAN
