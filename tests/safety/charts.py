"""Case charts as FHIR: each safety case's chart becomes a patient on the real HAPI server.

Ids carry a hash of the chart, so a changed case never reads an old chart's leftovers; loading
is idempotent (a transaction of PUTs).
"""

from __future__ import annotations

import hashlib
import json
from datetime import date, timedelta
from pathlib import Path

import requests
import yaml
from smart_docgemma import knowledge

HERE = Path(__file__).parent
SNOMED = {
    "asthma": "195967001",
    "copd": "13645005",
    "heart failure": "84114007",
    "chronic kidney disease stage 3": "433144002",
    "chronic kidney disease": "709044004",
    "peptic ulcer": "13200003",
    "hyperkalemia": "14140009",
    "myasthenia gravis": "91637004",
    "coronary artery disease": "53741008",
    "angina": "194828000",
    "parkinson's disease": "49049000",
    "liver cirrhosis": "19943007",
    "epilepsy": "84757009",
    "deep vein thrombosis": "128053003",
    "pulmonary embolism": "59282003",
    "hypertension": "38341003",
}
# problems left text-only on purpose: the check must read a problem's words too
LABS = {
    "egfr": ("33914-3", "eGFR", "mL/min/{1.73_m2}"),
    "potassium": ("2823-3", "Potassium", "mmol/L"),
    "creatinine": ("2160-0", "Creatinine", "mg/dL"),
    "inr": ("6301-6", "INR", "{INR}"),
}


def cases(split: str) -> list[dict]:
    name = "holdout.yaml" if split == "holdout" else "cases.yaml"
    return [{**c, "split": split} for c in yaml.safe_load((HERE / name).read_text())]


def patient_id(case: dict) -> str:
    digest = hashlib.sha256(json.dumps(case["chart"], sort_keys=True).encode()).hexdigest()[:8]
    return f"sf-{case['id']}-{digest}"


def load(fhir_base: str, case: dict) -> str:
    """PUT the case's chart on HAPI; returns the patient id."""
    pid = patient_id(case)
    resources = resources_for(pid, case["chart"])
    entries = [
        {"resource": r, "request": {"method": "PUT", "url": f"{r['resourceType']}/{r['id']}"}}
        for r in resources
    ]
    res = requests.post(
        fhir_base,
        json={"resourceType": "Bundle", "type": "transaction", "entry": entries},
        headers={"Content-Type": "application/fhir+json"},
        timeout=60,
    )
    res.raise_for_status()
    return pid


def resources_for(pid: str, chart: dict) -> list[dict]:
    ago = (date.today() - timedelta(days=10)).isoformat()
    birth = date.today().replace(year=date.today().year - chart["age"]) - timedelta(days=30)
    out = [
        {
            "resourceType": "Patient",
            "id": pid,
            "gender": chart["sex"],
            "birthDate": birth.isoformat(),
            "name": [{"family": "Safetycase", "given": [pid[3:11]]}],
        }
    ]
    problems = list(chart.get("problems") or [])
    problems += ["Pregnancy"] if chart.get("pregnant") else []
    problems += ["Breast-feeding"] if chart.get("breastfeeding") else []
    codes = {**SNOMED, "pregnancy": "77386006", "breast-feeding": "169750002"}
    for text in problems:
        code = codes.get(text.lower())
        out.append(
            {
                "resourceType": "Condition",
                "subject": _ref(pid),
                "clinicalStatus": _status("condition-clinical"),
                "code": {
                    "text": text,
                    **(
                        {
                            "coding": [
                                {"system": "http://snomed.info/sct", "code": code, "display": text}
                            ]
                        }
                        if code
                        else {}
                    ),
                },
            }
        )
    for name in chart.get("meds") or []:
        out.append(
            {
                "resourceType": "MedicationRequest",
                "status": "active",
                "intent": "order",
                "subject": _ref(pid),
                "medicationCodeableConcept": _drug(name),
                "authoredOn": ago,
            }
        )
    for allergy in chart.get("allergies") or []:
        out.append(
            {
                "resourceType": "AllergyIntolerance",
                "patient": _ref(pid),
                "clinicalStatus": _status("allergyintolerance-clinical"),
                "code": {"text": allergy["substance"]},
                "reaction": [{"manifestation": [{"text": allergy["reaction"]}]}],
                **({"criticality": allergy["criticality"]} if allergy.get("criticality") else {}),
            }
        )
    for key, value in (chart.get("labs") or {}).items():
        out.append(_observation(pid, *LABS[key], value, ago))
    if chart.get("weight"):
        out.append(_observation(pid, "29463-7", "Body weight", "kg", chart["weight"], ago))
    for i, resource in enumerate(out[1:], 1):
        resource["id"] = f"{pid}-{i}"
    return out


def draft_order(pid: str, drug: str, dose: str | None) -> dict:
    """A draft MedicationRequest as an EHR sends it to order-sign (coded; a dose when given)."""
    from smart_docgemma.tools.words.dosing import parse_dose

    draft = {
        "resourceType": "MedicationRequest",
        "id": "draft-1",
        "status": "draft",
        "intent": "order",
        "subject": _ref(pid),
        "medicationCodeableConcept": _drug(drug),
    }
    if dose:
        draft["dosageInstruction"] = [
            {"text": f"{dose} as directed", "doseAndRate": [{"doseQuantity": parse_dose(dose)}]}
        ]
    return draft


def _drug(name: str) -> dict:
    ident = knowledge.identify(text=name)
    if ident.identified and len(ident.ingredients) == 1 and ident.ingredients[0].rxcui:
        ing = ident.ingredients[0]
        return {
            "text": name,
            "coding": [
                {
                    "system": "http://www.nlm.nih.gov/research/umls/rxnorm",
                    "code": ing.rxcui,
                    "display": ing.name,
                }
            ],
        }
    return {"text": name}


def _observation(pid, loinc, text, unit, value, when) -> dict:
    return {
        "resourceType": "Observation",
        "status": "final",
        "subject": _ref(pid),
        "effectiveDateTime": when,
        "code": {
            "coding": [{"system": "http://loinc.org", "code": loinc, "display": text}],
            "text": text,
        },
        "valueQuantity": {
            "value": value,
            "unit": unit,
            "system": "http://unitsofmeasure.org",
            "code": unit,
        },
    }


def _ref(pid: str) -> dict:
    return {"reference": f"Patient/{pid}"}


def _status(system: str) -> dict:
    return {
        "coding": [{"system": f"http://terminology.hl7.org/CodeSystem/{system}", "code": "active"}]
    }
