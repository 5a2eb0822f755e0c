"""Patient isolation of the sandbox FHIR proxy under attack.

A token for patient A, obtained through the sandbox's real OAuth flow with the app's
own scopes (``patient/*`` for the chart, ``user/Practitioner.rs``), sends every family
of FHIR request that could reach another patient: ``_id`` modifiers, patient-parameter
modifiers, ``_include``/``_revinclude`` (``:iterate``, ``*``), chains and ``_has``,
``_filter``/``_query``/``_contained``/``_list``/``_type``, compartment paths,
``$everything``, GraphQL, history, system search, continuation pages (forged,
another patient's, tampered), batch/transaction entries, conditional create,
update and delete, and path traversal (dot segments, percent-encoded dots and
slashes, double encoding, backslashes). Requests go out through ``http.client`` so
the path reaches the sandbox byte for byte.

Every case asserts the status the proxy answers and that 0 resources of other
patients reach the client: no Patient but A, no reference to another Patient, no
Provenance targeting another patient's data, no ``Location`` of another patient's
resource. Writes aim at a throwaway victim patient V and check V's data is intact.

A is a throwaway patient of this module (so conditional creates that succeed write
only to A); the other patients are the scenario patients of ``fhir_fixtures/``.
"""
from __future__ import annotations

import uuid

import pytest

from tests.launch.conftest import SmartClient
from tests.launch.isolation import build_world, bundle, count, foreign, get_entry, ids, med, obs, send, victim_intact

pytestmark = pytest.mark.slow
OK, BAD, NO = {200}, {400}, {403}
MISMATCH = {400, 412}  # HAPI: the new resource does not match its own (constrained) If-None-Exist


@pytest.fixture(scope="module")
def world(sandbox, fhir_base):
    return build_world(sandbox, fhir_base)


# -- regressions: each of these reached another patient before the path grammar and screening ----
@pytest.mark.parametrize("target", ["Practitioner/x/../../Patient/<B>", "Practitioner/x/%2E%2E/%2E%2E/Patient/<B>",
                                    "Practitioner/x/..%2F..%2FPatient/<B>"])
def test_path_traversal_read_is_a_400(world, target):
    status, _, body = send(world, "GET", target)
    assert status == 400 and body["resourceType"] == "OperationOutcome"
    assert foreign(world, body, {}) == []


def test_path_traversal_cannot_create_or_delete_past_the_scopes(world):
    before = count(world, "Observation", world["a"]["patient"])
    status, _, body = send(world, "POST", "Practitioner/x/../../Observation", obs("<A>"))
    assert status == 400, body  # the app's scopes grant no Observation create
    assert count(world, "Observation", world["a"]["patient"]) == before
    for target in ("Practitioner/x/../../MedicationRequest/<V_MR>",
                   "Practitioner/x/..%2F..%2FMedicationRequest/<V_MR>"):
        assert send(world, "DELETE", target)[0] == 400
    assert victim_intact(world)


def test_id_with_a_modifier_cannot_list_other_patients(world):
    status, _, body = send(world, "GET", "Patient?_id:not=<A>")
    assert status == 403 and body["resourceType"] == "OperationOutcome"
    # a plain name search still works, and only ever finds the launch patient
    status, _, body = send(world, "GET", "Patient?name=Isolation")
    assert status == 200 and ids(body, "Patient") == {world["a"]["patient"]}


@pytest.mark.parametrize("query, own", [
    ("Practitioner?_revinclude=MedicationRequest:requester", ("MedicationRequest", "mr")),
    ("Practitioner?_revinclude=Encounter:participant&_include:iterate=Encounter:patient", ("Encounter", "enc")),
    ("Practitioner?_revinclude=DocumentReference:author", ("DocumentReference", "doc")),
    ("Practitioner?_revinclude=*", ("MedicationRequest", "mr")),
])
def test_revinclude_on_a_user_level_search_returns_only_the_launch_patients_data(world, query, own):
    status, headers, body = send(world, "GET", query + "&_count=100")
    assert status == 200, body
    assert "dr-okafor" in ids(body, "Practitioner")
    assert world["a"][own[1]] in ids(body, own[0])  # the launch patient's own data still comes back
    assert foreign(world, body, headers) == []
    assert withheld_notice(body)  # the client is told the answer was screened


