"""The FHIR interactions the app relies on, against the real HAPI server with the fixtures loaded.

The server is shared by the whole test session, so these tests never write to a scenario
patient: writes go to a throwaway patient each test creates, and assertions on scenario
patients allow for what other tests may add (a proposal approved for pt-warfarin, say).
"""
from __future__ import annotations

import uuid

import pytest
import requests
from launch.fixtures import load_fixtures

FHIR_JSON = {"Content-Type": "application/fhir+json", "Accept": "application/fhir+json"}
NO_CACHE = {"Cache-Control": "no-cache", "Accept": "application/fhir+json"}


def search(base: str, rtype: str, params) -> dict:
    res = requests.get(f"{base}/{rtype}", params=params, headers=NO_CACHE, timeout=30)
    assert res.status_code == 200, res.text
    assert res.json()["type"] == "searchset"
    return res.json()


def ids(bundle: dict) -> list[str]:
    return [e["resource"]["id"] for e in bundle.get("entry", []) if e.get("search", {}).get("mode", "match") == "match"]


def next_link(bundle: dict) -> str | None:
    return next((link["url"] for link in bundle.get("link", []) if link["relation"] == "next"), None)


def read(base: str, ref: str) -> requests.Response:
    return requests.get(f"{base}/{ref}", headers=NO_CACHE, timeout=30)


@pytest.fixture
def scratch_patient(fhir_base) -> str:
    """A patient of this test's own, so writes never touch the scenario patients."""
    pid = f"scratch-{uuid.uuid4().hex[:12]}"
    body = {"resourceType": "Patient", "id": pid, "name": [{"family": "Scratch", "given": ["Test"]}]}
    assert requests.put(f"{fhir_base}/Patient/{pid}", json=body, headers=FHIR_JSON, timeout=30).status_code == 201
    return pid


def test_loading_twice_changes_nothing(fhir_base):
    patients = search(fhir_base, "Patient", {"_summary": "count"})["total"]
    many = search(fhir_base, "Observation", {"patient": "pt-many-obs", "_summary": "count"})["total"]
    version = read(fhir_base, "Patient/pt-ckd-elder").headers["ETag"]
    counts = load_fixtures(fhir_base)
    assert counts["Patient"] == 12 and counts["Practitioner"] == 3 and counts["Observation"] >= 200
    assert search(fhir_base, "Patient", {"_summary": "count"})["total"] == patients
    assert search(fhir_base, "Observation", {"patient": "pt-many-obs", "_summary": "count"})["total"] == many == 170
    # PUT of an unchanged resource is a no-op in HAPI: no new version piles up per load.
    assert read(fhir_base, "Patient/pt-ckd-elder").headers["ETag"] == version


def test_patient_by_name_and_birth_date(fhir_base):
    # The app sends one name parameter per word; repeated parameters are ANDed (FHIR R4 §3.1.1.5.1).
    both_words = [("name", "James"), ("name", "Wilson")]
    assert sorted(ids(search(fhir_base, "Patient", both_words))) == ["pt-jw-1958", "pt-jw-1971", "pt-jw-1990"]
    assert ids(search(fhir_base, "Patient", both_words + [("birthdate", "1971-09-02")])) == ["pt-jw-1971"]
    assert ids(search(fhir_base, "Patient", [("name", "Jam"), ("name", "Wils")])) != []  # prefix match
    assert ids(search(fhir_base, "Patient", both_words + [("birthdate", "1971-09-03")])) == []


def test_patient_by_mrn(fhir_base):
    found = search(fhir_base, "Patient", {"identifier": "http://hospital.example.org/mrn|MRN-200171"})
    assert ids(found) == ["pt-jw-1971"]


def test_active_medication_requests(fhir_base, scratch_patient):
    found = search(fhir_base, "MedicationRequest", {"patient": "pt-warfarin", "status": "active"})
    codes = {e["resource"]["medicationCodeableConcept"]["coding"][0]["code"] for e in found["entry"]}
    assert {"855332", "243670"} <= codes  # warfarin + aspirin, whatever other tests approved since
    for status in ("active", "stopped"):
        med = {"resourceType": "MedicationRequest", "status": status, "intent": "order",
               "medicationCodeableConcept": {"text": f"{status} drug"},
               "subject": {"reference": f"Patient/{scratch_patient}"}}
        assert requests.post(f"{fhir_base}/MedicationRequest", json=med, headers=FHIR_JSON,
                             timeout=30).status_code == 201
    active = search(fhir_base, "MedicationRequest", {"patient": scratch_patient, "status": "active"})
    assert [e["resource"]["medicationCodeableConcept"]["text"] for e in active["entry"]] == ["active drug"]


