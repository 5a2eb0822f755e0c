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


# p45-9: a med rec asked with a word of asking, then what it is for
@pytest.mark.parametrize("said", [
    "med rec pls before she goes to antenatal clinic",  # p45-9
    "meds rec please, going to theatre",
    "med rec please",
])
def test_a_med_rec_asked_reads_her_list(said):
    assert read(said).focus == "medications"


@pytest.mark.parametrize("said", [
    "med rec done by pharmacy",  # told, not asked
    "is the med rec done?",
])
def test_a_med_rec_told_or_asked_about_reads_no_list(said):
    assert read(said).focus != "medications"


# p45-18: her list judged against what she has, the verb left out
@pytest.mark.parametrize("said", [
    "meds ok for her kidneys?",  # p45-18
    "are his tablets safe with his liver?",
    "tabs alright for her age?",
])
def test_her_list_judged_against_her_state_is_its_review(said):
    assert read(said).focus == "review"


@pytest.mark.parametrize(("said", "not_focus"), [
    ("amlodipine ok for her kidneys?", "review"),  # a drug named asks of that drug
    ("kidneys ok?", "review"),
])
def test_a_drug_or_an_organ_alone_is_no_review_of_her_list(said, not_focus):
    assert read(said).focus != not_focus


# p45-10: a referral asked to be written, the specialty before it, is the letter
@pytest.mark.parametrize("said", [
    "write a cardiology referral re his AF",  # p45-10
    "type up a renal referral",
    "write him an ENT referral",
])
def test_a_written_referral_with_its_specialty_is_the_letter(said):
    assert drafts.request_kind(said) == "referral"


@pytest.mark.parametrize("said", [
    "refer to cardiology",  # the referral carded, no letter
    "can you send a referral to cardiology",
    "write down the cardiology referral date",
    "prepare for cardiology referral",
])
def test_a_referral_not_written_drafts_no_letter(said):
    assert drafts.request_kind(said) is None


# walk after the set: a renal dose asked of her list named first
@pytest.mark.parametrize("said", [
    "anything on her list that needs a renal dose tweak",
    "any of his meds need renal dosing?",
])
def test_a_renal_dose_asked_of_her_list_is_its_review(said):
    assert read(said).focus == "review"


@pytest.mark.parametrize("said", [
    "renal dose of gentamicin?",  # a drug, no list
    "whats the renal dose of her enoxaparin",
])
def test_a_renal_dose_of_one_drug_is_no_review(said):
    assert read(said).focus != "review"


# walk after the set: "get rid of both" with two cards pending re-drafted one (a card unasked)
@pytest.mark.parametrize(("said", "what"), [
    ("get rid of both", "both"),
    ("get rid of it", "it"),
    ("get rid of the ibuprofen", "ibuprofen"),
])
def test_get_rid_of_is_a_cancel(said, what):
    assert amendments.cancels_what(said) == what


@pytest.mark.parametrize("said", [
    "lets get rid of the cannula",  # not a card
    "rid of pain now",
])
def test_near_words_of_get_rid_of_cancel_nothing(said):
    assert not amendments.cancels(said) and amendments.cancels_what(said) is None


# walk after the set: her medicine named by her problem first is her list, reviewed (pregnant,
# on lisinopril: "can she continue her blood pressure tablet" had shown her chart without it)
@pytest.mark.parametrize("said", [
    "she is twenty weeks pregnant can she continue her blood pressure tablet",
    "his bp meds ok?",
    "are her sugar tablets safe with her kidneys",
])
def test_her_medicine_named_by_her_problem_is_her_list_and_its_review(said):
    assert read(said).focus == "review"


def test_her_medicine_named_by_her_problem_and_asked_for_is_her_list():
    assert read("what are her bp meds").focus == "medications"  # the list carries its review


@pytest.mark.parametrize(("said", "focus"), [
    ("her bp this morning?", "vitals:bp"),  # a reading
    ("bp tablets 5mg", None),  # no possessive: no list
])
def test_a_reading_or_tablets_of_no_one_is_no_review(said, focus):
    assert read(said).focus == focus


# walk after the set: what is overdue said as the ward says it
@pytest.mark.parametrize("said", [
    "what needs doing for his diabetes - overdue stuff?",
    "any overdue bits?",
])
def test_overdue_stuff_asks_the_care_gaps(said):
    assert "care_gaps" in read(said).entities.actions


@pytest.mark.parametrize("said", [
    "overdue dose of his insulin?",  # a dose, not his care
    "is the stuff from pharmacy overdue?",
])
def test_an_overdue_dose_or_delivery_is_no_care_gap(said):
    assert "care_gaps" not in read(said).entities.actions


# walk after the set: a harm of her list said with a verb
@pytest.mark.parametrize("said", [
    "is she on anything that could push her potassium up",
    "taking anything that raises his k?",
    "is he on anything that could put his inr up",
])
def test_a_harm_of_her_list_said_with_a_verb_is_its_review(said):
    assert read(said).focus == "review"


@pytest.mark.parametrize("said", [
    "anything to bring her potassium down",  # a treatment asked
    "what is pushing her potassium up",  # the cause, no list said
])
def test_a_treatment_or_a_cause_asked_is_no_review(said):
    assert read(said).focus != "review"
