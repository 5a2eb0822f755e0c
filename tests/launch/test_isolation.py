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

import http.client
import json
import re
import uuid
from urllib.parse import parse_qs, urlsplit

import pytest
import requests

from smart_docgemma.config import DEFAULTS
from tests.launch.conftest import SmartClient

pytestmark = pytest.mark.slow

APP_SCOPE = DEFAULTS["SCOPES"]  # what the app asks the EHR for
B, B_MR, B_ENC = "pt-t2dm", "pt-t2dm-med1", "pt-t2dm-enc1"
FHIR_JSON = {"Content-Type": "application/fhir+json", "Accept": "application/fhir+json"}
_PATIENT_REF = re.compile(r"(?:^|/)Patient/([A-Za-z0-9\-.]+)(?:/_history/[^/]+)?$")


# -- the world: throwaway patients A (the launch patient) and V (the write victim) -----------
def _put(fhir_base: str, resource: dict) -> None:
    res = requests.put(f"{fhir_base}/{resource['resourceType']}/{resource['id']}", json=resource,
                       headers=FHIR_JSON, timeout=30)
    assert res.status_code in (200, 201), res.text


def _chart(fhir_base: str, pid: str) -> dict[str, str]:
    """A patient with a medication, an encounter, a note (all by dr-okafor) and three vitals."""
    ref, doctor = {"reference": f"Patient/{pid}"}, {"reference": "Practitioner/dr-okafor"}
    made = {"patient": pid, "mr": f"{pid}-mr", "enc": f"{pid}-enc", "doc": f"{pid}-doc"}
    _put(fhir_base, {"resourceType": "Patient", "id": pid, "name": [{"family": "Isolation", "given": [pid]}]})
    _put(fhir_base, {"resourceType": "MedicationRequest", "id": made["mr"], "status": "active", "intent": "order",
                     "medicationCodeableConcept": {"text": "test drug"}, "subject": ref, "requester": doctor})
    _put(fhir_base, {"resourceType": "Encounter", "id": made["enc"], "status": "finished",
                     "class": {"code": "AMB"}, "subject": ref, "participant": [{"individual": doctor}]})
    _put(fhir_base, {"resourceType": "DocumentReference", "id": made["doc"], "status": "current",
                     "subject": ref, "author": [doctor],
                     "content": [{"attachment": {"contentType": "text/plain", "data": "bm90ZQ=="}}]})
    for n in range(3):
        _put(fhir_base, {"resourceType": "Observation", "id": f"{pid}-obs{n}", "status": "final",
                         "category": [{"coding": [{"system": "http://terminology.hl7.org/CodeSystem/"
                                                   "observation-category", "code": "vital-signs"}]}],
                         "code": {"text": "pulse"}, "subject": ref, "effectiveDateTime": f"2026-01-0{n + 1}",
                         "valueQuantity": {"value": 60 + n}})
    return made


@pytest.fixture(scope="module")
def world(sandbox, fhir_base):
    suffix = uuid.uuid4().hex[:8]
    a, v = _chart(fhir_base, f"iso-a-{suffix}"), _chart(fhir_base, f"iso-v-{suffix}")
    token = SmartClient(sandbox).ehr_token(a["patient"], scope=APP_SCOPE)["access_token"]
    b_token = SmartClient(sandbox).ehr_token(B, scope=APP_SCOPE)["access_token"]
    names = {"<A>": a["patient"], "<A_MR>": a["mr"], "<V>": v["patient"], "<V_MR>": v["mr"],
             "<B>": B, "<B_MR>": B_MR, "<B_ENC>": B_ENC}
    world = {"a": a, "v": v, "token": token, "sandbox": sandbox, "fhir_base": fhir_base, "names": names}
    names["<PAGE_A>"] = _page_id(world, token, "Observation?_count=1")
    names["<PAGE_B>"] = _page_id(world, b_token, "Observation?_count=1")
    names["<PAGE_PRACT>"] = _page_id(world, token, "Practitioner?_count=1&_revinclude=MedicationRequest:requester")
    return world


def _page_id(world: dict, token: str, target: str) -> str:
    status, _, body = send(world, "GET", target, token=token)
    assert status == 200, body
    url = next(link["url"] for link in body["link"] if link["relation"] == "next")
    return parse_qs(urlsplit(url).query)["_getpages"][0]


