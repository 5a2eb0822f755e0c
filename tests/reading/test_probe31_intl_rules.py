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
from smart_docgemma.agent.amendments import changes_a_field
from smart_docgemma.agent.extraction import read
from smart_docgemma.agent.order_lines import _after_leading
from smart_docgemma.languages import fold, frequency
from smart_docgemma.reading.numbers import in_digits
from smart_docgemma.tools.chart.answers import chart_focus
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


# ---- the holdout's rules (after its one blind run)

@pytest.mark.parametrize("said", [
    "hazme un repaso de todo el tratamiento de la embarazada",   # p31-es-2
    "bueno, o sea, hazme un repaso de todo el tratamiento de la embarazada",
    "repásale la medicación", "un repaso de sus fármacos, porfa",
])
def test_a_spanish_going_over_of_her_list_is_the_review(said):
    assert chart_focus(said) == "review"


@pytest.mark.parametrize("said", [
    "repaso de la historia clínica",    # no list named
    "hazme un repaso del caso",
])
def test_near_words_a_going_over_of_no_list_is_no_review(said):
    assert chart_focus(said) != "review"


@pytest.mark.parametrize("said", [
    "descends-la à 10, euh, à partir de demain",   # p31-fr-10, after "prednisolone 20 mg le matin"
    "diminue-la à 5", "réduis-le à 250", "augmente-le à 1000",
])
def test_a_verb_of_change_with_its_pronoun_joined_is_a_change(said):
    assert changes_a_field(fold(said).lower())


@pytest.mark.parametrize("said", [
    "descends-la",                        # the verb alone, no new value
    "descends-la au bloc",                # moving her, not the dose
    "la diminution est progressive",
])
def test_near_words_a_verb_with_no_a_after_it_is_no_change(said):
    assert not changes_a_field(fold(said).lower())


@pytest.mark.parametrize(("said", "value"), [
    ("pouls nonante-six pris à 5h40, tu l'encodes", 96.0),   # p31-fr-12
    ("FC cento e dez às 3h", 110.0),
    ("sat noventa y dos en aire ambiente", 92.0),
    ("fr vingt-deux à 14h", 22.0),
])
def test_a_sign_value_dictated_in_words_after_its_word_is_read(said, value):
    assert [r.values for r in readings(said)][0] == (value,)


@pytest.mark.parametrize("said", [
    "pouls un peu rapide",          # an article, no value
    "sat deux fois par jour",       # a count below any sign's value
    "le pouls est bien frappé",
    "cinquante ans, pouls ?",       # the number before the word, not after
])
def test_near_words_an_article_or_a_count_after_a_sign_stays_unread(said):
    assert in_digits(said) == said


@pytest.mark.parametrize(("said", "n"), [
    ("cefalexina 30 mg/kg/dia, dividir em 3", 3),   # p31-pt-9
    ("amoxicilina 80 mg/kg/día, dividir en 2", 2),
    ("amoxicilline 80 mg/kg/j, diviser en 3", 3),
    ("amoxicilina 50 mg/kg/dia dividido em 3, 7 dias", 3),   # a comma after the count
])
def test_the_infinitive_of_dividing_counts_the_doses(said, n):
    assert frequency.repeat(said) == {"frequency": n, "period": 1, "periodUnit": "d"}


@pytest.mark.parametrize("said", [
    "dividir em 3 horas",            # a span
    "dividir en 2,5",                # a decimal, no count of doses
    "diviser en 3 mg",
])
def test_near_words_dividing_into_a_span_or_a_decimal_counts_nothing(said):
    found = frequency.repeat(said)
    assert found is None or found.get("periodUnit") != "d" or found.get("frequency") == 1


@pytest.mark.parametrize(("said", "hours"), [
    ("de 12 em 12, via oral, uma semana", 12),      # p31-pt-11: a comma after the interval
    ("cada 8, por boca", 8),
    ("toutes les 6, per os", 6),
])
def test_an_interval_without_its_unit_before_a_comma_is_hours(said, hours):
    assert frequency.repeat(said) == {"frequency": 1, "period": hours, "periodUnit": "h"}


@pytest.mark.parametrize("said", ["de 12 em 12,5", "cada 8,5 mg", "de 12 em 12 dias"])
def test_near_words_a_decimal_or_days_after_the_interval_are_no_hours(said):
    found = frequency.repeat(said)
    assert not found or found.get("period") != 12 or found.get("periodUnit") != "h"


@pytest.mark.parametrize("said", [
    "presión 150 sobre 95 tomada a las 7:45, regístrala porfa",   # p31-es-12
    "TA 150 sobre 95",
])
def test_a_pressure_said_over_in_spanish_is_its_pair(said):
    assert [r.values for r in readings(said)] == [(150.0, 95.0)]


@pytest.mark.parametrize("said", ["presión 150 sobre 10 horas", "presión sobre 150"])
def test_near_words_sobre_a_span_or_before_the_value_is_no_pair(said):
    assert not [r for r in readings(said) if len(r.values) == 2]


# ---- the walk's rules

@pytest.mark.parametrize("said", [
    "abaixa-a pra 250, tipo, a partir de amanhã",   # left the pending card as it was
    "sobe-a para 1000", "abaixa pra 250", "diminui-o pra 5",
])
def test_a_portuguese_verb_of_change_with_its_pronoun_is_a_change(said):
    assert changes_a_field(fold(said).lower())


@pytest.mark.parametrize("said", [
    "abaixa a cabeceira da cama",       # no "pra" or "para" after: the bed, not the dose
    "sobe-a na maca",
])
def test_near_words_a_portuguese_verb_with_no_new_value_is_no_change(said):
    assert not changes_a_field(fold(said).lower())


@pytest.mark.parametrize("said", [
    "para o lisinopril dela, tá grávida", "ela tá internada desde ontem, a creatinina?",
])
def test_the_brazilian_ta_before_her_state_is_no_pressure(said):
    assert chart_focus(said) != "vitals:bp"


@pytest.mark.parametrize("said", ["PA 150/90, tá alta?", "a TA dela?", "la TA ce matin"])
def test_near_words_her_pressure_named_stays_the_pressure(said):
    assert chart_focus(said) == "vitals:bp"


def test_the_voseo_going_over_her_list_is_the_review():
    assert chart_focus("¿me repasás toda la medicación?") == "review"


@pytest.mark.parametrize(("said", "pair"), [
    ("pues, TA ciento sesenta sobre noventa a las 10, regístrala", (160.0, 90.0)),
    ("tension cent cinquante sur quatre-vingt-dix", (150.0, 90.0)),
])
def test_a_pressure_dictated_in_words_is_its_pair(said, pair):
    assert [r.values for r in readings(said)] == [pair]


@pytest.mark.parametrize(("said", "kept"), [
    ("ta deux doses", "ta deux doses"),             # French "your", a count
    ("pa un peu haute", "pa un peu haute"),
    ("dois sobres de paracetamol", "2 sobres de paracetamol"),   # sachets, as before
])
def test_near_words_no_pressure_read_from_words(said, kept):
    assert in_digits(said) == kept
