"""The general rules the fifteenth English probe found missing, each with near-words that must
not match (pure: no HAPI, no model)."""

from __future__ import annotations

import pytest
from smart_docgemma.tools.writes.drafts import request_kind


@pytest.mark.parametrize("message", [
    "write him up for the GP", "can you write her up for her GP please",
    "quick write-up for the gp", "a note for his GP",
])
def test_a_write_up_for_the_gp_is_the_discharge_letter(message: str) -> None:
    assert request_kind(message) == "discharge"


@pytest.mark.parametrize("message", [
    "write her up for paracetamol 1g qds", "write him up for some oramorph",
    "GP started her on ramipril", "what did the GP letter say?",
])
def test_a_write_up_of_a_drug_or_the_gps_own_letter_is_no_draft(message: str) -> None:
    assert request_kind(message) is None


def test_the_drafts_answer_names_the_medications_it_lists() -> None:
    from smart_docgemma.tools.writes.drafts import medication_line

    from tests.tools.test_drafts import CHART

    assert medication_line(CHART).startswith("Medications on the draft: amlodipine 5 MG")


@pytest.mark.parametrize("message", [
    "what was the K again", "what was the K", "qual era o K", "cual fue el K",
])
def test_a_result_asked_in_the_past_tense_needs_no_question_mark(message: str) -> None:
    from smart_docgemma.agent.extraction import read

    assert "chart_question" in read(message).entities.actions


@pytest.mark.parametrize("message", [
    "what was the point of this", "what was the dose of amlodipine", "what is potassium",
])
def test_a_past_tense_without_a_result_or_a_definition_is_no_chart_question(message: str) -> None:
    from smart_docgemma.agent.extraction import read

    assert "chart_question" not in read(message).entities.actions


@pytest.mark.parametrize("message", [
    "can we get a potassium at 6 tomorrow morning?", "another K tomorrow am pls",
    "une kaliémie demain 7h",
])
def test_one_result_counted_and_timed_ahead_is_the_test(message: str) -> None:
    from smart_docgemma.tools.words.ward_words import lab_tests

    assert lab_tests(message) == ["serum potassium"]


@pytest.mark.parametrize("message", [
    "give a potassium supplement tomorrow at 8", "start potassium tomorrow at 8",
    "can he have a potassium tablet at 6 tomorrow", "potassium tomorrow",
])
def test_a_drug_given_at_a_time_is_no_test(message: str) -> None:
    from smart_docgemma.tools.words.ward_words import lab_tests

    assert lab_tests(message) == []


@pytest.mark.parametrize(("message", "dose", "frequency"), [
    ("metformin 500mg bd -> 850mg bd", "850 mg", "bd"),
    ("metformin 500 → 850", "850 mg", None),
    ("metformin 500mg od => 1g od", "1 g", "once daily"),
])
def test_an_arrow_from_the_old_dose_is_a_dose_change(
        message: str, dose: str, frequency: str | None) -> None:
    from smart_docgemma.reading.dose_change import dose_change

    changed = dose_change(message, [("metformin", "metformin")])
    assert changed is not None and (changed.dosage, changed.frequency) == (dose, frequency)


@pytest.mark.parametrize("message", [
    "metformin 500mg bd then 850mg bd", "metformin 500 to 850mg", "metformin 500-850mg bd",
    "metformin 500mg bd -> 850mg bd?",
])
def test_a_range_a_sequence_or_a_question_is_no_dose_change(message: str) -> None:
    from smart_docgemma.reading.dose_change import dose_change

    assert dose_change(message, [("metformin", "metformin")]) is None


@pytest.mark.parametrize("message", [
    "something for the pain? he's sore after the fall", "what analgesia can he have",
    "a stronger painkiller ok?", "qqch contre la douleur ?", "algo para a dor dele?",
])
def test_pain_relief_asked_with_no_drug_named_is_her_lists_review(message: str) -> None:
    from smart_docgemma.tools.chart.answers import focus_of

    assert focus_of(message) == "review"


