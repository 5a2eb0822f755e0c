"""The conversation holds the pending card, through the chat without a model in a real SMART
launch (sandbox + HAPI): a follow-up that changes a field re-drafts the card and runs the safety
check again, the superseded card is withdrawn (one card pending), a follow-up with the missing
fields completes it, and what is approved is the re-drafted order."""
from __future__ import annotations

from datetime import date, timedelta

from tests.ward.conftest import Clinician, answer_text, cards, written
from tests.ward.test_doses_chat import child


def test_a_dose_change_redrafts_the_card_and_withdraws_the_first(doctor, fhir_base):
    [first] = cards(doctor.ask("start gabapentin 300 mg tds"))
    html = doctor.ask("actually make it 100mg")
    [second] = cards(html)
    assert second != first and "The earlier card was withdrawn" in answer_text(html).split("Clinical trace")[0]
    assert doctor.proposal(first)["status"] == "rejected"
    assert doctor.proposal(second)["status"] == "pending"
    assert doctor.approve(second).status_code == 200
    [mr] = written(fhir_base, "MedicationRequest", second)
    inst = mr["dosageInstruction"][0]
    assert inst["doseAndRate"][0]["doseQuantity"]["value"] == 100
    assert inst["timing"]["repeat"]["frequency"] == 3
    assert written(fhir_base, "MedicationRequest", first) == []


def test_the_missing_fields_complete_the_card_in_french(doctor, fhir_base):
    [first] = cards(doctor.ask("amoxicilline 500 mg 3 fois par jour"))
    [second] = cards(doctor.ask("par voie orale, 7 jours"))
    assert doctor.proposal(first)["status"] == "rejected"
    [third] = cards(doctor.ask("plutôt 250"))
    assert doctor.proposal(second)["status"] == "rejected"
    assert doctor.approve(third).status_code == 200
    [mr] = written(fhir_base, "MedicationRequest", third)
    inst = mr["dosageInstruction"][0]
    assert inst["doseAndRate"][0]["doseQuantity"]["value"] == 250
    assert inst["route"]["coding"][0]["code"] == "26643006"
    assert mr["dispenseRequest"]["expectedSupplyDuration"]["value"] == 7
    assert inst["timing"]["repeat"]["frequency"] == 3


def test_a_redrafted_dose_is_checked_again(ward_app, sandbox, fhir_base):
    doctor = Clinician(ward_app[1], fhir_base, sandbox, child(fhir_base, 20, date.today() - timedelta(days=2)))
    [first] = cards(doctor.ask("paracetamol 15 mg/kg qds"))
    assert "CRITICAL" not in doctor.proposal(first)["summary"]["flags"].__repr__().upper()
    html = doctor.ask("mejor 40 mg/kg")
    [second] = cards(html)
    flags = doctor.proposal(second)["summary"]["flags"]
    assert any(f["severity"] == "critical" for f in flags), flags  # above 15 mg/kg a dose
    assert doctor.proposal(first)["status"] == "rejected"


def test_a_question_leaves_the_pending_card_alone(doctor):
    [first] = cards(doctor.ask("start gabapentin 300 mg tds"))
    assert cards(doctor.ask("what is his creatinine?")) == []
    assert doctor.proposal(first)["status"] == "pending"


def test_cancelled_in_words_the_card_is_withdrawn_and_nothing_written(doctor, fhir_base):
    [first] = cards(doctor.ask("start gabapentin 300 mg tds"))
    html = doctor.ask("non, annule")
    assert cards(html) == [] and "withdrawn" in answer_text(html).split("Clinical trace")[0]
    assert doctor.proposal(first)["status"] == "rejected"
    assert doctor.approve(first).status_code != 200
    assert written(fhir_base, "MedicationRequest", first) == []


def test_a_range_and_a_decimal_comma_are_written_as_said(doctor, fhir_base):
    [card] = cards(doctor.ask("morphine 2,5-5 mg q4h prn"))
    assert doctor.approve(card).status_code == 200
    [mr] = written(fhir_base, "MedicationRequest", card)
    [rate] = mr["dosageInstruction"][0]["doseAndRate"]
    assert rate["doseRange"]["low"]["value"] == 2.5 and rate["doseRange"]["high"]["value"] == 5
