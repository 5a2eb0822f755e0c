"""Ward English of the seventh set and its walk: the whole list asked by what she is on ("is he on
anything that thins the blood", "stuff he takes - ok?", "his kardex", "any duplicate
antiplatelets?"); a name typed in lower case before a short chart question that shares one
word with hers and not the other ("samuel okafor a1c" in Samuel Okoro's chart); a person of a
numbered bed in English ("the lady in 14"); "same but 250" changes the pending card. Each rule
beside the near words it must not read. Pure: no HAPI."""
from __future__ import annotations

import pytest
from smart_docgemma.agent.extraction import asks_chart, find_actions, find_names
from smart_docgemma.knowledge.mentions import find_drugs
from smart_docgemma.reading.people import leading_people
from smart_docgemma.reading.subject import InContext, names_another, shares_a_name
from smart_docgemma.tools.chart.answers import chart_focus

from tests.reading.test_order_line_follow_up import _card


def _review(text: str) -> bool:
    drugs = find_drugs(text)
    return chart_focus(text) in ("review", "medications") and asks_chart(
        text, find_actions(text), drugs
    )


@pytest.mark.parametrize("text", [
    "is he on anything that thins the blood", "is she taking anything for her sleep",
    "stuff he takes - ok?", "pills he's on", "anything dodgy on his kardex?", "any duplicates?",
    "any duplicate antiplatelets/anticoagulants?", "anything doubled up?",
    "which of his pills are risky at his age?", "happy with his tablets?",
])
def test_her_list_asked_by_what_she_is_on(text):
    assert _review(text)


@pytest.mark.parametrize("text", [
    "can he have an nsaid?", "is amoxicillin duplicated", "is he on warfarin",
    "does she take it with food", "duplicate the last order", "happy with the plan",
    "which of his tablets is the warfarin",
])
def test_near_words_ask_no_list_review(text):
    assert not _review(text)


@pytest.mark.parametrize(("text", "names"), [
    ("what's the INR on the lady in 14", ["the lady in 14"]),
    ("the pt in 12b - K?", ["the pt in 12b"]),
])
def test_someone_else_by_a_bed(text, names):
    assert find_names(text, find_drugs(text)) == names


SAMUEL = InContext(name="Samuel Okoro")


@pytest.mark.parametrize("text", [
    "samuel okafor a1c", "samuel okafor hba1c pls", "james okoro allergies?", "samuel okoro a1c",
])
def test_two_lower_case_words_before_a_chart_question(text):
    assert leading_people(text) == [" ".join(text.split()[:2])]


@pytest.mark.parametrize(("name", "other"), [
    ("samuel okafor", True), ("james okoro", True), ("samuel okoro", False), ("sam okoro", False),
    ("room air", False), ("fatima diallo", False),
])
def test_a_name_half_hers_is_someone_else(name, other):
    assert shares_a_name(name, SAMUEL) is other


@pytest.mark.parametrize("text", [
    "repeat serum potassium", "please check potassium", "bmp + mg in am",
    "warfarin dose tonight", "chest clear, bp ok", "review the patient in 2 days",
    "see the man in 1 hour", "the patient in 10 mins", "algum problema nos remédios dele?",
    "algo preocupante en sus medicamentos?",
])
def test_near_words_name_no_one(text):
    assert find_names(text, find_drugs(text)) == []
    assert not [n for n in leading_people(text) if shares_a_name(n, SAMUEL)]


def test_her_own_given_name_anywhere_names_her_and_no_one_else():
    names = find_names("how is samuel doing", find_drugs("how is samuel doing"))
    assert names == ["samuel"] and not names_another(tuple(names), (), SAMUEL)
    assert names_another(("james",), (), SAMUEL)


@pytest.mark.parametrize(("first", "reply", "dose"), [
    ("clarithromycin 500 bd", "same but 250", "250 mg"),
    ("amoxicillin 500mg tds", "same again but 1000", "1000 mg"),
])
def test_same_but_changes_the_pending_card(first, reply, dose):
    from smart_docgemma.agent import amendments
    from smart_docgemma.agent.extraction import read

    card = _card(first)
    change = amendments.read(read(reply), card)
    assert change is not None and amendments.redraft(card, change)["dosage"] == dose


@pytest.mark.parametrize(("text", "names"), [
    ("Maggie Thompson K?", ["Maggie Thompson"]), ("Mensah K?", ["Mensah"]), ("Grace K?", ["Grace"]),
    ("Margaret T - creat?", ["Margaret T"]), ("Grace T?", ["Grace T"]),
])
def test_a_lab_letter_after_a_name_is_no_initial(text, names):
    assert find_names(text, find_drugs(text)) == names


@pytest.mark.parametrize(("text", "written"), [
    ("levothyroxine 50 micrograms od", "50 micrograms"),
    ("fentanyl 25 micrograms/hr patch every 72 hours", "25 micrograms/hr"),
    ("fentanyl 25mcg/hr patch", "25 mcg/hr"), ("heparin 1000 units/hr", "1000 units/hr"),
    ("amoxicillin 1 gram tds", "1 gram"), ("levotiroxina 50 microgramos al día", "50 microgramos"),
    ("metformin 500 bd", "500 mg"),
])
def test_a_unit_written_in_full_or_a_rate_is_never_read_as_milligrams(text, written):
    from smart_docgemma.agent.extraction import extract

    dose = extract(text).dose
    assert dose is not None and dose.written == written
