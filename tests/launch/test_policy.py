"""Unit tests of the sandbox's SMART access policy (launch/sandbox/policy.py): scope
parsing (v1 and v2) and the patient-compartment rules, without HTTP."""
from __future__ import annotations

import pytest
from launch.sandbox.policy import Forbidden, Grant, authorize, classify, parse_scope

PID = "pt-1"
STORE = {
    "Observation/own": {"resourceType": "Observation", "id": "own", "subject": {"reference": "Patient/pt-1"}},
    "Observation/other": {"resourceType": "Observation", "id": "other", "subject": {"reference": "Patient/pt-2"}},
    "MedicationRequest/own": {"resourceType": "MedicationRequest", "id": "own",
                              "subject": {"reference": "Patient/pt-1"}},
}


def fetch(path):
    return STORE.get(path)


def check(scope, method, path, params=(), body=None, patient=PID):
    grant = Grant.from_claims(scope, patient)
    return authorize(classify(method, path, list(params), body), grant, fetch)


def test_v1_and_v2_scopes_parse_to_the_same_permissions():
    assert parse_scope("patient/Observation.read").perms == "rs"
    assert parse_scope("user/*.write").perms == "cud"
    assert parse_scope("patient/*.*").perms == "cruds"
    assert parse_scope("patient/Observation.rs").perms == "rs"
    assert parse_scope("patient/Observation.sr") is None  # v2 letters must be in cruds order
    assert parse_scope("launch") is None
    assert parse_scope("patient/Observation.rs?category=laboratory").restrictions == (("category", "laboratory"),)


def test_read_of_own_patient_and_own_observation_is_allowed():
    assert check("patient/*.rs", "GET", "Patient/pt-1") == []
    assert check("patient/Observation.r", "GET", "Observation/own") == []


def test_cross_patient_reads_are_refused():
    with pytest.raises(Forbidden):
        check("patient/*.rs", "GET", "Patient/pt-2")
    with pytest.raises(Forbidden):
        check("patient/*.rs", "GET", "Observation/other")


def test_user_scopes_reach_any_patient():
    assert check("user/*.rs", "GET", "Patient/pt-2") == []
    assert check("user/Observation.read", "GET", "Observation/other") == []


def test_interaction_letters_are_enforced():
    with pytest.raises(Forbidden, match="needs 's'"):
        check("patient/Observation.r", "GET", "Observation", [("patient", "pt-1")])
    with pytest.raises(Forbidden, match="needs 'c'"):
        check("patient/*.rs", "POST", "Observation", body={"resourceType": "Observation",
                                                          "subject": {"reference": "Patient/pt-1"}})
    with pytest.raises(Forbidden, match="needs 'd'"):
        check("patient/*.cru", "DELETE", "Observation/own")


def test_search_without_patient_is_constrained_and_other_patient_refused():
    assert check("patient/*.rs", "GET", "Observation", [("code", "x")]) == [("patient", "pt-1")]
    assert check("patient/*.rs", "GET", "Patient", [("name", "x")]) == [("_id", "pt-1")]
    assert check("patient/*.rs", "GET", "Observation", [("subject", "Patient/pt-1")]) == [("patient", "pt-1")]
    with pytest.raises(Forbidden):
        check("patient/*.rs", "GET", "Observation", [("patient", "pt-2")])
    with pytest.raises(Forbidden):
        check("patient/*.rs", "GET", "Observation", [("patient", "pt-1,pt-2")])
    with pytest.raises(Forbidden):
        check("patient/*.rs", "GET", "Patient/pt-2/Observation")


def test_creates_must_reference_the_launch_patient():
    own = {"resourceType": "AllergyIntolerance", "patient": {"reference": "Patient/pt-1"}}
    assert check("patient/AllergyIntolerance.c", "POST", "AllergyIntolerance", body=own) == []
    other = {"resourceType": "AllergyIntolerance", "patient": {"reference": "Patient/pt-2"}}
    with pytest.raises(Forbidden):
        check("patient/AllergyIntolerance.c", "POST", "AllergyIntolerance", body=other)
    with pytest.raises(Forbidden):  # no patient at all
        check("patient/AllergyIntolerance.c", "POST", "AllergyIntolerance", body={"resourceType": "AllergyIntolerance"})


def test_provenance_targets_must_be_in_the_compartment():
    ok = {"resourceType": "Provenance", "target": [{"reference": "MedicationRequest/own"}]}
    assert check("patient/Provenance.c", "POST", "Provenance", body=ok) == []
    bad = {"resourceType": "Provenance", "target": [{"reference": "Observation/other"}]}
    with pytest.raises(Forbidden):
        check("patient/Provenance.c", "POST", "Provenance", body=bad)


