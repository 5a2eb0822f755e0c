"""Who a message is about, and what a follow-up does to the pending card, read by the real
readers (pure: no HAPI). Each rule has its near-words that must not match: a colleague, a place,
a drug at a sentence's start, a name one letter off that is someone else's, an added order that
is no switch, a chart question that is no question about the card."""
from __future__ import annotations

import pytest
from smart_docgemma import knowledge
from smart_docgemma.agent import amendments
from smart_docgemma.agent.clarification import completed
from smart_docgemma.agent.extraction import extract, read
from smart_docgemma.agent.planning import _order_notes
from smart_docgemma.approval.types import PendingOrder
from smart_docgemma.reading.dosage import Dose
from smart_docgemma.reading.people import is_beside
from smart_docgemma.reading.subject import is_own_name
from smart_docgemma.tools.chart.in_context import InContext

ROBERT = InContext("Robert Mensah", "pt-warfarin", "MRN-100587", "1950-09-30")
GRACE = InContext("Grace Adeyemi", "pt-pen-allergy", "MRN-100712", "1985-02-17")
MARGARET = InContext("Margaret Thompson", "pt-ckd-elder", "MRN-100231", "1943-05-12")


@pytest.mark.parametrize(("message", "who"), [
    ("I saw Fatima earlier, is she ok on the metformin?", "Fatima"),
    ("just admitted Ngozi, any allergies?", "Ngozi"),
    ("j'ai vu Aïcha ce matin, elle a de la fièvre ?", "Aicha"),
    ("Adébáyọ̀ a-t-il un bilan rénal ?", "Adebayo"),
    ("what's Mr Nguyễn on?", "Nguyen"),
    ("the patient you saw yesterday, was his INR ok?", "the patient you saw yesterday"),
    ("¿el paciente de ayer tenía fiebre?", "el paciente de ayer"),
    ("le patient d'hier, son INR ?", "le patient d hier"),
    ("e o marido dela?", "marido"),
    ("and her husband?", "husband"),
    ("et pour l'enfant ?", "enfant"),
    ("¿y el niño?", "nino"),
    ("bumped into Samuel in the corridor - is his metformin dose ok?", "Samuel"),
    ("her mother is on penicillin V - any problem for the mother?", "mother"),
    ("sa mère prend du Kardégic, ça pose problème ?", "mere"),
    ("su hermana tiene otitis también, ¿amoxicilina para ella?", "hermana"),
])
def test_someone_else_named_in_a_new_way_is_read(message, who):
    assert who in extract(message).patient_names


@pytest.mark.parametrize("message", [
    "Sister Mary says her K is up - latest potassium?",  # a colleague
    "spoke to Dr Okafor, start ramipril?",  # a colleague after a verb of speaking
    "He just flew back from Lagos - latest HbA1c?",  # a place
    "Naproxen for his knee?",  # a drug opening the sentence
    "Warfarin 5mg tonight?",
    "reviewed Warfarin dosing",
    "I saw her yesterday, INR?",  # the patient herself, seen yesterday
    "aspirin for the child?",  # the child in a child's chart: not a follow-up addressed alone
    "dose pour l'enfant ?",
    "what did you see yesterday on her ECG?",
    "his wife says he is on too many pills",  # the relative reports of him
])
def test_colleagues_places_drugs_and_herself_are_no_one_else(message):
    assert extract(message).patient_names == ()


@pytest.mark.parametrize(("name", "here"), [
    ("Bob Mensah", ROBERT), ("Roberto Mensah", ROBERT), ("Margarida Thompson", MARGARET),
    ("Maggie Thompson", MARGARET), ("Mensah", ROBERT), ("R Mensah", ROBERT),
])
def test_her_own_name_as_a_nickname_or_in_another_language_is_hers(name, here):
    assert is_own_name(name, here)


@pytest.mark.parametrize(("name", "here"), [
    ("Roberta Mensah", ROBERT),  # his wife may be Roberta Mensah: a given name one letter off
    ("Thomson", MARGARET),  # another surname, one letter off, alone
    ("Grace Adeyimi", ROBERT),  # someone else's name misspelt
    ("Grace Okoro", GRACE),  # her given name, another surname
    ("Bob Smith", ROBERT),  # his nickname, another surname
    ("Margret Thompson", MARGARET),  # a given name one letter off is not read as hers
    ("Grace Adeyimi", GRACE),  # nor a surname with a letter changed: asked, never guessed
])
def test_other_names_near_hers_are_someone_else(name, here):
    assert not is_own_name(name, here)


def test_a_person_seen_at_another_time_is_said_as_a_person_not_a_name():
    assert is_beside("the patient you saw yesterday") and is_beside("enfant")
    assert not is_beside("Fatima")


