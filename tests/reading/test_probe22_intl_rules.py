"""The rules probe22_intl's blind run asked for, each beside the near words it must not read:
pregnancy and breastfeeding in each place's colloquial words ("elle est en famille", "tá
esperando neném", "está preñada", "dando teta a su guagua"), never "vit en famille", "cancer da
mama"; "teta" and "famille" are no drugs; an order line after a clause of what the patient has
("le petit fait 39 de fièvre, paracétamol 15 mg/kg toutes les 6h") is still the order, while a
question or a drug named in that clause keeps it a question; the present said as a request
("ahorita le pones paracetamol …") orders, asked with "?" it asks; the Brazilian "tá" after her
pronoun or before a gerund is no blood pressure. Then the holdout's (read at the end) and a
walk's: a request with its pronoun joined ("revisame toda") names no one; "doblale la dosis"
doubles the card; the half of the day said after the hour ("a las 10 de la noche": 22:00) and the
night just passed ("cette nuit à 2h": today's 02:00); the pressure said alone before its pair is
recorded; a drug given "à sa fille", "a su hermana", "ao marido dela" is for the relative. Pure:
no HAPI."""
from __future__ import annotations

from datetime import UTC, datetime

import pytest
from smart_docgemma.agent.amendments import _by_factor, cancels
from smart_docgemma.agent.extraction import read
from smart_docgemma.knowledge.mentions import find_drugs
from smart_docgemma.reading.people import (
    beside_people,
    fold_accents,
    leading_lower_people,
    lone_names,
    lower_pair_people,
)
from smart_docgemma.reading.states import said_in
from smart_docgemma.tools.words.ward_words import readings
from smart_docgemma.tools.words.when import clock_said, taken


@pytest.mark.parametrize("said", [
    "elle est en famille depuis 2 mois", "elle attend famille, 12 semaines", "elle attend un enfant",
    "ela tá esperando neném", "ela ta esperando um filho", "la doña está preñada",
    "está en estado de buena esperanza", "esperando familia para mayo", "she has a baby on the way",
    # found by a walk after the set
    "a senhora está de esperanças", "ella anda embarazadita", "ela tá de barriga de 6 meses",
    "ela está gravidinha",
])
def test_pregnancy_in_colloquial_words(said):
    assert said_in(said).get("pregnant")


@pytest.mark.parametrize("said", [
    "elle vit en famille", "antécédents familiaux de diabète", "en estado crítico",
    "esperando los resultados", "ela está esperando o exame", "on attend la culture",
    "ela está com dor de barriga", "sem esperanças de melhora",
])
def test_near_words_say_no_pregnancy(said):
    assert not said_in(said).get("pregnant")


@pytest.mark.parametrize("said", [
    "está dando teta a su guagua", "le da teta cada 3 horas", "la nena está dando chichi",
    "ela está dando mama ao bebê", "elle donne la tétée",
])
def test_breastfeeding_in_colloquial_words(said):
    assert said_in(said).get("breastfeeding")


@pytest.mark.parametrize("said", [
    "câncer da mama", "historia de cancer de mama", "dando mamadeira", "dar mamadeira",
    "ecografía de mama",
])
def test_near_words_say_no_breastfeeding(said):
    assert not said_in(said).get("breastfeeding")


@pytest.mark.parametrize("said", ["dando teta a su guagua", "elle est en famille", "la famille"])
def test_breast_and_family_words_are_no_drugs(said):
    assert find_drugs(said) == []


def _orders(said: str) -> bool:
    return "order_line" in read(said).entities.actions or "prescribe_drug" in read(said).entities.actions


