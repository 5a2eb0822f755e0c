"""What a hook's FHIR data says, read leniently (real CDS clients send drafts
without ``intent``, Bundles without ``type``, codings without displays):
medication names, allergy substance, reaction and criticality, the drafts a
hook is about, pregnancy and breastfeeding, the patient's name.
"""
from __future__ import annotations

import re

from ..knowledge import age_on as knowledge_age
from .context import HookData
from .monitoring import observed_on


def pregnancy_evidence(data: HookData, rule: dict) -> list[str]:
    """What in the chart says the patient is pregnant (empty when nothing does)."""
    out = [
        f"Condition: {text(c)}"
        for c in data.get("conditions")
        if matches_condition(c, rule["snomed"], ["pregnan"])
    ]
    for obs in data.get("pregnancy"):
        codes = {c.get("code") for c in (obs.get("valueCodeableConcept") or {}).get("coding", [])}
        if codes & set(rule["positive_codes"]) and rule["observation_loinc"] in coded_as(obs):
            out.append(f"Pregnancy status: pregnant on {observed_on(obs) or 'an unrecorded date'}")
    return out + (["Pregnancy: said by the clinician"] if "pregnant" in data.stated else [])


def lactation_evidence(data: HookData, rule: dict) -> list[str]:
    """What in the chart says the patient is breastfeeding."""
    said = ["Breastfeeding: said by the clinician"] if "breastfeeding" in data.stated else []
    return [f"Condition: {text(c)}" for c in data.get("conditions")
            if matches_condition(c, rule["snomed"], rule["words"])] + said


def med_name(resource: dict) -> str | None:
    """A medication's name from a MedicationRequest (text, display, or contained)."""
    concept = resource.get("medicationCodeableConcept") or {}
    for coding in concept.get("coding") or []:
        if coding.get("display"):
            return clean(concept.get("text") or coding["display"])
    return clean(concept.get("text")) if concept.get("text") else None


def contained_medication(resource: dict) -> dict | None:
    """The Medication a MedicationRequest references as ``#id`` among its contained resources."""
    ref = (resource.get("medicationReference") or {}).get("reference") or ""
    if not ref.startswith("#"):
        return None
    return next((c for c in resource.get("contained") or []
                 if c.get("resourceType") == "Medication" and c.get("id") == ref[1:]), None)


def allergy_substance(resource: dict) -> str | None:
    code = resource.get("code") or {}
    status = ((resource.get("clinicalStatus") or {}).get("coding") or [{}])[0].get("code")
    if status in ("inactive", "resolved"):
        return None
    display = next((c.get("display") for c in code.get("coding") or [] if c.get("display")), None)
    return code.get("text") or display


def reaction(resource: dict) -> str:
    """The recorded reactions: "anaphylaxis, severe"."""
    found = []
    for entry in resource.get("reaction") or []:
        for m in entry.get("manifestation") or []:
            found.append(
                text(m).lower() + (f", {entry['severity']}" if entry.get("severity") else "")
            )
    return "; ".join(dict.fromkeys(f for f in found if f)) or "reaction not recorded"


def allergy_evidence(resource: dict, substance: str | None, reacted: str, crit: str) -> str:
    verified = ((resource.get("verificationStatus") or {}).get("coding") or [{}])[0].get("code")
    recorded = resource.get("recordedDate") or resource.get("onsetDateTime")
    extra = "".join(
        [f", {verified}" if verified else "", f", recorded {recorded[:10]}" if recorded else ""]
    )
    return f"{substance} allergy: reaction {reacted}; criticality {crit}{extra}"


def drafts(body: dict, only_selected: bool) -> list[dict]:
    bundle = (body.get("context") or {}).get("draftOrders") or {}
    entries = bundle.get("entry") if isinstance(bundle, dict) else None
    resources = [e.get("resource") for e in entries or [] if isinstance(e, dict)]
    drafts = [
        r for r in resources if isinstance(r, dict) and r.get("resourceType") == "MedicationRequest"
    ]
    if only_selected:
        selected = set((body.get("context") or {}).get("selections") or [])
        chosen = [d for d in drafts if f"MedicationRequest/{d.get('id')}" in selected]
        drafts = chosen or drafts  # sloppy selections: check every draft rather than none
    return drafts


def named(resources: list[dict]) -> list[tuple[str, dict]]:
    return [(n, r) for n, r in ((med_name(r), r) for r in resources) if n]


_PAST = re.compile(r"\b(history of|past)\b")


def matches_condition(resource: dict, snomed: list[str], words: list[str]) -> bool:
    """An active condition coded as one of ``snomed`` or naming one of ``words``."""
    status = ((resource.get("clinicalStatus") or {}).get("coding") or [{}])[0].get("code")
    if status in ("inactive", "resolved", "remission"):
        return False
    if set(snomed) & coded_as(resource):
        return True
    name = text(resource.get("code") or {}).lower()
    if _PAST.search(name):
        return False  # "Past pregnancy history of miscarriage": a past event, not the state now
    # whole words from their start: "diabetes" is not "prediabetes"
    return any(re.search(rf"\b{re.escape(w)}", name) for w in words)


def coded_as(resource: dict) -> set[str]:
    return {c.get("code") for c in (resource.get("code") or {}).get("coding") or []}


def text(concept: dict) -> str:
    if "code" in concept and isinstance(concept["code"], dict):
        concept = concept["code"]
    display = next((c.get("display") for c in concept.get("coding") or [] if c.get("display")), "")
    return concept.get("text") or display or ""


def patient_name(patients: list[dict]) -> str | None:
    for p in patients:
        for n in p.get("name") or []:
            parts = [*(n.get("given") or []), n.get("family")]  # a list may hold nulls in sent JSON
            text = n.get("text") or " ".join(p for p in parts if isinstance(p, str)).strip()
            if text:
                return text
    return None






def age(patients: list[dict], today) -> int | None:
    """Whole years from the Patient's birthDate; None when it is not there."""
    born = next((p.get("birthDate") for p in patients if isinstance(p.get("birthDate"), str)), None)
    return knowledge_age(born, today)


def clean(value: str | None) -> str | None:
    return " ".join(value.split()) if value else None
