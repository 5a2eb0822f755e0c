"""The drug-class labelled cases (``data/drugclass.yaml``) as the FHIR an EHR sends: the draft
order and the order-sign prefetch (Patient with its birth date and gender, active orders coded
or as text, problems with their SNOMED CT codes, eGFR, the dated body weight)."""
from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

import yaml

from .cases import LOINC, RXNORM, SCT, medication_request

DATA = Path(__file__).with_name("data")
RANK = {"critical": 0, "warning": 1, "info": 2}


def load() -> dict[str, list[dict]]:
    return yaml.safe_load((DATA / "drugclass.yaml").read_text())


def order_cases(split: str) -> list[dict]:
    return [c for c in load()["cases"] if c["split"] == split]


def chat_cases(split: str) -> list[dict]:
    return [c for c in load()["chat"] if c["split"] == split]


def _med(spec, rid: str, patient: str) -> dict:
    spec = {"text": spec} if isinstance(spec, str) else spec
    body = medication_request({"text": spec["text"]}, rid, patient, "active")
    if spec.get("rxnorm"):
        body["medicationCodeableConcept"]["coding"] = [
            {"system": RXNORM, "code": str(spec["rxnorm"]), "display": spec["text"]}]
    return body


def birth_date(case: dict, today: date | None = None) -> str:
    today = today or date.today()
    if case.get("age_days") is not None:
        return (today - timedelta(days=case["age_days"])).isoformat()
    return f"{today.year - case['age'] - 1}-12-31" if case.get("age") is not None else ""


def chart(case: dict, patient: str) -> dict[str, list[dict]]:
    """The case's chart by prefetch key."""
    person = {"resourceType": "Patient", "id": patient, "gender": case.get("gender", "unknown")}
    if birth_date(case):
        person["birthDate"] = birth_date(case)
    conditions = [
        {"resourceType": "Condition", "id": f"{patient}-c{i}", "subject": {"reference": f"Patient/{patient}"},
         "clinicalStatus": {"coding": [{"system": "http://terminology.hl7.org/CodeSystem/condition-clinical",
                                        "code": "active"}]},
         "code": {"coding": [{"system": SCT, "code": str(c["snomed"]), "display": c["text"]}], "text": c["text"]}}
        for i, c in enumerate(case.get("conditions", []))]
    if case.get("pregnant"):
        conditions.append({"resourceType": "Condition", "id": f"{patient}-preg",
                           "subject": {"reference": f"Patient/{patient}"},
                           "clinicalStatus": {"coding": [{"code": "active"}]},
                           "code": {"coding": [{"system": SCT, "code": "72892002", "display": "Normal pregnancy"}],
                                    "text": "Normal pregnancy"}})
    labs = [_obs(f"{patient}-egfr", "33914-3", case["egfr"], "mL/min/{1.73_m2}", patient)] if case.get("egfr") else []
    weight = [_obs(f"{patient}-wt", "29463-7", case["weight"], "kg", patient)] if case.get("weight") else []
    return {"patient": [person],
            "medications": [_med(m, f"{patient}-m{i}", patient) for i, m in enumerate(case.get("medications", []))],
            "allergies": [], "conditions": conditions, "pregnancy": [], "labs": labs, "weight": weight}


def _obs(rid: str, loinc: str, value: float, unit: str, patient: str) -> dict:
    return {"resourceType": "Observation", "id": rid, "status": "final", "effectiveDateTime": "2026-11-01",
            "subject": {"reference": f"Patient/{patient}"}, "code": {"coding": [{"system": LOINC, "code": loinc}]},
            "valueQuantity": {"value": value, "unit": unit}}


def prefetch(case: dict, patient: str) -> dict:
    data = chart(case, patient)
    return {"patient": data.pop("patient")[0],
            **{k: {"resourceType": "Bundle", "type": "searchset", "entry": [{"resource": r} for r in v]}
               for k, v in data.items()}}


def draft(case: dict, patient: str) -> dict:
    spec = dict(case["order"])
    if case.get("dose"):
        spec["dose"] = case["dose"]
    return medication_request(spec, "draft-1", patient)


def judge(case: dict, cards: list[dict]) -> str:
    """"hit" when a card at the expected level (or above) names every ``about`` word; for a
    negative, "hit" when no card is a warning or critical; otherwise "miss" or "false alarm"."""
    acted = [c for c in cards if c["indicator"] in ("critical", "warning")]
    if case["expect"] == "none":
        return "false alarm" if acted else "hit"
    said = [c for c in cards if RANK[c["indicator"]] <= RANK[case["expect"]]]
    words = [w.lower() for w in case.get("about", [])]
    good = any(all(w in (c["summary"] + " " + c.get("detail", "")).lower() for w in words) for c in said)
    return "hit" if good else "miss"