@pytest.mark.parametrize("said", [
    "le petit fait 39 de fièvre, paracétamol 15 mg/kg toutes les 6h",
    "o miúdo tem febre, paracetamol 15 mg/kg de 6/6h",
    "el chamaco tiene fiebre, ibuprofeno 10 mg/kg c/8h",
    "la mamie a mal aux genoux, ibuprofène 400 mg 3x/j",
    "ahorita le pones paracetamol 1g c/6h",
    "me le pones ibuprofeno 400 mg c/8h",
])
def test_an_order_line_after_what_she_has_or_said_as_a_request(said):
    assert _orders(said)


@pytest.mark.parametrize("said", [
    # asked, or the clause before names a drug, or no frequency: no order line
    "il a de la fièvre, le paracétamol c'est combien ?",
    "il prend du paracétamol, ibuprofène aussi",
    "o miúdo tem febre, paracetamol?",
])
def test_a_question_or_a_drug_before_is_no_order_line(said):
    assert not _orders(said)


@pytest.mark.parametrize("said", ["¿le pones paracetamol 1g c/6h?", "¿me le pones ibuprofeno?"])
def test_the_request_asked_is_a_question(said):
    actions = read(said).entities.actions
    assert "give" in actions and "order_line" not in actions


@pytest.mark.parametrize("said", [
    "ela ta esperando nenem, 5 meses, posso dar ibuprofeno?", "ele ta sentindo dor, dipirona?",
])
def test_the_brazilian_ta_of_being_is_no_blood_pressure(said):
    assert read(said).focus != "vitals:bp"


@pytest.mark.parametrize("said", ["a TA dela ta alta?", "ta dela?", "PA 16x10 as 22h anota ai", "e a pa?"])
def test_her_ta_and_pa_are_still_her_pressure(said):
    assert read(said).focus == "vitals:bp"


# the holdout's rules (found when it was read at the end)

@pytest.mark.parametrize("said", [
    "revisame toda la medicación, dale", "chequeame todas las alergias", "passe-moi toute la liste",
    "vê-me a medicação toda",
])
def test_a_request_with_its_pronoun_names_no_one(said):
    assert not leading_lower_people(said) and not lower_pair_people(said)


def test_two_lower_case_words_before_a_short_question_still_name_someone():
    assert leading_lower_people("grace adeyemi weight pls") == ["grace adeyemi"]


@pytest.mark.parametrize("said, dose", [
    ("doblale la dosis", "1000 mg"), ("dobla la dosis", "1000 mg"), ("dobre a dose", "1000 mg"),
    ("bájale a la mitad", "250 mg"),
])
def test_a_relative_dose_in_more_words(said, dose):
    assert _by_factor(fold_accents(said.lower()), "500 mg") == dose


@pytest.mark.parametrize("said", ["dobla a la derecha", "double check the dose", "doblado"])
def test_no_factor_in_near_words(said):
    assert _by_factor(said, "500 mg") is None


@pytest.mark.parametrize("said, hour", [
    ("presión 9/6 a las 10 de la noche", 22), ("PA 12x8 às 9 da noite", 21),
    ("tension 15/9 à 10h du soir", 22), ("glucemia 180 a las 3 de la tarde", 15),
    ("bp 150/90 at 9 last night", 21),
    # the morning's, the small hours and no half said stay as said
    ("glicemia 62 às 3h da manhã", 3), ("dextro 0,62 a 3h du matin", 3), ("a las 2 de la noche", 2),
    ("TA 9/6 à 22h", 22), ("a las 10", 10), ("a las 10 de la tardanza", 10),
])
def test_the_half_of_the_day_said_after_the_hour(said, hour):
    clock = clock_said(said)
    assert clock is not None and clock.at.hour == hour


@pytest.mark.parametrize("said", ["presión 9/6 a las 10 de la noche, anótala", "pressão 12x8, registra"])
def test_the_pressure_said_alone_with_its_pair_is_recorded(said):
    assert "record_vital" in read(said).entities.actions


@pytest.mark.parametrize("said", ["¿cómo va la presión?", "pression de l'équipe", "pressure sore on the heel"])
def test_the_pressure_without_its_pair_records_nothing(said):
    assert "record_vital" not in read(said).entities.actions


