"""The labelled data sets of ``data/`` as FHIR resources (shared by the identity tests and the CDS run).

Both sets were written independently of the rules, before they were tuned; ``orders.yaml``
marks its held-out part, which was never used to change the rules."""
from __future__ import annotations

from datetime import date
from pathlib import Path

import requests
import yaml

DATA = Path(__file__).with_name("data")
RXNORM = "http://www.nlm.nih.gov/research/umls/rxnorm"
LOINC = "http://loinc.org"
SCT = "http://snomed.info/sct"


def clinical() -> dict[str, list[dict]]:
    return yaml.safe_load((DATA / "clinical.yaml").read_text())


def holdout() -> dict[str, list[dict]]:
    return yaml.safe_load((DATA / "clinical_holdout.yaml").read_text())


def orders() -> dict[str, list[dict]]:
    return yaml.safe_load((DATA / "orders.yaml").read_text())


def all_cases() -> list[dict]:
    data = clinical()
    return data["positives"] + data["negatives"] + data["unidentifiable"]


def concept(spec: dict) -> dict:
    out = {}
    if spec.get("rxnorm"):
        out["coding"] = [{"system": RXNORM, "code": str(spec["rxnorm"])}]
    if spec.get("text"):
        out["text"] = spec["text"]
    return out


def medication_request(spec: dict, rid: str, patient: str, status: str = "draft") -> dict:
    """A MedicationRequest; ``contained: true`` puts the drug in a contained Medication."""
    body = {"resourceType": "MedicationRequest", "id": rid, "status": status, "intent": "order",
            "subject": {"reference": f"Patient/{patient}"}}
    if spec.get("dose") or spec.get("dosage"):
        body["dosageInstruction"] = [dosage(spec)]
    if spec.get("contained"):
        body["contained"] = [{"resourceType": "Medication", "id": "med", "code": concept(spec)}]
        body["medicationReference"] = {"reference": "#med"}
    else:
        body["medicationCodeableConcept"] = concept(spec)
    return body


def dosage(spec: dict) -> dict:
    """A case's dose as a FHIR Dosage: the text as written, or structured amount and timing."""
    if spec.get("dose"):
        return {"text": spec["dose"]}
    d = spec["dosage"]
    return {"timing": {"repeat": {"frequency": d["frequency"], "period": d["period"], "periodUnit": d["periodUnit"]}},
            "doseAndRate": [{"doseQuantity": {"value": d["value"], "unit": d["unit"]}}]}


def order(case: dict, patient: str) -> dict:
    """The case's draft MedicationRequest (its dose, when the case gives one)."""
    return medication_request({**case["order"], **{k: case[k] for k in ("dose", "dosage") if k in case}},
                              "draft-1", patient)


def allergy_resource(spec: dict, rid: str, patient: str) -> dict:
    body = {"resourceType": "AllergyIntolerance", "id": rid, "patient": {"reference": f"Patient/{patient}"},
            "code": {"text": spec["text"]}, "category": ["medication"],
            "clinicalStatus": {"coding": [{"system": "http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical",
                                           "code": "active"}]}}
    if spec.get("criticality"):
        body["criticality"] = spec["criticality"]
    if spec.get("reaction"):
        body["reaction"] = [{"manifestation": [{"text": spec["reaction"]}]}]
    return body


def chart(case: dict, patient: str) -> dict[str, list[dict]]:
    """The chart a case describes, by prefetch key."""
    meds = [medication_request({"text": t}, f"{patient}-m{i}", patient, "active")
            for i, t in enumerate(case.get("medications", []))]
    allergies = [allergy_resource(a, f"{patient}-a{i}", patient) for i, a in enumerate(case.get("allergies", []))]
    conditions = [{"resourceType": "Condition", "id": f"{patient}-preg", "subject": {"reference": f"Patient/{patient}"},
                   "clinicalStatus": {"coding": [{"system": "http://terminology.hl7.org/CodeSystem/condition-clinical",
                                                  "code": "active"}]},
                   "code": {"text": "Pregnancy", "coding": [{"system": SCT, "code": "77386006"}]}}
                  ] if case.get("pregnant") else []
    labs = [_lab(f"{patient}-{key}", code, case[key], unit) for key, code, unit in
            (("egfr", "33914-3", "mL/min/{1.73_m2}"), ("crcl", "35591-7", "mL/min")) if case.get(key)]
    person = {"resourceType": "Patient", "id": patient}
    if case.get("age"):
        person["birthDate"] = f"{date.today().year - case['age'] - 1}-12-31"
    return {"patient": [person], "medications": meds, "allergies": allergies, "conditions": conditions,
            "hba1c": [], "pregnancy": [], "labs": labs}


def _lab(rid: str, loinc: str, value: float, unit: str) -> dict:
    return {"resourceType": "Observation", "id": rid, "status": "final", "effectiveDateTime": "2026-11-01",
            "subject": {"reference": f"Patient/{rid.rsplit('-', 1)[0]}"},
            "code": {"coding": [{"system": LOINC, "code": loinc}]},
            "valueQuantity": {"value": value, "unit": unit}}


def prefetch(case: dict, patient: str) -> dict:
    """The chart a case describes, as the order-sign prefetch an EHR sends."""
    data = chart(case, patient)
    return {"patient": data.pop("patient")[0], **{k: _bundle(v) for k, v in data.items()}}


def load_into_hapi(fhir_base: str, cases: list[dict]) -> None:
    """Every case's chart written to a real FHIR server (PUT: a rerun overwrites, never duplicates)."""
    entries = [{"resource": r, "request": {"method": "PUT", "url": f"{r['resourceType']}/{r['id']}"}}
               for case in cases for rs in chart(case, f"pt-{case['id']}").values() for r in rs]
    res = requests.post(fhir_base, json={"resourceType": "Bundle", "type": "transaction", "entry": entries},
                        headers={"Content-Type": "application/fhir+json"}, timeout=300)
    res.raise_for_status()


def _bundle(resources: list[dict]) -> dict:
    return {"resourceType": "Bundle", "type": "searchset", "entry": [{"resource": r} for r in resources]}
