"""probe25_mix's rules, each with near words that must not trigger: creatine kinase, lipase and
amylase are tests of the site's table; the Mexican ward shorthand BH, QS and ES is read as tests
only joined to another test in a list (the words "es" and "qs" are ordinary words too)."""
from __future__ import annotations

import pytest
from smart_docgemma.reading.ward import read_ward


@pytest.mark.parametrize("said, tests", [
    ("trop and CK stat", ("troponin i", "creatine kinase")), ("lipase + amylase now", ("lipase", "amylase")),
    ("cpk demain 8h", ("creatine kinase",)),
])
def test_enzymes_are_tests_of_the_table(said, tests):
    assert read_ward(said).tests == tests


@pytest.mark.parametrize("said, tests", [
    ("BH, QS y ES mañana 7am", {"complete blood count", "basic metabolic panel", "electrolytes panel"}),
    ("BH y QS mañana", {"complete blood count", "basic metabolic panel"}),
    ("hemograma y es mañana", {"complete blood count", "electrolytes panel"}),
    ("es urgente: BH y QS", {"complete blood count", "basic metabolic panel"}),
    ("BH, QS y ES urgente", {"complete blood count", "basic metabolic panel", "electrolytes panel"}),
])
def test_short_ward_names_joined_in_a_list_are_tests(said, tests):
    assert set(read_ward(said).tests) == tests


@pytest.mark.parametrize("said", [
    "¿es normal su potasio?", "la TA es 140/90", "es", "y es todo", "K y es todo", "qs",
])
def test_near_words_es_and_qs_alone_are_no_tests(said):
    assert "electrolytes panel" not in read_ward(said).tests
    assert "basic metabolic panel" not in read_ward(said).tests
