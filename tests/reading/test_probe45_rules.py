"""Rules from the forty-fifth unseen English set (probe45_en): each a pure reading of words, with
the near words that must not trigger it."""
from __future__ import annotations

import pytest
from smart_docgemma.agent import amendments
from smart_docgemma.agent.extraction import read
from smart_docgemma.tools.writes import drafts


# p45-6: a pending test said to stand in a clause of its own beside a cancel of another
@pytest.mark.parametrize(("said", "kept", "cancelled"), [
    ("scrap the b12, tsh is fine", ("thyroid stimulating hormone",), "b12"),  # p45-6
    ("drop the lipids - the a1c can stay", ("hemoglobin a1c",), "lipids"),
    ("annule la NFS, l'INR reste", ("inr",), "nfs"),
])
def test_a_test_said_to_stand_is_kept_beside_a_cancel(said, kept, cancelled):
    r = read(said)
    assert r.ward.kept_tests == kept
    assert amendments.cancels_what(amendments.cancel_clause(said)) == cancelled


@pytest.mark.parametrize("said", [
    "tsh is fine",  # a result told, no cancel beside it
    "scrap the b12",  # a cancel alone keeps nothing
    "cancel the inr and fbc",
    "scrap the b12, inr tomorrow",  # a test ordered, not said to stand
    "scrap the b12 and the tsh, she is fine",  # the patient is fine, no test stands
    "the inr is fine, warfarin stays",  # no cancel
])
def test_nothing_is_kept_without_a_test_said_to_stand_beside_a_cancel(said):
    assert read(said).ward.kept_tests == ()


# p45-8, p45-11: the SBAR to the doctor on call is a handoff; the discharge letter in short forms
@pytest.mark.parametrize(("said", "kind"), [
    ("sbar for the on call reg pls", "handoff"),  # p45-8
    ("isbar for the night reg", "handoff"),
    ("d/c letter for ms nwosu pls, going home today", "discharge"),  # p45-11
    ("dc letter pls", "discharge"),
    ("can you do the d/c note", "discharge"),
])
def test_sbar_and_the_short_discharge_letter_are_drafts(said, kind):
    assert drafts.request_kind(said) == kind


@pytest.mark.parametrize("said", [
    "any letters from cardiology?",  # letters on file, read, not drafted
    "letter pls",  # which letter is not said
    "sbarro for lunch?",
    "bp 100/60, sbp low",
])
def test_near_words_of_sbar_and_the_letter_draft_nothing(said):
    assert drafts.request_kind(said) is None
