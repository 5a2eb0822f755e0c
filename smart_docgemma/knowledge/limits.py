"""Patient limits: kidney function (latest eGFR or CrCl with its date) and age (≥ 65).

Renal rules are ``data/flags.yaml`` → ``renal`` (bands checked from the lowest threshold up;
a band may name the daily maximum for that band, ``max_mg``: an order already at or under it
raises no warning, only an information line that the kidney dose was checked, with the band).
Age rules are ``data/age.yaml`` (AGS Beers Criteria 2023 style, warnings).
Nothing is claimed without a value: no kidney result, no renal finding; no age, no age finding.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from typing import Any

from . import classes
from .dose import Dose, aspirin_band
from .finding import Finding, Source
from .tables import load


@dataclass(frozen=True)
class Renal:
    """The latest kidney function result the chart has."""

    value: float
    measure: str = "eGFR"  # eGFR (mL/min/1.73 m²) | CrCl (mL/min)
    when: date | None = None

    def describe(self) -> str:
        on = f" on {self.when.isoformat()}" if self.when else " (date unknown)"
        return f"{self.measure} {self.value:g}{on}"


@lru_cache(maxsize=8192)
def _entry(kind: str, ingredient: str) -> Any:
    """The rule of ``kind`` ("renal" | "age") for an ingredient, by name or by class."""
    table = load("flags.yaml")["renal"] if kind == "renal" else load("age.yaml")["drugs"]
    if ingredient in table:
        return table[ingredient]
    return next(
        (v for k, v in table.items() if k.startswith("class:") and classes.matches(ingredient, k)),
        None,
    )


def renal_findings(drug: str, renal: Renal | None, dose: Dose | None = None) -> list[Finding]:
    """What the latest kidney result says about ``drug`` (generic name, "a/b" for combinations)."""
    if renal is None:
        return []
    out = []
    for ing in drug.split("/"):
        if ing == "aspirin" and aspirin_band(dose) == "antiplatelet":
            continue  # low-dose aspirin is not the NSAID dose the kidney rule is about
        band = next((r for r in _entry("renal", ing) or [] if renal.value < r["below"]), None)
        if band is None:
            continue
        if _within(band, dose):  # the kidney check ran: said, with the band, never a warning
            out.append(_within_band(ing, renal, band, dose))
            continue
        verb = "Avoid" if band["severity"] == "critical" else "Review"
        # the label's dose for this band is said with the finding, not left to the source
        said = f"; label dose: {band['band']}" if band.get("band") else ""
        out.append(
            Finding(
                "renal",
                band["severity"],
                (ing,),
                f"{verb} {ing} — {renal.describe()}: {band['risk']}{said}",
                f"{renal.measure} below {band['below']}: {band['risk']}.",
                _capital(band["management"]) + ".",
                (Source(band["source"]),),
                evidence=(renal.describe(),) + _dose_line(dose),
                key=f"renal:{ing}:{band['below']}",
                band=str(band.get("band", "")),
                risk=str(band["risk"]),
            )
        )
    return out


def _within(band: dict[str, Any], dose: Dose | None) -> bool:
    """An order already at or under the band's daily maximum needs nothing more."""
    return (
        "max_mg" in band
        and dose is not None
        and dose.daily_mg is not None
        and dose.daily_mg <= band["max_mg"]
    )


def _within_band(ing: str, renal: Renal, band: dict[str, Any], dose: Dose | None) -> Finding:
    """An order at or under the band's daily maximum: an information line that the kidney dose
    was checked, with the label's band (its divided doses) beside the day's total."""
    daily = f"{dose.daily_mg:g} mg a day" if dose and dose.daily_mg is not None else "the dose"
    label = band.get("band") or band["management"]
    return Finding(
        "renal", "info", (ing,),
        f"Kidney dose of {ing} checked — {renal.describe()}: {daily} is within the label's "
        f"band ({label})",
        f"{renal.measure} below {band['below']}: {band['risk']}.",
        f"Within the label's band: {label}.", (Source(band["source"]),),
        evidence=(renal.describe(),) + _dose_line(dose), key=f"renal-within:{ing}:{band['below']}",
        band=str(band.get("band", "")), risk=str(band["risk"]),
    )


def _dose_line(dose: Dose | None) -> tuple[str, ...]:
    return (f"Ordered: {dose.describe()}",) if dose and dose.daily_mg is not None else ()


def age_list_minimum() -> int:
    """The age from which ``data/age.yaml`` applies (65)."""
    return int(load("age.yaml")["min_age"])


def age_list_source() -> str:
    """The age list's source, as cited on its findings (AGS Beers Criteria 2023)."""
    return str(load("age.yaml")["source"]).split(" (")[0]


def age_findings(drug: str, age: int | None) -> list[Finding]:
    """Beers-style warnings for a patient of ``age`` years (none under the list's minimum age)."""
    table = load("age.yaml")
    if age is None or age < table["min_age"]:
        return []
    out = []
    for ing in drug.split("/"):
        entry = _entry("age", ing)
        if entry is None or age < entry.get("min_age", table["min_age"]):
            continue
        out.append(
            Finding(
                "age",
                "warning",
                (ing,),
                f"Review {ing} at age {age} — {entry['concern']}",
                f"In adults {table['min_age']} and older: {entry['concern']}.",
                _capital(entry["recommendation"]) + ".",
                (Source(table["source"], table["url"]),),
                evidence=(f"Age {age}",),
                key=f"age:{ing}",
            )
        )
    return out


def child_findings(drug: str, age_days: int | None) -> list[Finding]:
    """Children's age contraindications and cautions (``disease.yaml`` → ``children``) for a
    patient ``age_days`` old (aspirin under 16, codeine and tramadol under 12, tetracyclines
    under 8, ceftriaxone in neonates …); nothing without an age."""
    if age_days is None:
        return []
    table = load("disease.yaml")["children"]
    out = []
    for rule in table["rules"]:
        limit_days = rule["below_days"] if "below_days" in rule else rule["below_years"] * 365.25
        under = (
            f"under {rule['below_days']} days"
            if "below_days" in rule
            else f"under {rule['below_years']}"
        )
        for ing in drug.split("/"):
            if age_days < limit_days and any(classes.matches(ing, k) for k in rule["drugs"]):
                src = table["sources"][rule["source"]]
                verb = (
                    f"Do not give {ing} to" if rule["severity"] == "critical" else f"Avoid {ing} in"
                )
                old = (
                    f"{age_days} days old"
                    if age_days < 730
                    else f"{int(age_days // 365.25)} years old"
                )
                out.append(
                    Finding(
                        "child",
                        rule["severity"],
                        (ing,),
                        f"{verb} a child {under} ({old}) — {rule['concern']}",
                        f"In children {under}: {rule['concern']}.",
                        _capital(rule["recommendation"]) + ".",
                        (Source(src["label"], src["url"]),),
                        evidence=(f"Age: {old}",),
                        key=f"child:{ing}",
                    )
                )
    return out


def age_on(birth_date: str | None, today: date) -> int | None:
    """Whole years from a FHIR birthDate ("1948", "1948-03", "1948-03-14") to ``today``."""
    if not birth_date or not birth_date[:4].isdigit():
        return None
    parts = [int(p) for p in birth_date.split("-")[:3] if p.isdigit()]
    year, month, day = (parts + [1, 1])[:3]
    return today.year - year - ((today.month, today.day) < (month, day))


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text
