"""The rules of the thirteenth English round (probe13_en), each with near words that must not
match: a dictated order read as typed, a liquid's strength in the ward's shorthand, a tablet
count before the drug, a question typed without its mark, a pasted medication list asked about,
a handover block whose question names the patient in context, a shorter draft."""
from __future__ import annotations

import pytest
from smart_docgemma.agent.extraction import read
from smart_docgemma.reading.handover import question_of
from smart_docgemma.reading.spoken import as_typed, value
from smart_docgemma.tools.chart.in_context import ChartInContext, InContext
from smart_docgemma.tools.words import when
from smart_docgemma.tools.writes import drafts

ORDERS = {"prescribe", "prescribe_drug", "administer", "order_line"}
ROBERT = InContext(name="Robert Mensah", id="pt-warfarin", mrn="MRN-100587", born="1950-09-30")


@pytest.mark.parametrize("said, number", [
    ("five hundred", 500), ("eight hundred and fifty", 850), ("ninety five", 95),
    ("one sixty", 160), ("two point five", 2.5), ("five thousand", 5000), ("twelve", 12),
    ("one twenty five", 125),
])
def test_a_number_said_in_words_is_its_value(said, number):
    assert value(said) == number


@pytest.mark.parametrize("said", ["five six", "twenty twelve point", "ninety ninety"])
def test_number_words_that_make_no_number_stay_words(said):
    assert value(said) is None


@pytest.mark.parametrize("dictated, typed", [
    ("start amoxicillin five hundred milligrams three times a day for five days full stop",
     "start amoxicillin 500 mg three times a day for 5 days."),
    ("commence clarithromycin half a gram twice a day", "commence clarithromycin 0.5 g twice a day"),
    ("record blood pressure one sixty over ninety five pulse eighty eight",
     "record blood pressure 160/95 pulse 88"),
    ("repeat potassium tomorrow morning at seven", "repeat potassium tomorrow morning at 7"),
    ("actually make it eighty", "actually make it 80"),
    ("labetalol one hundred milligrams bd question mark", "labetalol 100 mg bd?"),
])
def test_a_dictated_message_is_read_as_typed(dictated, typed):
    assert as_typed(dictated) == typed


@pytest.mark.parametrize("message", [
    "no one told me", "the one dose", "which one", "one of the nurses", "period pain since",
    "she had a full stroke workup", "no issues", "issues with the warfarin",
])
def test_words_that_are_no_dictation_stay_as_written(message):
    assert as_typed(message) == message


def test_a_dictated_weight_based_order_is_read_per_day():
    dose = read("amoxicillin forty milligrams per kilogram per day in three divided doses "
                "new line for seven days").entities.dose
    assert dose is not None and dose.written == "40 mg/kg/day" and dose.duration == "7 days"


def test_the_hour_said_before_a_full_stop_is_the_time():
    assert str(when._clock("tomorrow morning at 7.")) == "07:00:00"
    assert when._clock("tomorrow at 7.5") is None  # a decimal is no hour


@pytest.mark.parametrize("message, written", [
    ("paracetamol 5 ml of 250/5 qds prn", "250 mg (5 mL of 250 mg/5 mL)"),
    ("amoxicillin 10ml of the 125/5 tds", "250 mg (10 mL of 125 mg/5 mL)"),
    ("1 tab atorvastatin 20mg nocte", "20 mg"),
    ("2 tabs of paracetamol 500mg qds", "1000 mg (2 × 500 mg)"),
])
def test_a_volume_of_a_strength_or_a_count_of_tablets_is_the_dose_in_mg(message, written):
    found = read(message).entities
    assert found.dose is not None and found.dose.written == written
    assert set(found.actions) & ORDERS


def test_a_strength_alone_is_no_dose():
    dose = read("paracetamol 250/5 suspension qds").entities.dose
    assert dose is None or "mL of" not in (dose.written or "")


@pytest.mark.parametrize("message", [
    "Pt on: Warfarin 5mg, Aspirin 75mg, Omeprazole 20mg\nPlan: add amiodarone 200mg tds\n"
    "any problems",
    "Meds on discharge:\nwarfarin 5mg od\naspirin 75mg od\nany issues?",
])
def test_a_pasted_list_asked_about_orders_nothing_and_checks_every_drug(message):
    actions = set(read(message).entities.actions)
    assert not actions & ORDERS
    assert "check_interactions" in actions


@pytest.mark.parametrize("message", [
    "warfarin 5mg od\naspirin 75mg od\nstart amiodarone 200mg tds",  # no question: an order
    "start amiodarone 200mg tds",
])
def test_an_order_without_a_question_after_a_list_is_still_an_order(message):
    assert set(read(message).entities.actions) & ORDERS


