"""probe47_en (twenty-first stop): a drug ordered "then" after a card with a critical finding
("ok labetalol 200 bd then" after ramipril in pregnancy) was carded beside it, the ramipril card
still pending: approving what was on screen wrote the drug the finding forbids. The order that
answers the finding takes the card's place; after a card without one, or with a word of adding,
or with "then" saying what comes next, it stays an order of its own."""
from __future__ import annotations

import pytest
from smart_docgemma.agent.amendments import in_its_place, read
from smart_docgemma.agent.extraction import read as read_message
from smart_docgemma.agent.languages import fold
from smart_docgemma.approval.types import PendingOrder


def _card(drug: str = "ramipril", critical: bool = True) -> PendingOrder:
    return PendingOrder("p1", "pt", drug, drug, "5 mg", "once daily", None, critical=critical)


def _low(said: str) -> str:
    return " ".join(fold(said).lower().split())


@pytest.mark.parametrize("said", [
    "ok labetalol 200 bd then",
    "labetalol 200mg bd then.",
    "right then, nifedipine 20 bd",
    "ok so labetalol 200 bd",
    "in that case methyldopa 250 tds",
    "bon, labetalol 200 x2/j alors",
    "entao nifedipina 20 12/12h",
    "entonces labetalol 200 cada 12 horas",
])
def test_a_drug_ordered_then_after_a_critical_card_takes_its_place(said):
    assert in_its_place(_low(said), _card())


@pytest.mark.parametrize("said", [
    # "then" in the middle: what comes next, not what follows from the finding
    "labetalol 200 bd then recheck bp in 1h",
    # added beside it, or asked
    "also labetalol 200 bd then",
    "add labetalol 200 bd then",
    "labetalol 200 bd then?",
    # a word holding "then" or "alors"
    "labetalol 200 bd, strengthen",
    "labetalol 200 bd lentonces",
])
def test_then_in_other_places_is_no_replacement(said):
    assert not in_its_place(_low(said), _card())


def test_without_a_critical_finding_then_replaces_nothing():
    assert not in_its_place(_low("ok paracetamol 1g qds then"), _card("amoxicillin", False))


def test_the_card_redrafted_as_the_drug_ordered_then():
    change = read(read_message("ok labetalol 200 bd then"), _card())
    assert change is not None and change.drug == "labetalol"
    assert read(read_message("ok labetalol 200 bd then"), _card(critical=False)) is None
    assert read(read_message("also labetalol 200 bd then"), _card()) is None


@pytest.mark.parametrize("said", [
    "nah, paracetamol 1g qds prn",
    "no - doxy 100 bd",
    "nope. codeine 30mg qds",
    "no wait, paracetamol 1g qds",
    "non, labetalol 200 x2/j",
    "nao, nifedipina 20 12/12h",
])
def test_a_drug_ordered_after_declining_the_card_takes_its_place(said):
    # whatever the card carries: a declined ibuprofen card had warnings only
    assert in_its_place(_low(said), _card("ibuprofen", critical=False))


@pytest.mark.parametrize("said", [
    "no paracetamol 1g qds",  # none of it: no mark after the "no"
    "no, also paracetamol 1g qds",
    "no, paracetamol 1g qds?",
    "nothing else, paracetamol 1g qds",
    "november - paracetamol 1g qds",
])
def test_a_no_without_its_mark_or_with_adding_replaces_nothing(said):
    assert not in_its_place(_low(said), _card("ibuprofen", critical=False))


def test_as_needed_is_kept_by_the_drug_in_the_cards_place():
    from smart_docgemma.agent.amendments import redraft

    card = _card("ibuprofen", critical=False)
    for said in ("nah, paracetamol 1g qds prn",
                 "actually lets go with paracetamol 1g qds prn instead"):
        change = read(read_message(said), card)
        assert change is not None and change.drug == "acetaminophen"
        assert redraft(card, change)["notes"] == "as needed"
    # a regular order stays regular
    change = read(read_message("nah, paracetamol 1g qds"), card)
    assert change is not None and redraft(card, change)["notes"] is None


@pytest.mark.parametrize(("said", "prn"), [
    ("paracetamol 1g qds prn instead", True),
    ("paracetamol 1g qds prn then", True),
    ("paracetamol 1g prn for pain instead", True),
    ("paracetamol 1g qds then prn review", False),  # "prn" then more words: no order's end
    ("paracetamol 1g prn thenar pain", False),
])
def test_as_needed_read_before_a_word_of_switching(said, prn):
    assert bool(read_message(said).entities.dose.as_needed) is prn


@pytest.mark.parametrize("said", [
    "she's just found out she's expecting - does anything on her list need changing",
    "which of his meds need stopping now",
    "anything in her meds that should be switched",
    "anything on his drug chart that needs adjusting?",
])
def test_a_change_sought_on_her_list_is_her_review(said):
    from smart_docgemma.tools.chart.answers import focus_of

    assert focus_of(said) == "review"


@pytest.mark.parametrize("said", [
    "does her dressing need changing",
    "does anything on her list need a repeat",
    "her catheter needs changing",
])
def test_a_change_of_no_list_is_no_review(said):
    from smart_docgemma.tools.chart.answers import focus_of

    assert focus_of(said) != "review"


@pytest.mark.parametrize("said", [
    "pls write to the renal clinic at st george's re her falling egfr",
    "refer to St Mary's",
    "referral to the diabetes clinic at st thomas's",
])
def test_a_saints_possessive_is_a_place(said):
    assert read_message(said).entities.patient_names == ()


@pytest.mark.parametrize(("said", "who"), [
    ("george's inr?", "george"),
    ("and okoro's a1c?", "okoro"),
    ("the list's george's meds", "george"),  # a word before it that is no saint
])
def test_a_possessive_without_a_saint_is_still_a_person(said, who):
    assert who in read_message(said).entities.patient_names


@pytest.mark.parametrize("said", [
    "what have his sugars been averaging the past 2 days",
    "his bp averages what this week?",
])
def test_averaging_asks_the_mean(said):
    from smart_docgemma.tools.words.windows import Aggregate, statistic_of

    assert statistic_of(said) is Aggregate.MEAN


@pytest.mark.parametrize("said", ["his sugars over the past 2 days", "median bp this week"])
def test_no_word_of_a_mean_asks_none(said):
    from smart_docgemma.tools.words.windows import Aggregate, statistic_of

    assert statistic_of(said) is not Aggregate.MEAN
