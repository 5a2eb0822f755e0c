"""Without the create scope a ward write does not exist for the session: the answer says the
order must be placed in the EHR and nothing is prepared or written; the sandbox's FHIR proxy
refuses the create whatever the client sends."""
from __future__ import annotations

import pytest
import requests
from smart_docgemma.config import DEFAULTS
from sqlalchemy import select

from tests.support.servers import serve
from tests.ward.conftest import Clinician, answer_text, cards, of_patient

READ_ONLY = DEFAULTS["SCOPES"].replace("patient/ServiceRequest.crs", "patient/ServiceRequest.rs").replace(
    "patient/Observation.crs", "patient/Observation.rs")


@pytest.fixture(scope="module")
def narrow_app(tmp_path_factory, sandbox):
    from smart_docgemma import create_app

    tmp = tmp_path_factory.mktemp("narrow")
    app = create_app({"TESTING": True, "SECRET_KEY": "narrow", "DATABASE_URL": f"sqlite:///{tmp / 'a.sqlite'}",
                      "CACHE_PATH": str(tmp / "cache"), "ENDPOINT": None, "ISS_ALLOWLIST": [sandbox.fhir_url],
                      "SCOPES": READ_ONLY})
    with serve(app) as server:
        yield app, server.url


def test_without_the_scope_the_order_is_to_be_placed_in_the_ehr(narrow_app, sandbox, fhir_base, patient):
    app, url = narrow_app
    clinician = Clinician(url, fhir_base, sandbox, patient)
    lab = clinician.ask("Order a basic metabolic panel")
    assert cards(lab) == []
    assert ("not granted permission to create ServiceRequest records, so the lab order must be placed in the EHR"
            in answer_text(lab))
    vital = clinician.ask("BP 150/95 just now, please chart it")
    assert cards(vital) == [] and "so the vital sign entry must be placed in the EHR" in answer_text(vital)
    assert of_patient(fhir_base, "ServiceRequest", patient) == []
    assert of_patient(fhir_base, "Observation", patient) == []


def test_the_sandbox_proxy_refuses_a_create_the_token_does_not_carry(narrow_app, sandbox, fhir_base, patient):
    app, url = narrow_app
    Clinician(url, fhir_base, sandbox, patient)
    store = app.extensions["docgemma.storage"]
    from smart_docgemma.storage import app_sessions

    with store.begin() as conn:
        row = conn.execute(select(app_sessions).order_by(app_sessions.c.created_at.desc())).first()
    token = store.unseal(row.tokens)["access_token"]
    body = {"resourceType": "ServiceRequest", "status": "active", "intent": "order",
            "code": {"text": "basic metabolic panel"}, "subject": {"reference": f"Patient/{patient}"}}
    res = requests.post(f"{sandbox.fhir_url}/ServiceRequest", json=body, timeout=30,
                        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/fhir+json"})
    assert res.status_code == 403
    assert of_patient(fhir_base, "ServiceRequest", patient) == []
