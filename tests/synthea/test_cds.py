"""CDS patient-view on every Synthea patient (no prefetch: the service reads HAPI itself)."""

from __future__ import annotations

import uuid

import pytest

from tests.cds.ehr_client import app_behind_mini_ehr

DIABETIC = (
    "79590754-4679-dafd-8aab-103706580fff"  # the 67-year-old: type 2 diabetes with kidney disease
)


@pytest.fixture
def ehr(app_config):
    with app_behind_mini_ehr(app_config) as client:
        yield client


def patient_view(ehr, patient_id: str, fhir_base: str) -> list[dict]:
    body = {
        "hook": "patient-view",
        "hookInstance": str(uuid.uuid4()),
        "fhirServer": fhir_base,
        "context": {"userId": "Practitioner/dr-okafor", "patientId": patient_id},
    }
    res = ehr.call("docgemma-patient-view", body)
    assert res.status_code == 200, res.text
    return res.json()["cards"]


def test_patient_view_runs_on_every_synthea_patient_without_repeating_a_card(
    ehr, fhir_base, synthea
):
    report = {}
    for patient in synthea.patients:
        cards = patient_view(ehr, patient.id, fhir_base)
        summaries = [c["summary"] for c in cards]
        assert len(summaries) == len(set(summaries)), summaries  # no card says the same twice
        assert all(len(s) <= 140 for s in summaries)
        assert any(c["indicator"] == "info" and c.get("links") for c in cards)  # the app link
        assert patient.name.split()[0] in " ".join(summaries)  # named for the right patient
        # Synthea writes "Past pregnancy history of miscarriage" and "Prediabetes"; neither is a
        # pregnancy or diabetes now, and creatinine in blood (38483-4) is creatinine on file
        assert not any(
            "in pregnancy" in s or "no creatinine on file" in s or "with diabetes" in s
            for s in summaries
            if patient.id != DIABETIC
        ), summaries
        report[patient.id] = summaries
    print({pid: s for pid, s in report.items()})  # shown with -s: the cards per patient
