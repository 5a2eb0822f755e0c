"""A launch context for tests that exercise tools and proposals directly.

The app gets the same shape from ``smart_docgemma.session.launches.current_launch()``:
``sid``, ``patient_id``, ``user`` (fhirUser reference), ``scopes`` and ``fhir``.
Here ``fhir`` is a ``FhirGateway`` straight to HAPI (no token: HAPI has no
auth; the sandbox proxy's enforcement is tested under tests/launch).
"""
from __future__ import annotations

import uuid
from dataclasses import dataclass

import requests
from smart_docgemma.fhir import FhirGateway
from smart_docgemma.smart.scopes import GrantedScopes
from smart_docgemma.tools.base import ToolContext

PATIENT_SCOPES = ("patient/Patient.rs patient/Condition.rs patient/Observation.rs patient/MedicationRequest.crs "
                  "patient/AllergyIntolerance.crs patient/DocumentReference.crs patient/Encounter.rs "
                  "patient/Immunization.rs "
                  "patient/Provenance.cs")
USER_SCOPES = PATIENT_SCOPES.replace("patient/", "user/")


@dataclass
class Launch:
    sid: str
    patient_id: str | None
    user: str
    scopes: GrantedScopes
    fhir: FhirGateway


def launch(fhir_base: str, patient_id: str | None, scopes: str = PATIENT_SCOPES,
           sid: str | None = None, user: str = "Practitioner/dr-okafor") -> Launch:
    return Launch(sid or uuid.uuid4().hex, patient_id, user, GrantedScopes.parse(scopes), FhirGateway(fhir_base, None))


def tool_context(lc: Launch, proposals=None) -> ToolContext:
    return ToolContext(patient_id=lc.patient_id, scopes=lc.scopes, fhir=lc.fhir, proposals=proposals,
                       sid=lc.sid, user=lc.user)


def new_patient(fhir_base: str, family: str = "Testwrite") -> str:
    """A fresh Patient on HAPI, so write tests never touch the scenario patients."""
    body = {"resourceType": "Patient", "name": [{"family": family, "given": [uuid.uuid4().hex[:8]]}],
            "birthDate": "1980-01-01", "gender": "unknown"}
    res = requests.post(f"{fhir_base}/Patient", json=body, timeout=30,
                        headers={"Content-Type": "application/fhir+json"})
    res.raise_for_status()
    return res.json()["id"]


def count(fhir_base: str, rtype: str, **params) -> int:
    """How many resources match, bypassing HAPI's 60 s search cache."""
    res = requests.get(f"{fhir_base}/{rtype}", params={**params, "_summary": "count"}, timeout=30,
                       headers={"Cache-Control": "no-cache", "Accept": "application/fhir+json"})
    res.raise_for_status()
    return res.json()["total"]


def clone_patient(fhir_base: str, source: str) -> str:
    """A new Patient with a copy of ``source``'s chart (problems, medications, allergies,
    observations), so a test that approves a write never changes a scenario patient."""
    headers = {"Accept": "application/fhir+json", "Cache-Control": "no-cache"}
    patient = requests.get(f"{fhir_base}/Patient/{source}", headers=headers, timeout=30).json()
    suffix = uuid.uuid4().hex[:8]
    new_id = f"{source}-copy-{suffix}"
    # Another family name and no identifiers: searches for the scenario patient stay unambiguous.
    given = next(iter(patient.get("name") or []), {}).get("given", [])
    name = [{"use": "official", "given": given, "family": f"Testcopy{suffix}"}]
    entries = [_put({**_bare(patient), "id": new_id, "identifier": [], "name": name})]
    for rtype in ("Condition", "MedicationRequest", "AllergyIntolerance", "Observation"):
        bundle = requests.get(f"{fhir_base}/{rtype}", params={"patient": source, "_count": 200},
                              headers=headers, timeout=30).json()
        for entry in bundle.get("entry") or []:
            res = _bare(entry["resource"])
            res["id"] = f"{new_id}-{len(entries)}"
            res["subject" if "subject" in res else "patient"] = {"reference": f"Patient/{new_id}"}
            entries.append(_put(res))
    res = requests.post(fhir_base, json={"resourceType": "Bundle", "type": "transaction", "entry": entries},
                        headers={"Content-Type": "application/fhir+json"}, timeout=60)
    res.raise_for_status()
    return new_id


def _bare(resource: dict) -> dict:
    return {k: v for k, v in resource.items() if k not in ("meta", "text")}


def _put(resource: dict) -> dict:
    return {"resource": resource, "request": {"method": "PUT", "url": f"{resource['resourceType']}/{resource['id']}"}}
