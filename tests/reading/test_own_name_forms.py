"""Her own name as clinicians type it, and what stays someone else: a short form of her given
name beside her surname ("Bob Mensah" of Robert Mensah; "Bob" alone is asked, not assumed), two
neighbouring letters swapped beside a word written in full ("Robert
Mensha"); never a longer or other name ("Roberta", "Adebayo", "Marie" for Maria). A name ends
at its possessive ("Mrs Thompson's K?" names Thompson, not "Thompson K"). A dose by body
surface area is said not supported, never carded as a flat dose. Pure: no HAPI."""
from __future__ import annotations

import pytest
from smart_docgemma.agent.extraction import find_names, find_unsupported
from smart_docgemma.knowledge.mentions import find_drugs
from smart_docgemma.reading.subject import InContext, is_own_name, near_her_name

ROBERT = InContext(name="Robert Mensah")
GRACE = InContext(name="Grace Adeyemi")
SAMUEL = InContext(name="Samuel Okoro")


@pytest.mark.parametrize(("said", "here"), [
    ("Robert Mensha", ROBERT), ("Rboert Mensah", ROBERT), ("Bob Mensah", ROBERT),
    ("Sam Okoro", SAMUEL), ("Samuel Okroo", SAMUEL), ("Okoro", SAMUEL), ("R Mensah", ROBERT),
])
def test_her_own_name_typed_short_or_slipped(said, here):
    assert is_own_name(said, here)


@pytest.mark.parametrize(("said", "here"), [
    ("Roberta Mensah", ROBERT), ("John Mensah", ROBERT), ("Mensha", ROBERT),
    ("Grace Adebayo", GRACE), ("Grace Adeyami", GRACE), ("Maria", InContext(name="Marie Curie")),
    ("Bob", InContext(name="Mensah Robert")), ("Sam", GRACE), ("Bob", ROBERT), ("Sam", SAMUEL),
])
def test_near_names_stay_someone_else(said, here):
    assert not is_own_name(said, here)


@pytest.mark.parametrize(("said", "here", "near"), [
    ("Bob", ROBERT, True), ("Robbie", ROBERT, True), ("Sam", SAMUEL, True),
    ("Bob", GRACE, False), ("Sam", ROBERT, False), ("Bob Mensah", ROBERT, False),
])
def test_a_short_form_alone_is_asked_who_is_meant(said, here, near):
    assert near_her_name(said, here) is near


@pytest.mark.parametrize(("text", "names"), [
    ("Mrs Thompson's K?", ["Thompson"]), ("Mr Mensah's Hb", ["Mensah"]),
    ("Kwame Asante's INR", ["Kwame Asante"]), ("Mr J Smith's INR", ["J Smith"]),
])
def test_a_name_ends_at_its_possessive(text, names):
    assert find_names(text, find_drugs(text)) == names


@pytest.mark.parametrize("text", [
    "methotrexate 10 mg/m2 weekly", "carboplatin 300mg/m² iv", "vincristine 1.5 mg / m2",
    "MTX 12 g/sq m", "BSA-based dosing for cisplatin",
])
def test_a_dose_by_body_surface_area_is_said_not_supported(text):
    assert find_unsupported(text) == ["doses by body surface area (mg/m²)"]


@pytest.mark.parametrize("text", [
    "amoxicillin 50 mg/kg/day", "room 2 m2 bed", "enoxaparin 40 mg/ml", "bsa 1.7",
])
def test_near_words_are_no_dose_by_surface_area(text):
    assert "doses by body surface area (mg/m²)" not in find_unsupported(text)
