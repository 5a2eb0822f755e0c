"""Rules from the forty-fourth unseen English set (probe44_en): each a pure reading of words, with
the near words that must not trigger it."""
from __future__ import annotations

import pytest
from smart_docgemma.agent import amendments, ward_requests
from smart_docgemma.agent.extraction import extract, read
from smart_docgemma.reading.first_names import first_name_people
from smart_docgemma.reading.subject import InContext, names_another

KOFI = InContext(id="pt-child", name="Kofi Asante", mrn="MRN-100960", born="2020-05-14")


# p44-1: a keep and a cancel in one message, after an opening "no"
@pytest.mark.parametrize(("said", "kept", "cancelled"), [
    ("no, just keep the hba1c - bin the lipids", ("hemoglobin a1c",), "lipids"),  # p44-1
    ("keep the hba1c, bin the lipids", ("hemoglobin a1c",), "lipids"),
    ("no, bin the lipids", (), "lipids"),
    ("ok, drop the FBC, just the INR", ("inr",), "fbc"),
])
def test_the_cancel_clause_is_read_past_an_opening_no_and_a_keep(said, kept, cancelled):
    r = read(said)
    assert r.ward.kept_tests == kept
    assert amendments.cancels_what(amendments.cancel_clause(said)) == cancelled


@pytest.mark.parametrize("said", [
    "keep the inr and the fbc",  # nothing cancelled
    "no, keep the fbc",
])
def test_a_keep_alone_names_nothing_to_cancel(said):
    assert amendments.cancels_what(amendments.cancel_clause(said)) is None


# p44-5, p44-7: a timed test in a clause of its own beside a reading; "book" a test
@pytest.mark.parametrize("said", [
    "stop the aspirin, inr tomorrow and chart bp 150/90",  # p44-5
    "cbg 16.8 @ 1130 - log it, and book an hba1c",  # p44-7
    "book an hba1c",
    "pls book u&e for tomorrow",
])
def test_a_test_ordered_beside_a_reading_is_carded(said):
    assert "order_lab" in ward_requests.actions(said)


@pytest.mark.parametrize("said", [
    "booked for theatre, hba1c?",  # "booked": done already, and a question
    "bp 150/90 today, inr 3.4",  # a result told beside a reading
    "BP 150/90 at 0800 and INR 2.1 today",
    "temp 38 tonight, fbc",  # no time ahead for the test
])
def test_a_result_told_beside_a_reading_orders_nothing(said):
    assert "order_lab" not in ward_requests.actions(said)


# p44-11: a plan asked for her problems as a whole, with no problem beyond a plan's threshold,
# reviews her list beside them
def test_a_whole_plan_asked_reviews_her_list():
    r = read("problem list + plan pls")
    assert r.focus == "problems" and "review" in r.foci


@pytest.mark.parametrize("said", ["problem list pls", "what are her problems", "asthma plan"])
def test_a_problem_list_or_a_named_plan_adds_no_review(said):
    assert "review" not in read(said).foci


# p44-31: the given names of the wards' own countries, which the census lists lack
@pytest.mark.parametrize(("said", "name"), [
    ("what dose of calpol for tunde, he's 15 kg", "tunde"),  # p44-31
    ("is ngozi on warfarin", "ngozi"),
    ("wanjiru k?", "wanjiru"),
    ("priya needs an inr tomorrow", "priya"),
    ("chart bp 120/80 for jomar", "jomar"),
])
def test_a_ward_given_name_is_someone(said, name):
    assert name in first_name_people(said)
    names = extract(said).patient_names
    assert names and names_another(names, (), KOFI)


@pytest.mark.parametrize("said", [
    "calpol for kofi",  # his own given name: his, matched later
    "dr tunde said stop it",  # a colleague
    "bola de fogo",  # a word of the four languages, left out of the list
    "ravi de vous voir",
])
def test_a_colleague_a_word_or_his_own_name_is_no_one_else(said):
    names = extract(said).patient_names
    assert not names or not names_another(names, (), KOFI)


# p44-2: a drug's cancel clause beside a keep names the card it withdraws
@pytest.mark.parametrize(("said", "clause"), [
    ("lose the ramipril, keep the amlodipine", "lose the ramipril"),  # p44-2
    ("keep the amlodipine - drop the ramipril", "drop the ramipril"),
])
def test_a_drug_cancel_beside_a_keep_is_its_own_clause(said, clause):
    assert amendments.cancel_clause(said) == clause
    assert amendments.cancels_what(clause) == "ramipril"


def test_lose_alone_cancels_but_a_keep_alone_names_nothing():
    assert amendments.cancels_what("lose the ramipril") == "ramipril"
    assert amendments.cancels_what(amendments.cancel_clause("keep the amlodipine")) is None


# p44-30: a relative asking of a drug "for her own" illness is the relative
@pytest.mark.parametrize("said", [
    "her mum wants to know if lisinopril is safe for her own bp",  # p44-30
    "his dad asks if it is ok for himself",
])
def test_a_relative_asking_for_their_own_is_someone_else(said):
    assert read(said).subject.about == "other"


@pytest.mark.parametrize("said", [
    "her mum says she manages her own meds",  # reports for the patient
    "her mum wants to know if lisinopril is safe for her",  # "her": the patient
    "her husband says she does her own injections",
])
def test_a_relative_reporting_for_the_patient_is_no_one_else(said):
    assert read(said).subject.about == "patient"


# p44-8: a reading charted, then an order line in its own clause
def test_an_order_line_after_a_reading_is_carded():
    from smart_docgemma.agent.planning import _order_line_after_a_reading
    from smart_docgemma.agent.state import Turn

    def turn(said: str) -> Turn:
        return Turn(message=said, entities=extract(said))

    assert _order_line_after_a_reading(turn(
        "temp 38.9 at 0300 pls chart, and paracetamol 15mg/kg stat"))  # p44-8
    assert not _order_line_after_a_reading(turn(
        "BM 2.8 at 04:00, hypostop given, BM 5.9 at 04:20 - chart both"))
    assert not _order_line_after_a_reading(turn(
        "temp 38.9 at 0300, paracetamol 300mg given, pls chart"))


# p44-22: the volume asked in words
@pytest.mark.parametrize(("said", "unit"), [
    ("what volume of the 120mg/5ml is that", "ml"),  # p44-22
    ("how much of the syrup is that", "ml"),
    ("volume of the 250/5 suspension?", "ml"),
    ("how much is that", None),  # no liquid said
    ("urine volume 400 overnight", None),
])
def test_a_volume_asked_in_words_is_the_dose_in_ml(said, unit):
    from smart_docgemma.agent.drug_follow_ups import asked_unit
    assert asked_unit(said) == unit