# -- raw HTTP ---------------------------------------------------------------------------------
def fill(world: dict, text: str) -> str:
    for name, value in world["names"].items():
        text = text.replace(name, value)
    return text


def send(world: dict, method: str, target: str, body=None, headers=None, token=None):
    """``method /fhir/target`` with the path sent exactly as written (no normalisation)."""
    url = urlsplit(world["sandbox"].url)
    path = fill(world, target if target.startswith("/") else f"/fhir/{target}")
    data = fill(world, json.dumps(body)).encode() if body is not None else None
    head = {"Authorization": f"Bearer {token or world['token']}", "Accept": "application/fhir+json",
            **({"Content-Type": "application/fhir+json"} if data else {}),
            **{k: fill(world, v) for k, v in (headers or {}).items()}}
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=60)
    try:
        conn.request(method, path, body=data, headers=head)
        res = conn.getresponse()
        raw = res.read()
        try:
            parsed = json.loads(raw) if raw else None
        except ValueError:
            parsed = raw.decode(errors="replace")
        return res.status, dict(res.getheaders()), parsed
    finally:
        conn.close()


# -- the leak detector --------------------------------------------------------------------------
def foreign(world: dict, body, headers: dict) -> list[str]:
    """Every resource of a patient other than A in a response (body, Location headers)."""
    found: list[str] = []
    _walk(world, body, found)
    for location in [headers.get("Location"), headers.get("Content-Location")] + _locations(body):
        if location and "/fhir/" in location:
            path = location.split("/fhir/", 1)[1].split("/_history")[0]
            res = requests.get(f"{world['fhir_base']}/{path}", headers={"Cache-Control": "no-cache"}, timeout=30)
            if res.status_code == 200 and res.headers.get("Content-Type", "").find("json") >= 0:
                _walk(world, res.json(), found, f"Location {location}: ")
    return found


def _walk(world: dict, node, found: list, where: str = "") -> None:
    if isinstance(node, list):
        for item in node:
            _walk(world, item, found, where)
        return
    if not isinstance(node, dict):
        return
    rtype, a = node.get("resourceType"), world["a"]["patient"]
    if rtype == "OperationOutcome":
        return
    if rtype == "Patient" and node.get("id") != a:
        found.append(f"{where}Patient/{node.get('id')}")
    if rtype == "Provenance":
        for target in node.get("target") or []:
            _walk(world, _upstream(world, target.get("reference", "")), found, f"{where}Provenance target: ")
    ref = node.get("reference")
    if isinstance(ref, str) and (m := _PATIENT_REF.search(ref)) and m.group(1) != a:
        found.append(f"{where}{node.get('reference')}")
    for value in node.values():
        _walk(world, value, found, where)


def _upstream(world: dict, ref: str):
    if ref.count("/") < 1:
        return None
    res = requests.get(f"{world['fhir_base']}/{'/'.join(ref.split('/')[-2:])}", timeout=30)
    return res.json() if res.status_code == 200 else None


def _locations(body) -> list[str]:
    if not isinstance(body, dict):
        return []
    return [e.get("response", {}).get("location") for e in body.get("entry") or [] if isinstance(e, dict)]


def victim_intact(world: dict) -> bool:
    base, v = world["fhir_base"], world["v"]
    mr = requests.get(f"{base}/MedicationRequest/{v['mr']}", headers={"Cache-Control": "no-cache"}, timeout=30)
    count = requests.get(f"{base}/MedicationRequest", params={"patient": v["patient"], "_summary": "count"},
                         headers={"Cache-Control": "no-cache"}, timeout=30).json()["total"]
    return mr.status_code == 200 and mr.json()["meta"]["versionId"] == "1" and count == 1



def _ids(body: dict, rtype: str) -> set[str]:
    return {e["resource"]["id"] for e in body.get("entry") or [] if e["resource"]["resourceType"] == rtype}


def _count(world: dict, rtype: str, patient: str) -> int:
    res = requests.get(f"{world['fhir_base']}/{rtype}", params={"patient": patient, "_summary": "count"},
                       headers={"Cache-Control": "no-cache"}, timeout=30)
    return res.json()["total"]


# -- regressions: each of these reached another patient before the path grammar and screening ----
@pytest.mark.parametrize("target", ["Practitioner/x/../../Patient/<B>", "Practitioner/x/%2E%2E/%2E%2E/Patient/<B>",
                                    "Practitioner/x/..%2F..%2FPatient/<B>"])