# found by a walk after the set (new wordings of its angles)

@pytest.mark.parametrize("said, relative", [
    ("mets de l'ibuprofène à sa fille 400 mg 3x/j", "fille"),
    ("receta ibuprofeno 400 c/8h a su hermana", "hermana"),
    ("dá dipirona ao marido dela", "marido"),
    ("give ibuprofen 400 tds to her husband", "husband"),
])
def test_a_drug_given_to_a_relative_is_for_the_relative(said, relative):
    assert relative in beside_people(said)


@pytest.mark.parametrize("said", [
    "j'ai parlé à sa fille, ibuprofène 400 3x/j", "receta paracetamol y avisa a su hija",
    "prescreve ibuprofeno e explica ao marido dela", "mets de l'ibuprofène 400 mg 3x/j",
])
def test_a_relative_told_in_another_clause_is_given_nothing(said):
    assert beside_people(said) == []


@pytest.mark.parametrize("said, day, hour", [
    ("tension 8/5 cette nuit à 2h", 6, 2), ("glucemia 50 anoche a las 3", 6, 3),
    ("bp 150/90 at 22:00 last night", 5, 22), ("ontem às 22h", 5, 22), ("hier à 14h", 5, 14),
])
def test_the_night_just_passed_places_its_small_hours_today(said, day, hour):
    at = taken(said, None, datetime(2026, 12, 6, 8, 30, tzinfo=UTC))
    assert at is not None and (at.day, at.hour) == (day, hour)


@pytest.mark.parametrize("said", [
    "olvidate, dejalo así", "olvídese", "olvidate de eso", "laisse faire, on annule", "laisse faire",
])
def test_forgetting_in_each_places_words_cancels(said):
    assert cancels(said)


@pytest.mark.parametrize("said", [
    "olvidate de la dosis, dale 500", "laisse faire, mets 500", "laisse faire le labo",
])
def test_forgetting_with_a_new_dose_or_another_object_is_no_cancel(said):
    assert not cancels(said)


@pytest.mark.parametrize("said, drugs, name", [
    ("ibuprofeno 400 c/8h para Samuel", {"ibuprofeno"}, "Samuel"),
    ("paracetamol 1 g pour Robert svp", {"paracetamol"}, "Robert"),
    ("metformin 500 bd for Samuel please", {"metformin"}, "Samuel"),
])
def test_a_first_name_an_order_is_for(said, drugs, name):
    assert name in lone_names(said, drugs)


@pytest.mark.parametrize("said, drugs", [
    ("transfert pour Lyon", set()), ("amoxicillin 1g tds for Lyme", {"amoxicillin"}),
    ("benznidazol para Chagas", {"benznidazol"}), ("ibuprofeno para Samuel y Ana mañana", {"ibuprofeno"}),
])
def test_no_first_name_an_order_is_for(said, drugs):
    assert lone_names(said, drugs) == []


@pytest.mark.parametrize("said", ["passa ibuprofeno 400 de 8/8h pra filha dela", "ibuprofeno pro marido dela"])
def test_pra_and_pro_a_relative(said):
    assert beside_people(said)


@pytest.mark.parametrize("said, value", [
    ("hgt de 3h da manhã foi 58 registra", 58.0), ("hgt de 3 h foi 58", 58.0),
    ("dextro de 3h était à 0,58", 58.0), ("glicemia 62 às 3h da manhã", 62.0),
    ("pouls 110 à 23h", 110.0), ("glucosa capilar 250 a las 8 de la noche", 250.0),
])
def test_the_hour_a_reading_was_taken_is_never_its_value(said, value):
    found = readings(said)
    assert found and found[0].values == (value,)


@pytest.mark.parametrize("said", ["hgt de 3h da manhã", "fc de 22:00 110"])
def test_a_clock_alone_is_no_reading(said):
    assert readings(said) == []
