"""Window questions through the chat without a model in a real SMART launch (sandbox + HAPI):
"any glucose <4 in the last 48h?" is answered with the one value under 4 mmol/L and its time,
not a list; "TA moyenne cette semaine ?" with the mean systolic/diastolic and how many readings."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

import requests

from tests.ward.conftest import answer_text, result

LOINC = "http://loinc.org"
CATEGORY = "http://terminology.hl7.org/CodeSystem/observation-category"


def _pressure(fhir_base: str, patient: str, systolic: float, diastolic: float,
              hours_ago: float) -> None:
    at = (datetime.now(UTC) - timedelta(hours=hours_ago)).isoformat(timespec="seconds")

    def part(code: str, value: float) -> dict:
        return {"code": {"coding": [{"system": LOINC, "code": code}]},
                "valueQuantity": {"value": value, "unit": "mm[Hg]",
                                  "system": "http://unitsofmeasure.org", "code": "mm[Hg]"}}
    body = {"resourceType": "Observation", "status": "final",
            "category": [{"coding": [{"system": CATEGORY, "code": "vital-signs"}]}],
            "code": {"coding": [{"system": LOINC, "code": "85354-9"}]},
            "subject": {"reference": f"Patient/{patient}"}, "effectiveDateTime": at,
            "component": [part("8480-6", systolic), part("8462-4", diastolic)]}
    requests.post(f"{fhir_base}/Observation", json=body,
                  headers={"Content-Type": "application/fhir+json"}, timeout=30).raise_for_status()


def test_a_threshold_in_a_window_is_answered_with_the_value_and_its_time(doctor, fhir_base,
                                                                           patient):
    for value, hours in ((3.2, 4), (5.6, 20), (7.1, 30), (3.0, 60)):  # 3.0 is outside 48 h
        result(fhir_base, patient, "2339-0", value, "mmol/L", hours)
    text = answer_text(doctor.ask("any glucose <4 in the last 48h?"))
    assert "1 value under 4 mmol/L in the last 48 hours (of 3 read): 3.2 at " in text
    assert "3.0" not in text.split("Clinical trace")[0]


def test_a_mean_blood_pressure_this_week_counts_its_readings(doctor, fhir_base, patient):
    for sys_, dia, hours in ((140, 90, 3), (150, 95, 30), (130, 80, 100), (170, 100, 200)):
        _pressure(fhir_base, patient, sys_, dia, hours)
    text = answer_text(doctor.ask("TA moyenne cette semaine ?"))
    assert "Mean blood pressure in the last 7 days: 140/88 mmHg, the mean of 3 readings." in text
    assert "170/100" not in text.split("Clinical trace")[0]  # 200 hours ago: outside the week