def test_transaction_entries_are_each_checked():
    bundle = {"resourceType": "Bundle", "type": "transaction", "entry": [
        {"fullUrl": "urn:uuid:1", "resource": {"resourceType": "MedicationRequest",
                                               "subject": {"reference": "Patient/pt-1"}},
         "request": {"method": "POST", "url": "MedicationRequest"}},
        {"resource": {"resourceType": "Provenance", "target": [{"reference": "urn:uuid:1"}]},
         "request": {"method": "POST", "url": "Provenance"}}]}
    assert check("patient/MedicationRequest.c patient/Provenance.c", "POST", "", body=bundle) == []
    with pytest.raises(Forbidden):  # Provenance not granted
        check("patient/MedicationRequest.c", "POST", "", body=bundle)
    bundle["entry"][0]["resource"]["subject"]["reference"] = "Patient/pt-2"
    with pytest.raises(Forbidden):
        check("patient/MedicationRequest.c patient/Provenance.c", "POST", "", body=bundle)


def test_updates_and_deletes_check_the_stored_resource():
    body = {"resourceType": "Observation", "id": "other", "subject": {"reference": "Patient/pt-1"}}
    with pytest.raises(Forbidden):  # moving someone else's observation into our patient
        check("patient/Observation.u", "PUT", "Observation/other", body=body)
    with pytest.raises(Forbidden):
        check("patient/Observation.d", "DELETE", "Observation/other")
    assert check("patient/Observation.d", "DELETE", "Observation/own") == []


def test_operations_and_system_search_need_user_scopes():
    with pytest.raises(Forbidden):
        check("patient/*.rs", "GET", "Patient/pt-1/$everything")
    with pytest.raises(Forbidden):
        check("patient/*.rs", "GET", "", [("_type", "Observation")])
    assert check("user/*.rs", "GET", "Patient/pt-1/$everything") == []


def test_patient_scopes_without_patient_context_are_refused():
    with pytest.raises(Forbidden, match="without a patient"):
        check("patient/*.rs", "GET", "Observation/own", patient=None)


def test_v2_restricted_scope_allows_only_matching_searches():
    scope = "patient/Observation.rs?category=laboratory"
    assert check(scope, "GET", "Observation", [("category", "laboratory")]) == [("patient", "pt-1")]
    with pytest.raises(Forbidden):
        check(scope, "GET", "Observation", [("category", "vital-signs")])
    with pytest.raises(Forbidden):
        check(scope, "GET", "Observation/own")


@pytest.mark.parametrize("params", [
    [("_id:not", "pt-1")], [("_id:missing", "false")], [("subject.name", "x")], [("_has:Observation:patient:code",
                                                                                  "x")],
    [("_filter", "patient eq pt-2")], [("_query", "x")], [("_contained", "true")], [("_list", "x")],
    [("patient:missing", "true")], [("subject:identifier", "x|y")], [("_format", "xml")],
])
def test_search_params_that_reach_across_resources_are_refused_without_all_type_access(params):
    with pytest.raises(Forbidden):
        check("patient/*.rs user/Practitioner.rs", "GET", "Observation", params)
    assert check("user/*.rs", "GET", "Observation", params) == []


def test_types_outside_compartment_and_public_list_are_out_of_reach_of_patient_scopes():
    with pytest.raises(Forbidden):
        check("patient/*.rs", "GET", "RelatedPerson", [("patient", "pt-2")])
    assert check("patient/*.rs", "GET", "Practitioner", [("name", "x")]) == []


def test_conditional_create_is_confined_to_the_compartment():
    body = {"resourceType": "MedicationRequest", "subject": {"reference": "Patient/pt-1"}}
    req = classify("POST", "MedicationRequest", [], body, "identifier=urn:x|1")
    authorize(req, Grant.from_claims("patient/MedicationRequest.crs", PID), fetch)
    assert req.if_none_exist == [("identifier", "urn:x|1"), ("patient", "pt-1")]
    with pytest.raises(Forbidden):
        check_ine = classify("POST", "MedicationRequest", [], body, "patient=pt-2")
        authorize(check_ine, Grant.from_claims("patient/MedicationRequest.crs", PID), fetch)
    with pytest.raises(Forbidden):  # no search permission: a match would reveal what exists
        authorize(classify("POST", "MedicationRequest", [], body, "identifier=urn:x|1"),
                  Grant.from_claims("patient/MedicationRequest.c", PID), fetch)
