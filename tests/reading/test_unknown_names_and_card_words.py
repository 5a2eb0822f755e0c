"""A name no list holds, the pending card named in new words and a follow-up pointing at the
result before: each rule beside the near-words that must not match it (pure, no HAPI)."""
from __future__ import annotations

import pytest
from smart_docgemma.agent import amendments
from smart_docgemma.reading.people import beside_people
from smart_docgemma.reading.unknown_words import is_word, near_vocabulary, unknown_names


@pytest.mark.parametrize("text, name", [
    ("Tião, potássio?", "Tião"),
    ("Priya allergies?", "Priya"),
    ("l'INR de Mamadou ?", "Mamadou"),
    ("Itzel, ¿alergias?", "Itzel"),
    ("Engracia alergias?", "Engracia"),
    ("what's the creatinine of Oluwadamilare", "Oluwadamilare"),
    ("Fatou's k?", "Fatou"),
    ("INR de PACO?", "PACO"),  # in capitals, after "de", ending the question
    ("K of FATOU?", "FATOU"),
])
def test_a_name_shaped_word_no_vocabulary_knows_is_a_person(text, name):
    assert name in unknown_names(text)


@pytest.mark.parametrize("text", [
    "Potasium?",  # one letter from a clinical word: a typo
    "Kreatinine today?",
    "Sandoz amoxicillin ok for her?",  # a maker before its drug
    "back from Accra, any allergy on file?",  # a place after its preposition
    "sent up from St Mary's - potassium?",
    "Dr Otieno asks which inhaler she is on",  # a colleague after a title
    "l'infirmière Tânia demande l'INR",
    "Zytiga 1000mg od",  # a drug the lists lack, before its dose
    "allergique a l'amoxicilline, oedeme de Quincke",  # an eponym
    "X-ray of the chest?",  # a hyphenated word of words
    "Pouvez-vous vérifier son traitement ?",
    "Queixa-se de dores no joelho",
    "¿Cuántas glucemias capilares en las últimas 24 horas?",
    "Latest INR?", "Dernière kaliémie ?", "Último potássio?", "Tiene alergias?",
    "WARFARIN DOSE FOR THIS PATIENT?",  # a sentence in capitals
    "dose of HBPM?", "risk of AINS?",  # abbreviations read as letters
    "INR de HOY?", "la kaliémie du PATIENT ?",  # words in capitals
])
def test_words_places_staff_makers_and_typos_are_no_name(text):
    assert unknown_names(text) == []


def test_the_word_lists_and_the_vocabulary():
    assert is_word("Allergies") and is_word("Puede") and not is_word("Mamadou")
    assert near_vocabulary("Potasium") and not near_vocabulary("Engracia")


@pytest.mark.parametrize("text, said", [
    ("annule le furosémide", "furosemide"),
    ("cancel the azithromycin", "azithromycin"),
    ("cancela a furosemida", "furosemida"),
    ("ok, anula la furosemida por favor", "furosemida"),
])
def test_a_cancel_naming_what_it_cancels(text, said):
    assert amendments.cancels_what(text) == said


@pytest.mark.parametrize("text", [
    "cancel amoxicillin 500, give clarithromycin",  # a new order beside it
    "cancel amoxicillin 500",
    "can you cancel the old referral and book a new one for cardiology?",
    "annuler",
])
def test_a_cancel_with_more_than_a_name_is_not_read_as_one(text):
    assert amendments.cancels_what(text) is None


@pytest.mark.parametrize("text, switch", [
    ("actually switch that to enalapril 5mg", True),
    ("swap it for pantoprazole 40", True),
    ("remplace-le par le pantoprazole", True),
    ("also paracetamol 1g qds", False),
    ("switch off the pump", False),
])
def test_switch_words_with_the_card_pointed_at(text, switch):
    assert amendments.switches(text) is switch


