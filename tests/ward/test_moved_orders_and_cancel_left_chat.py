"""The pending cards through the chat without a model in a real SMART launch (sandbox + HAPI):
two lab orders drafted for one time are both moved by "actually 4pm" (the earlier cards
withdrawn, one card a test pending); "no, espera, déjalo" right after a cancel drafts the card
again. Each card left is approved and read back from HAPI; what was withdrawn is never
written."""
from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from tests.ward.conftest import SITE_ZONE, cards, written


def test_actually_4pm_moves_both_lab_orders(doctor, fhir_base):
    first = cards(doctor.ask("fbc and u&e tomorrow 8am"))
    assert len(first) == 2
    moved = cards(doctor.ask("actually 4pm"))
    assert len(moved) == 2 and not set(moved) & set(first)
    assert all(doctor.proposal(pid)["status"] == "rejected" for pid in first)
    tomorrow = (datetime.now(ZoneInfo(SITE_ZONE)) + timedelta(days=1)).date()
    for pid in moved:
        assert doctor.approve(pid).status_code == 200
        [sr] = written(fhir_base, "ServiceRequest", pid)
        at = datetime.fromisoformat(sr["occurrenceDateTime"]).astimezone(ZoneInfo(SITE_ZONE))
        assert (at.date(), at.hour, at.minute) == (tomorrow, 16, 0)
    assert all(written(fhir_base, "ServiceRequest", pid) == [] for pid in first)


def test_no_espera_dejalo_after_a_cancel_drafts_the_card_again(doctor, fhir_base):
    [first] = cards(doctor.ask("pantoprazol 40 mg al día"))
    assert cards(doctor.ask("cancélalo")) == []
    assert doctor.proposal(first)["status"] == "rejected"
    [again] = cards(doctor.ask("no, espera, déjalo"))
    assert again != first
    assert doctor.approve(again).status_code == 200
    [mr] = written(fhir_base, "MedicationRequest", again)
    assert "pantoprazole" in str(mr["medicationCodeableConcept"]["text"]).lower()
    dose = mr["dosageInstruction"][0]["doseAndRate"][0]["doseQuantity"]
    assert (dose["value"], dose["code"]) == (40, "mg")
    assert written(fhir_base, "MedicationRequest", first) == []
