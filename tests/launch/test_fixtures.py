"""The scenario fixtures: valid, idempotent bundles covering every scenario the issue names."""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from launch.fixtures import FIXTURES_DIR, FixtureError, bundle_files, validate


def resources() -> list[dict]:
    return [e["resource"] for path in bundle_files() for e in validate(path)["entry"]]


def of_type(rtype: str) -> list[dict]:
    return [r for r in resources() if r["resourceType"] == rtype]


def test_every_bundle_validates_and_puts_client_ids():
    files = bundle_files()
    assert len(files) >= 13 and files[0].name.startswith("00-practitioners")
    for path in files:
        for entry in validate(path)["entry"]:
            r = entry["resource"]
            assert entry["request"] == {"method": "PUT", "url": f"{r['resourceType']}/{r['id']}"}
            assert any(c.isalpha() for c in r["id"])


def test_codings_use_standard_systems():
    for c in of_type("Condition"):
        assert c["code"]["coding"][0]["system"] == "http://snomed.info/sct"
    for m in of_type("MedicationRequest"):
        assert m["medicationCodeableConcept"]["coding"][0]["system"] == "http://www.nlm.nih.gov/research/umls/rxnorm"
    for o in of_type("Observation"):
        assert o["code"]["coding"][0]["system"] == "http://loinc.org"
        if "valueQuantity" in o:
            assert o["valueQuantity"]["system"] == "http://unitsofmeasure.org"
    for a in of_type("AllergyIntolerance"):
        assert a["code"]["coding"][0]["code"] and a["reaction"][0]["severity"]


def test_scenarios_are_present():
    patients = {p["id"]: p for p in of_type("Patient")}
    assert len(patients) >= 10
    wilsons = [p for p in patients.values() if p["name"][0]["family"] == "Wilson" and p["name"][0]["given"] == ["James"]]
    assert len({p["birthDate"] for p in wilsons}) == 3
    per_patient = Counter(o["subject"]["reference"] for o in of_type("Observation"))
    assert max(per_patient.values()) > 150
    notes = " ".join(json.dumps(d) for d in of_type("DocumentReference"))
    import base64
    texts = [base64.b64decode(d["content"][0]["attachment"]["data"]).decode() for d in of_type("DocumentReference")]
    assert any("IGNORE PREVIOUS INSTRUCTIONS" in t for t in texts) and notes
    meds = {m["medicationCodeableConcept"]["text"].split()[0] for m in of_type("MedicationRequest")
            if m["subject"]["reference"] == "Patient/pt-warfarin"}
    assert {"warfarin", "aspirin"} <= meds
    assert not [r for r in resources() if r.get("subject", r.get("patient", {})).get("reference") == "Patient/pt-demo-only"]


def test_ckd_patient_has_rising_potassium_and_falling_egfr():
    obs = [o for o in of_type("Observation") if o["subject"]["reference"] == "Patient/pt-ckd-elder"]
    series = lambda code: [o["valueQuantity"]["value"] for o in sorted(obs, key=lambda o: o["effectiveDateTime"])
                           if o["code"]["coding"][0]["code"] == code]
    k, egfr = series("2823-3"), series("33914-3")
    assert len(k) >= 4 and k == sorted(k) and egfr == sorted(egfr, reverse=True)


def test_invalid_bundle_is_refused_with_the_file_name(tmp_path: Path):
    bad = json.loads((FIXTURES_DIR / "12-demographics-only.json").read_text())
    bad["entry"][0]["resource"]["birthDate"] = "01/12/1999"
    path = tmp_path / "99-broken.json"
    path.write_text(json.dumps(bad))
    with pytest.raises(FixtureError, match="99-broken.json"):
        validate(path)
    bad["entry"][0]["resource"]["birthDate"] = "1999-12-01"
    bad["entry"][0]["request"]["method"] = "POST"
    path.write_text(json.dumps(bad))
    with pytest.raises(FixtureError, match="PUT"):
        validate(path)