def test_allergy_intolerance_for_penicillin_patient(fhir_base):
    found = search(fhir_base, "AllergyIntolerance", {"patient": "pt-pen-allergy"})
    allergy = next(e["resource"] for e in found["entry"] if e["resource"]["id"] == "pt-pen-allergy-alg1")
    assert allergy["code"]["coding"][0]["code"] == "764146007" and allergy["criticality"] == "high"
    assert allergy["reaction"][0]["severity"] == "severe"
    assert search(fhir_base, "AllergyIntolerance", {"patient": "pt-ckd-elder"}).get("entry", []) == []


def test_observations_by_loinc_newest_first(fhir_base):
    found = search(fhir_base, "Observation", {"patient": "pt-ckd-elder", "code": "http://loinc.org|2823-3",
                                              "_sort": "-date"})
    points = [(e["resource"]["effectiveDateTime"], e["resource"]["valueQuantity"]["value"]) for e in found["entry"]]
    assert points == [("2026-11-10", 5.6), ("2026-08-20", 5.2), ("2026-05-12", 4.9), ("2026-02-03", 4.6)]
    newest = search(fhir_base, "Observation", {"patient": "pt-ckd-elder", "code": "http://loinc.org|33914-3",
                                               "_sort": "-date", "_count": 1})
    assert [e["resource"]["valueQuantity"]["value"] for e in newest["entry"]] == [38]


def test_paging_follows_next_links(fhir_base):
    bundle = search(fhir_base, "Observation", {"patient": "pt-many-obs", "_count": 50, "_sort": "-date"})
    pages, seen = [ids(bundle)], ids(bundle)
    while (url := next_link(bundle)):
        res = requests.get(url, headers=NO_CACHE, timeout=30)
        assert res.status_code == 200, res.text
        bundle = res.json()
        pages.append(ids(bundle))
        seen += ids(bundle)
    assert [len(p) for p in pages] == [50, 50, 50, 20]
    assert len(seen) == len(set(seen)) == 170
    assert seen[0] == "pt-many-obs-obs170" and seen[-1] == "pt-many-obs-obs1"  # newest first across pages


def test_conditional_create_with_if_none_exist(fhir_base, scratch_patient):
    system, value = "urn:docgemma:test", str(uuid.uuid4())
    body = {"resourceType": "Observation", "status": "final", "code": {"text": "test"},
            "subject": {"reference": f"Patient/{scratch_patient}"}, "identifier": [{"system": system, "value": value}]}
    headers = {**FHIR_JSON, "If-None-Exist": f"identifier={system}|{value}"}
    first = requests.post(f"{fhir_base}/Observation", json=body, headers=headers, timeout=30)
    second = requests.post(f"{fhir_base}/Observation", json=body, headers=headers, timeout=30)
    assert (first.status_code, second.status_code) == (201, 200)
    assert first.headers["Location"].split("/_history")[0] == second.headers["Location"].split("/_history")[0]
    assert len(ids(search(fhir_base, "Observation", {"identifier": f"{system}|{value}"}))) == 1
    assert len(ids(search(fhir_base, "Observation", {"patient": scratch_patient}))) == 1


def test_version_conflict_with_if_match(fhir_base, scratch_patient):
    url = f"{fhir_base}/Patient/{scratch_patient}"
    current = read(fhir_base, f"Patient/{scratch_patient}")
    assert current.headers["ETag"] == 'W/"1"'
    renamed = {**current.json(), "name": [{"family": "Scratch", "given": ["Renamed"]}]}
    updated = requests.put(url, json=renamed, headers={**FHIR_JSON, "If-Match": 'W/"1"'}, timeout=30)
    assert updated.status_code == 200 and updated.headers["ETag"] == 'W/"2"'
    stale = requests.put(url, json={**renamed, "gender": "unknown"}, headers={**FHIR_JSON, "If-Match": 'W/"1"'},
                         timeout=30)
    # FHIR R4 §3.1.0.4.3 (managing resource contention) names 412; HAPI answers 409 Conflict
    # (ResourceVersionConflictException, HAPI-0989). The app maps both to "the record changed meanwhile".
    assert stale.status_code in (409, 412), stale.text
    assert "version" in stale.text.lower()
    assert read(fhir_base, f"Patient/{scratch_patient}").json().get("gender") is None  # the stale write was refused
