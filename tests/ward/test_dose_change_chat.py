"""A dose change of a drug on her list, through the chat without a model in a real SMART launch
(sandbox + HAPI): one card; on approval one transaction writes the new MedicationRequest (its
``priorPrescription`` the old order) and sets the old one ``stopped``, with a Provenance; a
rejected card writes nothing and leaves the old order active."""
from __future__ import annotations

import uuid

import pytest
import requests

from tests.support.launch_context import new_patient
from tests.ward.conftest import NO_CACHE, answer_text, cards, provenance, written


def _order(fhir_base: str, patient: str, dose_mg: float) -> str:
    """An active amlodipine order on the patient's list."""
    body = {"resourceType": "MedicationRequest", "status": "active", "intent": "order",
            "medicationCodeableConcept": {"text": "amlodipine 5 MG Oral Tablet", "coding": [
                {"system": "http://www.nlm.nih.gov/research/umls/rxnorm", "code": "197361",
                 "display": "amlodipine 5 MG Oral Tablet"}]},
            "subject": {"reference": f"Patient/{patient}"},
            "dosageInstruction": [{"text": f"{dose_mg:g} mg once daily", "doseAndRate": [
                {"doseQuantity": {"value": dose_mg, "unit": "mg",
                                  "system": "http://unitsofmeasure.org", "code": "mg"}}],
                "timing": {"repeat": {"frequency": 1, "period": 1, "periodUnit": "d"}}}]}
    res = requests.post(f"{fhir_base}/MedicationRequest", json=body, timeout=30,
                        headers={"Content-Type": "application/fhir+json"})
    res.raise_for_status()
    return str(res.json()["id"])


@pytest.fixture
def patient(fhir_base):
    """A fresh patient on amlodipine 5 mg once daily, charted before the app is opened (the
    session reads her chart when it starts)."""
    pid = new_patient(fhir_base, family=f"Dose{uuid.uuid4().hex[:6]}")
    _order(fhir_base, pid, 5)
    return pid


def _old(fhir_base: str, patient: str) -> str:
    res = requests.get(f"{fhir_base}/MedicationRequest", params={"patient": patient},
                       headers=NO_CACHE, timeout=30)
    [order] = [e["resource"] for e in res.json()["entry"]
               if not (e["resource"].get("identifier"))]
    return str(order["id"])


def _read(fhir_base: str, ref: str) -> dict:
    return requests.get(f"{fhir_base}/{ref}", headers=NO_CACHE, timeout=30).json()


def test_an_approved_dose_change_writes_the_new_order_and_stops_the_old_at_once(doctor, fhir_base):
    old = _old(fhir_base, doctor.patient)
    html = doctor.ask("increase amlodipine to 10mg od")
    said = answer_text(html)
    assert len(cards(html)) == 1, said
    [pid] = cards(html)
    assert "Change the dose: amlodipine 10 mg" in said and f"MedicationRequest/{old}" in said
    assert written(fhir_base, "MedicationRequest", pid) == []  # nothing before approval
    assert _read(fhir_base, f"MedicationRequest/{old}")["status"] == "active"
    assert doctor.approve(pid).status_code == 200
    [new] = written(fhir_base, "MedicationRequest", pid)
    assert new["status"] == "active" and new["subject"]["reference"] == f"Patient/{doctor.patient}"
    assert new["priorPrescription"]["reference"] == f"MedicationRequest/{old}"
    dose = new["dosageInstruction"][0]["doseAndRate"][0]["doseQuantity"]
    assert (dose["value"], dose["unit"]) == (10, "mg")
    stopped = _read(fhir_base, f"MedicationRequest/{old}")
    assert stopped["status"] == "stopped" and "Dose changed" in stopped["statusReason"]["text"]
    [prov] = provenance(fhir_base, f"MedicationRequest/{new['id']}")
    assert prov["agent"][0]["who"]["reference"] == "Practitioner/dr-okafor"
    assert doctor.approve(pid).status_code == 200  # a second click writes nothing more
    assert len(written(fhir_base, "MedicationRequest", pid)) == 1


def test_a_rejected_dose_change_writes_nothing(doctor, fhir_base):
    old = _old(fhir_base, doctor.patient)
    [pid] = cards(doctor.ask("reduce the amlodipine to 2.5mg daily"))
    res = doctor.browser.http.post(f"{doctor.url}/proposals/{pid}/reject",
                                   data={"csrf_token": doctor.csrf, "reason": "BP controlled"},
                                   headers={"X-Requested-With": "fetch"}, timeout=60)
    assert res.status_code == 200
    assert doctor.proposal(pid)["status"] == "rejected"
    assert written(fhir_base, "MedicationRequest", pid) == []
    assert _read(fhir_base, f"MedicationRequest/{old}")["status"] == "active"


def test_a_drug_not_on_her_list_is_checked_and_nothing_is_proposed(doctor, fhir_base):
    html = doctor.ask("increase lisinopril to 20mg od")
    assert cards(html) == [] and "lisinopril" in answer_text(html)
