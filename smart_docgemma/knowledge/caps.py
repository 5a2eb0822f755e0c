"""Dose caps of interacting drugs (``data/dose_caps.yaml``): the most a day of one drug a label
allows beside another (simvastatin at most 20 mg with amiodarone, colchicine 0.3 mg with
clarithromycin, aspirin at most 100 mg with ticagrelor).

``adjust(first, second, finding, doses)`` grades a pair by the dose: the capped drug's daily
amount (the order's, or an active order's) above the cap makes the pair critical and the card
says the dose allowed, with the label and its section; at or below the cap the pair keeps the
level its interaction sources give (a label's own regimen becomes a note); a dose not stated
says the cap and that the dose could not be compared.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from . import classes
from .dose import Dose
from .finding import LEVEL_SEVERITY, Finding, Source
from .tables import load


@dataclass(frozen=True)
class Cap:
    drug: str  # the capped ingredient
    other: str  # the ingredient that brings the cap
    max_mg_day: float
    label: str
    section: str
    regimen: bool  # the label's own combination: within the cap it is a note only

    @property
    def source(self) -> Source:
        url = load("dose_caps.yaml")["source"]["url"] + "search.cfm?query=" + self.drug
        return Source(f"{self.label}, section {self.section}", url)


def cap_of(capped: str, other: str) -> Cap | None:
    """The label cap of ``capped`` while the patient takes ``other`` (ingredients)."""
    for row in load("dose_caps.yaml")["caps"]:
        if row["drug"] == capped and any(classes.matches(other, w) for w in row["with"]):
            return Cap(
                capped,
                other,
                float(row["max_mg_day"]),
                row["label"],
                row["section"],
                bool(row.get("regimen")),
            )
    return None


def caps_between(first: str, second: str) -> list[Cap]:
    """Every cap between two drugs ("a/b" for combinations), either way round."""
    out = []
    for x, y in ((first, second), (second, first)):
        for a in x.split("/"):
            for b in y.split("/"):
                if (cap := cap_of(a, b)) is not None:
                    out.append(cap)
    return out


def amount(cap: Cap, doses: dict[str, Dose]) -> tuple[float | None, str]:
    """The capped drug's daily amount in mg and how it was read (None when not stated)."""
    dose = next((d for name, d in doses.items() if cap.drug in name.split("/")), None)
    if dose is None:
        return None, "dose not stated"
    daily = dose.daily_mg_of(cap.drug)
    if daily is not None:
        return daily, dose.describe()
    if dose.per_dose_mg is not None and not dose.strengths:
        said = f"{_num(dose.per_dose_mg)} mg a dose, at least once a day"
        return dose.per_dose_mg, f"{said} ({dose.text})" if dose.text else said
    return None, dose.describe()


def adjust(
    first: str, second: str, found: Finding | None, doses: dict[str, Dose]
) -> Finding | None:
    """The pair's finding graded by the capped drug's dose (``found`` unchanged without a cap)."""
    caps = caps_between(first, second)
    if not caps:
        return found
    cap = caps[0]
    mg, read = amount(cap, doses)
    allowed = f"at most {_num(cap.max_mg_day)} mg of {cap.drug} a day with {cap.other}"
    evidence = (f"Ordered: {cap.drug} {read}", f"Label cap: {allowed} ({cap.label})")
    if mg is not None and mg > cap.max_mg_day * 1.001:
        return _over(first, second, found, cap, mg, allowed, evidence)
    # within the cap the label allows the pair: a warning (a note for the label's own regimen),
    # whatever a source that does not grade by dose says; no dose stated keeps the sources' level
    # (a contraindication from a reviewed source stands)
    within = "take into account" if cap.regimen else "precaution"
    if found and found.level == "contraindicated":
        within = found.level
    level = within if mg is not None else (found.level if found else "precaution")
    said = "within" if mg is not None else "not compared with"
    summary = (
        f"{'Note' if level == 'take into account' else 'Monitor closely if giving'} {first} with "
        f"{second} — {allowed}"
    )
    management = (
        f"Keep {cap.drug} to {allowed}; the dose ordered is {said} the cap "
        f"({cap.label}, section {cap.section})."
    )
    base = found or _blank(first, second)
    return replace(
        base,
        severity=LEVEL_SEVERITY[level],
        level=level,
        cap_mg=cap.max_mg_day,
        over_cap=False if mg is not None else None,
        summary=summary[:139],
        management=f"{management} {base.management}".strip(),
        sources=(cap.source, *base.sources),
        evidence=(*base.evidence, *evidence),
    )


def _over(
    first: str,
    second: str,
    found: Finding | None,
    cap: Cap,
    mg: float,
    allowed: str,
    evidence: tuple[str, ...],
) -> Finding:
    base = found or _blank(first, second)
    summary = (
        f"Do not give {cap.drug} {_num(mg)} mg a day with {cap.other} — label cap "
        f"{_num(cap.max_mg_day)} mg a day"
    )
    management = (
        f"Over the label cap: give {allowed} ({cap.label}, section {cap.section}), or "
        f"choose a drug without this interaction."
    )
    effect = base.effect or f"{cap.other.capitalize()} raises {cap.drug} exposure."
    return replace(
        base,
        severity="critical",
        level="avoid",
        cap_mg=cap.max_mg_day,
        over_cap=True,
        summary=summary[:139],
        effect=effect,
        management=f"{management} {base.management}".strip(),
        sources=(cap.source, *base.sources),
        evidence=(*base.evidence, *evidence),
    )


def _blank(first: str, second: str) -> Finding:
    return Finding(
        "interaction",
        "warning",
        (first, second),
        "",
        "",
        "",
        (),
        level="precaution",
        key="pair:" + "+".join(sorted((first, second))),
    )


def _num(x: float) -> str:
    return f"{x:g}"