def withheld_notice(bundle: dict) -> bool:
    return any(e.get("search", {}).get("mode") == "outcome" and e["resource"]["resourceType"] == "OperationOutcome"
               for e in bundle.get("entry") or [])


def test_a_resource_that_cannot_be_placed_in_the_compartment_is_withheld_and_said_so(world):
    # _elements strips the subject, so nothing shows these observations are the launch patient's
    status, _, body = send(world, "GET", "Observation?_elements=id,status")
    assert status == 200 and ids(body, "Observation") == set() and withheld_notice(body)
    status, _, body = send(world, "GET", "Observation?_elements=id,status,subject")
    assert status == 200 and len(ids(body, "Observation")) == 3 and not withheld_notice(body)


def test_revinclude_inside_a_batch_returns_only_the_launch_patients_data(world):
    status, headers, body = send(world, "POST", "",
                                 bundle("batch", get_entry("Practitioner?_revinclude=MedicationRequest:requester")))
    assert status == 200 and body["type"] == "batch-response"
    found = body["entry"][0]["resource"]
    assert world["a"]["mr"] in ids(found, "MedicationRequest")
    assert foreign(world, body, headers) == []


def test_if_none_exist_cannot_match_another_patients_resource(world):
    for header in ("patient=<B>", "subject=Patient/<B>"):
        status, headers, body = send(world, "POST", "MedicationRequest", med("<A>"), {"If-None-Exist": header})
        assert status == 403 and "Location" not in headers
    status, headers, body = send(world, "POST", "MedicationRequest", med("<A>"),
                                 {"If-None-Exist": "_id=<B_MR>", "Prefer": "return=representation"})
    assert status in MISMATCH and foreign(world, body, headers) == []


