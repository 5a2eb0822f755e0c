"""Unit tests of the sandbox's response screening (launch/sandbox/visibility.py): what a
token may see of a response, however deeply nested, without HTTP."""
from __future__ import annotations

from launch.sandbox.policy import Grant
from launch.sandbox.visibility import screen

APP = "patient/Patient.rs patient/Observation.rs patient/MedicationRequest.crs user/Practitioner.rs"
OWN = {"resourceType": "MedicationRequest", "id": "own", "subject": {"reference": "Patient/pt-1"}}
OTHER = {"resourceType": "MedicationRequest", "id": "other", "subject": {"reference": "Patient/pt-2"}}
DOCTOR = {"resourceType": "Practitioner", "id": "dr"}


def grant(scope=APP):
    return Grant.from_claims(scope, "pt-1")


def no_fetch(path):
    raise AssertionError(f"no fetch expected, got {path}")


def searchset(*resources):
    return {"resourceType": "Bundle", "type": "searchset",
            "entry": [{"resource": r, "search": {"mode": "match"}} for r in resources]}


def kept_ids(bundle):
    return [e["resource"].get("id") for e in bundle.get("entry", []) if e.get("search", {}).get("mode") != "outcome"]


def test_included_resources_of_other_patients_are_dropped_and_the_bundle_says_so():
    out = screen(searchset(DOCTOR, OWN, OTHER, {"resourceType": "Patient", "id": "pt-2"}), grant(), no_fetch)
    assert kept_ids(out) == ["dr", "own"]
    assert out["entry"][-1]["resource"]["resourceType"] == "OperationOutcome"
    assert kept_ids(screen(searchset(DOCTOR, OWN), grant(), no_fetch)) == ["dr", "own"]
    assert len(screen(searchset(DOCTOR, OWN), grant(), no_fetch)["entry"]) == 2  # nothing withheld, no notice


def test_types_the_token_has_no_scope_for_are_dropped_even_in_the_compartment():
    condition = {"resourceType": "Condition", "id": "c", "subject": {"reference": "Patient/pt-1"}}
    assert kept_ids(screen(searchset(condition, OWN), grant(), no_fetch)) == ["own"]


def test_batch_responses_keep_their_positions():
    nested = {"resourceType": "Bundle", "type": "batch-response", "entry": [
        {"resource": OTHER, "response": {"status": "200 OK"}},
        {"resource": searchset(OWN, OTHER), "response": {"status": "200 OK"}}]}
    out = screen(nested, grant(), no_fetch)
    assert out["entry"][0] == {"response": out["entry"][0]["response"]}
    assert out["entry"][0]["response"]["status"].startswith("403")
    assert kept_ids(out["entry"][1]["resource"]) == ["own"]


def test_a_single_resource_outside_the_compartment_is_withheld():
    assert screen(OTHER, grant(), no_fetch) is None
    assert screen(OWN, grant(), no_fetch) == OWN
    assert screen({"resourceType": "Parameters"}, grant(), no_fetch) is None
    assert screen(OTHER, grant("user/MedicationRequest.rs"), no_fetch) == OTHER


def test_provenance_is_placed_by_its_targets():
    store = {"MedicationRequest/own": OWN, "MedicationRequest/other": OTHER}
    provenance = {"resourceType": "Provenance", "target": [{"reference": "MedicationRequest/other"}]}
    scope = APP + " patient/Provenance.c"
    assert screen(provenance, grant(scope), store.get) is None
    provenance["target"][0]["reference"] = "MedicationRequest/own"
    assert screen(provenance, grant(scope), store.get) == provenance
