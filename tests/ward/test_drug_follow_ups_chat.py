"""Follow-up drug questions through the chat without a model in a real SMART launch (sandbox +
HAPI): after a card or a drug's answer, "how much is that in ml of 120mg/5ml", "combien de
ml ?", "max per day?", "in mg?" and "what would you use instead?" are answered for the
conversation's drug from the shipped tables and the chart's own weight and findings; nothing new
is carded, and a strength never given is asked, not assumed."""
from __future__ import annotations

import pytest

from tests.ward.conftest import Clinician, answer_text, cards


def _said(html: str) -> str:
    return answer_text(html).split("Clinical trace")[0]


@pytest.fixture
def at(ward_app, sandbox, fhir_base):
    """A clinician in a scenario chart (questions and pending cards only: nothing is approved,
    so nothing reaches that chart)."""
    return lambda patient: Clinician(ward_app[1], fhir_base, sandbox, patient)


def test_the_pending_card_in_ml_in_mg_and_its_daily_ceiling_for_a_child(at):
    kofi = at("pt-child")  # 6 years, 20.1 kg on file
    assert len(cards(kofi.ask("paracetamol 240mg qds"))) == 1
    asked = _said(kofi.ask("combien de ml ?"))  # no strength said yet: asked, none assumed
    assert "strength" in asked and "ml a dose" not in asked
    html = kofi.ask("how much is that in ml of 120mg/5ml")
    assert "10 ml a dose" in _said(html) and cards(html) == []
    ceiling = _said(kofi.ask("max per day?"))
    assert "75 mg/kg a day" in ceiling and "1507.5 mg a day" in ceiling


def test_a_weight_based_order_in_mg_from_the_charted_weight(at):
    kofi = at("pt-child")
    kofi.ask("amoxicillin 40mg/kg/day in 3 doses")
    said = _said(kofi.ask("in mg?"))
    assert "268 mg a dose" in said and "20.1 kg" in said


def test_an_alternative_only_from_the_findings_sources_with_the_finding_again(at):
    robert = at("pt-warfarin")
    robert.ask("ibuprofen for his knee pain?")
    said = _said(robert.ask("what would you use instead?"))
    assert "prefer acetaminophen" in said.lower()
    assert "CRITICAL — Avoid ibuprofen with warfarin" in said


def test_no_sourced_alternative_is_said_so(at):
    margaret = at("pt-ckd-elder")
    margaret.ask("thinking of amlodipine 10 for her")
    said = _said(margaret.ask("¿qué uso en su lugar?"))
    assert "No sourced alternative is held for amlodipine" in said
    assert "nothing found" not in said.lower()
