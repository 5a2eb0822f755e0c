"""Who a question is about, round 10: surnames with particles and apostrophes after a title, a
short form of a given name alone, a staff title's possessive, "M." as Monsieur in a man's chart,
and the follow-up that asks the question of the patient in context again. Pure: no HAPI; the
near-words that must not match beside each rule."""
from __future__ import annotations

import pytest
from smart_docgemma.agent import card_picks, clarification
from smart_docgemma.agent.extraction import extract, find_names
from smart_docgemma.knowledge.mentions import find_drugs
from smart_docgemma.reading.lower_names import lower_titled_people, particled_lower_people
from smart_docgemma.reading.people import (
    lower_pair_people,
    staff_possessed,
)
from smart_docgemma.reading.subject import InContext, initial_of_another
from smart_docgemma.reading.word_names import word_name_people

SAMUEL = InContext(name="Samuel Okoro")
MARGARET = InContext(name="Margaret Thompson")


def names(text: str) -> list[str]:
    return find_names(text, find_drugs(text), text)


@pytest.mark.parametrize(("text", "name"), [
    ("a Sra. dos Santos tem alergia a penicilina?", "dos Santos"),
    ("¿el potasio de la Sra. de la Cruz?", "de la Cruz"),
    ("Mme van der Berg, sa kaliémie ?", "van der Berg"),
    ("Mr O'Brien's INR?", "O'Brien"),
    ("l'INR de M. N'Diaye ?", "N'Diaye"),
    ("Mr McAllister, K?", "McAllister"),
])
def test_a_surname_with_its_particles_or_apostrophe_is_one_name(text: str, name: str) -> None:
    assert name in names(text)


@pytest.mark.parametrize("text", [
    "la señora de la cama 3 tiene fiebre",  # a bed, read by the bed rule, no surname "de la cama"
    "Mrs T's bloods",
    "Mr O, INR?",
])
def test_particles_never_make_a_surname_of_ordinary_words(text: str) -> None:
    assert not any(n.lower().startswith(("de la cama", "o'")) for n in names(text))


@pytest.mark.parametrize(("text", "who"), [
    ("Sister Grace's patient - what's his INR?", "the patient of Sister Grace"),
    ("Dr Mensah's INR?", "Mensah"),
    ("Dr Abu-Bakr's HbA1c?", "Abu-Bakr"),
    ("what about nurse Joy's lady in bay 2?", "the patient of nurse Joy"),
])
def test_a_staff_titles_possessive_names_someone(text: str, who: str) -> None:
    assert who in staff_possessed(text)


@pytest.mark.parametrize("text", [
    "Dr Otieno's letter says stop the aspirin",
    "as per Dr Smith's plan, K?",
    "Nurse Joy's note: BP 150/90",
    "the doctor's INR target is 2-3",
])
def test_a_colleagues_own_things_name_no_patient(text: str) -> None:
    assert staff_possessed(text) == []


@pytest.mark.parametrize(("text", "name"), [
    ("Sam, hemoglobina glicada?", "Sam"), ("Peggy, potassium ?", "Peggy"),
    ("Robbie - INR?", "Robbie"),
])
def test_a_short_form_where_a_name_stands_is_a_person(text: str, name: str) -> None:
    assert name in word_name_people(text)


@pytest.mark.parametrize("text", [
    "sam dose?", "Tome 2 comprimidos de paracetamol", "rob the pharmacy of time",
])
def test_a_short_form_as_a_word_is_no_one(text: str) -> None:
    assert word_name_people(text) == []


def test_m_with_its_full_stop_is_monsieur_in_a_mans_chart() -> None:
    assert initial_of_another("M. Okoro, HbA1c ?", SAMUEL, french=True) == ()
    # in a woman's chart "M." stays an initial: "M. Thompson" is Margaret's own
    assert initial_of_another("M. Thompson K?", MARGARET) == ()
    # another initial than hers is someone else of her surname
    assert initial_of_another("B. Okoro, HbA1c ?", SAMUEL) == ("B. Okoro",)


@pytest.mark.parametrize(("message", "before", "back"), [
    ("vale, ¿y el de este paciente?", "INR de Nguyen Van An?", True),
    ("and this patient?", "INR for Mr Smith?", True),
    ("vale, ¿y el de este paciente?", "warfarin 5mg od", False),  # no question of a person
])
def test_the_question_of_another_asked_again_of_her(message: str, before: str,
                                                     back: bool) -> None:
    said = clarification.referred_back(message, extract(message),
                                       [{"role": "user", "content": before}])
    assert (said is not None and "Nguyen" not in said and "Smith" not in said) is back


@pytest.mark.parametrize(("text", "found"), [
    ("Hope is asking about her K", ["Hope"]),
    ("Grace says she is allergic to something", ["Grace"]),
    ("Faith demande sa kaliémie", ["Faith"]),
    ("Comfort measures only?", []),
    ("Hope is low for a recovery, K?", []),
    ("Patience is key here", []),
    ("Will his INR be back?", []),
])
def test_a_word_name_opening_before_an_act_is_someone_acting(text: str,
                                                             found: list[str]) -> None:
    assert word_name_people(text) == found


@pytest.mark.parametrize(("text", "found"), [
    ("what's ms macdonald-ross on?", ["macdonald-ross"]),
    ("ms mensah inr", ["mensah"]),
    ("ms flare - steroids?", []),
    ("mr severe, echo?", []),
    ("hx of ms and mr", []),
    ("ms non-compliant with meds", []),
])
def test_a_lower_case_title_names_only_a_surname_no_list_holds(text: str,
                                                                found: list[str]) -> None:
    assert lower_titled_people(text) == found


@pytest.mark.parametrize(("text", "found"), [
    ("ok, e o deste doente?", []),
    ("e a grace adeyemi, o que ela toma?", ["grace adeyemi"]),
])
def test_a_word_for_a_patient_is_no_lower_case_name(text: str, found: list[str]) -> None:
    assert lower_pair_people(text) == found


@pytest.mark.parametrize(("message", "back"), [
    ("no, espera, déjalo", True), ("não, deixa ficar", True), ("non, attends, laisse-le", True),
    ("no wait, leave it", True), ("no, mejor déjala", True), ("oups, je le veux quand même", True),
    ("déjalo", False), ("no, déjalo", False), ("leave it", False), ("deixa", False),
])
def test_leaving_it_takes_a_cancel_back_only_after_a_no_or_a_wait(message: str,
                                                                  back: bool) -> None:
    assert card_picks.restores(message) is back


@pytest.mark.parametrize(("text", "found"), [
    ("HbA1c de mohammed bin salman", ["mohammed bin salman"]),
    ("ambulatorio de anticoagulacao, dose mantida", []),
    ("dose de paracetamol", []), ("taken in the van", []), ("the bin day", []),
])
def test_a_lower_case_name_joined_by_a_names_particle(text: str, found: list[str]) -> None:
    assert particled_lower_people(text) == found
