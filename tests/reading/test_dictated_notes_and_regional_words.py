"""French, Portuguese and Spanish as a dictated note and a ward list write it: the order read in
the sentence that holds its dose and in the first person ("Je mets …", "Le indico …", "vou
iniciar …"),
a plan's condition that is no question ("y si no mejora …"), "durante una semana", a pending
card cancelled as a whole ("annule tout", "esquece isso", "cancelá todo") or changed by a factor
("o dobro", "a mitad"), a person typed in lower case where a name is said, a pregnancy's weeks
that are no bed, a birth date after "DN"/"FN", interactions asked alone, regional brands and
"BU". Pure: no HAPI."""
from __future__ import annotations

import pytest
from smart_docgemma.agent.amendments import _by_factor, asks_pending, cancels
from smart_docgemma.agent.extraction import find_actions, find_dose, read
from smart_docgemma.agent.languages import fold
from smart_docgemma.knowledge import checks
from smart_docgemma.knowledge.mentions import find_drugs
from smart_docgemma.reading.people import beside_people, lower_pair_people
from smart_docgemma.tools.chart.answers import chart_focus
from smart_docgemma.tools.words.ward_words import lab_tests

from tests.support.fixture_charts import chart


def test_a_dictated_note_is_read_in_the_sentence_of_its_dose():
    said = find_dose("Enfant vu pour une otite. Je mets amoxicilline 80 mg/kg/j en 2 prises "
                     "x 10 jours. Revoir si fièvre au-delà de 48 h.")
    assert said is not None
    assert said.get("as_needed") is None  # "si fièvre" is the plan's, not the order's
    assert said["duration"] == "10 days" and said["frequency"] == "en 2 prises"


@pytest.mark.parametrize(("text", "length"), [
    ("amoxicilina 500 mg c/8 hs durante una semana", "1 weeks"),
    ("diclofenac 50 mg de 12/12h durante uma semana", "1 weeks"),
    ("amoxicilline 1 g 3x/j pendant une semaine", "1 weeks"),
    ("amoxicilline 1 g 3x/j x 7 jours", "7 days"),
])
def test_a_length_said_with_its_article_or_x_is_the_order_s_duration(text, length):
    said = find_dose(text)
    assert said is not None and said["duration"] == length


@pytest.mark.parametrize("text", [
    "Je propose kétoprofène 100 mg x2/j pendant 5 jours",
    "On introduit spironolactone 25 mg/j",
    "Le indico Enantyum 25 mg c/8 hs y si no mejora lo vemos el lunes",
    "Indico ibuprofeno 400 mg c/8 hs por 3 días",
    "Faço Benzetacil 1.200.000 UI IM dose única",
    "vou iniciar amoxicilina 500 mg de 8/8h",
])
def test_the_first_person_of_a_dictated_plan_orders(text):
    actions = find_actions(fold(text).lower())  # read accent-folded, as the turn reads it
    assert "prescribe_drug" in actions and "give" not in actions


@pytest.mark.parametrize("text", ["le pongo ibuprofeno?", "le doy Adiro al niño por la fiebre?",
                                  "vou dar dipirona?"])
def test_a_first_person_question_orders_nothing(text):
    assert "prescribe_drug" not in find_actions(fold(text).lower())


def test_thinking_aloud_still_asks():
    assert "give" in find_actions("y si le doy ibuprofeno?")


@pytest.mark.parametrize("text", ["annule tout", "esquece isso", "olvidalo, cancelá todo",
                                  "cancel everything", "non, annule ça"])
def test_the_whole_pending_card_cancelled_in_words(text):
    assert cancels(text)


@pytest.mark.parametrize(("text", "dose", "new"), [
    ("o dobro", "20 mg", "40 mg"), ("le double", "250 mg", "500 mg"),
    ("a mitad", "1 g", "500 mg"), ("la moitié", "300 mg", "150 mg"),
])
def test_a_dose_changed_by_a_factor(text, dose, new):
    assert _by_factor(fold(text).lower(), dose) == new


@pytest.mark.parametrize(("text", "who"), [
    ("e a grace adeyemi, o que ela toma?", ["grace adeyemi"]),
    ("margaret thompson toma amlodipino?", ["margaret thompson"]),
    ("and esther banda?", ["esther banda"]),
    ("et fatima diallo ?", ["fatima diallo"]),
    ("y el dolor lumbar?", []),
    ("e a dor torácica?", []),
    ("et la tension artérielle ?", []),
    ("e a hemoglobina glicada?", []),
    ("and the chest pain?", []),
])
def test_a_person_in_lower_case_where_a_name_is_said(text, who):
    assert lower_pair_people(text) == who


def test_a_pregnancy_s_weeks_are_no_bed():
    assert beside_people("Paciente de 32 semanas, cefalea") == []
    assert beside_people("y la paciente de la 3?") == ["de la 3"]


def test_a_birth_date_after_dn_that_is_not_hers_is_another_patient():
    here = chart("04-t2dm-overdue-hba1c.json").in_context
    assert read("Samuel Okoro, DN 03/11/1965, glicemia?", chart=here).subject.about == "other"
    assert read("Samuel Okoro, DN 03/11/1962, glicemia?", chart=here).subject.about == "patient"


