"""A drug pair made worse by the chart's own results (``class_rules.yaml`` → ``lab_context``):
trimethoprim with a RAAS blocker or potassium-sparing diuretic, graded by the latest potassium
and eGFR (or the Cockcroft–Gault clearance) and the age, each value said with its date."""

from __future__ import annotations

from .. import knowledge
from ..knowledge.tables import load
from ..languages import N_, message
from . import chart_values, hookdata, patient_rules
from .context import HookData
from .findings import Finding, Source

EGFR = ["33914-3", "62238-1", "98979-8", "48642-3", "48643-1", "2164-2", "35591-7"]


def pair_lab_findings(
    data: HookData, drug: str, draft: dict, others: list[str], key: str
) -> list[Finding]:
    """The lab-context findings of ordering ``drug`` beside ``others`` (generic names)."""
    out = []
    for rule in load("class_rules.yaml").get("lab_context") or []:
        pair = _pair(rule, drug, others)
        if pair:
            out.append(_finding(rule, data, pair, draft, key))
    return out


def _pair(rule: dict, drug: str, others: list[str]) -> tuple[str, str] | None:
    """(the rule's drug, the other) when the order and one other drug make the rule's pair."""

    def hit(name: str, keys: list[str]) -> bool:
        return any(knowledge.matches(part, k) for part in name.split("/") for k in keys)

    for other in others:
        if hit(drug, rule["drugs"]) and hit(other, rule["with"]):
            return drug, other
        if hit(drug, rule["with"]) and hit(other, rule["drugs"]):
            return other, drug
    return None


def _values(data: HookData) -> tuple[float | None, float | None, list[str]]:
    k = chart_values.latest(data, chart_values.POTASSIUM)
    renal = chart_values.latest(data, EGFR)
    said = (
        [f"potassium {k.value:g} mmol/L on {k.when.isoformat()}"] if k else ["no potassium on file"]
    )
    egfr = renal.value if renal else None
    if renal:
        said.append(f"eGFR {renal.value:g} on {renal.when.isoformat()}")
    else:
        cg = chart_values.estimated_clearance(data, patient_rules.age_years(data))
        egfr = cg.ml_min if cg else None
        said.append(cg.describe() if cg else "no eGFR on file")
    return (k.value if k else None), egfr, said


def _finding(rule: dict, data: HookData, pair: tuple[str, str], draft: dict, key: str) -> Finding:
    first, other = pair
    k, egfr, said = _values(data)
    age = patient_rules.age_years(data)
    worse = (k is not None and k > rule["potassium_above"]) or (
        egfr is not None and egfr < rule["egfr_below"]
    )
    older = age is not None and age >= rule["older_from"]
    facts = ", ".join(s for s in said if not s.startswith("no ")) or "no potassium or eGFR on file"
    if older:
        facts += f", age {age}"
    severity = "critical" if worse else "warning"
    verb = "Avoid" if worse else "Monitor closely if giving"
    summaries = [
        f"{verb} {first} with {other} — {facts}: {rule['risk']}",
        f"{verb} {first} with {other} — {rule['risk']} ({facts})"[:139],
        f"{verb} {first} with {other} — {rule['risk']}",
    ]
    return Finding(
        key,
        severity,
        summaries,
        "drug-interaction",
        mechanism=f"Trimethoprim blocks renal potassium excretion; {other} raises potassium too. "
        "The risk grows with a high potassium, a low eGFR and age.",
        management=rule["management"],
        evidence=[s[0].upper() + s[1:] for s in said],
        sources=[
            Source(
                rule["source"], "https://agsjournals.onlinelibrary.wiley.com/doi/10.1111/jgs.18372"
            )
        ],
        draft=draft,
        fingerprint_of=(rule["key"], other, k, egfr),
        message=message(
            N_("Avoid %(drug)s with %(others)s")
            if worse
            else N_("Monitor closely if giving %(drug)s with %(others)s"),
            drug=first,
            others=other,
        ),
    )


def names(data: HookData, drafts: list[dict], draft: dict) -> list[str]:
    """The other drugs of this order: the active medications and the other drafts, as generics."""
    found = [n for n, _ in hookdata.named(data.get("medications"))]
    found += [n for d in drafts if d is not draft and (n := hookdata.med_name(d))]
    return [knowledge.generic(n) for n in found]