@pytest.mark.parametrize("message, asked", [
    ("Bed 4 Robert Mensah AF on warfarin INR 3.4\nBed 7 Margaret Thompson K 5.6 repeat in am\n"
     "Bed 9 Grace Adeyemi asthma\n\ncan you check bed 4's meds", "can you check the patient's meds"),
    ("can you do a handover note for bed 4 (Mensah), I'll do Thompson and Adeyemi myself",
     "can you do a handover note for the patient"),
    ("Bed 2 Thompson K 5.6\nBed 4 Mensah INR 3.4\nMensah: INR today?", "Mensah: INR today?"),
])
def test_a_handover_block_whose_question_names_her_is_read_as_its_question(message, asked):
    assert question_of(message, ROBERT) == asked


@pytest.mark.parametrize("message", [
    "handover:\nbed 4 Mensah INR 3.4\nbed 6 Thompson K 5.6\nher K?",  # names nobody: not hers
    "handover:\nbed 4 Mensah INR 3.4\nbed 6 Thompson K 5.6\nand bed 6's K?",
    "Bed 7 Margaret Thompson K 5.6\nBed 9 Grace Adeyemi\nGrace's allergies?",
    "check Thompson's K, I'll do Mensah myself",  # the question names someone else
    "what is his INR",
])
def test_a_question_that_does_not_name_her_is_not_taken_from_the_block(message):
    assert question_of(message, ROBERT) is None


def test_the_others_of_a_handover_block_are_refused_when_the_question_is_theirs():
    chart = ChartInContext(patient=ROBERT)
    found = read("handover:\nbed 4 Mensah INR 3.4\nbed 6 Thompson K 5.6\nand bed 6's K?",
                 chart=chart)
    assert found.subject.about == "other"
    mine = read("Bed 4 Robert Mensah INR 3.4\nBed 7 Margaret Thompson K 5.6 repeat in am\n"
                "Bed 9 Grace Adeyemi\ncan you check bed 4's meds", chart=chart)
    assert mine.subject.about == "patient"
    assert not {"order_lab"} & set(mine.entities.actions)  # Margaret's repeat K is not carded


@pytest.mark.parametrize("message", ["new line mister okoro in bed eleven needs his metformin",
                                     "can you see mrs banda after"])
def test_a_title_spelt_out_or_in_lower_case_names_someone(message):
    assert read(message, chart=ChartInContext(patient=ROBERT)).subject.about == "other"


def test_a_shorter_draft_keeps_the_medications_their_review_and_the_allergies_whole():
    lines = tuple(drafts.Line(f"line {n}") for n in range(6))
    assert len(drafts._shortened(drafts.Section("Key results", lines)).lines) == 3
    for title in ("Medications (what changed and when)", "Allergies",
                  "Medication review of 2 active medication(s)"):
        assert len(drafts._shortened(drafts.Section(title, lines)).lines) == 6


@pytest.mark.parametrize("message", [
    "I'll start amoxicillin for Thompson, Mensah's allergies?",  # an order is no seeing-to
    "leave the warfarin tonight, Thompson's K?",
])
def test_a_clause_of_the_clinicians_own_order_is_still_read(message):
    assert question_of(message, ROBERT) is None


@pytest.mark.parametrize("message, read_as", [
    ("I-PASS handover, bed 4, Robert Mensah", "I-PASS handover, the patient, Robert Mensah"),
    ("Mensah in bed 4 - INR?", "Mensah in the patient - INR?"),
    ("bed 4 (Mr Mensah) INR?", "the patient INR?"),
])
def test_a_bed_said_beside_her_name_is_hers(message, read_as):
    from smart_docgemma.reading.handover import beds_as_her

    assert beds_as_her(message, ROBERT) == read_as


@pytest.mark.parametrize("message", [
    "bed 4 and Mensah's INR",  # a word between: two people
    "Robert Mensah\nbed 7 K?",  # the next line's bed
    "bed 7 Margaret Thompson, INR?",
])
def test_a_bed_not_beside_her_name_stays_a_bed(message):
    from smart_docgemma.reading.handover import beds_as_her

    assert beds_as_her(message, ROBERT) == message


def test_a_pasted_summary_asked_about_writes_nothing_and_checks_the_new_drug():
    found = read("GP summary:\nPMH AF\nDH: warfarin as per INR, aspirin 75 od\nNKDA\n\n"
                 "anything to flag before we add naproxen?").entities
    assert not set(found.actions) & (ORDERS | {"record_no_known_allergy"})
    assert "check_interactions" in found.actions and "naproxen" in found.drugs


@pytest.mark.parametrize("message, frequency", [
    ("insulin aspart 6 units with meals", "three times daily with meals"),
    ("metformin 500mg bd with meals", "twice daily"),  # the frequency said comes first
])
def test_with_meals_is_a_frequency_only_when_none_other_is_said(message, frequency):
    dose = read(message).entities.dose
    assert dose is not None and dose.frequency == frequency
