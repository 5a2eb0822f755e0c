"""probe32_intl's rules, each with near words that must not trigger: a temperature dictated with
its tenths ("trente-huit cinq", "trinta e oito e meio", "treinta y ocho coma cinco") is one value
with its decimal, while a span after it or degrees no body has stay as written; a result told
alone with where it was taken ("au labo de 5h") or said to have come back ("le salió el potasio
en 3,1 esta mañana") asks its protocol, while a question, a drug or an interval does not; "corta
a metformina" cuts the drug from her list (a stop), while a halving or a question stops nothing."""
from __future__ import annotations

import pytest
from smart_docgemma.agent.ward_requests import actions, workflow_of
from smart_docgemma.tools.words.said_numbers import signs_in_digits
from smart_docgemma.tools.words.ward_words import readings


@pytest.mark.parametrize(("said", "read"), [
    ("température trente-huit cinq prise à 22h30", "température 38.5 prise à 22h30"),  # p32-fr-12
    ("temperatura trinta e oito e meio às 4 da manhã", "temperatura 38.5 às 4 da manhã"),  # p32-pt-13
    ("temp trente-huit virgule deux à 3h", "temp 38.2 à 3h"),
    ("temperatura treinta y ocho coma cinco", "temperatura 38.5"),
    ("fièvre à trente-neuf deux", "fièvre à 39.2"),
    ("temp trente-neuf et demi", "temp 39.5"),
])
def test_a_temperature_dictated_with_its_tenths_is_one_value(said, read):
    assert signs_in_digits(said) == read


@pytest.mark.parametrize(("said", "read"), [
    ("fièvre trente-huit cinq jours", "fièvre trente-huit cinq jours"),  # a span: no tenths
    ("température deux fois par jour", "température deux fois par jour"),
    ("temperatura trinta e oito", "temperatura 38"),                     # the degrees alone
    ("pouls nonante-six pris à 5h40", "pouls 96 pris à 5h40"),           # no temperature
    ("pouls quatre-vingt-dix cinq", "pouls quatre-vingt-dix cinq"),      # no tenths of a pulse
    ("temperatura 38,5", "temperatura 38,5"),
])
def test_near_words_a_span_a_count_or_another_sign_has_no_tenths(said, read):
    assert signs_in_digits(said) == read


def test_the_tenths_reach_the_vital_sign_reader():
    [found] = readings("température trente-huit cinq prise à 22h30, tu me la notes")
    assert found.values == (38.5,) or list(found.values) == [38.5]


@pytest.mark.parametrize("said", [
    "kaliémie à 3,1 au labo de 5h",                    # p32-fr-16
    "le salió el potasio en 3,1 esta mañana",          # p32-es-16
    "potasio en 3,1 esta mañana",
    "potasio 3,0 en el control de las 6",
    "kaliémie revenue à 3,1 ce matin",
])
def test_a_result_told_with_where_it_was_taken_asks_its_protocol(said):
    assert actions(said) == ["protocol"]
    assert workflow_of(said).stated_value in (3.0, 3.1)


@pytest.mark.parametrize("said", [
    "le salió el potasio en 3,1 esta mañana?",                    # asked
    "kaliémie à 3,1 au labo de 5h, on a commencé le furosémide",  # a story told with it
    "repetir potasio en 48 horas",                                # an interval, no value
])
def test_near_words_a_question_a_story_or_an_interval_is_no_result_told_alone(said):
    assert actions(said) != ["protocol"]


def test_near_words_en_before_a_whole_number_states_no_value():
    assert workflow_of("potasio en 48 horas").stated_value is None


@pytest.mark.parametrize(("said", "drug"), [
    ("corta a metformina dele", "metformin"),            # p32-pt-11
    ("cortá el enalapril", "enalapril"),
])
def test_cutting_a_drug_from_her_list_is_its_stop(said, drug):
    assert workflow_of(said).stop == drug


@pytest.mark.parametrize("said", [
    "corta a metformina pela metade",       # a halving
    "corta o comprimido ao meio",           # no drug
    "corta a metformina?",                  # asked
    "corta a metformina se a creatinina subir",  # on a condition
])
def test_near_words_a_halving_a_question_or_a_condition_stops_nothing(said):
    assert workflow_of(said).stop is None
