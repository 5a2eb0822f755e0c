"""A proposal read aloud: the one sentence on the card comes from the resource Approve writes."""
from __future__ import annotations

import base64

from smart_docgemma.proposals.describe import action_sentence
from smart_docgemma.tools.writes.orders import dosage_instruction


def order(dosage: str, frequency: str, notes: str | None = None, **extra) -> dict:
    return {"resourceType": "MedicationRequest", "medicationCodeableConcept": {"text": "amoxicillin"},
            "dosageInstruction": [dosage_instruction(dosage, frequency, notes)], **extra}


def test_medication_orders_read_as_a_clinician_says_them():
    week = {"dispenseRequest": {"expectedSupplyDuration": {"value": 7, "unit": "days"}}}
    assert action_sentence(order("500 mg by mouth", "three times daily", **week)) == \
        "Start amoxicillin 500 mg by mouth three times daily for 7 days"
    assert action_sentence(order("1 g IV", "every 8 hours")) == "Start amoxicillin 1 g intravenously every 8 hours"
    assert action_sentence(order("2 mg", "every 4 hours as needed")) == "Start amoxicillin 2 mg every 4 hours as needed"
    assert action_sentence(order("250 mcg", "weekly")) == "Start amoxicillin 250 mcg once weekly"
    supply = {"dispenseRequest": {"quantity": {"value": 21, "unit": "tablets"}}}
    assert action_sentence(order("500 mg", "tid",
                                 **supply)) == "Start amoxicillin 500 mg three times daily; dispense 21 tablets"


def test_allergies_and_notes_read_as_one_sentence():
    allergy = {"resourceType": "AllergyIntolerance", "code": {"text": "penicillin"}, "criticality": "high",
               "category": ["medication"], "reaction": [{"manifestation": [{"text": "hives"}], "severity": "moderate"}]}
    assert action_sentence(allergy) == "Record a high-criticality medication allergy to penicillin (hives, moderate)"
    note = {"resourceType": "DocumentReference", "type": {"text": "Progress note"},
            "content": [{"attachment": {"data": base64.b64encode(b"Stable. Continue.").decode()}}]}
    assert action_sentence(note) == "Save a progress note (17 characters) to the chart"
