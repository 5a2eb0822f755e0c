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
