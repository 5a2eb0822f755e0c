"""The labelled data sets of ``data/`` as FHIR resources (shared by the identity tests and the CDS run).

Both sets were written independently of the rules, before they were tuned; ``orders.yaml``
marks its held-out part, which was never used to change the rules."""
from __future__ import annotations

from pathlib import Path

import yaml

DATA = Path(__file__).with_name("data")
RXNORM = "http://www.nlm.nih.gov/research/umls/rxnorm"
LOINC = "http://loinc.org"
SCT = "http://snomed.info/sct"


def clinical() -> dict[str, list[dict]]:
    return yaml.safe_load((DATA / "clinical.yaml").read_text())


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
    if spec.get("contained"):
        body["contained"] = [{"resourceType": "Medication", "id": "med", "code": concept(spec)}]
        body["medicationReference"] = {"reference": "#med"}
    else:
        body["medicationCodeableConcept"] = concept(spec)
    return body


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


def prefetch(case: dict, patient: str) -> dict:
    """The chart a case describes, as the order-sign prefetch an EHR sends."""
    meds = [medication_request({"text": t}, f"m{i}", patient, "active") for i, t in enumerate(case.get("medications",
                                                                                                       []))]
    allergies = [allergy_resource(a, f"a{i}", patient) for i, a in enumerate(case.get("allergies", []))]
    conditions = [{"resourceType": "Condition", "id": "preg", "subject": {"reference": f"Patient/{patient}"},
                   "clinicalStatus": {"coding": [{"system": "http://terminology.hl7.org/CodeSystem/condition-clinical",
                                                  "code": "active"}]},
                   "code": {"text": "Pregnancy", "coding": [{"system": SCT,
                                                             "code": "77386006"}]}}] if case.get("pregnant") else []
    labs = [{"resourceType": "Observation", "id": "egfr", "status": "final", "effectiveDateTime": "2026-11-01",
             "code": {"coding": [{"system": LOINC, "code": "33914-3"}]},
             "valueQuantity": {"value": case["egfr"], "unit": "mL/min/{1.73_m2}"}}] if case.get("egfr") else []
    return {"patient": {"resourceType": "Patient", "id": patient}, "medications": _bundle(meds),
            "allergies": _bundle(allergies), "conditions": _bundle(conditions), "hba1c": _bundle([]),
            "pregnancy": _bundle([]), "labs": _bundle(labs)}


def _bundle(resources: list[dict]) -> dict:
    return {"resourceType": "Bundle", "type": "searchset", "entry": [{"resource": r} for r in resources]}
