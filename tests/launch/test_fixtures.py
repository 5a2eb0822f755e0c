"""The scenario fixtures (offline): valid, idempotent bundles covering every scenario README "Scenario patients" lists.

A clinician demoing the app relies on these patients looking real (standard codings, units,
prescriber, dose) and on each scenario being there; the loader must refuse a broken file by name.
"""
from __future__ import annotations

import base64
import functools
import importlib.util
import json
from collections import Counter
from datetime import date
from pathlib import Path

import pytest
from launch.fixtures import FIXTURES_DIR, FixtureError, bundle_files, check_references, load_fixtures, validate

from tests.support.servers import free_port

SCT, RXN, LOINC, UCUM = ("http://snomed.info/sct", "http://www.nlm.nih.gov/research/umls/rxnorm",
                         "http://loinc.org", "http://unitsofmeasure.org")
TODAY = date(2026, 11, 22)
VITALS = {"29463-7", "8302-2", "8867-4", "8480-6", "8462-4"}


@functools.cache
def resources() -> tuple[dict, ...]:
    """Every fixture resource, validated once per test session (read-only)."""
    return tuple(e["resource"] for path in bundle_files() for e in validate(path)["entry"])


def of_type(rtype: str, patient: str | None = None) -> list[dict]:
    found = [r for r in resources() if r["resourceType"] == rtype]
    return [r for r in found if patient is None or subject(r) == f"Patient/{patient}"]


def subject(resource: dict) -> str | None:
    return (resource.get("subject") or resource.get("patient") or {}).get("reference")


def code(resource: dict) -> str:
    return resource["code"]["coding"][0]["code"]


def series(patient: str, loinc: str) -> list[tuple[str, float]]:
    obs = sorted((o for o in of_type("Observation", patient) if code(o) == loinc), key=lambda o: o["effectiveDateTime"])
    return [(o["effectiveDateTime"], o["valueQuantity"]["value"]) for o in obs]


def age(patient: dict) -> int:
    born = date.fromisoformat(patient["birthDate"])
    return TODAY.year - born.year - ((TODAY.month, TODAY.day) < (born.month, born.day))


def test_every_bundle_validates_and_puts_client_ids():
    files = bundle_files()
    assert len(files) >= 13 and files[0].name == "00-practitioners.json"
    check_references([(p, validate(p)) for p in files])
    for path in files:
        for entry in validate(path)["entry"]:
            r = entry["resource"]
            assert entry["request"] == {"method": "PUT", "url": f"{r['resourceType']}/{r['id']}"}
            assert any(c.isalpha() for c in r["id"]), f"{path.name}: HAPI rejects purely numeric client ids"


def test_committed_bundles_are_the_generator_output():
    spec = importlib.util.spec_from_file_location("fixture_generator", FIXTURES_DIR / "generate.py")
    generator = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generator)
    expected = {f"{name}.json": generator.bundle(res) for name, res in generator.scenarios().items()}
    assert sorted(expected) == [p.name for p in bundle_files()]
    for name, bundle in expected.items():
        assert json.loads((FIXTURES_DIR / name).read_text()) == bundle, f"{name}: rerun generate.py"


def test_codings_use_standard_systems_and_units():
    for c in of_type("Condition"):
        assert c["code"]["coding"][0]["system"] == SCT
    for o in of_type("Observation"):
        assert o["code"]["coding"][0]["system"] == LOINC
        category = o["category"][0]["coding"][0]["code"]
        if "valueQuantity" in o:
            assert o["valueQuantity"]["system"] == UCUM and o["valueQuantity"]["code"]
            assert category == ("vital-signs" if code(o) in VITALS else "laboratory")
    for a in of_type("AllergyIntolerance"):
        assert a["code"]["coding"][0]["system"] in (SCT, RXN) and a["criticality"]
        assert a["reaction"][0]["manifestation"][0]["coding"][0]["system"] == SCT and a["reaction"][0]["severity"]
    for p in of_type("Patient"):
        mrn = p["identifier"][0]
        assert mrn["type"]["coding"][0]["code"] == "MR" and mrn["system"] and mrn["value"]
    assert len({p["identifier"][0]["value"] for p in of_type("Patient")}) == len(of_type("Patient"))
    for pr in of_type("Practitioner"):
        assert pr["identifier"][0]["system"] == "http://hl7.org/fhir/sid/us-npi" and pr["name"][0]["family"]


def test_medication_requests_are_complete_orders():
    meds = of_type("MedicationRequest")
    assert len(meds) >= 5
    for m in meds:
        concept = m["medicationCodeableConcept"]
        assert concept["coding"][0]["system"] == RXN and concept["text"]
        assert (m["status"], m["intent"]) == ("active", "order")
        assert m["requester"]["reference"].startswith("Practitioner/")
        dosage = m["dosageInstruction"][0]
        assert dosage["text"] and dosage["timing"]["repeat"]["periodUnit"]
        assert dosage["doseAndRate"][0]["doseQuantity"]["system"] == UCUM