@pytest.mark.parametrize("message", [
    "chest pain since this morning", "pain score 6/10", "painful knee, XR NAD",
])
def test_pain_said_without_asking_relief_is_no_review(message: str) -> None:
    from smart_docgemma.tools.chart.answers import focus_of

    assert focus_of(message) != "review"


@pytest.mark.parametrize(("message", "relief"), [
    ("something for the pain?", True), ("a stronger painkiller ok?", True),
    ("what analgesia can he have", True), ("qqch contre la douleur ?", True),
    ("chest pain since this morning", False), ("pain score 6/10, sore knee", False),
    ("is the analgesic ladder in the notes", False), ("painful knee", False),
])
def test_pain_relief_asked_is_read_by_its_words(message: str, relief: bool) -> None:
    from smart_docgemma.agent.extraction import relief_asked

    assert relief_asked(message) is relief


@pytest.mark.parametrize("message", [
    "med rec done - anything that doesn't belong?", "anything on there that shouldn't be?",
    "something for his fever?", "something for the temperature",
])
def test_what_does_not_belong_and_fever_relief_are_her_lists_review(message: str) -> None:
    from smart_docgemma.tools.chart.answers import focus_of

    assert focus_of(message) == "review"


@pytest.mark.parametrize("message", [
    "anything that shouldn't be given with warfarin?", "temperature 38.2 at 0400",
    "which bed does she belong to",
])
def test_a_drug_asked_or_a_reading_is_no_review(message: str) -> None:
    from smart_docgemma.tools.chart.answers import focus_of

    assert focus_of(message) != "review"


@pytest.mark.parametrize("message", ["discharge paperwork for him please", "d/c papers pls"])
def test_the_discharge_paperwork_is_the_discharge_summary(message: str) -> None:
    assert request_kind(message) == "discharge"


def test_remind_me_asks_her_result() -> None:
    from smart_docgemma.agent.extraction import read

    assert "chart_question" in read("remind me what the INR was").entities.actions
    counted = read("how many potassiums have we got on file")
    assert counted.focus == "lab:Potassium" and "chart_question" in counted.entities.actions


def test_relief_asked_beside_another_focus_answers_that_focus() -> None:
    from smart_docgemma.tools.chart.answers import focus_of

    assert focus_of("would a stronger painkiller be ok given her kidneys") == "lab:eGFR"
    assert focus_of("any painkillers ok with her K") == "lab:Potassium"


def test_a_question_reported_without_its_mark_reconciles_nothing() -> None:
    from smart_docgemma.agent.extraction import read

    asked = read("mum gave calpol at 6am. she's asking if she can give him her aspirin too")
    assert "reconcile" not in asked.entities.actions
    assert "reconcile" in read("mum gave calpol at 6am and nurofen at 8").entities.actions


@pytest.mark.parametrize("message", ["sum him up for the night team", "can you sum her up"])
def test_sum_him_up_is_the_chart_summary(message: str) -> None:
    from smart_docgemma.agent.extraction import read

    assert "chart" in read(message).entities.actions


@pytest.mark.parametrize(("message", "tests"), [
    ("K+ to be rechecked tmrw 0800", ["serum potassium"]),
    ("potassium needs rechecking tomorrow", ["serum potassium"]),
    ("K rechecked this morning: 5.1", []),
    ("potassium replacement to be repeated", []),
])
def test_a_test_to_be_done_again_is_ordered_a_past_one_is_not(
        message: str, tests: list[str]) -> None:
    from smart_docgemma.tools.words.ward_words import lab_tests

    assert lab_tests(message) == tests


def test_the_relief_words_leave_a_first_name_a_name() -> None:
    """Every word of the rule files is vocabulary, never a name: the Spanish plural of "dolor"
    is written so that "DOLORES inr pls" still names someone."""
    from smart_docgemma.agent.extraction import read
    from smart_docgemma.reading.people import not_name_words

    assert "dolores" not in not_name_words()
    assert read("DOLORES inr pls").subject.about == "other"