# -- the cases --------------------------------------------------------------------------------
FORM = {"Content-Type": "application/x-www-form-urlencoded"}
# (id, method, target, body, headers, expected statuses)
CASES = [
    # _id and its modifiers
    ("id-not", "GET", "Patient?_id:not=<A>", None, {}, NO),
    ("id-missing", "GET", "Patient?_id:missing=false", None, {}, NO),
    ("id-above", "GET", "Patient?_id:above=<A>", None, {}, NO),
    ("id-below", "GET", "Patient?_id:below=<A>", None, {}, NO),
    ("id-text", "GET", "Patient?_id:text=pt", None, {}, NO),
    ("id-exact", "GET", "Patient?_id:exact=<B>", None, {}, NO),
    ("id-contains", "GET", "Patient?_id:contains=pt", None, {}, NO),
    ("id-other", "GET", "Patient?_id=<B>", None, {}, NO),
    ("id-list", "GET", "Patient?_id=<A>,<B>", None, {}, NO),
    ("id-not-obs", "GET", "Observation?_id:not=nothing", None, {}, NO),
    ("id-missing-med", "GET", "MedicationRequest?_id:missing=false", None, {}, NO),
    ("id-name-all", "GET", "Patient?name=Wilson", None, {}, OK),
    # the patient parameters and their modifiers
    ("patient-other", "GET", "Observation?patient=<B>", None, {}, NO),
    ("subject-other", "GET", "Observation?subject=Patient/<B>", None, {}, NO),
    ("subject-type-other", "GET", "Observation?subject:Patient=<B>", None, {}, NO),
    ("patient-list", "GET", "Observation?patient=<A>,<B>", None, {}, NO),
    ("patient-repeat", "GET", "Observation?patient=<A>&patient=<B>", None, {}, NO),
    ("patient-missing", "GET", "Observation?patient:missing=true", None, {}, NO),
    ("patient-not", "GET", "Observation?patient:not=Patient/<A>", None, {}, NO),
    ("subject-identifier", "GET", "Observation?subject:identifier=http://hospital.example.org/mrn|MRN-200171",
     None, {}, NO),
    ("subject-group", "GET", "Observation?subject:Group=g1", None, {}, NO),
    ("patient-below", "GET", "MedicationRequest?patient:below=pt", None, {}, NO),
    ("no-patient", "GET", "MedicationRequest?status=active", None, {}, OK),
    ("identifier-other", "GET", "Patient?identifier=http://hospital.example.org/mrn|MRN-200171", None, {}, OK),
    ("read-with-id", "GET", "Patient/<A>?_id=<B>", None, {}, {200, 400}),
    ("form-search-other", "POST", "Observation/_search", "patient=<B>", FORM, NO),
    ("form-search-id-not", "POST", "Patient/_search", "_id:not=<A>", FORM, NO),
    ("form-search-own", "POST", "Patient/_search", "name=Isolation", FORM, OK),
    ("form-create", "POST", "MedicationRequest", "subject=Patient/<B>", FORM, NO),
    # _include / _revinclude, :iterate, *
    ("revinclude-med", "GET", "Practitioner?_revinclude=MedicationRequest:requester", None, {}, OK),
    ("revinclude-enc-iterate", "GET",
     "Practitioner?_revinclude=Encounter:participant&_include:iterate=Encounter:patient", None, {}, OK),
    ("revinclude-doc", "GET", "Practitioner?_revinclude=DocumentReference:author", None, {}, OK),
    ("revinclude-star", "GET", "Practitioner?_revinclude=*", None, {}, OK),
    # every resource the practitioners reach, iterated: on a server holding the Synthea population
    # too, HAPI itself may fail it ("HAPI-2223: max-results cannot be negative", a 500 of its own
    # include limit); either way nothing of another patient may come back
    ("revinclude-iterate-star", "GET", "Practitioner?_revinclude:iterate=*&_include:iterate=*", None, {},
     OK | {500}),
    ("revinclude-med-patients", "GET",
     "Practitioner?_id=dr-okafor&_revinclude=MedicationRequest:requester&_include:iterate=MedicationRequest:subject",
     None, {}, OK),
    ("include-back-around", "GET",
     "MedicationRequest?_include=MedicationRequest:requester&_revinclude:iterate=MedicationRequest:requester",
     None, {}, OK),
    ("include-star-iterate", "GET", "Encounter?_include=*&_revinclude:iterate=*", None, {}, OK),
    ("patient-revinclude-star", "GET", "Patient?_revinclude=*", None, {}, OK),
    ("patient-link", "GET", "Patient?_revinclude=Patient:link&_include=Patient:link", None, {}, OK),
    ("patient-iterate-everything", "GET", "Patient?_revinclude:iterate=*&_include:iterate=*", None, {}, OK),
    ("obs-include-patient", "GET", "Observation?_include=Observation:patient", None, {}, OK),
    ("read-with-revinclude", "GET", "Practitioner/dr-okafor?_revinclude=MedicationRequest:requester", None, {}, BAD),
    ("compartment-revinclude", "GET", "Patient/<A>/Encounter?_include=*&_revinclude:iterate=*", None, {}, OK),
    # chained and reverse-chained parameters
    ("chain", "GET", "Observation?subject.name=Wilson", None, {}, NO),
    ("chain-typed", "GET", "Observation?subject:Patient.name=Wilson", None, {}, NO),
    ("chain-requester", "GET", "MedicationRequest?requester.name=Okafor", None, {}, NO),
    ("chain-participant", "GET", "Encounter?participant:Practitioner.name=Okafor", None, {}, NO),
    ("has-practitioner", "GET", "Practitioner?_has:MedicationRequest:requester:patient=<B>", None, {}, NO),
    ("has-patient", "GET", "Patient?_has:Observation:patient:code=4548-4", None, {}, NO),
    ("has-id", "GET", "Patient?_has:Observation:subject:_id=<B>", None, {}, NO),
    # other cross-resource parameters
    ("filter", "GET", "Observation?_filter=patient%20eq%20<B>", None, {}, NO),
    ("query", "GET", "Observation?_query=everything", None, {}, NO),
    ("contained", "GET", "Observation?_contained=true", None, {}, NO),
    ("contained-type", "GET", "Observation?_containedType=contained", None, {}, NO),
    ("list", "GET", "Observation?_list=anything", None, {}, NO),
    ("type-param", "GET", "Observation?_type=Patient", None, {}, NO),
    ("format-xml", "GET", "Observation?_format=xml", None, {}, NO),
    ("getpages-on-type", "GET", "Observation?_getpages=<PAGE_B>", None, {}, NO),
    ("param-name-space", "GET", "Patient?%20_id:not=<A>", None, {}, NO),
    ("param-name-case", "GET", "Patient?_ID:not=<A>", None, {}, NO),
    ("param-name-encoded", "GET", "Patient?_id%3Anot=<A>", None, {}, NO),
    ("method-override", "GET", "MedicationRequest/<A_MR>?_method=DELETE", None, {}, NO),
    ("search-body-ignored", "POST", "MedicationRequest/_search?status=active", {"patient": "<B>"}, {}, OK),
    ("graphql-param", "GET", "Patient?_graphql={PatientList{id}}", None, {}, NO),
    # GraphQL
    ("graphql-system", "GET", "$graphql?query=%7BPatientList%7Bid%7D%7D", None, {}, NO),
    ("graphql-system-post", "POST", "$graphql", {"query": "{PatientList{id}}"}, {}, NO),
    ("graphql-other", "GET", "Patient/<B>/$graphql?query=%7Bid%7D", None, {}, NO),
    ("graphql-own", "GET", "Patient/<A>/$graphql?query=%7BMedicationRequestList%7Bid%7D%7D", None, {}, NO),
    ("graphql-type", "GET", "Patient/$graphql?query=%7Bid%7D", None, {}, NO),
    # compartment paths
    ("compartment-med", "GET", "Patient/<B>/MedicationRequest", None, {}, NO),
    ("compartment-obs", "GET", "Patient/<B>/Observation", None, {}, NO),
    ("compartment-star", "GET", "Patient/<B>/*", None, {}, BAD),
    ("compartment-public", "GET", "Patient/<B>/Practitioner", None, {}, BAD),
    ("compartment-own-naming-other", "GET", "Patient/<A>/MedicationRequest?patient=<B>", None, {}, NO),
    ("compartment-own", "GET", "Patient/<A>/Observation", None, {}, OK),
    # $everything and other operations
    ("everything-other", "GET", "Patient/<B>/$everything", None, {}, NO),
    ("everything-post", "POST", "Patient/<B>/$everything", {"resourceType": "Parameters"}, {}, NO),
    ("everything-type", "GET", "Patient/$everything", None, {}, NO),
    ("everything-own", "GET", "Patient/<A>/$everything", None, {}, NO),
    ("everything-encounter", "GET", "Encounter/<B_ENC>/$everything", None, {}, NO),
    ("everything-system", "GET", "$everything", None, {}, NO),
    ("meta-other", "GET", "Patient/<B>/$meta", None, {}, NO),
    # history
    ("history-patient", "GET", "Patient/<B>/_history", None, {}, NO),
    ("vread-patient", "GET", "Patient/<B>/_history/1", None, {}, NO),
    ("history-med", "GET", "MedicationRequest/<B_MR>/_history", None, {}, NO),
    ("vread-med", "GET", "MedicationRequest/<B_MR>/_history/1", None, {}, NO),
    ("history-type", "GET", "MedicationRequest/_history", None, {}, NO),
    ("history-patients", "GET", "Patient/_history", None, {}, NO),
    ("history-system", "GET", "_history", None, {}, NO),
    ("history-own", "GET", "MedicationRequest/<A_MR>/_history", None, {}, OK),
    # reads and system searches
    ("read-patient", "GET", "Patient/<B>", None, {}, NO),
    ("read-med", "GET", "MedicationRequest/<B_MR>", None, {}, NO),
    ("read-encounter", "GET", "Encounter/<B_ENC>", None, {}, NO),
    ("system-search", "GET", "", None, {}, NO),
    ("system-type", "GET", "?_type=Patient", None, {}, NO),
    ("system-id", "GET", "?_id=<B>", None, {}, NO),
    # continuation pages
    ("page-forged", "GET", "?_getpages=00000000-0000-0000-0000-000000000000", None, {}, NO),
    ("page-other-patient", "GET", "?_getpages=<PAGE_B>&_getpagesoffset=0&_count=50", None, {}, NO),
    ("page-extra-include", "GET", "?_getpages=<PAGE_A>&_getpagesoffset=1&_count=1&_include=*", None, {}, NO),
    ("page-extra-revinclude", "GET", "?_getpages=<PAGE_PRACT>&_getpagesoffset=1&_revinclude=*", None, {}, NO),
    ("page-extra-patient", "GET", "?_getpages=<PAGE_A>&patient=<B>", None, {}, NO),
    ("page-xml", "GET", "?_getpages=<PAGE_A>&_getpagesoffset=1&_count=1&_format=xml", None, {}, NO),
    ("page-duplicate", "GET", "?_getpages=<PAGE_B>&_getpages=<PAGE_A>", None, {}, NO),
    ("page-widened", "GET", "?_getpages=<PAGE_A>&_getpagesoffset=0&_count=500", None, {}, OK),
    ("page-practitioner-widened", "GET", "?_getpages=<PAGE_PRACT>&_getpagesoffset=0&_count=50", None, {}, OK),
    # batch and transaction entries
    ("batch-read", "POST", "", bundle("batch", get_entry("Patient/<B>")), {}, NO),
    ("batch-search-other", "POST", "", bundle("batch", get_entry("Observation?patient=<B>")), {}, NO),
    ("batch-revinclude", "POST", "", bundle("batch", get_entry("Practitioner?_revinclude=MedicationRequest:requester")),
     {}, OK),
    ("batch-revinclude-star", "POST", "", bundle("batch", get_entry("Practitioner?_revinclude=*&_include:iterate=*")),
     {}, OK),
    ("batch-own-search", "POST", "", bundle("batch", get_entry("MedicationRequest"), get_entry("Observation?_count=2")),
     {}, OK),
    ("batch-name-search", "POST", "", bundle("batch", get_entry("Patient?name=Wilson")), {}, OK),
    ("batch-id-not", "POST", "", bundle("batch", get_entry("Patient?_id:not=<A>")), {}, NO),
    ("batch-has", "POST", "", bundle("batch", get_entry("Practitioner?_has:MedicationRequest:requester:patient=<B>")),
     {}, NO),
    ("batch-traversal", "POST", "", bundle("batch", get_entry("Practitioner/x/../../Patient/<B>")), {}, BAD),
    ("batch-encoded-traversal", "POST", "", bundle("batch", get_entry("Practitioner/x/%2E%2E/%2E%2E/Patient/<B>")),
     {}, BAD),
    ("batch-absolute", "POST", "", bundle("batch", get_entry("http://127.0.0.1:8080/fhir/Patient/<B>")), {}, BAD),
    ("batch-everything", "POST", "", bundle("batch", get_entry("Patient/<B>/$everything")), {}, NO),
    ("batch-compartment", "POST", "", bundle("batch", get_entry("Patient/<B>/MedicationRequest")), {}, NO),
    ("batch-page", "POST", "", bundle("batch", get_entry("?_getpages=<PAGE_B>")), {}, NO),
    ("batch-graphql", "POST", "", bundle("batch", get_entry("$graphql?query={PatientList{id}}")), {}, NO),
    ("batch-nested", "POST", "", bundle("batch", ("POST", "", bundle("batch", get_entry("Patient/<B>")), {})), {}, NO),
    ("txn-delete", "POST", "", bundle("transaction", ("DELETE", "MedicationRequest/<V_MR>", None, {})), {}, NO),
    ("txn-conditional-delete", "POST", "",
     bundle("transaction", ("DELETE", "MedicationRequest?patient=<V>", None, {})), {}, NO),
    ("txn-create-other", "POST", "", bundle("transaction", ("POST", "MedicationRequest", med("<V>"), {})), {}, NO),
    ("txn-move", "POST", "",
     bundle("transaction", ("PUT", "MedicationRequest/<V_MR>", med("<A>", "<V_MR>"), {})), {}, NO),
    ("txn-conditional-update", "POST", "",
     bundle("transaction", ("PUT", "MedicationRequest?patient=<V>", med("<A>"), {})), {}, NO),
    ("txn-if-none-exist-other", "POST", "",
     bundle("transaction", ("POST", "MedicationRequest", med("<A>"), {"ifNoneExist": "patient=<B>"})), {}, NO),
    ("txn-if-none-exist-id", "POST", "",
     bundle("transaction", ("POST", "MedicationRequest", med("<A>"), {"ifNoneExist": "_id=<B_MR>"})), {}, MISMATCH),
    ("txn-traversal", "POST", "",
     bundle("transaction", ("POST", "Practitioner/x/../../Observation", obs("<A>"), {})), {}, BAD),
    # conditional headers and conditional update/delete
    ("ine-patient", "POST", "MedicationRequest", med("<A>"), {"If-None-Exist": "patient=<B>"}, NO),
    ("ine-subject", "POST", "MedicationRequest", med("<A>"), {"If-None-Exist": "subject=Patient/<B>"}, NO),
    ("ine-id", "POST", "MedicationRequest", med("<A>"),
     {"If-None-Exist": "_id=<B_MR>", "Prefer": "return=representation"}, MISMATCH),
    ("ine-status", "POST", "MedicationRequest", med("<A>"),
     {"If-None-Exist": "status=active", "Prefer": "return=representation"}, OK),
    ("ine-chain", "POST", "MedicationRequest", med("<A>"), {"If-None-Exist": "subject.name=Wilson"}, NO),
    ("ine-has", "POST", "MedicationRequest", med("<A>"),
     {"If-None-Exist": "_has:Provenance:target:agent=dr-okafor"}, NO),
    ("ine-missing", "POST", "MedicationRequest", med("<A>"), {"If-None-Exist": "patient:missing=false"}, NO),
    ("ine-id-not", "POST", "MedicationRequest", med("<A>"), {"If-None-Exist": "_id:not=<A_MR>"}, NO),
    ("ine-allergy", "POST", "AllergyIntolerance",
     {"resourceType": "AllergyIntolerance", "patient": {"reference": "Patient/<A>"}, "code": {"text": "probe"}},
     {"If-None-Exist": "patient=<B>"}, NO),
    ("conditional-update", "PUT", "MedicationRequest?patient=<V>", med("<A>"), {}, NO),
    ("conditional-update-id", "PUT", "MedicationRequest?_id=<V_MR>", med("<A>"), {}, NO),
    ("conditional-delete", "DELETE", "MedicationRequest?patient=<V>", None, {}, NO),
    ("conditional-delete-id", "DELETE", "MedicationRequest?_id=<V_MR>", None, {}, NO),
    ("conditional-patch", "PATCH", "MedicationRequest?patient=<V>",
     [{"op": "replace", "path": "/status", "value": "stopped"}], {"Content-Type": "application/json-patch+json"}, NO),
    ("if-match-move", "PUT", "MedicationRequest/<V_MR>", med("<A>", "<V_MR>"), {"If-Match": 'W/"1"'}, NO),
    ("delete-other", "DELETE", "MedicationRequest/<V_MR>", None, {}, NO),
    # path traversal
    ("dots", "GET", "Practitioner/x/../../Patient/<B>", None, {}, BAD),
    ("dots-upper", "GET", "Practitioner/x/%2E%2E/%2E%2E/Patient/<B>", None, {}, BAD),
    ("dots-lower", "GET", "Practitioner/x/%2e%2e/%2e%2e/Patient/<B>", None, {}, BAD),
    ("dots-slash", "GET", "Practitioner/x/..%2F..%2FPatient/<B>", None, {}, BAD),
    ("all-encoded", "GET", "Practitioner/x%2F..%2F..%2FPatient%2F<B>", None, {}, BAD),
    ("dot-dots", "GET", "Practitioner/./../Patient/<B>", None, {}, BAD),
    ("sibling", "GET", "Patient/<A>/../<B>", None, {}, BAD),
    ("sibling-slash", "GET", "Patient/<A>/..%2F<B>", None, {}, BAD),
    ("sibling-all-encoded", "GET", "Patient/<A>%2F..%2F<B>", None, {}, BAD),
    ("sibling-half", "GET", "Patient/<A>/.%2E/<B>", None, {}, BAD),
    ("sibling-semicolon", "GET", "Patient/<A>/..;/<B>", None, {}, BAD),
    ("double-encoded", "GET", "Patient/<A>/%252E%252E/<B>", None, {}, BAD),
    ("backslash", "GET", "Practitioner/x/..\\..\\Patient/<B>", None, {}, BAD),
    ("empty-segments", "GET", "Practitioner//..//Patient/<B>", None, {}, BAD),
    ("trailing-slash", "GET", "Patient/<B>/", None, {}, NO),
    ("lowercase-type", "GET", "patient/<B>", None, {}, BAD),
    ("matrix-param", "GET", "Patient/<B>;x=1", None, {}, BAD),
    ("above-base", "GET", "/fhir/../fhir/Patient/<B>", None, {}, BAD),
    ("dots-search", "GET", "Practitioner/x/../../Observation?patient=<B>", None, {}, BAD),
    ("dots-everything", "GET", "Practitioner/dr-okafor/../../Patient/<B>/$everything", None, {}, BAD),
    ("dots-create", "POST", "Practitioner/x/../../Observation", obs("<A>"), {}, BAD),
    ("dots-create-encoded", "POST", "Practitioner/x/%2E%2E/%2E%2E/Observation", obs("<A>"), {}, BAD),
    ("dots-delete", "DELETE", "Practitioner/x/../../MedicationRequest/<V_MR>", None, {}, BAD),
    ("dots-delete-slash", "DELETE", "Practitioner/x/..%2F..%2FMedicationRequest/<V_MR>", None, {}, BAD),
    ("dots-update", "PUT", "Practitioner/x/../../MedicationRequest/<V_MR>", med("<A>", "<V_MR>"), {}, BAD),
]


