"""More follow-ups to the pending card, through the chat without a model in a real SMART launch
(sandbox + HAPI): another drug "instead" with its dose re-drafts the card for that drug and
withdraws the first (without a dose it is asked: tests/ward/test_said_not_done_chat.py); an
order added beside the card ("also …", "e também …") is a card of its
own and both are written once approved; a switch while a card is pending re-drafts it; a safety
question pointing at the card is answered for its drug and leaves the card pending; "cancela"
withdraws it in Spanish; a cancel once the card was approved withdraws nothing and says so."""
from __future__ import annotations

from tests.ward.conftest import answer_text, cards, written


def test_another_drug_instead_with_its_dose_redrafts_the_card_for_it(doctor, fhir_base):
    [first] = cards(doctor.ask("amoxicillin 500 mg tds"))
    html = doctor.ask("actually use cefalexin 500 mg qds instead")
    [second] = cards(html)
    assert second != first and "The earlier card was withdrawn" in answer_text(html)
    assert doctor.proposal(first)["status"] == "rejected"
    assert doctor.approve(second).status_code == 200
    [mr] = written(fhir_base, "MedicationRequest", second)
    assert "cephalexin" in mr["medicationCodeableConcept"]["text"].lower()
    inst = mr["dosageInstruction"][0]
    assert inst["doseAndRate"][0]["doseQuantity"]["value"] == 500
    assert inst["timing"]["repeat"]["frequency"] == 4
    assert written(fhir_base, "MedicationRequest", first) == []


def test_an_order_added_beside_the_card_is_a_card_of_its_own(doctor, fhir_base):
    [first] = cards(doctor.ask("omeprazol 20 mg 1x ao dia"))
    [second] = cards(doctor.ask("e também paracetamol 500 mg 6/6h"))
    assert second != first and doctor.proposal(first)["status"] == "pending"
    assert doctor.approve(first).status_code == 200 and doctor.approve(second).status_code == 200
    [omeprazole] = written(fhir_base, "MedicationRequest", first)
    [paracetamol] = written(fhir_base, "MedicationRequest", second)
    assert "omeprazole" in omeprazole["medicationCodeableConcept"]["text"].lower()
    assert "acetaminophen" in paracetamol["medicationCodeableConcept"]["text"].lower()
    dose = paracetamol["dosageInstruction"][0]["doseAndRate"][0]["doseQuantity"]
    assert dose["value"] == 500


def test_a_safety_question_about_the_card_leaves_it_pending(doctor):
    [first] = cards(doctor.ask("start gabapentin 300 mg tds"))
    html = doctor.ask("is that safe with her kidneys?")
    assert cards(html) == [] and "gabapentin" in answer_text(html).lower()
    assert doctor.proposal(first)["status"] == "pending"


def test_cancela_withdraws_the_card(doctor, fhir_base):
    [first] = cards(doctor.ask("gabapentina 300 mg c/8h"))
    html = doctor.ask("cancela")
    assert cards(html) == [] and "withdrawn" in answer_text(html)
    assert doctor.proposal(first)["status"] == "rejected"
    assert doctor.approve(first).status_code != 200
    assert written(fhir_base, "MedicationRequest", first) == []


def test_a_switch_while_a_card_is_pending_redrafts_it(doctor, fhir_base):
    [first] = cards(doctor.ask("start cipro 500mg bd"))
    [second] = cards(doctor.ask("actually switch to doxycycline 100mg bd"))
    assert doctor.proposal(first)["status"] == "rejected"
    assert doctor.approve(second).status_code == 200
    [mr] = written(fhir_base, "MedicationRequest", second)
    assert "doxycycline" in mr["medicationCodeableConcept"]["text"].lower()
    assert mr["dosageInstruction"][0]["doseAndRate"][0]["doseQuantity"]["value"] == 100
    assert written(fhir_base, "MedicationRequest", first) == []


def test_a_cancel_after_the_card_was_approved_withdraws_nothing(doctor, fhir_base):
    [first] = cards(doctor.ask("start omeprazole 20mg od"))
    assert doctor.approve(first).status_code == 200
    html = doctor.ask("cancel it")
    assert cards(html) == [] and "Nothing is pending to withdraw" in answer_text(html)
    [mr] = written(fhir_base, "MedicationRequest", first)
    assert mr["status"] == "active"
