"""The pending card held by the conversation in words not read before, through the chat without a
model in a real SMART launch (sandbox + HAPI): a cancel that names the card's drug in French
withdraws it; another statin with a bare number takes the card's place in mg; "switch that to"
re-drafts the card; a reading corrected with "corrige:" is re-drafted and only it is written;
"valide-le" writes nothing, the card approved afterwards is read back from HAPI."""
from __future__ import annotations

from tests.ward.conftest import answer_text, cards, of_patient, written


def _dose(mr: dict) -> tuple[float, str]:
    q = mr["dosageInstruction"][0]["doseAndRate"][0]["doseQuantity"]
    return q["value"], q["code"]


def test_a_cancel_naming_the_drug_withdraws_its_card(doctor, fhir_base):
    [first] = cards(doctor.ask("furosémide 40 mg le matin"))
    html = doctor.ask("annule le furosémide")
    assert cards(html) == [] and "withdrawn" in answer_text(html)
    assert doctor.proposal(first)["status"] == "rejected"
    assert doctor.approve(first).status_code != 200
    assert written(fhir_base, "MedicationRequest", first) == []


def test_another_statin_with_a_bare_number_takes_the_card_s_place(doctor, fhir_base):
    [first] = cards(doctor.ask("start atorvastatin 20mg at night"))
    [second] = cards(doctor.ask("actually rosuvastatin 10 instead"))
    assert doctor.proposal(first)["status"] == "rejected"
    assert doctor.approve(second).status_code == 200
    [mr] = written(fhir_base, "MedicationRequest", second)
    assert "rosuvastatin" in mr["medicationCodeableConcept"]["text"].lower()
    assert _dose(mr) == (10, "mg")
    assert written(fhir_base, "MedicationRequest", first) == []


def test_switch_that_to_redrafts_the_card(doctor, fhir_base):
    [first] = cards(doctor.ask("omeprazole 20mg od"))
    [second] = cards(doctor.ask("switch that to pantoprazole 40mg"))
    assert doctor.proposal(first)["status"] == "rejected"
    assert doctor.approve(second).status_code == 200
    [mr] = written(fhir_base, "MedicationRequest", second)
    assert "pantoprazole" in mr["medicationCodeableConcept"]["text"].lower()
    assert _dose(mr) == (40, "mg")


def test_a_reading_corrected_with_corrige_is_the_one_written(doctor, fhir_base, patient):
    [first] = cards(doctor.ask("registar peso 93 kg"))
    [second] = cards(doctor.ask("corrige: 92,8 kg"))
    assert doctor.proposal(first)["status"] == "rejected"
    assert doctor.approve(second).status_code == 200
    [obs] = written(fhir_base, "Observation", second)
    assert obs["valueQuantity"]["value"] == 92.8
    weights = [o for o in of_patient(fhir_base, "Observation", patient)
               if o.get("valueQuantity", {}).get("unit") in ("kg", "[kg]")]
    assert [o["valueQuantity"]["value"] for o in weights] == [92.8]


def test_valide_le_writes_nothing_and_the_card_approved_is_read_back(doctor, fhir_base):
    [first] = cards(doctor.ask("pantoprazole 40 mg/j"))
    html = doctor.ask("valide-le")
    assert cards(html) == [] and written(fhir_base, "MedicationRequest", first) == []
    assert doctor.proposal(first)["status"] == "pending"
    assert doctor.approve(first).status_code == 200
    [mr] = written(fhir_base, "MedicationRequest", first)
    assert "pantoprazole" in mr["medicationCodeableConcept"]["text"].lower()
    assert _dose(mr) == (40, "mg")
