"""A weight-based order written in each language, through the chat without a model in a real SMART
launch (sandbox + HAPI): the card and, once approved, the MedicationRequest HAPI holds carry the mg
a dose worked from the dated weight on file (``doseQuantity`` in mg, UCUM), the mg/kg basis and the
sum in the dosage text; a day's amount is divided by the doses written, never given per dose."""
from __future__ import annotations

import uuid
from datetime import date, timedelta

import pytest
import requests

from tests.ward.conftest import Clinician, cards, written

FHIR_JSON = {"Content-Type": "application/fhir+json"}


def child(fhir_base: str, kg: float, weighed: date) -> str:
    """A new child of six on HAPI, with one body weight on file."""
    born = (date.today() - timedelta(days=6 * 365 + 30)).isoformat()
    body = {"resourceType": "Patient", "name": [{"family": f"Dose{uuid.uuid4().hex[:6]}", "given": ["Ana"]}],
            "birthDate": born, "gender": "female"}
    pid = requests.post(f"{fhir_base}/Patient", json=body, headers=FHIR_JSON, timeout=30).json()["id"]
    weight = {"resourceType": "Observation", "status": "final",
              "category": [{"coding": [{"system": "http://terminology.hl7.org/CodeSystem/observation-category",
                                        "code": "vital-signs"}]}],
              "code": {"coding": [{"system": "http://loinc.org", "code": "29463-7", "display": "Body weight"}]},
              "subject": {"reference": f"Patient/{pid}"}, "effectiveDateTime": weighed.isoformat(),
              "valueQuantity": {"value": kg, "unit": "kg", "system": "http://unitsofmeasure.org", "code": "kg"}}
    requests.post(f"{fhir_base}/Observation", json=weight, headers=FHIR_JSON, timeout=30).raise_for_status()
    return pid


@pytest.mark.parametrize("order", [
    "amoxicilina 50 mg/kg/día dividido en 3 tomas x 7 días",
    "amoxicilline 50 mg/kg/j en 3 prises pendant 7 jours",
    "amoxicilina 50 mg/kg/dia em 3 tomadas por 7 dias",
    "amoxicillin 50 mg/kg/day divided tid for 7 days",
])
def test_a_day_amount_by_weight_is_approved_as_mg_a_dose(order, ward_app, sandbox, fhir_base):
    weighed = date.today() - timedelta(days=3)
    doctor = Clinician(ward_app[1], fhir_base, sandbox, child(fhir_base, 20, weighed))
    html = doctor.ask(order)
    [pid] = cards(html)
    assert "333.3 mg a dose" in html  # 50 mg/kg/day ÷ 3 × 20 kg, never 1000 mg (50 mg/kg a dose)
    assert doctor.approve(pid).status_code == 200
    [mr] = written(fhir_base, "MedicationRequest", pid)
    [inst] = mr["dosageInstruction"]
    assert inst["doseAndRate"][0]["doseQuantity"] == {"value": 333.3, "unit": "mg",
                                                      "system": "http://unitsofmeasure.org", "code": "mg"}
    assert inst["timing"]["repeat"]["frequency"] == 3 and inst["timing"]["repeat"]["period"] == 1
    assert "50 mg/kg/day" in inst["text"] and f"weighed {weighed.isoformat()}" in inst["text"]
    assert mr["subject"]["reference"] == f"Patient/{doctor.patient}"


def test_a_dose_by_weight_with_no_weight_on_file_says_so_on_the_card(ward_app, sandbox, fhir_base):
    """No weight: no mg is worked out, and the card warns rather than passing "5 mg/kg" off as
    a dose."""
    body = {"resourceType": "Patient", "name": [{"family": f"Dose{uuid.uuid4().hex[:6]}", "given": ["Ana"]}],
            "birthDate": "1950-01-01", "gender": "female"}
    pid = requests.post(f"{fhir_base}/Patient", json=body, headers=FHIR_JSON, timeout=30).json()["id"]
    doctor = Clinician(ward_app[1], fhir_base, sandbox, pid)
    html = doctor.ask("gentamicin 5 mg/kg od")
    assert len(cards(html)) == 1
    assert "No weight on file: gentamicin 5 mg/kg is not worked out in mg" in html
