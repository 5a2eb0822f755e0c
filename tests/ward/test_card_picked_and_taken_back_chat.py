"""Which pending card a follow-up means, through the chat without a model in a real SMART launch
(sandbox + HAPI): of two cards, "annule la première" withdraws the first only and "change the
second to bd" re-drafts the second only; "actually keep it" right after a cancel drafts the card
again; "no, the other one" after cancelling the wrong card brings it back and withdraws the other.
Each card left is approved and read back from HAPI; what was withdrawn is never written."""
from __future__ import annotations

from tests.ward.conftest import answer_text, cards, written


def _dose(mr: dict) -> tuple[float, str]:
    q = mr["dosageInstruction"][0]["doseAndRate"][0]["doseQuantity"]
    return q["value"], q["code"]


def _drug(mr: dict) -> str:
    return str(mr["medicationCodeableConcept"]["text"]).lower()


def test_annule_la_premiere_withdraws_the_first_card_only(doctor, fhir_base):
    [first] = cards(doctor.ask("nifédipine LP 30 mg/j"))
    [second] = cards(doctor.ask("labétalol 100 mg 2x/j"))
    html = doctor.ask("annule la première")
    assert cards(html) == [] and "withdrawn" in answer_text(html)
    assert doctor.proposal(first)["status"] == "rejected"
    assert doctor.proposal(second)["status"] == "pending"
    assert doctor.approve(second).status_code == 200
    [mr] = written(fhir_base, "MedicationRequest", second)
    assert "labetalol" in _drug(mr) and _dose(mr) == (100, "mg")
    assert written(fhir_base, "MedicationRequest", first) == []


def test_change_the_second_to_bd_redrafts_the_second_card_only(doctor, fhir_base):
    [first] = cards(doctor.ask("start sitagliptin 100mg od"))
    [second] = cards(doctor.ask("lisinopril 5mg od"))
    [third] = cards(doctor.ask("change the second to bd"))
    assert doctor.proposal(second)["status"] == "rejected"
    assert doctor.proposal(first)["status"] == "pending"
    assert doctor.approve(third).status_code == 200
    [mr] = written(fhir_base, "MedicationRequest", third)
    timing = mr["dosageInstruction"][0]["timing"]["repeat"]
    assert "lisinopril" in _drug(mr) and timing["frequency"] == 2 and timing["period"] == 1
    assert written(fhir_base, "MedicationRequest", second) == []


def test_actually_keep_it_after_a_cancel_drafts_the_card_again(doctor, fhir_base):
    [first] = cards(doctor.ask("omeprazole 20mg od"))
    assert cards(doctor.ask("cancel it")) == []
    assert doctor.proposal(first)["status"] == "rejected"
    [again] = cards(doctor.ask("actually keep it"))
    assert again != first
    assert doctor.approve(again).status_code == 200
    [mr] = written(fhir_base, "MedicationRequest", again)
    assert "omeprazole" in _drug(mr) and _dose(mr) == (20, "mg")


def test_no_the_other_one_swaps_the_cancel(doctor, fhir_base):
    [panto] = cards(doctor.ask("pantoprazole 40mg od"))
    [lanso] = cards(doctor.ask("lansoprazole 30mg od"))
    assert cards(doctor.ask("cancel the lansoprazole")) == []
    [back] = cards(doctor.ask("no, the other one"))
    assert doctor.proposal(panto)["status"] == "rejected"
    assert doctor.proposal(lanso)["status"] == "rejected"
    assert doctor.approve(back).status_code == 200
    [mr] = written(fhir_base, "MedicationRequest", back)
    assert "lansoprazole" in _drug(mr) and _dose(mr) == (30, "mg")
    assert written(fhir_base, "MedicationRequest", panto) == []
