"""Deterministic checks behind the CDS cards (no model, no network).

patient-view: active medications with boxed warnings, critical interactions
among active medications, allergy–medication conflicts, overdue monitoring
(HbA1c older than a year in a patient with diabetes), plus the SMART link
card that opens the assistant.

order-select / order-sign: each draft MedicationRequest (for order-select only
the ``selections``) against the active medications (interactions), the
allergies (with class cross-reactivity), boxed warnings and pregnancy.
Parsing is lenient (draft orders without ``intent``, Bundles without ``type``)
because real CDS clients are.
"""
from __future__ import annotations

from datetime import date, datetime
from functools import lru_cache
from pathlib import Path

import yaml

from ..tools import druginfo
from .cards import Finding, card, smart_link_card
from .context import HookData

REQUIRED = {
    "patient-view": {"medications", "allergies"},
    "order-select": {"medications", "allergies", "conditions"},
    "order-sign": {"medications", "allergies", "conditions"},
}
DAILYMED = "https://dailymed.nlm.nih.gov/dailymed/search.cfm?labeltype=all&query="


@lru_cache(maxsize=1)
def knowledge() -> dict:
    return yaml.safe_load(Path(__file__).with_name("knowledge.yaml").read_text())


def cards_for(hook: str, body: dict, data: HookData, launch_url: str) -> list[dict]:
    """The cards for one hook call, most severe first."""
    if hook == "patient-view":
        findings = patient_view(data)
    else:
        findings = order_checks(_drafts(body, hook == "order-select"), data)
    order = {"critical": 0, "warning": 1, "info": 2}
    out = [card(f) for f in sorted(findings, key=lambda f: order[f.indicator])]
    if hook == "patient-view":
        out.append(smart_link_card(launch_url, _patient_name(data.get("patient"))))
    return out


def patient_view(data: HookData) -> list[Finding]:
    meds = [(med_name(r), r) for r in data.get("medications")]
    names = [n for n, _ in meds if n]
    findings = [_boxed(n) for n in names if _boxed(n)]
    findings += _interactions(names, names)
    findings += _allergy(data.get("allergies"), names)
    findings += _overdue_hba1c(data)
    return findings


def order_checks(drafts: list[dict], data: HookData) -> list[Finding]:
    active = [n for n in (med_name(r) for r in data.get("medications")) if n]
    pregnant = is_pregnant(data)
    findings: list[Finding] = []
    for draft in drafts:
        name = med_name(draft)
        if not name:
            continue
        ref = f"MedicationRequest/{draft.get('id')}" if draft.get("id") else None
        found = _interactions([name], active) + _allergy(data.get("allergies"), [name])
        boxed = _boxed(name)
        found += [boxed] if boxed else []
        if pregnant and _generic(name) in knowledge()["teratogens"]:
            found.append(Finding("critical", f"{name.capitalize()} is contraindicated or high-risk in pregnancy; this patient is pregnant",
                                 "Fetal toxicity risk documented in the FDA label. Consider an alternative.",
                                 "FDA drug label (pregnancy)", DAILYMED + _generic(name), topic="pregnancy"))
        for f in found:
            f.draft_ref = ref
        findings += found
    return findings


def _interactions(drafts: list[str], active: list[str]) -> list[Finding]:
    out, seen = [], set()
    for hit in druginfo.critical_pairs(sorted(set(drafts) | set(active))):
        pair = frozenset((hit.drug_a.lower(), hit.drug_b.lower()))
        if pair in seen or not _involves(pair, drafts):
            continue
        seen.add(pair)
        indicator = "critical" if hit.severity in ("critical", "contraindicated", "major") else "warning"
        out.append(Finding(indicator, f"Interaction: {hit.drug_a} + {hit.drug_b} — {hit.summary}",
                           f"**Mechanism:** {hit.mechanism}\n\n**Management:** {hit.management}",
                           hit.source, hit.source_url, topic="drug-interaction"))
    return out


def _involves(pair: frozenset, drafts: list[str]) -> bool:
    lowered = {d.lower() for d in drafts}
    return bool(pair & lowered) or any(_generic(d) in pair for d in drafts)


def _allergy(allergies: list[dict], names: list[str]) -> list[Finding]:
    substances = [s for s in (allergy_substance(a) for a in allergies) if s]
    out = []
    for hit in druginfo.allergy_conflicts(substances, names):
        out.append(Finding(hit.severity, f"Allergy conflict: {hit.drug} — documented {hit.allergy} allergy ({hit.reason})",
                           hit.detail, hit.source, hit.source_url, topic="allergy"))
    return out


