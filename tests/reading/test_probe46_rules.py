"""Rules from the forty-sixth unseen English set (probe46_en): each a pure reading of words, with
the near words that must not trigger it."""
from __future__ import annotations

import pytest
from smart_docgemma.agent.extraction import extract
from smart_docgemma.knowledge.identity import identify
from smart_docgemma.tools.words.when import clock_said


# "ampiclox caps for the wound infection?" (p46-7) with a penicillin anaphylaxis: the West
# African brand is two penicillins, so the allergy check sees them; Coartem is artemether with
# lumefantrine
@pytest.mark.parametrize(("said", "ingredients"), [
    ("ampiclox", {"ampicillin", "cloxacillin"}),
    ("Ampiclox 500mg", {"ampicillin", "cloxacillin"}),
    ("coartem", {"artemether", "lumefantrine"}),
])
def test_brands_of_africa_name_their_ingredients(said, ingredients):
    assert {i.name for i in identify(text=said).ingredients} == ingredients


@pytest.mark.parametrize("said", ["ampicillin", "cloxacillin", "amoxicillin"])
def test_the_generic_names_stay_themselves(said):
    assert {i.name for i in identify(text=said).ingredients} == {said}


def test_the_brand_in_a_question_is_the_drug_checked():
    assert "ampicillin/cloxacillin" in extract("ampiclox caps for the wound infection?").drugs


# "temp 38.4 taken 1745 - chart pls" (p46-13): a four-figure clock right after the word of taking
@pytest.mark.parametrize(("said", "hhmm"), [
    ("temp 38.4 taken 1745 - chart pls", "17:45"),
    ("bp 130/80 checked 0630", "06:30"),
    ("sats 95% measured 2215", "22:15"),
    ("PA 150/90 tomada 2200", "22:00"),
])
def test_a_four_figure_time_after_taken_is_when_taken(said, hhmm):
    clock = clock_said(said)
    assert clock is not None and clock.at.strftime("%H:%M") == hhmm


@pytest.mark.parametrize("said", ["taken 1000 mg paracetamol", "taken 1000mg today",
                                  "done 1200 ml", "checked 2000 units", "temp 38.4 taken orally"])
def test_a_dose_or_volume_after_taken_is_no_time(said):
    assert clock_said(said) is None


# "the man next to her is asking for paracetamol - ok to give?" (p46-19): a person's noun placed
# beside the patient is another person
@pytest.mark.parametrize("said", [
    "the man next to her is asking for paracetamol - ok to give?",
    "the lady beside him wants to know her inr",
    "the patient next to his is asking for codeine",
])
def test_a_person_next_to_her_is_someone_else(said):
    assert extract(said).patient_names


@pytest.mark.parametrize("said", [
    "is the pain next to her scar worse?", "put the drip stand next to her bed",
    "swelling beside her left knee?", "keep the inhaler next to him at night",
])
def test_a_thing_next_to_her_is_no_person(said):
    assert not extract(said).patient_names
