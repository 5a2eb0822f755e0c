"""CDS hooks without (or with partial) prefetch: the service fetches from a real HAPI server."""
from __future__ import annotations

import uuid

import pytest

from tests.cds.ehr_client import app_behind_mini_ehr, med_request
from tests.support.postgres import BOTH_DATABASES

pytestmark = BOTH_DATABASES


@pytest.fixture
def ehr(app_config):
    with app_behind_mini_ehr(app_config) as client:
        yield client


def body(hook: str, patient: str, fhir_base: str, prefetch: dict | None = None, drafts=None) -> dict:
    ctx = {"userId": "Practitioner/dr-okafor", "patientId": patient}
    if drafts is not None:
        ctx["draftOrders"] = {"resourceType": "Bundle", "entry": [{"resource": d} for d in drafts]}
    out = {"hook": hook, "hookInstance": str(uuid.uuid4()), "context": ctx, "fhirServer": fhir_base}
    if prefetch is not None:
        out["prefetch"] = prefetch
    return out


def test_patient_view_without_prefetch_fetches_warfarin_patient_from_hapi(ehr, fhir_base):
    res = ehr.call("docgemma-patient-view", body("patient-view", "pt-warfarin", fhir_base))
    assert res.status_code == 200, res.text
    summaries = " | ".join(c["summary"] for c in res.json()["cards"])
    assert "warfarin" in summaries.lower() and "aspirin" in summaries.lower()
    assert "Robert Mensah" in summaries  # patient read for the app link card


def test_patient_view_finds_overdue_hba1c_in_fixture(ehr, fhir_base):
    res = ehr.call("docgemma-patient-view", body("patient-view", "pt-t2dm", fhir_base))
    assert any(c["summary"].startswith("Order an HbA1c") and "2025-06-10" in c["summary"]
               for c in res.json()["cards"])


def test_order_sign_with_partial_prefetch_fetches_the_rest(ehr, fhir_base):
    patient = {"resourceType": "Patient", "id": "pt-pen-allergy"}
    draft = med_request("draft-1", "amoxicillin 500 MG Oral Capsule", "308191", "pt-pen-allergy",
                        intent=None, status="draft")
    res = ehr.call("docgemma-order-sign", body("order-sign", "pt-pen-allergy", fhir_base,
                                               prefetch={"patient": patient}, drafts=[draft]))
    assert res.status_code == 200, res.text
    critical = [c for c in res.json()["cards"] if c["indicator"] == "critical"]
    assert any("penicillin" in c["summary"].lower() for c in critical)


def test_order_select_pregnancy_fixture_flags_teratogen(ehr, fhir_base):
    draft = med_request("draft-2", "lisinopril 20 MG Oral Tablet", "314077", "pt-pregnant", status="draft")
    draft_body = body("order-select", "pt-pregnant", fhir_base, drafts=[draft])
    draft_body["context"]["selections"] = ["MedicationRequest/draft-2"]
    res = ehr.call("docgemma-order-select", draft_body)
    assert any("pregnan" in c["summary"].lower() for c in res.json()["cards"])