def _boxed(name: str) -> Finding | None:
    text = knowledge()["boxed_warnings"].get(_generic(name))
    if not text:
        return None
    return Finding("warning", f"Boxed warning: {name} — {text}", f"FDA boxed warning: {text}",
                   "FDA boxed warning (label summary)", DAILYMED + _generic(name), topic="boxed-warning")


def _overdue_hba1c(data: HookData) -> list[Finding]:
    rule = knowledge()["monitoring"]["hba1c"]
    if not any(_matches_condition(c, rule["applies_to_snomed"], rule["applies_to_text"])
               for c in data.get("conditions")):
        return []
    if "hba1c" in data.missing:
        return []  # could not check; never claim overdue without data
    latest = max((_when(o) for o in data.get("hba1c") if _when(o)), default=None)
    if latest and (date.today() - latest).days <= rule["max_age_days"]:
        return []
    when = f"last result {latest.isoformat()}" if latest else "no result on file"
    return [Finding("warning", f"HbA1c monitoring overdue for this patient with diabetes ({when})",
                    "ADA Standards of Care: HbA1c at least twice a year when at goal, quarterly otherwise.",
                    "ADA Standards of Care: glycemic targets", "https://diabetesjournals.org/care",
                    topic="monitoring")]


def is_pregnant(data: HookData) -> bool:
    rule = knowledge()["pregnancy"]
    if any(_matches_condition(c, rule["snomed"], ["pregnan"]) for c in data.get("conditions")):
        return True
    for obs in data.get("pregnancy"):
        codes = {c.get("code") for c in (obs.get("valueCodeableConcept") or {}).get("coding", [])}
        if codes & set(rule["positive_codes"]):
            return True
    return False


def med_name(resource: dict) -> str | None:
    """A medication's name from a MedicationRequest (text, display, or contained)."""
    concept = resource.get("medicationCodeableConcept") or {}
    for coding in concept.get("coding") or []:
        if coding.get("display"):
            return _clean(concept.get("text") or coding["display"])
    return _clean(concept.get("text")) if concept.get("text") else None


def allergy_substance(resource: dict) -> str | None:
    code = resource.get("code") or {}
    status = ((resource.get("clinicalStatus") or {}).get("coding") or [{}])[0].get("code")
    if status in ("inactive", "resolved"):
        return None
    display = next((c.get("display") for c in code.get("coding") or [] if c.get("display")), None)
    return code.get("text") or display


def _drafts(body: dict, only_selected: bool) -> list[dict]:
    bundle = (body.get("context") or {}).get("draftOrders") or {}
    entries = bundle.get("entry") if isinstance(bundle, dict) else None
    resources = [e.get("resource") for e in entries or [] if isinstance(e, dict)]
    drafts = [r for r in resources if isinstance(r, dict) and r.get("resourceType") == "MedicationRequest"]
    if only_selected:
        selected = set((body.get("context") or {}).get("selections") or [])
        chosen = [d for d in drafts if f"MedicationRequest/{d.get('id')}" in selected]
        drafts = chosen or drafts  # sloppy selections: check every draft rather than none
    return drafts


def _matches_condition(resource: dict, codes: list[str], words: list[str]) -> bool:
    concept = resource.get("code") or {}
    if any(c.get("code") in codes for c in concept.get("coding") or []):
        return True
    text = " ".join([concept.get("text") or ""] + [c.get("display") or "" for c in concept.get("coding") or []]).lower()
    return any(w in text for w in words)


def _when(obs: dict) -> date | None:
    raw = obs.get("effectiveDateTime") or (obs.get("effectivePeriod") or {}).get("start") or obs.get("issued")
    try:
        return datetime.fromisoformat(raw.replace("Z", "+00:00")).date() if raw else None
    except ValueError:
        return None


def _patient_name(patients: list[dict]) -> str | None:
    for p in patients:
        for n in p.get("name") or []:
            text = n.get("text") or " ".join((n.get("given") or []) + [n.get("family") or ""]).strip()
            if text:
                return text
    return None


def _generic(name: str) -> str:
    return druginfo.generic_name(name)


def _clean(text: str | None) -> str | None:
    return " ".join(text.split()) if text else None
