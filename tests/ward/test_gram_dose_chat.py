"""A dose written in grams or micrograms, through the chat without a model in a real SMART
launch (sandbox + HAPI): the card carries the dose as written and, on approval, the
MedicationRequest's ``doseQuantity`` holds it in the same unit with its UCUM code ("1 g" →
value 1, code ``g``; "0,5 g" → 0.5 g; "50 microgramos" → 50 ``ug``), the unit a pharmacy system
reads; "para 1g" standing as a drug is paracetamol (acetaminophen)."""
from __future__ import annotations

import pytest

from tests.ward.conftest import answer_text, cards, written

UCUM = "http://unitsofmeasure.org"


@pytest.mark.parametrize(
    ("message", "drug", "value", "code"),
    [
        ("para 1g qds prn", "acetaminophen", 1, "g"),
        ("amoxicilina 0,5 g de 8/8h por 7 dias", "amoxicillin", 0.5, "g"),
        ("levotiroxina 50 microgramos al día", "levothyroxine", 50, "ug"),
    ],
)
def test_a_dose_in_grams_is_written_with_its_ucum_code(doctor, fhir_base, message, drug, value,
                                                       code):
    html = doctor.ask(message)
    said = answer_text(html)
    [pid] = cards(html)
    assert drug in said
    assert doctor.approve(pid).status_code == 200
    [order] = written(fhir_base, "MedicationRequest", pid)
    assert drug in order["medicationCodeableConcept"]["text"].lower()
    dose = order["dosageInstruction"][0]["doseAndRate"][0]["doseQuantity"]
    assert (dose["value"], dose["code"], dose["system"]) == (value, code, UCUM)
