"""probe34_intl's rules, each with near words that must not trigger: a birth date's word is a
word of its own ("éruption cutanée en 2019" names no one born in 2019); whether to replace a
value told, asked in the first person ("potasio en 3.4, ¿lo repongo?"), asks its replacement
protocol; a reaction had with the one drug named, told to be recorded ("fez urticária com
dipirona, anota aí"), is the allergy to record."""
from __future__ import annotations

import pytest
from smart_docgemma.agent.extraction import read
from smart_docgemma.agent.ward_requests import workflow_of


@pytest.mark.parametrize("said", [
    "elle est allergique a l'Augmentin, eruption cutanee en 2019, a noter dans le dossier",  # p34-fr-7
    "allergie à l'amoxicilline, réaction cutanée en 2018",
    "urticaire généralisée en 2020 sous Bactrim",
])
def test_a_birth_dates_word_inside_another_word_names_no_one(said):
    assert read(said).entities.patient_names == ()


@pytest.mark.parametrize(("said", "name"), [
    ("marie dupont nee en 1950, allergies ?", "marie dupont"),
    ("beverley mosciski dob 07/09/1986 allergies?", "beverley mosciski"),
    ("MARIE DUPONT NEE EN 1950", "MARIE DUPONT"),
])
def test_near_words_a_name_before_its_birth_dates_word_is_still_a_person(said, name):
    assert read(said).entities.patient_names == (name,)


@pytest.mark.parametrize(("said", "value"), [
    ("potasio en 3.4 en el control de hoy, lo repongo?", 3.4),  # p34-es-10
    ("K 3,2 ce matin, je le supplemente ?", 3.2),
    ("K 3.3 - do I replace?", 3.3),
    ("potássio 3,1 hoje, preciso repor?", 3.1),
])
def test_whether_to_replace_a_value_told_asks_its_protocol(said, value):
    assert "protocol" in read(said).entities.actions
    assert "order_lab" not in read(said).entities.actions
    assert workflow_of(said).protocol_value == value


@pytest.mark.parametrize("said", [
    "potasio en 3.4, ya lo repuse",      # told done: nothing to replace asked
    "pedir potasio para manana",         # an order of the test
    "potasio 4.8 hoy, lo repongo?",      # a normal value: no replacement protocol
])
def test_near_words_a_replacement_told_done_an_order_or_a_normal_value_ask_no_protocol(said):
    assert "protocol" not in read(said).entities.actions


@pytest.mark.parametrize(("said", "drug"), [
    ("ele fez urticaria com dipirona ano passado, anota ai", "metamizole"),  # p34-pt-7
    ("urticaire sous Augmentin, a noter", "amoxicillin-clavulanate"),
    ("hives after codeine - document it", "codeine"),
    ("a dipirona deu urticaria nele, registra", "metamizole"),
    ("le dio urticaria con el ibuprofeno, anotalo", "ibuprofen"),
])
def test_a_reaction_had_with_the_drug_told_to_record_is_its_allergy(said, drug):
    found = read(said).entities
    assert "document_allergy" in found.actions and found.drugs == (drug,)


@pytest.mark.parametrize("said", [
    "melhorou a urticaria com loratadina, anota",          # treated with it
    "rash treated with hydrocortisone, document",          # treated with it
    "fez urticaria com dipirona?",                         # asked, nothing to record
    "fez urticaria com dipirona ano passado",              # told, no word of recording
    "urticaria com dipirona e amoxicilina, anota",         # two drugs: which one is not guessed
])
def test_near_words_a_reaction_treated_asked_untold_or_of_two_drugs_records_nothing(said):
    assert "document_allergy" not in read(said).entities.actions
