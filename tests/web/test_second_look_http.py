"""The second look on approval cards, over HTTP with real HAPI: a serious finding blocks
Approve until the clinician acknowledges it; degraded mode runs the deterministic part, labelled."""
from __future__ import annotations

import re

import requests

from tests.support.chat_session import open_session
from tests.support.launch_context import clone_patient


def _prescribe(client, message: str) -> str:
    res = client.post("/api/chat", data={"message": message}, headers={"X-CSRF-Token": client.csrf},
                      content_type="multipart/form-data")
    ids = re.findall(r'proposal-([0-9a-f]{32})', res.get_data(as_text=True))
    assert ids, res.get_data(as_text=True)[-2000:]
    return ids[0]


def test_serious_second_look_blocks_approve_until_acknowledged(client, app, fhir_base):
    patient = clone_patient(fhir_base, "pt-pen-allergy")  # penicillin anaphylaxis, criticality high
    client.csrf = open_session(app, client, fhir_base, patient)
    pid = _prescribe(client, "Prescribe amoxicillin 500 mg three times daily")
    card = client.get(f"/proposals/{pid}").get_data(as_text=True)
    assert "Second look (high)" in card and "Model unavailable: only the deterministic checks ran." in card
    assert "I have read the second look" in card and "disabled" in card
    blocked = client.post(f"/proposals/{pid}/approve", json={"version": 1}, headers={"X-CSRF-Token": client.csrf,
                                                                  "Accept": "application/json"})
    assert blocked.status_code == 409 and "acknowledge" in blocked.get_json()["error_description"]
    orders = requests.get(f"{fhir_base}/MedicationRequest", params={"patient": patient, "_count": 50},
                          headers={"Cache-Control": "no-cache"}, timeout=30).json()
    assert not any("amoxicillin" in str(e).lower() for e in orders.get("entry", []))  # nothing written
    ack = client.post(f"/proposals/{pid}/acknowledge", headers={"X-CSRF-Token": client.csrf,
                                                                 "Accept": "application/json"})
    assert ack.status_code == 200 and ack.get_json()["summary"]["second_look"]["acknowledged_by"]
    done = client.post(f"/proposals/{pid}/approve", json={"version": 1}, headers={"X-CSRF-Token": client.csrf,
                                                               "Accept": "application/json"})
    assert done.status_code == 200 and done.get_json()["status"] == "approved"


def test_acknowledging_needs_csrf_and_the_session(client, app, fhir_base):
    client.csrf = open_session(app, client, fhir_base, clone_patient(fhir_base, "pt-pen-allergy"))
    pid = _prescribe(client, "Prescribe amoxicillin 500 mg three times daily")
    assert client.post(f"/proposals/{pid}/acknowledge").status_code == 403
    other = app.test_client()
    other.csrf = open_session(app, other, fhir_base, "pt-pen-allergy")
    res = other.post(f"/proposals/{pid}/acknowledge", headers={"X-CSRF-Token": other.csrf})
    assert res.status_code == 404


def test_an_edit_renews_the_second_look_and_asks_for_a_new_acknowledgement(client, app, fhir_base):
    """An acknowledgement was given for the order the clinician saw then; after an edit the
    checks run on the edited order and a serious finding must be read again before it is written."""
    patient = clone_patient(fhir_base, "pt-pen-allergy")
    client.csrf = open_session(app, client, fhir_base, patient)
    pid = _prescribe(client, "Prescribe amoxicillin 500 mg three times daily")
    as_json = {"X-CSRF-Token": client.csrf, "Accept": "application/json"}
    assert client.post(f"/proposals/{pid}/acknowledge", headers=as_json).status_code == 200
    edited = client.post(f"/proposals/{pid}/edit", data={"csrf_token": client.csrf, "version": 1, "dose": "250"},
                         headers={"X-CSRF-Token": client.csrf, "X-Requested-With": "fetch"})
    assert edited.status_code == 200 and "Checked again after the edit (version 2)" in edited.get_data(as_text=True)
    look = client.get(f"/proposals/{pid}", headers=as_json).get_json()["summary"]["second_look"]
    assert look["severity"] == "high" and look["acknowledged_by"] is None
    blocked = client.post(f"/proposals/{pid}/approve", json={"version": 2}, headers=as_json)
    assert blocked.status_code == 409 and "acknowledge" in blocked.get_json()["error_description"]
    assert client.post(f"/proposals/{pid}/acknowledge", headers=as_json).status_code == 200
    done = client.post(f"/proposals/{pid}/approve", json={"version": 2}, headers=as_json)
    assert done.status_code == 200 and done.get_json()["status"] == "approved"
    orders = requests.get(f"{fhir_base}/MedicationRequest", params={"patient": patient, "_count": 50},
                          headers={"Cache-Control": "no-cache"}, timeout=30).json()
    written = [e["resource"] for e in orders.get("entry", []) if "amoxicillin" in str(e).lower()]
    assert [w["dosageInstruction"][0]["doseAndRate"][0]["doseQuantity"]["value"] for w in written] == [250]
