"""The rules the seed-211 ward set (``smart_docgemma/evaluation/medagentbench_seed211.yaml``)
found missing, without a server: a handover line's bed followed by the titled name it holds
("Bed 3 — Mrs Bayer, 81, …") is that person's bed, and her surname is no drug (Bayer); "3:45pm"
is 15:45; the text after "refer to ortho:" is the referral's note; an order line and a test in
clauses of their own ("KCl 20 mEq PO once now, and a serum K tomorrow 08:00") are both carded; a
result asked in the past tense ("qual era o potássio?") is hers; "A1c within the past year? if
not, send one" is the reorder protocol (its interval read from "in the last 6 months"); "needs
replacing" asks for a replacement; "forget the order" withdraws the card; "remind me of her
age?" asks her age. The whole loop against HAPI is
``tests/synthea/test_medagentbench_seeds.py``."""
from __future__ import annotations

from datetime import time

import pytest
from smart_docgemma.agent import amendments, planning, ward_requests
from smart_docgemma.agent.extraction import chart_focus, extract, read
from smart_docgemma.agent.state import Turn
from smart_docgemma.reading.people import beside_people
from smart_docgemma.tools.words.ward_words import referral_note
from smart_docgemma.tools.words.when import clock_said


@pytest.mark.parametrize(("said", "beds"), [
    ("Bed 7 - Mrs Bayer, fall overnight - remind me of her age?", []),
    ("Bed 3 — Mrs Bayer, 81, CAP day 2, K 3.2 this am, needs replacing", []),
    ("lit 12 : Mme Dupont, TA ?", []),
    ("bed 4 INR?", ["bed 4"]),  # a bed alone is still someone else until shown otherwise
    ("Bed 4 - mr smith", ["Bed 4"]),  # a lower-case name after it says no one
])
def test_a_bed_followed_by_the_titled_name_it_holds_is_that_persons_bed(said, beds):
    assert beside_people(said) == beds


def test_the_name_after_the_bed_is_still_read_and_a_titled_surname_is_no_drug():
    assert "Smith" in " ".join(extract("Bed 3 - Mrs Smith, K 3.2, replace").patient_names)
    assert extract("Bed 7 - Mrs Bayer, fall overnight").drugs == ()
    assert extract("o seu Marevan foi suspenso?").drugs  # "seu" before a drug: his Marevan


@pytest.mark.parametrize(("said", "clock"), [
    ("HR 112 bpm @ 3:45pm, pls chart", time(15, 45)), ("at 12:30am", time(0, 30)),
    ("at 5.40am", time(5, 40)), ("taken 0545", time(5, 45)), ("at 14:30", time(14, 30)),
])
def test_the_half_of_the_day_after_a_clock_time_counts(said, clock):
    found = clock_said(said)
    assert found is not None and found.at == clock


def test_the_text_after_the_referrals_own_words_and_a_colon_is_its_note():
    note = "Fell from a ladder yesterday, painful swollen left ankle. X-ray shows a fracture."
    assert referral_note(f"refer to ortho: {note}") == note
    assert referral_note("refer to ortho at 10:30") is None


def test_an_order_line_and_a_test_in_clauses_of_their_own_are_both_carded():
    said = read("KCl 20 mEq PO once now, and a serum K tomorrow 08:00")
    assert {"order_line", "order_lab"} <= set(said.entities.actions)
    turn = Turn(message=said.message, entities=said.entities, request=said, patient_id="p1")
    assert {"prescribe_medication", "order_lab_test"} <= set(planning.required_tools(turn))
    assert "order_line" not in read("order a K tomorrow and kcl 20 meq po once").entities.actions


@pytest.mark.parametrize("said", ["qual era o potássio?", "what was the K?",
                                  "¿cuál fue el magnesio?"])
def test_a_result_asked_in_the_past_tense_is_hers(said):
    assert "chart_question" in read(said).entities.actions


def test_a_result_asked_in_a_window_then_if_not_send_one_is_the_reorder_protocol():
    assert "protocol" in read("A1c within the past year? if not, send one").entities.actions
    assert "protocol" in read("HbA1c nos últimos 12 meses? se não, pedir").entities.actions
    assert ward_requests._interval("HbA1c in the last 6 months? if not order it") == 180
    assert "protocol" in read("K 3.2 this am, needs replacing").entities.actions


@pytest.mark.parametrize("said", ["forget the order", "forget about it", "drop it",
                                  "scrap the referral"])
def test_a_card_taken_back_in_other_words_is_withdrawn(said):
    assert amendments.cancels(said, ["Order hemoglobin a1c", "Refer to orthopedic surgery"])


def test_her_age_asked_to_be_recalled_is_her_age():
    assert chart_focus("bed 7 - fall overnight - remind me of her age?") == "age"
