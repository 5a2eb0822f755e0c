"""An order left open several turns back, through the chat without a model in a real SMART launch
(sandbox + HAPI): "ok start fluconazole 150mg" in a warfarin chart is asked its frequency (with
the warfarin finding), two chart questions follow, and "just the one dose" completes that order:
the card comes back with its finding, and once approved the MedicationRequest read back from FHIR
is fluconazole 150 mg. A change of the pending card three turns later ("actually make that 40mg")
re-drafts it, one card pending, and what is written is the changed dose."""
from __future__ import annotations

import json

import pytest

from tests.support.launch_context import clone_patient
from tests.ward.conftest import answer_text, cards, of_patient, written


@pytest.fixture
def patient(fhir_base):
    return clone_patient(fhir_base, "pt-warfarin")  # warfarin 5 mg, aspirin, INR 3.4


def _approve(doctor, card: str) -> None:
    """Approve, after acknowledging the second look when a serious finding blocks it."""
    res = doctor.approve(card)
    if res.status_code == 409:
        ack = doctor.browser.http.post(f"{doctor.url}/proposals/{card}/acknowledge",
                                       headers={"X-CSRF-Token": doctor.csrf,
                                                "Accept": "application/json"}, timeout=60)
        assert ack.status_code == 200
        res = doctor.approve(card)
    assert res.status_code == 200, res.text


def _dose(mr: dict) -> dict:
    return mr["dosageInstruction"][0]["doseAndRate"][0]["doseQuantity"]


def test_the_one_dose_three_turns_later_completes_the_order_with_its_finding(doctor, fhir_base):
    first = answer_text(doctor.ask("ok start fluconazole 150mg"))
    assert "what frequency" in first.lower() and "fluconazole with warfarin" in first
    doctor.ask("any allergies?")
    doctor.ask("latest INR?")
    html = doctor.ask("just the one dose")
    assert "fluconazole with warfarin" in answer_text(html)
    [card] = cards(html)
    _approve(doctor, card)
    [mr] = written(fhir_base, "MedicationRequest", card)
    assert "fluconazole" in json.dumps(mr).lower()
    assert _dose(mr)["value"] == 150 and _dose(mr)["unit"] == "mg"


def test_a_change_three_turns_after_the_card_redrafts_it_alone(doctor, fhir_base):
    [first] = cards(doctor.ask("start atorvastatin 20mg nocte"))
    doctor.ask("any allergies?")
    doctor.ask("latest INR?")
    html = doctor.ask("actually make that 40mg")
    [card] = cards(html)
    assert card != first and doctor.proposal(first)["status"] != "pending"
    _approve(doctor, card)
    [mr] = written(fhir_base, "MedicationRequest", card)
    assert _dose(mr)["value"] == 40
    statins = [m for m in of_patient(fhir_base, "MedicationRequest", doctor.patient)
               if "atorvastatin" in json.dumps(m).lower()]
    assert len(statins) == 1  # the superseded 20 mg card wrote nothing