def _card(words: str) -> PendingOrder:
    ent = extract(words)
    dose = ent.dose or Dose()
    return PendingOrder("p1", "pat", ent.drugs[0], knowledge.generic(ent.drugs[0]), dose.written,
                        dose.frequency, _order_notes(dose))


@pytest.mark.parametrize(("first", "said", "drug"), [
    ("amoxicillin 500mg tds", "actually use cefalexin instead", "cephalexin"),
    ("amoxicilline 500 mg 3x/j", "finalement céfalexine à la place", "cephalexin"),
    ("amoxicilina 500 mg 8/8h", "troca por cefalexina", "cephalexin"),
    ("claritromicina 500 mg c/12h", "cámbiala a azitromicina", "azithromycin"),
    ("start cipro 500mg bd", "actually switch to doxycycline", "doxycycline"),
])
def test_another_drug_in_the_cards_place_redrafts_it_with_its_dose(first, said, drug):
    card = _card(first)
    change = amendments.read(read(said), card)
    assert change is not None and change.drug == drug
    args = amendments.redraft(card, change)
    assert args["medication_name"] == drug and args["dosage"] == card.dosage
    assert args["frequency"] == card.frequency


@pytest.mark.parametrize(("first", "said"), [
    ("start gabapentin 300mg tds", "also paracetamol 500mg qds"),
    ("oméprazole 20 mg 1x/j", "et aussi paracétamol 500 mg 4x/j"),
    ("omeprazol 20 mg 1x ao dia", "e também paracetamol 500 mg 6/6h"),
    ("metformina 500 mg c/12h", "y también atorvastatina 20 mg por la noche"),
    ("amoxicillin 500mg tds", "cefalexin?"),  # a question about another drug
])
def test_an_order_beside_the_card_is_no_switch(first, said):
    assert amendments.read(read(said), _card(first)) is None


@pytest.mark.parametrize("said", [
    "also paracetamol 500mg qds", "et aussi paracétamol 500 mg 4x/j",
    "e também paracetamol 500 mg 6/6h", "y también atorvastatina 20 mg por la noche",
])
def test_an_added_order_line_is_an_order_line(said):
    ent = extract(said)
    assert "order_line" in ent.actions and len(ent.drugs) == 1  # "también" is no Ambien


@pytest.mark.parametrize("said", [
    "is that safe with her kidneys?", "c'est ok avec ses reins ?",
    "isso é seguro pro rim dela?", "¿es seguro con su función renal?", "is it ok with her K?",
])
def test_a_safety_question_pointing_at_the_card_is_asked_of_its_drug(said):
    asked = amendments.asked_of_card(read(said), _card("nitrofurantoin 50mg qds"))
    assert asked is not None and asked.startswith("nitrofurantoin")


@pytest.mark.parametrize("said", [
    "does it interact with his warfarin?", "e pode usar com a varfarina?",
])
def test_a_question_of_the_card_with_another_drug_is_asked_of_both(said):
    asked = amendments.asked_of_card(read(said), _card("omeprazole 20mg od"))
    assert asked is not None and asked.startswith("omeprazole")


@pytest.mark.parametrize("said", [
    "what's her egfr?", "¿y su potasio?", "is her potassium ok?",  # chart questions
    "is naproxen safe with her kidneys?",  # names its own drug
    "is that safe for Grace Adeyemi?",  # someone else
    "what about warfarin?",  # another drug, pointing at nothing
    "is his warfarin dose ok?",
])
def test_other_questions_leave_the_card_alone(said):
    assert amendments.asked_of_card(read(said), _card("nitrofurantoin 50mg qds")) is None


def test_the_result_before_points_back_at_the_question_before():
    history = [{"role": "user", "content": "what's her potassium?"},
               {"role": "assistant", "content": "5.6"}]
    assert completed("and the one before that?", history) == (
        "what's her potassium? and the one before that?")
    assert completed("and the one before that?", []) == "and the one before that?"
    assert completed("e o anterior?", [{"role": "user", "content": "último potássio?"},
                                       {"role": "assistant", "content": "5.6"}]) == (
        "último potássio? e o anterior?")


@pytest.mark.parametrize(("before", "said"), [
    ("INR?", "and her creatinine?"),  # a question of its own
    ("INR?", "is it ok to start aspirin?"),  # names a drug
    ("INR?", "thanks"),
])
def test_a_follow_up_of_its_own_after_a_value_is_read_alone(before, said):
    history = [{"role": "user", "content": before}, {"role": "assistant", "content": "3.4"}]
    assert completed(said, history) == said
