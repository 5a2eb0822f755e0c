"""Rules added for probe35_intl (fr/pt/es), pinned by pure tests with near wordings that must not
trigger them."""

from __future__ import annotations

import pytest
from smart_docgemma.agent import drug_follow_ups as follow
from smart_docgemma.knowledge import Weight


@pytest.fixture
def child(monkeypatch):
    monkeypatch.setattr(follow, "_fresh_weight", lambda data: Weight(20.1, None))


# p35-pt-7: the liquid's strength, a per-kg dose and the volume asked in one message
@pytest.mark.parametrize("message, ml", [
    ("Amoxil 400 mg/5 mL, 90 mg/kg/dia de 12/12h, quantos mL por dose?", "11.3 ml"),
    ("Clamoxyl sirop 500 mg/5 ml, 80 mg/kg/j en 2 prises, ca fait combien de ml ?", "8 ml"),
    ("ibuprofeno jarabe 100 mg/5 ml a 10 mg/kg por dosis, cuantos ml le doy?", "10.1 ml"),
])
def test_the_volume_a_dose_beside_the_check(child, message, ml):
    said = follow.volume_beside_check(message, ["amoxicillin"], None)
    assert said is not None and f"give {ml} a dose" in said


def test_a_dose_in_mg_with_its_strength_needs_no_weight():
    said = follow.volume_beside_check("paracetamol 240 mg, sirop 120 mg/5 ml, combien de ml ?",
                                      ["acetaminophen"], None)
    assert said is not None and "give 10 ml a dose" in said


@pytest.mark.parametrize("message, drugs", [
    # no volume asked
    ("Amoxil 400 mg/5 mL, 90 mg/kg/dia de 12/12h", ["amoxicillin"]),
    # the mg asked, not the ml
    ("Amoxil 400 mg/5 mL, 90 mg/kg/dia de 12/12h, quantos mg por dose?", ["amoxicillin"]),
    # no strength written: none is assumed
    ("amoxicilina 90 mg/kg/dia de 12/12h, quantos mL por dose?", ["amoxicillin"]),
    # two drugs named
    ("Amoxil 400 mg/5 mL e ibuprofeno, 90 mg/kg/dia, quantos mL?", ["amoxicillin", "ibuprofen"]),
    # a strength and ml asked but no dose to work from
    ("Amoxil 400 mg/5 mL, quantos mL?", ["amoxicillin"]),
])
def test_no_volume_when_the_message_does_not_give_it_all(child, message, drugs):
    assert follow.volume_beside_check(message, drugs, None) is None