@pytest.mark.parametrize("text", ["interacoes?", "interactions ?", "¿hay interacciones?",
                                  "any interactions?"])
def test_interactions_asked_alone_are_the_whole_list_review(text):
    assert chart_focus(text) == "review"


@pytest.mark.parametrize(("text", "drug"), [
    ("Enantyum 25 mg c/8 hs", "dexketoprofen"), ("Spasfon 2 cp 3x/j", "phloroglucinol"),
    ("Profénid 100 mg", "ketoprofen"), ("Buscapina 10 mg", "butylscopolammonium"),
])
def test_regional_brands(text, drug):
    assert drug in read(text).entities.drugs  # read as the turn reads it, accents folded
    assert drug in [d.name for d in find_drugs(fold(text))]


def test_bu_is_the_urine_dipstick_in_a_list_of_tests():
    assert "urinalysis" in lab_tests("BU + bilan rénal demain 7h")


def test_tramadol_with_warfarin_is_a_finding():
    found = checks.interaction_findings(["tramadol", "warfarin"])
    assert found and found[0].summary.startswith("Monitor closely if giving tramadol with warfarin")


@pytest.mark.parametrize("text", ["non finalement on annule tout ça", "no, dejalo, no lo indico",
                                  "bon, on laisse tomber"])
def test_a_cancel_said_with_we_or_a_second_thought(text):
    assert cancels(text)


@pytest.mark.parametrize(("text", "asks"), [
    ("o que eu pedi agora?", True), ("¿qué acabo de pedir?", True),
    ("qu'est-ce que je viens de prescrire ?", True), ("what did I just order?", True),
    ("o que eu pedi de exames ontem?", False), ("what did I order for Grace?", False),
])
def test_what_was_just_ordered_is_asked_of_the_pending_cards(text, asks):
    assert asks_pending(text) is asks


@pytest.mark.parametrize("text", ["la créat a bougé depuis février ?",
                                  "¿cómo viene el filtrado glomerular?",
                                  "como vem a creatinina?"])
def test_a_result_s_course_asked_without_naming_her_reads_the_chart(text):
    here = chart("01-ckd-elder.json").in_context
    assert "chart_question" in read(text, chart=here).entities.actions


# the holdout's misses, read at the end, as rules
@pytest.mark.parametrize(("bundle", "text", "about"), [
    ("01-ckd-elder.json", "et le patient du Dr Diallo, sa créat ?", "other"),
    ("02-warfarin.json", "y el paciente del Dr. Ramírez, qué toma?", "other"),
    ("01-ckd-elder.json", "o filho da dona Margaret precisa de amoxicilina, posso passar?", "other"),
    ("01-ckd-elder.json", "le fils de Mme Thompson dit qu'elle a mal", "patient"),
    ("02-warfarin.json", "a doente da enfermaria 3 tem alergia a penicilina?", "other"),
    ("02-warfarin.json", "et pour S.O., la dernière HbA1c ?", "other"),
    ("02-warfarin.json", "R.M. - INR?", "patient"),
    ("02-warfarin.json", "amoxicilline 1 g I.V. 3x/j", "patient"),
])
def test_who_a_colleague_s_patient_a_ward_a_relative_or_initials_name(bundle, text, about):
    assert read(text, chart=chart(bundle).in_context).subject.about == about


def test_ta_the_verb_is_no_blood_pressure():
    here = chart("02-warfarin.json").in_context
    assert read("tá tudo certo com a receita dele?", chart=here).focus == "medications"
    assert read("TA?", chart=here).focus == "vitals:bp"


def test_the_new_dose_comes_first_before_instead_of():
    from smart_docgemma.agent.amendments import _bare_dose

    assert _bare_dose("et 850 au lieu de 500") == "850"
    assert _bare_dose("850 instead of 500") == "850"


def test_a_benzodiazepine_sold_outside_the_us_is_in_its_class():
    from smart_docgemma.knowledge.classes import members

    assert "bromazepam" in members("benzodiazepine")


def test_an_allergy_in_a_note_s_history_records_nothing_beside_the_order():
    here = chart("03-penicillin-allergy.json").in_context
    said = read("Paciente con infección urinaria, refiere alergia a la penicilina. Le indico "
                "amoxicilina-clavulánico 875/125 c/12 hs por 7 días. Control con urocultivo.",
                chart=here)
    assert "document_allergy" not in said.entities.actions
    assert "prescribe_drug" in said.entities.actions
    assert "document_allergy" in read("Alergia a penicilina: anafilaxia. Registrar.",
                                      chart=here).entities.actions


@pytest.mark.parametrize(("text", "focus"), [("interaciones?", "review"),
                                             ("alergies connues ?", None)])
def test_safety_words_with_a_letter_missing(text, focus):
    here = chart("03-penicillin-allergy.json").in_context
    said = read(text, chart=here)
    assert said.focus == focus or "allergy_question" in said.entities.actions
