"""The pending card held by the conversation, through the chat without a model in a real SMART
launch (sandbox + HAPI): "go ahead" writes nothing (approval is the card's own); a change naming
the card's drug ("la amoxi a 875") re-drafts it; a change of the lab order's time and of the
referral's specialty re-drafts them and only the new card is written once approved; "para,
paciente errado" withdraws the card; "same dose but iv" re-drafts 1 g as 1 g IV."""
from __future__ import annotations

from datetime import datetime, timedelta

from tests.ward.conftest import answer_text, cards, written


def test_approval_in_words_writes_nothing_and_the_card_stays(doctor, fhir_base):
    [first] = cards(doctor.ask("start omeprazole 20mg od"))
    html = doctor.ask("ok sign it")
    assert cards(html) == [] and "approval is given on the card" in answer_text(html)
    assert written(fhir_base, "MedicationRequest", first) == []
    assert doctor.proposal(first)["status"] == "pending"
    assert doctor.approve(first).status_code == 200
    [mr] = written(fhir_base, "MedicationRequest", first)
    assert "omeprazole" in mr["medicationCodeableConcept"]["text"].lower()


def test_a_change_naming_the_card_s_drug_redrafts_it(doctor, fhir_base):
    [first] = cards(doctor.ask("amoxicilina 500 mg cada 8 horas"))
    [second] = cards(doctor.ask("la amoxi a 875"))
    assert doctor.proposal(first)["status"] == "rejected"
    assert doctor.approve(second).status_code == 200
    [mr] = written(fhir_base, "MedicationRequest", second)
    assert mr["dosageInstruction"][0]["doseAndRate"][0]["doseQuantity"]["value"] == 875
    assert written(fhir_base, "MedicationRequest", first) == []


def test_a_lab_order_s_time_changed_in_words(doctor, fhir_base):
    [first] = cards(doctor.ask("serum potassium tomorrow 8am"))
    [second] = cards(doctor.ask("make that 6am instead"))
    assert doctor.proposal(first)["status"] == "rejected"
    assert doctor.approve(second).status_code == 200
    [sr] = written(fhir_base, "ServiceRequest", second)
    at = datetime.fromisoformat(sr["occurrenceDateTime"])
    assert (at.hour, at.minute) == (6, 0)
    assert at.date() >= (datetime.now(at.tzinfo) + timedelta(hours=1)).date()
    assert written(fhir_base, "ServiceRequest", first) == []


def test_a_referral_s_specialty_changed_in_words(doctor, fhir_base):
    [first] = cards(doctor.ask("refer to cardiology"))
    [second] = cards(doctor.ask("actually nephrology, not cardio"))
    assert doctor.proposal(first)["status"] == "rejected"
    assert doctor.approve(second).status_code == 200
    [sr] = written(fhir_base, "ServiceRequest", second)
    assert "nephrol" in sr["code"]["text"].lower()
    assert written(fhir_base, "ServiceRequest", first) == []


def test_wrong_patient_withdraws_the_card(doctor, fhir_base):
    [first] = cards(doctor.ask("enoxaparina 40 mg SC 1x ao dia"))
    html = doctor.ask("para, paciente errado")
    assert cards(html) == [] and "withdrawn" in answer_text(html)
    assert doctor.approve(first).status_code != 200
    assert written(fhir_base, "MedicationRequest", first) == []


def test_same_dose_but_iv_writes_the_same_mass(doctor, fhir_base):
    cards(doctor.ask("paracetamol 1g qds po"))
    [second] = cards(doctor.ask("same dose but iv"))
    assert doctor.approve(second).status_code == 200
    [mr] = written(fhir_base, "MedicationRequest", second)
    dose = mr["dosageInstruction"][0]["doseAndRate"][0]["doseQuantity"]
    assert dose["value"] * {"g": 1000, "mg": 1}[dose["code"]] == 1000
    assert "intravenous" in str(mr["dosageInstruction"][0].get("route")).lower()
