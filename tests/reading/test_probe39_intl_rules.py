"""Rules added for probe39_intl (es/pt), pinned by pure tests with near wordings that must not
trigger them."""

from __future__ import annotations

import pytest
from smart_docgemma.agent.extraction import find_dose
from smart_docgemma.reading.first_names import first_name_people
from smart_docgemma.tools.writes.drafts import request_kind


# p39-pt-4: a day's amount said with the word of once a day, nothing split, is given once a day
@pytest.mark.parametrize("said", ["azitromicina 10mg/kg ao dia x 3 dias",
                                  "azithromycin 10mg/kg daily x 3 days",
                                  "azitromicina 10 mg/kg al dia por 3 dias"])
def test_a_day_said_once_is_once_daily(said):
    found = find_dose(said) or {}
    assert found.get("dose") == "10 mg/kg/day"
    assert found.get("frequency") == "once daily"


@pytest.mark.parametrize(("said", "frequency"), [
    ("azitromicina 10mg/kg/dia x 3 dias", None),           # a day's amount only: asked
    ("amoxicilina 50 mg/kg por dia", None),
    ("amoxicilina 50mg/kg ao dia de 8/8h", "8/8h"),         # the split said wins
    ("amoxicillin 90 mg/kg a day bd", "twice daily"),
])
def test_a_day_split_or_bare_is_not_once_daily(said, frequency):
    assert (find_dose(said) or {}).get("frequency") == frequency


def test_a_day_split_in_doses_is_not_once_daily():
    assert (find_dose("amoxicilina 50mg/kg ao dia em 3 tomadas") or {}).get(
        "frequency") != "once daily"


# p39-pt-8: Portugal's and Africa's short forms are names, and "tio"/"tia" before a given name
# is an elder's title (as "seu"), so the name after it is a person
@pytest.mark.parametrize(("said", "names"), [
    ("e o tio manel da 10, ja tomou a metformina?", ["manel"]),
    ("e o manel da 10, ja tomou a metformina?", ["manel"]),
    ("a tia ze do 3 ja comeu?", ["ze"]),
    ("o senhor quim do 4 tem dor", ["quim"]),
    ("e o toze, ja fez o raio x?", ["toze"]),
    ("a tia dele trouxe os remedios", []),         # the relative, no name
    ("el tio de la paciente pregunta", []),
    ("his wife mary says she is allergic", []),   # a relative's name stays the relative's
    ("manela o tubo", []),
    ("quimio amanha", []),
])
def test_lusophone_short_forms_and_elders_titles(said, names):
    assert first_name_people(said) == names


# p39-es-11: the counter-referral back to the health centre is the discharge letter; the SUS
# form of both ways stays a referral
@pytest.mark.parametrize(("said", "kind"), [
    ("necesito la contrarreferencia para su medico del centro de salud", "discharge"),
    ("faz a contrarreferencia pro posto", "discharge"),
    ("armame su nota de contrarreferencia", "discharge"),
    ("la hoja de contrarreferencia para nefro", "referral"),
    ("guia de referencia e contrarreferencia pra nefrologia", "referral"),
    ("la referencia a nefro ya se hizo?", None),
])
def test_counter_referral_is_the_discharge_letter(said, kind):
    assert request_kind(said) == kind


# walk after probe39_intl: Brazil's "bota" (put) gives the pending card its new dose
@pytest.mark.parametrize("said", ["bota 60 entao", "bota pra 60", "bota 1 g"])
def test_bota_changes_the_card(said):
    from smart_docgemma.agent.amendments import _change_words
    assert _change_words().search(said)


@pytest.mark.parametrize("said", ["botafogo ganhou", "o botao da bomba"])
def test_near_words_of_bota_change_nothing(said):
    from smart_docgemma.agent.amendments import _change_words
    assert not any(m.group(0).strip().startswith("bota") for m in _change_words().finditer(said))


# walk after probe39_intl: the card kept said with its verb last, then the cancel of another
# ("a ceftriaxona deixa, tira a dipirona" left the dipirona card pending)
@pytest.mark.parametrize(("said", "clause"), [
    ("a ceftriaxona deixa, tira so a dipirona", "tira so a dipirona"),
    ("la ceftriaxona dejala, saca solo la dipirona", "saca solo la dipirona"),
    ("the ceftriaxone stays, drop the paracetamol", "drop the paracetamol"),
    ("deixa, tira a dipirona", "deixa"),                # "leave it" alone is no kept card
    ("tira a dipirona, fica so o ondan", "tira a dipirona"),
    ("cancela a dipirona, a dor passou", "cancela a dipirona"),
])
def test_a_card_kept_with_its_verb_last_leaves_the_cancel_clause(said, clause):
    from smart_docgemma.agent.amendments import cancel_clause
    assert cancel_clause(said) == clause


# walk after probe39_intl: "Sr" after a Spanish or Portuguese article is the title, so the
# surname after it in lower case is a person ("el sr. quispe de la 9 tiene el potasio alto?" was
# answered from the chart in context); "SR" (sinus rhythm) names no one
@pytest.mark.parametrize(("said", "names"), [
    ("el sr. quispe de la 9 tiene el potasio alto?", ("quispe",)),
    ("el sr quispe de la 9", ("quispe",)),
    ("o sr silva do 9 ta com potassio alto?", ("silva",)),
    ("in sr. rate 80", ()),
    ("no sr. changes", ()),
    ("o sr. esta com dor?", ()),
    ("pregunta el sr. si puede comer", ()),
])
def test_a_lower_case_surname_after_an_articled_sr(said, names):
    from smart_docgemma.agent.extraction import read
    assert read(said).entities.patient_names == names


# walk after probe39_intl: someone by a nickname of build before a bed's number is that bed's
# patient ("y la gorda de la 4, ya comio?"); a weight after it is no bed
@pytest.mark.parametrize(("said", "other"), [
    ("y la gorda de la 4, ya comio?", True),
    ("el flaco de la 2 tiene la glucemia en 300", True),
    ("esta gordo de 4 kilos mas", False),
    ("engordo de 3 kg", False),
])
def test_a_nickname_of_build_before_a_bed(said, other):
    from smart_docgemma.agent.extraction import read
    assert bool(read(said).entities.patient_names) == other


# walk after probe39_intl: the whole prescription given to review is her list with its review
@pytest.mark.parametrize(("said", "focus"), [
    ("revisa la prescripcion entera porfa", "review"),
    ("confere a prescricao dele", "review"),
    ("chequeame su receta", "review"),
    ("revisa la indicacion de cirugia", None),
])
def test_the_whole_prescription_to_review(said, focus):
    from smart_docgemma.tools.chart.answers import chart_focus
    assert chart_focus(said) == focus


@pytest.mark.parametrize("said", ["escreve a guia de contrarreferencia pro posto de saude",
                                  "prepara a contrarreferencia pra UBS"])
def test_the_counter_referral_guide_is_the_discharge_letter(said):
    assert request_kind(said) == "discharge"
