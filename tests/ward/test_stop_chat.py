"""A stop of a drug on her list, through the chat without a model in a real SMART launch
(sandbox + HAPI): one card; on approval one transaction sets her order ``stopped`` and writes the
stop order naming it (``priorPrescription``), with a Provenance; a hold, a stop denied or asked,
and a drug not on her list propose nothing and leave the order active."""
from __future__ import annotations

import uuid

import pytest
import requests

from tests.support.launch_context import new_patient
from tests.ward.conftest import NO_CACHE, answer_text, cards, provenance, written


def _order(fhir_base: str, patient: str) -> str:
    """An active omeprazole order on the patient's list."""
    body = {"resourceType": "MedicationRequest", "status": "active", "intent": "order",
            "medicationCodeableConcept": {"text": "omeprazole 20 MG Delayed Release Oral Capsule",
                                          "coding": [{
                                              "system": "http://www.nlm.nih.gov/research/umls/rxnorm",
                                              "code": "200329",
                                              "display": "omeprazole 20 MG Delayed Release Oral Capsule"}]},
            "subject": {"reference": f"Patient/{patient}"},
            "dosageInstruction": [{"text": "20 mg once daily",
                                   "timing": {"repeat": {"frequency": 1, "period": 1,
                                                         "periodUnit": "d"}}}]}
    res = requests.post(f"{fhir_base}/MedicationRequest", json=body, timeout=30,
                        headers={"Content-Type": "application/fhir+json"})
    res.raise_for_status()
    return str(res.json()["id"])


@pytest.fixture
def patient(fhir_base):
    """A fresh patient on omeprazole, charted before the app is opened."""
    pid = new_patient(fhir_base, family=f"Stop{uuid.uuid4().hex[:6]}")
    _order(fhir_base, pid)
    return pid


def _read(fhir_base: str, ref: str) -> dict:
    return requests.get(f"{fhir_base}/{ref}", headers=NO_CACHE, timeout=30).json()


def _old(fhir_base: str, patient: str) -> str:
    res = requests.get(f"{fhir_base}/MedicationRequest", params={"patient": patient},
                       headers=NO_CACHE, timeout=30)
    [order] = [e["resource"] for e in res.json()["entry"] if not e["resource"].get("identifier")]
    return str(order["id"])


@pytest.mark.parametrize("said", ["stop the omeprazole", "arrête l'oméprazole",
                                  "suspender o omeprazol", "d/c omeprazole pls"])
def test_an_approved_stop_sets_her_order_stopped_with_its_stop_order(doctor, fhir_base, said):
    old = _old(fhir_base, doctor.patient)
    html = doctor.ask(said)
    assert len(cards(html)) == 1, answer_text(html)
    [pid] = cards(html)
    assert f"MedicationRequest/{old}" in answer_text(html)
    assert written(fhir_base, "MedicationRequest", pid) == []  # nothing before approval
    assert _read(fhir_base, f"MedicationRequest/{old}")["status"] == "active"
    assert doctor.approve(pid).status_code == 200
    [record] = written(fhir_base, "MedicationRequest", pid)
    assert record["status"] == "stopped"
    assert record["priorPrescription"]["reference"] == f"MedicationRequest/{old}"
    assert _read(fhir_base, f"MedicationRequest/{old}")["status"] == "stopped"
    [prov] = provenance(fhir_base, f"MedicationRequest/{record['id']}")
    assert prov["agent"][0]["who"]["reference"] == "Practitioner/dr-okafor"
    assert doctor.approve(pid).status_code == 200  # a second click writes nothing more
    assert len(written(fhir_base, "MedicationRequest", pid)) == 1


@pytest.mark.parametrize("said", ["hold the omeprazole tonight", "don't stop the omeprazole",
                                  "should I stop the omeprazole?", "stop omeprazole if she bleeds",
                                  "she stopped her omeprazole last week"])
def test_a_hold_a_stop_denied_asked_or_told_proposes_nothing(doctor, fhir_base, said):
    old = _old(fhir_base, doctor.patient)
    html = doctor.ask(said)
    assert cards(html) == [], answer_text(html)
    assert _read(fhir_base, f"MedicationRequest/{old}")["status"] == "active"


def test_a_drug_not_on_her_list_is_said_and_nothing_is_proposed(doctor, fhir_base):
    html = doctor.ask("stop the aspirin")
    assert cards(html) == []
    assert "aspirin" in answer_text(html) and "not on the" in answer_text(html)
