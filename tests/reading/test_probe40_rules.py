"""Rules from the fortieth unseen English set (probe40_en) and the fifteenth stop's leftovers:
each a pure reading of words, with the near words that must not trigger it."""
from __future__ import annotations

import pytest
from smart_docgemma.agent.amendments import _days, cancels
from smart_docgemma.agent.extraction import extract, find_names
from smart_docgemma.tools.chart.answers import chart_focus
from smart_docgemma.tools.words.when import clock_said


@pytest.mark.parametrize("said", [
    "what is she allergic to",  # probe40_en's p40-17, typed with no mark
    "Adeyemi, MRN-100712 - what is she allergic to",
    "MRN-100712 - what's he allergic to",
    "whats she allergic to",
])
def test_a_wh_question_of_her_allergies_with_no_mark_is_asked_never_recorded(said):
    assert "allergy_question" in extract(said).actions


@pytest.mark.parametrize("said", [
    "allergic to penicillin - anaphylaxis",
    "she is allergic to amoxicillin, rash",
    "document what she's allergic to: penicillin, hives",
])
def test_an_allergy_told_still_records(said):
    actions = extract(said).actions
    assert "document_allergy" in actions and "allergy_question" not in actions


@pytest.mark.parametrize(("said", "drug"), [
    ("pt having fever since 2 days, can give Dolo 650?", "acetaminophen"),
    ("can give Crocin?", "acetaminophen"),
    ("mum's been giving him Disprin for the ear", "aspirin"),
])
def test_brands_of_paracetamol_and_aspirin_read_as_their_ingredient(said, drug):
    assert drug in extract(said).drugs


def test_can_give_with_the_subject_dropped_asks_of_her():
    ent = extract("pt having fever since 2 days, can give Dolo 650?")
    assert "give" in ent.actions and not ent.patient_names


@pytest.mark.parametrize(("said", "days"), [
    ("for 5/7", 5), ("x 2/52", 14), ("for 3/12", 90), ("7/7", 7),
])
def test_a_ward_fraction_after_a_card_is_its_length(said, days):
    assert _days(None, said) == days


@pytest.mark.parametrize("said", [
    "bp 120/70", "24/7", "12/12h", "8/8 h", "on 5/7/2026", "50/50",
])
def test_a_pressure_a_date_or_an_interval_is_no_length(said):
    assert _days(None, said) is None


@pytest.mark.parametrize("said", [
    "mum's been giving him Disprin for the ear",  # probe40_en's p40-10
    "mum has been giving him Zorbatrol",
    "gave her Feverall at 6",
    "can we chart her some Augmentin Duo Forte for the sinusitis",  # p40-6
    "Voltaren Retard for her back?",
])
def test_a_drug_given_or_its_form_is_no_person(said):
    assert find_names(said, list(extract(said).drug_mentions)) == []


@pytest.mark.parametrize(("said", "name"), [
    ("give her Okoro dose", "Okoro"),  # a noun of medicines after it: its owner
    ("giving him Adeyemi's amoxicillin", "Adeyemi"),
    ("what is Mr Forte on?", "Forte"),  # a form's word not after a drug: a surname
    ("Peter Forte allergies?", "Peter Forte"),
    ("Voltaren Retard for Mr Forte?", "Forte"),
    ("can you give Kofi his meds", "Kofi"),
])
def test_a_person_near_those_words_stays_a_person(said, name):
    assert name in extract(said).patient_names


@pytest.mark.parametrize("said", [
    "whats on her problem lsit", "problem lsit?", "problem ilst", "problem lits?",
])
def test_a_chart_phrase_with_two_letters_swapped_is_the_phrase(said):
    assert chart_focus(said) == "problems"


def test_the_medication_list_with_two_letters_swapped():
    assert chart_focus("her med lsit") == "medications"


@pytest.mark.parametrize("said", ["lsit", "slit lamp exam", "problem lost"])
def test_a_swap_alone_or_another_word_is_not_read_as_a_list(said):
    assert chart_focus(said) != "problems"


@pytest.mark.parametrize("said", [
    "hold it", "hold it please", "ok hold it",
    "déjalo como estaba, gracias", "scrap that, thanks", "laisse comme avant, merci",
    "deixa como estava, obrigado",
])
def test_a_card_held_or_put_back_with_a_courtesy_is_withdrawn(said):
    assert cancels(said)


@pytest.mark.parametrize("said", [
    "hold the amlodipine",  # a drug named: checked, never the card withdrawn unnamed
    "thanks", "ok thanks", "gracias", "merci",
    "hold it at 5 mg",
])
def test_a_courtesy_alone_or_a_drug_held_by_name_withdraws_nothing(said):
    assert not cancels(said)


@pytest.mark.parametrize(("said", "hour", "minute"), [
    ("TA 150/90 vers 7 heures et quart, à noter", 7, 15),
    ("à 7 heures et demie", 7, 30),
    ("vers 7h et quart", 7, 15),
])
def test_a_french_clock_with_heures_in_full_and_its_quarter(said, hour, minute):
    clock = clock_said(said)
    assert clock is not None and (clock.at.hour, clock.at.minute) == (hour, minute)


@pytest.mark.parametrize("said", [
    "il y a 2 heures et demie", "pendant 2 heures et demie", "depuis 3 heures et quart",
])
def test_a_time_ago_or_a_length_in_heures_is_no_clock(said):
    assert clock_said(said) is None
