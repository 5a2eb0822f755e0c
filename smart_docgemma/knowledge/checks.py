"""The knowledge core's checks as typed ``Finding``s: what callers compose against a chart.

    interaction_findings(drugs, doses=None, focus=None) -> [Finding]   pairs (reconciled) + trios
    (order_findings and list_findings add therapeutic duplication: ``duplication``)
    order_findings(drug, dose=None, others=(), renal=None, age=None, doses=None) -> [Finding]
    list_findings(drugs, doses=None, renal=None, age=None) -> [Finding]   a whole medication list

Severity is the highest any source gives (ANSM, the ONC high-priority list, FDA boxed-warning
combinations, the class rules); every finding names the sources that agree, says in English
what to do, and keeps the ANSM French text as its ``quote``.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from . import caps, classes, ddi
from .dose import Dose, aspirin_band, limit_findings
from .duplication import duplication_findings, list_duplications
from .finding import LEVEL_SEVERITY, Finding, Source, by_severity
from .limits import Renal, age_findings, renal_findings
from .tables import load

VERB = {
    "contraindicated": "Do not give",
    "avoid": "Avoid",
    "precaution": "Monitor closely if giving",
    "take into account": "Note",
}
SUMMARY_MAX = 139


def interaction_findings(
    drugs: list[str],
    doses: dict[str, Dose] | None = None,
    focus: str | None = None,
    minimum: str = "precaution",
) -> list[Finding]:
    """Interactions among generic drug names ("a/b" for combinations), each pair of drugs once at
    its most severe level (at least ``minimum``), plus three-drug rules; with ``focus`` only those
    involving that drug. ``doses`` (by generic name) lets the aspirin levels follow the dose."""
    names = list(dict.fromkeys(d for d in drugs if d))
    keep = ddi.LEVELS[: ddi.LEVELS.index(minimum) + 1]
    conditions = _conditions(doses or {})
    pairs = [(focus, o) for o in names if o != focus] if focus else list(combinations(names, 2))
    graded = (caps.adjust(a, b, _pair_finding(a, b, conditions), doses or {}) for a, b in pairs)
    found = [f for f in graded if f and f.level in keep]
    return by_severity(found + trio_findings(names, focus))


@lru_cache(maxsize=8192)
def _pair_finding(first: str, second: str, conditions: frozenset[str]) -> Finding | None:
    """The most severe interaction between two drugs (each "a/b" for combinations), as a finding."""
    hits = ddi.between(first.split("/"), second.split("/"), conditions)
    return _from_interaction(hits[0], first, second) if hits else None


def _conditions(doses: dict[str, Dose]) -> frozenset[str]:
    """The ANSM dose conditions these orders meet (none when the aspirin dose is not known)."""
    band = aspirin_band(
        next((d for name, d in doses.items() if "aspirin" in name.split("/")), None)
    )
    return frozenset(
        {ddi.LOW_ASPIRIN} if band == "antiplatelet" else {ddi.HIGH_ASPIRIN} if band else ()
    )


def _from_interaction(hit: ddi.Interaction, first: str, second: str) -> Finding:
    severity = LEVEL_SEVERITY[hit.severity]
    summary = _fit(
        [
            f"{VERB[hit.severity]} {first} with {second} — {hit.summary}",
            f"{VERB[hit.severity]} {first} with {second}",
        ]
    )
    sources = tuple(Source(s, hit.url_of(s)) for s in hit.sources or (hit.source,))
    return Finding(
        "interaction",
        severity,
        (first, second),
        summary,
        hit.mechanism,
        hit.management,
        sources,
        level=hit.severity,
        quote=hit.quote,
        evidence=(hit.evidence,) if hit.evidence else (),
        key="pair:" + "+".join(sorted((first, second))),
    )


def trio_findings(drugs: list[str], focus: str | None = None) -> list[Finding]:
    """Three-drug rules ("triple whammy"): one drug of each class among ``drugs``."""
    out = []
    for rule in load("class_rules.yaml")["trios"]:
        found = [next((d for d in drugs if _is(d, cls)), None) for cls in rule["classes"]]
        members = [m for m in found if m]
        if len(set(members)) < len(found) or (focus and focus not in members):
            continue
        first = focus or members[-1]
        rest = [m for m in members if m != first]
        summary = _fit(
            [
                f"{VERB[rule['level']]} {first} with {' and '.join(rest)} — {rule['summary']}",
                f"{VERB[rule['level']]} {first} with {' and '.join(rest)}",
            ]
        )
        out.append(
            Finding(
                "combination",
                LEVEL_SEVERITY[rule["level"]],
                (first, *rest),
                summary,
                rule["mechanism"],
                rule["management"],
                (Source(rule["source"], ddi.url_for(rule["source"])),),
                level=rule["level"],
                key=f"trio:{rule['key']}",
            )
        )
    return out


@lru_cache(maxsize=8192)
def _is(drug: str, key: str) -> bool:
    return any(classes.matches(part, key) for part in drug.split("/"))


def order_findings(
    drug: str,
    dose: Dose | None = None,
    others: tuple[str, ...] | list[str] = (),
    renal: Renal | None = None,
    age: int | None = None,
    doses: dict[str, Dose] | None = None,
) -> list[Finding]:
    """Everything the knowledge says about ordering ``drug`` (a generic name) for a patient who
    takes ``others`` (generic names), with the order's ``dose``, the latest kidney result and
    age."""
    all_doses = {**(doses or {}), **({drug: dose} if dose else {})}
    # a drug about to be added is checked against her list down to the thesaurus' lowest grade
    # ("take into account": tramadol with an oral anticoagulant, bleeding), shown at that grade
    found = interaction_findings([drug, *[o for o in others if o != drug]], all_doses, focus=drug,
                                 minimum="take into account")
    found += duplication_findings(drug, list(others))
    found += limit_findings(drug, dose, age, doses)
    found += renal_findings(drug, renal, dose)
    found += age_findings(drug, age)
    return by_severity(found)


def list_findings(
    drugs: list[str],
    doses: dict[str, Dose] | None = None,
    renal: Renal | None = None,
    age: int | None = None,
) -> list[Finding]:
    """Everything the knowledge says about a whole medication list (a chart review): interactions
    among the drugs, three-drug rules, and each drug's dose, kidney and age limits."""
    doses = doses or {}
    names = list(dict.fromkeys(d for d in drugs if d))
    found = interaction_findings(names, doses) + list_duplications(names)
    for drug in names:
        found += limit_findings(drug, doses.get(drug), age, doses)
        found += renal_findings(drug, renal, doses.get(drug))
        found += age_findings(drug, age)
    return by_severity(found)


def _fit(candidates: list[str]) -> str:
    for text in candidates:
        if len(text) <= SUMMARY_MAX:
            return text
    return candidates[-1][:SUMMARY_MAX].rsplit(" ", 1)[0]
