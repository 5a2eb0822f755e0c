"""Drug–disease contraindications and children's weight-based doses (``data/disease.yaml``).

Pure functions over data: the caller says which conditions the patient has (text and codes of
each active problem) and which ingredients a drug holds; nothing here reads a chart.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import classes
from .tables import load
from .weight_dose import limits, row_source


@dataclass(frozen=True)
class DiseaseFlag:
    drug: str  # the ingredient
    condition: str  # the patient's problem as written in the chart
    severity: str  # critical | warning
    risk: str
    management: str
    source: str
    url: str


@dataclass(frozen=True)
class Problem:
    """One active problem of the patient: its text and its codes."""

    text: str
    codes: frozenset[str] = frozenset()


def _table() -> dict[str, Any]:
    table: dict[str, Any] = load("disease.yaml")
    return table


def _member(ingredient: str, key: str) -> bool:
    named = classes.named(ingredient)
    if named:  # a class asked ("would a steroid be a problem?"): the rules of its members apply
        return any(_member(m, key) for m in classes.members(named) if not classes.named(m))
    if key.startswith("group:"):
        return any(_member(ingredient, k) for k in _table()["groups"][key[6:]])
    if key.startswith("class:"):
        return classes.matches(ingredient, key)
    return ingredient == key


def _has(problem: Problem, condition: str) -> bool:
    """A coded problem matches by its SNOMED CT code (the condition's concept or a descendant the
    table lists); only a problem recorded as text with no code is read by its words."""
    entry = _table()["conditions"][condition]
    if problem.codes:
        return bool(set(entry["snomed"]) & problem.codes)
    text = problem.text.lower()
    return any(w in text for w in entry["words"])


def has_condition(problems: list[Problem], condition: str) -> Problem | None:
    """The first active problem that is ``condition`` (a key of the table's ``conditions``)."""
    return next((p for p in problems if _has(p, condition)), None)


def uncovered(problems: list[Problem]) -> list[Problem]:
    """The active problems no drug–disease rule is written for (no condition of the table is
    them): a check finding nothing says these were not covered rather than "nothing found"."""
    ruled = {rule["condition"] for rule in _table()["rules"]}
    stages = set(_table()["ckd_stages"])
    return [p for p in problems if not p.codes & stages and not any(_has(p, c) for c in ruled)]


def ckd_stage(problems: list[Problem]) -> tuple[Problem, float] | None:
    """A chronic kidney disease stage 4-5 on the problem list, with the eGFR its stage means (the
    band's upper bound), for judging a drug when no eGFR is on file; the most severe stage first."""
    stages = _table()["ckd_stages"]
    found = [(p, float(stages[c])) for p in problems for c in p.codes if c in stages]
    return min(found, key=lambda pv: pv[1]) if found else None


def said_kidney(states: frozenset[str]) -> tuple[str, float] | None:
    """The kidney state the clinician said (dialysis before kidney failure) as its words and the
    eGFR it means; None when neither was said."""
    table = _table()["said_kidney"]
    found = [(str(row["said"]), float(row["egfr"])) for s, row in table.items() if s in states]
    return min(found, key=lambda sv: sv[1]) if found else None


def disease_flags(ingredients: list[str], problems: list[Problem]) -> list[DiseaseFlag]:
    """What the patient's active problems say about a drug of these ingredients, worst first."""
    out = []
    for rule in _table()["rules"]:
        drug = next(
            (
                i
                for i in ingredients
                if i not in rule.get("except", []) and any(_member(i, k) for k in rule["drugs"])
            ),
            None,
        )
        problem = next((p for p in problems if _has(p, rule["condition"])), None) if drug else None
        if drug and problem:
            src = _table()["sources"][rule["source"]]
            out.append(
                DiseaseFlag(
                    drug,
                    problem.text,
                    rule["severity"],
                    rule["risk"],
                    rule["management"],
                    src["label"],
                    src["url"],
                )
            )
    return sorted(out, key=lambda f: f.severity != "critical")


@dataclass(frozen=True)
class DoseLimit:
    drug: str
    mg_per_kg: float
    max_mg: float
    source: str
    url: str

    def for_weight(self, kg: float) -> float:
        return min(self.mg_per_kg * kg, self.max_mg)


def paediatric_limit(ingredient: str, doses_per_day: float | None = None) -> DoseLimit | None:
    """The per-dose limit of a drug for a child, when the table has one (a regimen of
    ``doses_per_day`` with a limit of its own takes it)."""
    entry = limits(ingredient, doses_per_day)
    if not entry:
        return None
    src = row_source(entry)
    return DoseLimit(ingredient, entry["mg_per_kg"], entry["max_mg"], src["label"], src["url"])


def adult_age() -> int:
    return int(_table()["paediatric_doses"]["adult_from_years"])


@dataclass(frozen=True)
class LabRule:
    """A result above ``above`` contraindicates the drug (the caller reads the result)."""

    drug: str
    test: str
    loinc: tuple[str, ...]
    above: float
    severity: str
    risk: str
    management: str
    source: str
    url: str


def lab_rules(ingredients: list[str]) -> list[LabRule]:
    """The result thresholds that contraindicate a drug of these ingredients."""
    out = []
    for rule in _table().get("lab_rules") or []:
        drug = next((i for i in ingredients if any(_member(i, k) for k in rule["drugs"])), None)
        if drug:
            src = _table()["sources"][rule["source"]]
            out.append(
                LabRule(
                    drug,
                    rule["test"],
                    tuple(rule["loinc"]),
                    float(rule["above"]),
                    rule["severity"],
                    rule["risk"],
                    rule["management"],
                    src["label"],
                    src["url"],
                )
            )
    return out
