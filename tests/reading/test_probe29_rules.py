"""probe29_mix's rule, with near words that must not trigger: a reply's opening word before its
dose ("ok alors 500 mg", "bueno entonces 500 mg") is no unknown drug; a word in a drug's place
that no vocabulary knows still is."""
from __future__ import annotations

import pytest
from smart_docgemma.languages import fold
from smart_docgemma.reading.drugs import unrecognised_drug


@pytest.mark.parametrize("said", [
    "ok alors 500 mg 3 fois par jour", "bueno entonces 500 mg cada 8 horas",
    "tá bom, então 500 mg de 8/8h", "fine then 500 mg tds", "vale 500 mg cada 8 h",
    "parfait 250 mg matin et soir",
])
def test_a_replys_opening_word_is_no_unknown_drug(said):
    assert unrecognised_drug(fold(said), set()) is None


@pytest.mark.parametrize("said", ["start zorbitex 20 mg od", "ok alors zorbitex 20 mg"])
def test_near_words_an_unknown_word_in_a_drugs_place_is_still_said(said):
    assert unrecognised_drug(fold(said), set()) == "zorbitex"
