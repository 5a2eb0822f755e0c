"""Helpers of the patient-isolation suite (``test_isolation.py``): the throwaway patients,
raw HTTP that sends a path byte for byte, and the detector of other patients' data."""
from __future__ import annotations

import http.client
import json
import re
import uuid
from urllib.parse import parse_qs, urlsplit

import requests
from smart_docgemma.config import DEFAULTS

from tests.launch.conftest import SmartClient

APP_SCOPE = DEFAULTS["SCOPES"]  # what the app asks the EHR for
B, B_MR, B_ENC = "pt-t2dm", "pt-t2dm-med1", "pt-t2dm-enc1"
FHIR_JSON = {"Content-Type": "application/fhir+json", "Accept": "application/fhir+json"}
_PATIENT_REF = re.compile(r"(?:^|/)Patient/([A-Za-z0-9\-.]+)(?:/_history/[^/]+)?$")


# -- the world: throwaway patients A (the launch patient) and V (the write victim) -----------
def put(fhir_base: str, resource: dict) -> None:
    res = requests.put(f"{fhir_base}/{resource['resourceType']}/{resource['id']}", json=resource,
                       headers=FHIR_JSON, timeout=30)
    assert res.status_code in (200, 201), res.text


def chart(fhir_base: str, pid: str) -> dict[str, str]:
    """A patient with a medication, an encounter, a note (all by dr-okafor) and three vitals."""
    ref, doctor = {"reference": f"Patient/{pid}"}, {"reference": "Practitioner/dr-okafor"}
    made = {"patient": pid, "mr": f"{pid}-mr", "enc": f"{pid}-enc", "doc": f"{pid}-doc"}
    put(fhir_base, {"resourceType": "Patient", "id": pid, "name": [{"family": "Isolation", "given": [pid]}]})
    put(fhir_base, {"resourceType": "MedicationRequest", "id": made["mr"], "status": "active", "intent": "order",
                     "medicationCodeableConcept": {"text": "test drug"}, "subject": ref, "requester": doctor})
    put(fhir_base, {"resourceType": "Encounter", "id": made["enc"], "status": "finished",
                     "class": {"code": "AMB"}, "subject": ref, "participant": [{"individual": doctor}]})
    put(fhir_base, {"resourceType": "DocumentReference", "id": made["doc"], "status": "current",
                     "subject": ref, "author": [doctor],
                     "content": [{"attachment": {"contentType": "text/plain", "data": "bm90ZQ=="}}]})
    for n in range(3):
        put(fhir_base, {"resourceType": "Observation", "id": f"{pid}-obs{n}", "status": "final",
                         "category": [{"coding": [{"system": "http://terminology.hl7.org/CodeSystem/"
                                                   "observation-category", "code": "vital-signs"}]}],
                         "code": {"text": "pulse"}, "subject": ref, "effectiveDateTime": f"2026-01-0{n + 1}",
                         "valueQuantity": {"value": 60 + n}})
    return made


def build_world(sandbox, fhir_base: str) -> dict:
    """Throwaway patients A (launched, with the app's scopes) and V (the write victim), the
    tokens, and the placeholders (``<A>``, ``<B_MR>``, ``<PAGE_A>`` …) cases are written with."""
    suffix = uuid.uuid4().hex[:8]
    a, v = chart(fhir_base, f"iso-a-{suffix}"), chart(fhir_base, f"iso-v-{suffix}")
    token = SmartClient(sandbox).ehr_token(a["patient"], scope=APP_SCOPE)["access_token"]
    b_token = SmartClient(sandbox).ehr_token(B, scope=APP_SCOPE)["access_token"]
    names = {"<A>": a["patient"], "<A_MR>": a["mr"], "<V>": v["patient"], "<V_MR>": v["mr"],
             "<B>": B, "<B_MR>": B_MR, "<B_ENC>": B_ENC}
    world = {"a": a, "v": v, "token": token, "sandbox": sandbox, "fhir_base": fhir_base, "names": names}
    names["<PAGE_A>"] = page_id(world, token, "Observation?_count=1")
    names["<PAGE_B>"] = page_id(world, b_token, "Observation?_count=1")
    names["<PAGE_PRACT>"] = page_id(world, token, "Practitioner?_count=1&_revinclude=MedicationRequest:requester")
    return world


def page_id(world: dict, token: str, target: str) -> str:
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
    text = body if isinstance(body, str) or body is None else json.dumps(body)  # str: sent as is
    data = fill(world, text).encode() if text is not None else None
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



def ids(body: dict, rtype: str) -> set[str]:
    return {e["resource"]["id"] for e in body.get("entry") or [] if e["resource"]["resourceType"] == rtype}


def count(world: dict, rtype: str, patient: str) -> int:
    res = requests.get(f"{world['fhir_base']}/{rtype}", params={"patient": patient, "_summary": "count"},
                       headers={"Cache-Control": "no-cache"}, timeout=30)
    return res.json()["total"]


# -- request builders ----------------------------------------------------------------------------
def med(patient: str, rid: str | None = None) -> dict:
    med = {"resourceType": "MedicationRequest", "status": "active", "intent": "proposal",
           "medicationCodeableConcept": {"text": "isolation probe"}, "subject": {"reference": f"Patient/{patient}"},
           "requester": {"reference": "Practitioner/dr-okafor"}}
    return {**med, "id": rid} if rid else med


def obs(patient: str) -> dict:
    return {"resourceType": "Observation", "status": "final", "code": {"text": "probe"},
            "subject": {"reference": f"Patient/{patient}"}}


def bundle(kind: str, *entries) -> dict:
    return {"resourceType": "Bundle", "type": kind, "entry": [
        {"request": {"method": method, "url": url, **extra}, **({"resource": resource} if resource else {})}
        for method, url, resource, extra in entries]}


def get_entry(url: str):
    return ("GET", url, None, {})