def test_ckd_elder_has_rising_potassium_and_falling_egfr():
    patient = next(p for p in of_type("Patient") if p["id"] == "pt-ckd-elder")
    assert age(patient) >= 75
    assert "433144002" in {code(c) for c in of_type("Condition", "pt-ckd-elder")}
    assert rxcuis("pt-ckd-elder") == {"197361"}  # amlodipine 5 mg
    k, egfr = [v for _, v in series("pt-ckd-elder", "2823-3")], [v for _, v in series("pt-ckd-elder", "33914-3")]
    assert len(k) >= 4 and k == sorted(set(k)) and k[-1] > 5.5
    assert len(egfr) >= 4 and egfr == sorted(set(egfr), reverse=True) and egfr[-1] < 45


def rxcuis(patient: str) -> set[str]:
    return {m["medicationCodeableConcept"]["coding"][0]["code"] for m in of_type("MedicationRequest", patient)}


def test_medication_safety_scenarios():
    assert rxcuis("pt-warfarin") >= {"855332", "243670"}  # warfarin + aspirin
    assert len(series("pt-warfarin", "6301-6")) >= 3  # INR
    (allergy,) = of_type("AllergyIntolerance", "pt-pen-allergy")
    assert code(allergy) == "764146007" and allergy["criticality"] == "high"
    assert allergy["reaction"][0]["severity"] == "severe"
    assert allergy["reaction"][0]["manifestation"][0]["coding"][0]["code"] == "39579001"  # anaphylaxis
    assert "314076" in rxcuis("pt-pregnant")  # lisinopril while pregnant
    assert "77386006" in {code(c) for c in of_type("Condition", "pt-pregnant")}
    assert "82810-3" in {code(o) for o in of_type("Observation", "pt-pregnant")}


def test_diabetes_hba1c_is_overdue():
    assert "861007" in rxcuis("pt-t2dm") and "44054006" in {code(c) for c in of_type("Condition", "pt-t2dm")}
    hba1c = series("pt-t2dm", "4548-4")
    assert len(hba1c) >= 3 and (TODAY - date.fromisoformat(hba1c[-1][0])).days > 365


def test_three_james_wilsons_child_weights_paging_and_empty_chart():
    wilsons = [p for p in of_type("Patient")
               if p["name"][0]["family"] == "Wilson" and p["name"][0]["given"] == ["James"]]
    assert len({p["birthDate"] for p in wilsons}) == len({p["identifier"][0]["value"] for p in wilsons}) == 3
    child = next(p for p in of_type("Patient") if p["id"] == "pt-child")
    weights = series("pt-child", "29463-7")
    assert age(child) == 6 and len(weights) >= 2
    assert {o["valueQuantity"]["code"] for o in of_type("Observation", "pt-child") if code(o) == "29463-7"} == {"kg"}
    per_patient = Counter(subject(o) for o in of_type("Observation"))
    assert per_patient["Patient/pt-many-obs"] > 150
    assert [r for r in resources() if subject(r) == "Patient/pt-demo-only"] == []
    assert all(of_type("Encounter", p["id"]) for p in of_type("Patient") if p["id"] != "pt-demo-only")


def test_prompt_injection_lives_in_a_progress_note():
    notes = of_type("DocumentReference", "pt-injection")
    texts = [base64.b64decode(d["content"][0]["attachment"]["data"]).decode() for d in notes]
    assert any("IGNORE PREVIOUS INSTRUCTIONS" in t and "oxycodone" in t for t in texts)
    for doc in of_type("DocumentReference"):
        assert doc["type"]["coding"][0] == {"system": LOINC, "code": "11506-3", "display": "Progress note"}
        assert doc["content"][0]["attachment"]["contentType"].startswith("text/plain")


def write(tmp_path: Path, name: str, bundle: dict) -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(bundle))
    return path


def demographics_bundle() -> dict:
    return json.loads((FIXTURES_DIR / "12-demographics-only.json").read_text())


@pytest.mark.parametrize("breakage, message", [
    (lambda e: e["resource"].update(birthDate="01/12/1999"), "birthDate"),
    (lambda e: e["request"].update(method="POST"), "PUT"),
    (lambda e: (e["resource"].update(id="12345"), e["request"].update(url="Patient/12345")), "letter"),
    (lambda e: e["resource"].update(favouriteColour="blue"), "favouriteColour"),
])
def test_invalid_bundle_is_refused_with_the_file_name(tmp_path, breakage, message):
    bad = demographics_bundle()
    breakage(bad["entry"][0])
    path = write(tmp_path, "99-broken.json", bad)
    with pytest.raises(FixtureError, match=rf"99-broken\.json.*{message}"):
        validate(path)


def test_dangling_reference_is_refused_before_upload(tmp_path):
    obs = {"resourceType": "Observation", "id": "obs-x", "status": "final", "code": {"text": "x"},
           "subject": {"reference": "Patient/pt-nobody"}}
    bad = {"resourceType": "Bundle", "type": "transaction",
           "entry": [{"resource": obs, "request": {"method": "PUT", "url": "Observation/obs-x"}}]}
    write(tmp_path, "00-dangling.json", bad)
    with pytest.raises(FixtureError, match=r"00-dangling\.json.*Patient/pt-nobody"):
        load_fixtures("http://127.0.0.1:9/fhir", directory=tmp_path)


def test_unreachable_server_is_a_clear_error(tmp_path):
    write(tmp_path, "01-demo.json", demographics_bundle())
    with pytest.raises(FixtureError, match=r"01-demo\.json: could not reach"):
        load_fixtures(f"http://127.0.0.1:{free_port()}/fhir", directory=tmp_path)