@pytest.mark.parametrize("text, correction", [
    ("corrige: 92,8 kg", True), ("correction: 38.2", True), ("should be 140/90", True),
    ("correct dose?", True),  # a word of correction, read only against a pending reading
    ("recorded 92,8 kg", False), ("incorrectly", False),
])
def test_a_correction_named_as_one(text, correction):
    assert bool(amendments._corrections().search(text)) is correction


@pytest.mark.parametrize("text, beside", [
    ("e a do doente seguinte?", True),
    ("et celle du patient suivant ?", True),
    ("lo mismo para el paciente de al lado", True),
    ("o doente seguiu bem", False),
    ("a dose seguinte?", False),
])
def test_the_next_patient_in_a_contracted_article(text, beside):
    assert bool(beside_people(text)) is beside


@pytest.mark.parametrize("before, follow_up, joined", [
    ("egfr?", "and the previous one?", True),
    ("HbA1c ?", "et celle d'avant ?", True),
    ("¿HbA1c?", "¿es normal?", True),
    ("INR?", "normal?", True),
    ("egfr?", "and aspirin?", False),  # a drug of its own
    ("what is warfarin?", "¿es normal?", False),  # no chart value asked before
])
def test_a_follow_up_pointing_at_the_result_before_is_read_with_it(before, follow_up, joined):
    from smart_docgemma.agent.clarification import referred_back
    from smart_docgemma.agent.extraction import extract

    history = [{"role": "user", "content": before}, {"role": "assistant", "content": "…"}]
    said = referred_back(follow_up, extract(follow_up), history)
    assert (said is not None and "chart_question" in extract(said).actions) is joined


@pytest.mark.parametrize("text, verb", [
    ("cancela a furosemida", True), ("annule le furosémide", True),
    ("ok, cancel the doxycycline", True),
    ("stop the aspirin", False),  # a stop of a drug she takes, not a card's cancel
    ("para a varfarina", False), ("arrête le furosémide", False),
])
def test_a_cancel_by_its_verb_alone(text, verb):
    assert amendments.cancels_by_verb(text) is verb


@pytest.mark.parametrize("text, approves", [
    ("valide-le", True), ("signe-la", True), ("assina-o", True), ("ok approve that", True),
    ("valide le dosage ?", False), ("is it valid?", False),
])
def test_approval_with_the_card_as_a_pronoun(text, approves):
    assert amendments.approves(text) is approves


def test_a_colleague_asking_through_an_aside_orders_nothing():
    from smart_docgemma.reading.ward import read_ward

    assert not read_ward("le Dr Okafor, son médecin traitant, demande la dernière HbA1c").order_words
    assert read_ward("demande une HbA1c pour demain 8h").order_words


@pytest.mark.parametrize("text, focus", [
    ("her GP Dr Otieno asks which inhaler she is on", "medications"),
    ("which inhaler is she on?", "medications"),
    ("which inhaler is best for asthma?", None),  # a question of knowledge, not of her list
])
def test_which_drug_of_a_kind_she_is_on_is_her_list(text, focus):
    from smart_docgemma.tools.chart.answers import focus_of

    assert focus_of(text) == focus


@pytest.mark.parametrize("text, per_day", [
    ("furosemida 20 mg de manhã", "de manhã"), ("sinvastatina 20 mg de noite", "de noite"),
    ("furosemida 20 mg pela manhã", "pela manhã"),
])
def test_portuguese_morning_and_night_are_once_a_day(text, per_day):
    from smart_docgemma.agent.extraction import extract

    said = extract(text)
    assert "order_line" in said.actions and said.dose.frequency == per_day


def test_a_name_one_letter_from_hers_is_asked_never_answered():
    from smart_docgemma.reading.subject import InContext, is_own_name, near_her_name

    kofi = InContext(id="pt-child", name="Kofi Asante", mrn="MRN-101044", born="2020-06-15")
    assert near_her_name("Kofi Assante", kofi) and not is_own_name("Kofi Assante", kofi)
    assert near_her_name("kofi asant", kofi)
    assert not near_her_name("Kofi Asamoah", kofi) and not near_her_name("Kwame Asante", kofi)
    assert not near_her_name("Kofi Asante", kofi)  # hers: answered