def test_path_traversal_read_is_a_400(world, target):
    status, _, body = send(world, "GET", target)
    assert status == 400 and body["resourceType"] == "OperationOutcome"
    assert foreign(world, body, {}) == []


def test_path_traversal_cannot_create_or_delete_past_the_scopes(world):
    before = _count(world, "Observation", world["a"]["patient"])
    status, _, body = send(world, "POST", "Practitioner/x/../../Observation", _obs("<A>"))
    assert status == 400, body  # the app's scopes grant no Observation create
    assert _count(world, "Observation", world["a"]["patient"]) == before
    for target in ("Practitioner/x/../../MedicationRequest/<V_MR>", "Practitioner/x/..%2F..%2FMedicationRequest/<V_MR>"):
        assert send(world, "DELETE", target)[0] == 400
    assert victim_intact(world)


def test_id_with_a_modifier_cannot_list_other_patients(world):
    status, _, body = send(world, "GET", "Patient?_id:not=<A>")
    assert status == 403 and body["resourceType"] == "OperationOutcome"
    # a plain name search still works, and only ever finds the launch patient
    status, _, body = send(world, "GET", "Patient?name=Isolation")
    assert status == 200 and _ids(body, "Patient") == {world["a"]["patient"]}


@pytest.mark.parametrize("query, own", [
    ("Practitioner?_revinclude=MedicationRequest:requester", ("MedicationRequest", "mr")),
    ("Practitioner?_revinclude=Encounter:participant&_include:iterate=Encounter:patient", ("Encounter", "enc")),
    ("Practitioner?_revinclude=DocumentReference:author", ("DocumentReference", "doc")),
    ("Practitioner?_revinclude=*", ("MedicationRequest", "mr")),
])
def test_revinclude_on_a_user_level_search_returns_only_the_launch_patients_data(world, query, own):
    status, headers, body = send(world, "GET", query + "&_count=100")
    assert status == 200, body
    assert "dr-okafor" in _ids(body, "Practitioner")
    assert world["a"][own[1]] in _ids(body, own[0])  # the launch patient's own data still comes back
    assert foreign(world, body, headers) == []


def test_revinclude_inside_a_batch_returns_only_the_launch_patients_data(world):
    status, headers, body = send(world, "POST", "", _bundle("batch", _get("Practitioner?_revinclude=MedicationRequest:requester")))
    assert status == 200 and body["type"] == "batch-response"
    found = body["entry"][0]["resource"]
    assert world["a"]["mr"] in _ids(found, "MedicationRequest")
    assert foreign(world, body, headers) == []


def test_if_none_exist_cannot_match_another_patients_resource(world):
    for header in ("patient=<B>", "subject=Patient/<B>"):
        status, headers, body = send(world, "POST", "MedicationRequest", _med("<A>"), {"If-None-Exist": header})
        assert status == 403 and "Location" not in headers
    status, headers, body = send(world, "POST", "MedicationRequest", _med("<A>"),
                                 {"If-None-Exist": "_id=<B_MR>", "Prefer": "return=representation"})
    assert status in MISMATCH and foreign(world, body, headers) == []


# -- the cases --------------------------------------------------------------------------------
def _med(patient: str, rid: str | None = None) -> dict:
    med = {"resourceType": "MedicationRequest", "status": "active", "intent": "proposal",
           "medicationCodeableConcept": {"text": "isolation probe"}, "subject": {"reference": f"Patient/{patient}"},
           "requester": {"reference": "Practitioner/dr-okafor"}}
    return {**med, "id": rid} if rid else med


def _obs(patient: str) -> dict:
    return {"resourceType": "Observation", "status": "final", "code": {"text": "probe"},
            "subject": {"reference": f"Patient/{patient}"}}


def _bundle(kind: str, *entries) -> dict:
    return {"resourceType": "Bundle", "type": kind, "entry": [
        {"request": {"method": method, "url": url, **extra}, **({"resource": resource} if resource else {})}
        for method, url, resource, extra in entries]}


def _get(url: str):
    return ("GET", url, None, {})


