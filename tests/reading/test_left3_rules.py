"""The reading's known leftovers as general rules (pure, no HAPI): a word in capitals standing
where a name stands is asked about, never answered from the chart in context, while the ward's
abbreviations, common words and drugs in capitals stay words."""
from __future__ import annotations

import pytest
from smart_docgemma.agent.extraction import extract
from smart_docgemma.reading.unknown_words import is_shouted, shouted_name, unknown_names


@pytest.mark.parametrize("said, name", [
    ("PACO, INR?", "PACO"), ("TIÃO k?", "TIÃO"), ("ENGRACIA alergias", "ENGRACIA"),
    ("BERT - K?", "BERT"), ("DOLORES inr pls", "DOLORES"), ("MARCEL, kaliémie ?", "MARCEL"),
    ("JOAQUINA: creatinina?", "JOAQUINA"), ("NUNO hb?", "NUNO"),
])
def test_a_word_in_capitals_leading_a_short_question_is_a_name(said, name):
    assert name in unknown_names(said)


@pytest.mark.parametrize("said", [
    # the ward's abbreviations (data/abbreviations.yaml) and the vocabulary's words
    "ORIF, INR?", "OPAT referral pls", "ANCA sent?", "NOAC vs warfarin - INR?", "AF, INR?",
    "IRC, kaliémie ?", "ERC, ¿potasio?", "EPOC, gasometría?", "SBAR: stable overnight",
    "AINE, posso?", "STAT trop", "INR?", "ECBU ?",
    # common words of the four languages said loud, and words with no vowel to say
    "URGENT K?", "PLEASE INR", "BONJOUR, INR ?", "HOLA, ¿potasio?", "SORRY, K?", "HBPM ?",
    "ALLERGIES?", "CURRENT meds",
    # a name standing elsewhere than first, or a long message led by a capitalised word
    "INR for the patient please", "NOTE: stable, eating and drinking, mobilising with frame, "
    "K 4.1 this morning, no changes",
])
def test_capitals_that_are_no_name_are_words(said):
    assert not unknown_names(said)


def test_a_drug_in_capitals_is_no_name():
    found = extract("ROCEPHINE 1G IV 1X/J")
    assert not found.patient_names


def test_the_shape_alone_tells_a_name_from_an_abbreviation_no_better():
    assert is_shouted("PACO") and not is_shouted("Paco") and not is_shouted("PACO GIL")
    assert not shouted_name("NFS") and not shouted_name("AAA") and shouted_name("NUNO")


def test_a_name_in_capitals_reaches_the_request_as_a_person():
    assert "PACO" in extract("PACO, INR?").patient_names
    assert "TIAO" in extract("TIÃO k?").patient_names  # read accent-folded
