"""The FHIR searches the app relies on, against the real HAPI server with the fixtures loaded."""
from __future__ import annotations

import uuid

import requests

from launch.fixtures import load_fixtures

FHIR_JSON = {"Content-Type": "application/fhir+json", "Accept": "application/fhir+json"}


def search(base: str, rtype: str, **params) -> dict:
    res = requests.get(f"{base}/{rtype}", params=params, timeout=30)
    assert res.status_code == 200, res.text
    return res.json()


def ids(bundle: dict) -> list[str]:
    return [e["resource"]["id"] for e in bundle.get("entry", []) if e.get("search", {}).get("mode", "match") == "match"]


def test_loading_twice_changes_nothing(fhir_base):
    before = search(fhir_base, "Patient", _summary="count")["total"]
    counts = load_fixtures(fhir_base)
    assert counts["Patient"] >= 10 and counts["Observation"] > 150
    assert search(fhir_base, "Patient", _summary="count")["total"] == before


def test_patient_by_name_and_birth_date(fhir_base):
    assert sorted(ids(search(fhir_base, "Patient", name="James Wilson"))) == ["pt-jw-1958", "pt-jw-1971", "pt-jw-1990"] or \
        len(ids(search(fhir_base, "Patient", family="Wilson", given="James"))) == 3
    assert ids(search(fhir_base, "Patient", family="Wilson", birthdate="1971-09-02")) == ["pt-jw-1971"]


def test_active_medication_requests(fhir_base):
    found = search(fhir_base, "MedicationRequest", patient="pt-warfarin", status="active")
    names = {e["resource"]["medicationCodeableConcept"]["coding"][0]["code"] for e in found["entry"]}
    assert names == {"855332", "243670"}


def test_allergy_intolerance_for_penicillin_patient(fhir_base):
    found = search(fhir_base, "AllergyIntolerance", patient="pt-pen-allergy")
    allergy = found["entry"][0]["resource"]
    assert allergy["code"]["coding"][0]["code"] == "764146007" and allergy["criticality"] == "high"


def test_observations_by_loinc_newest_first(fhir_base):
    found = search(fhir_base, "Observation", patient="pt-ckd-elder", code="http://loinc.org|2823-3", _sort="-date")
    values = [e["resource"]["valueQuantity"]["value"] for e in found["entry"]]
    assert values == [5.6, 5.2, 4.9, 4.6]


def test_paging_follows_next_links(fhir_base):
    bundle = search(fhir_base, "Observation", patient="pt-many-obs", _count=50)
    seen = ids(bundle)
    while (nxt := next((l["url"] for l in bundle.get("link", []) if l["relation"] == "next"), None)):
        bundle = requests.get(nxt, timeout=30).json()
        seen += ids(bundle)
    assert len(seen) == len(set(seen)) == 170


def test_conditional_create_with_if_none_exist(fhir_base):
    ident = f"urn:docgemma:test|{uuid.uuid4()}"
    body = {"resourceType": "Observation", "status": "final", "code": {"text": "test"},
            "subject": {"reference": "Patient/pt-demo-only"},
            "identifier": [{"system": ident.split("|")[0], "value": ident.split("|")[1]}]}
    headers = {**FHIR_JSON, "If-None-Exist": f"identifier={ident}"}
    first = requests.post(f"{fhir_base}/Observation", json=body, headers=headers, timeout=30)
    second = requests.post(f"{fhir_base}/Observation", json=body, headers=headers, timeout=30)
    assert (first.status_code, second.status_code) == (201, 200)
    assert len(ids(search(fhir_base, "Observation", identifier=ident))) == 1


def test_version_conflict_with_if_match(fhir_base):
    created = requests.post(f"{fhir_base}/Basic", json={"resourceType": "Basic", "code": {"text": "v"}},
                            headers=FHIR_JSON, timeout=30).json()
    url = f"{fhir_base}/Basic/{created['id']}"
    updated = requests.put(url, json={**created, "code": {"text": "v2"}}, headers={**FHIR_JSON, "If-Match": 'W/"1"'}, timeout=30)
    assert updated.status_code == 200
    stale = requests.put(url, json={**created, "code": {"text": "v3"}}, headers={**FHIR_JSON, "If-Match": 'W/"1"'}, timeout=30)
    # HAPI answers a stale If-Match with 409 Conflict (ResourceVersionConflictException);
    # the app maps both 409 and 412 to "the record changed meanwhile".
    assert stale.status_code in (409, 412)
    assert "version" in stale.text.lower()