OK, BAD, NO = {200}, {400}, {403}
MISMATCH = {400, 412}  # HAPI: the new resource does not match its own (constrained) If-None-Exist
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
    # _include / _revinclude, :iterate, *
    ("revinclude-med", "GET", "Practitioner?_revinclude=MedicationRequest:requester", None, {}, OK),
    ("revinclude-enc-iterate", "GET",
     "Practitioner?_revinclude=Encounter:participant&_include:iterate=Encounter:patient", None, {}, OK),
    ("revinclude-doc", "GET", "Practitioner?_revinclude=DocumentReference:author", None, {}, OK),
    ("revinclude-star", "GET", "Practitioner?_revinclude=*", None, {}, OK),
    ("revinclude-iterate-star", "GET", "Practitioner?_revinclude:iterate=*&_include:iterate=*", None, {}, OK),
    ("revinclude-med-patients", "GET",
     "Practitioner?_id=dr-okafor&_revinclude=MedicationRequest:requester&_include:iterate=MedicationRequest:subject",
     None, {}, OK),
    ("include-back-around", "GET",
     "MedicationRequest?_include=MedicationRequest:requester&_revinclude:iterate=MedicationRequest:requester",
     None, {}, OK),
    ("include-star-iterate", "GET", "Encounter?_include=*&_revinclude:iterate=*", None, {}, OK),
    ("patient-revinclude-star", "GET", "Patient?_revinclude=*", None, {}, OK),
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
    ("page-widened", "GET", "?_getpages=<PAGE_A>&_getpagesoffset=0&_count=500", None, {}, OK),
    ("page-practitioner-widened", "GET", "?_getpages=<PAGE_PRACT>&_getpagesoffset=0&_count=50", None, {}, OK),
    # batch and transaction entries
    ("batch-read", "POST", "", _bundle("batch", _get("Patient/<B>")), {}, NO),
    ("batch-search-other", "POST", "", _bundle("batch", _get("Observation?patient=<B>")), {}, NO),
    ("batch-revinclude", "POST", "", _bundle("batch", _get("Practitioner?_revinclude=MedicationRequest:requester")),
     {}, OK),
    ("batch-revinclude-star", "POST", "", _bundle("batch", _get("Practitioner?_revinclude=*&_include:iterate=*")),
     {}, OK),
    ("batch-own-search", "POST", "", _bundle("batch", _get("MedicationRequest"), _get("Observation?_count=2")), {}, OK),
    ("batch-id-not", "POST", "", _bundle("batch", _get("Patient?_id:not=<A>")), {}, NO),
    ("batch-has", "POST", "", _bundle("batch", _get("Practitioner?_has:MedicationRequest:requester:patient=<B>")),
     {}, NO),
    ("batch-traversal", "POST", "", _bundle("batch", _get("Practitioner/x/../../Patient/<B>")), {}, BAD),
    ("batch-encoded-traversal", "POST", "", _bundle("batch", _get("Practitioner/x/%2E%2E/%2E%2E/Patient/<B>")),
     {}, BAD),
    ("batch-absolute", "POST", "", _bundle("batch", _get("http://127.0.0.1:8080/fhir/Patient/<B>")), {}, BAD),
    ("batch-everything", "POST", "", _bundle("batch", _get("Patient/<B>/$everything")), {}, NO),
    ("batch-compartment", "POST", "", _bundle("batch", _get("Patient/<B>/MedicationRequest")), {}, NO),
    ("batch-page", "POST", "", _bundle("batch", _get("?_getpages=<PAGE_B>")), {}, NO),
    ("batch-graphql", "POST", "", _bundle("batch", _get("$graphql?query={PatientList{id}}")), {}, NO),
    ("batch-nested", "POST", "", _bundle("batch", ("POST", "", _bundle("batch", _get("Patient/<B>")), {})), {}, NO),
    ("txn-delete", "POST", "", _bundle("transaction", ("DELETE", "MedicationRequest/<V_MR>", None, {})), {}, NO),
    ("txn-conditional-delete", "POST", "",
     _bundle("transaction", ("DELETE", "MedicationRequest?patient=<V>", None, {})), {}, NO),
    ("txn-create-other", "POST", "", _bundle("transaction", ("POST", "MedicationRequest", _med("<V>"), {})), {}, NO),
    ("txn-move", "POST", "",
     _bundle("transaction", ("PUT", "MedicationRequest/<V_MR>", _med("<A>", "<V_MR>"), {})), {}, NO),
    ("txn-conditional-update", "POST", "",
     _bundle("transaction", ("PUT", "MedicationRequest?patient=<V>", _med("<A>"), {})), {}, NO),
    ("txn-if-none-exist-other", "POST", "",
     _bundle("transaction", ("POST", "MedicationRequest", _med("<A>"), {"ifNoneExist": "patient=<B>"})), {}, NO),
    ("txn-if-none-exist-id", "POST", "",
     _bundle("transaction", ("POST", "MedicationRequest", _med("<A>"), {"ifNoneExist": "_id=<B_MR>"})), {}, MISMATCH),
    ("txn-traversal", "POST", "",
     _bundle("transaction", ("POST", "Practitioner/x/../../Observation", _obs("<A>"), {})), {}, BAD),
    # conditional headers and conditional update/delete
    ("ine-patient", "POST", "MedicationRequest", _med("<A>"), {"If-None-Exist": "patient=<B>"}, NO),
    ("ine-subject", "POST", "MedicationRequest", _med("<A>"), {"If-None-Exist": "subject=Patient/<B>"}, NO),
    ("ine-id", "POST", "MedicationRequest", _med("<A>"),
     {"If-None-Exist": "_id=<B_MR>", "Prefer": "return=representation"}, MISMATCH),
    ("ine-status", "POST", "MedicationRequest", _med("<A>"),
     {"If-None-Exist": "status=active", "Prefer": "return=representation"}, OK),
    ("ine-chain", "POST", "MedicationRequest", _med("<A>"), {"If-None-Exist": "subject.name=Wilson"}, NO),
    ("ine-has", "POST", "MedicationRequest", _med("<A>"),
     {"If-None-Exist": "_has:Provenance:target:agent=dr-okafor"}, NO),
    ("ine-missing", "POST", "MedicationRequest", _med("<A>"), {"If-None-Exist": "patient:missing=false"}, NO),
    ("ine-id-not", "POST", "MedicationRequest", _med("<A>"), {"If-None-Exist": "_id:not=<A_MR>"}, NO),
    ("ine-allergy", "POST", "AllergyIntolerance",
     {"resourceType": "AllergyIntolerance", "patient": {"reference": "Patient/<A>"}, "code": {"text": "probe"}},
     {"If-None-Exist": "patient=<B>"}, NO),
    ("conditional-update", "PUT", "MedicationRequest?patient=<V>", _med("<A>"), {}, NO),
    ("conditional-update-id", "PUT", "MedicationRequest?_id=<V_MR>", _med("<A>"), {}, NO),
    ("conditional-delete", "DELETE", "MedicationRequest?patient=<V>", None, {}, NO),
    ("conditional-delete-id", "DELETE", "MedicationRequest?_id=<V_MR>", None, {}, NO),
    ("conditional-patch", "PATCH", "MedicationRequest?patient=<V>",
     [{"op": "replace", "path": "/status", "value": "stopped"}], {"Content-Type": "application/json-patch+json"}, NO),
    ("if-match-move", "PUT", "MedicationRequest/<V_MR>", _med("<A>", "<V_MR>"), {"If-Match": 'W/"1"'}, NO),
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
    ("above-base", "GET", "/fhir/../fhir/Patient/<B>", None, {}, BAD),
    ("dots-search", "GET", "Practitioner/x/../../Observation?patient=<B>", None, {}, BAD),
    ("dots-everything", "GET", "Practitioner/dr-okafor/../../Patient/<B>/$everything", None, {}, BAD),
    ("dots-create", "POST", "Practitioner/x/../../Observation", _obs("<A>"), {}, BAD),
    ("dots-create-encoded", "POST", "Practitioner/x/%2E%2E/%2E%2E/Observation", _obs("<A>"), {}, BAD),
    ("dots-delete", "DELETE", "Practitioner/x/../../MedicationRequest/<V_MR>", None, {}, BAD),
    ("dots-delete-slash", "DELETE", "Practitioner/x/..%2F..%2FMedicationRequest/<V_MR>", None, {}, BAD),
    ("dots-update", "PUT", "Practitioner/x/../../MedicationRequest/<V_MR>", _med("<A>", "<V_MR>"), {}, BAD),
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
    assert _ids(res.json(), "Encounter") == {a["enc"]}
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
    proposal = {**_med(a["patient"]), "identifier": [{"system": "urn:docgemma:proposal", "value": uuid.uuid4().hex}]}
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