@pytest.mark.parametrize("method, target, body, headers, expected",
                         [pytest.param(*case[1:], id=case[0]) for case in CASES])
def test_no_other_patient_reaches_a_patient_token(world, method, target, body, headers, expected):
    status, response_headers, response = send(world, method, target, body, headers)
    assert status in expected, (status, response)
    assert foreign(world, response, response_headers) == []
    if status >= 400:
        assert response["resourceType"] == "OperationOutcome"
    if method != "GET":
        assert victim_intact(world)



# -- the app's own traffic keeps working -----------------------------------------------------------
def test_the_apps_chart_reads_searches_paging_and_writes_still_work(world, sandbox):
    smart, token, a = SmartClient(sandbox), world["token"], world["a"]
    assert smart.fhir("GET", f"Patient/{a['patient']}", token).json()["id"] == a["patient"]
    for rtype, params in (("Condition", {"clinical-status": "active"}), ("MedicationRequest", {"status": "active"}),
                          ("AllergyIntolerance", {}), ("DocumentReference", {"_sort": "-date", "_count": 3}),
                          ("Encounter", {"_sort": "-date", "_count": 3})):
        res = smart.fhir("GET", rtype, token, params={"patient": a["patient"], **params})
        assert res.status_code == 200 and res.json()["type"] == "searchset", (rtype, res.text)
    assert ids(res.json(), "Encounter") == {a["enc"]}
    # vitals newest first, one per page, following the proxy's next links
    res = smart.fhir("GET", "Observation", token, params={"patient": a["patient"], "category": "vital-signs",
                                                        "_sort": "-date", "_count": 1})
    seen = []
    while True:
        assert res.status_code == 200, res.text
        seen += [e["resource"]["id"] for e in res.json().get("entry", [])]
        nxt = next((link["url"] for link in res.json().get("link", []) if link["relation"] == "next"), None)
        if not nxt:
            break
        res = smart.fhir("GET", nxt, token)
    assert seen == [f"{a['patient']}-obs{n}" for n in (2, 1, 0)]
    # an approved proposal: conditional create on its identifier (twice: the second matches), then Provenance
    proposal = {**med(a["patient"]), "identifier": [{"system": "urn:docgemma:proposal", "value": uuid.uuid4().hex}]}
    headers = {"Content-Type": "application/fhir+json", "Prefer": "return=representation",
               "If-None-Exist": f"identifier=urn:docgemma:proposal|{proposal['identifier'][0]['value']}"}
    first = smart.fhir("POST", "MedicationRequest", token, json=proposal, headers=headers)
    second = smart.fhir("POST", "MedicationRequest", token, json=proposal, headers=headers)
    assert (first.status_code, second.status_code) == (201, 200), (first.text, second.text)
    assert first.json()["id"] == second.json()["id"]
    provenance = {"resourceType": "Provenance", "recorded": "2026-11-23T10:00:00Z",
                  "target": [{"reference": f"MedicationRequest/{first.json()['id']}"}],
                  "agent": [{"who": {"reference": "Practitioner/dr-okafor"}}]}
    assert smart.fhir("POST", "Provenance", token, json=provenance,
                      headers={"Content-Type": "application/fhir+json"}).status_code == 201
    allergy = {"resourceType": "AllergyIntolerance", "patient": {"reference": f"Patient/{a['patient']}"},
               "code": {"text": "latex"}}
    assert smart.fhir("POST", "AllergyIntolerance", token, json=allergy,
                      headers={"Content-Type": "application/fhir+json"}).status_code == 201
