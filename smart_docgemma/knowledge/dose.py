"""Dose and frequency of an order, and the daily limits of common drugs (``data/doses.yaml``).

``dose_of`` reads, in this order, FHIR ``dosageInstruction`` (``doseAndRate.doseQuantity``,
``timing.repeat`` frequency/period, ``timing.code``, ``text``), then free text ("1 g four times a
day", "2 tabs qid", "6 g/day", "15 mg once weekly"); a dose counted in tablets or capsules is
multiplied by the RxNorm strength of the product name ("acetaminophen 500 MG Oral Tablet").
Nothing is guessed: a dose whose amount or frequency cannot be read leaves that part ``None``
and no daily-limit check claims a result for it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..languages import frequency
from .finding import Finding, Source
from .tables import load

_UNIT_MG = {
    "mg": 1.0,
    "g": 1000.0,
    "gram": 1000.0,
    "grams": 1000.0,
    "mcg": 0.001,
    "ug": 0.001,
    "µg": 0.001,
    "microgram": 0.001,
    "micrograms": 0.001,
    "milligram": 1.0,
    "milligrams": 1.0,
}
_COUNT = {
    "tab",
    "tabs",
    "tablet",
    "tablets",
    "cap",
    "caps",
    "capsule",
    "capsules",
    "{tbl}",
    "{tablet}",
    "{capsule}",
    "tbl",
    "pill",
    "pills",
    # French, Portuguese, Spanish: comprimé(s), cp, comprimido(s), cápsula(s), gélule(s), tableta(s)
    "cp",
    "cps",
    "comp",
    "comprimé",
    "comprimés",
    "comprime",
    "comprimes",
    "comprimido",
    "comprimidos",
    "cápsula",
    "cápsulas",
    "capsula",
    "capsulas",
    "gélule",
    "gélules",
    "gelule",
    "gelules",
    "tableta",
    "tabletas",
}
_AMOUNT = re.compile(
    r"(\d+(?:[.,]\d+)?)\s*(mg|g|grams?|mcg|ug|µg|micrograms?|milligrams?|tabs?|tablets?|caps?|"
    r"capsules?|pills?|cps?|comp|comprim[ée]s?|comprimidos?|c[áa]psulas?|g[ée]lules?|tabletas?|"
    r"ml|millilitres?|milliliters?)\b(?!\s*/\s*kg)",
    re.I,
)
_PER_KG = re.compile(r"/\s*kg\b", re.I)  # weight-based: the amount is not known without the weight
_PER_PERIOD = re.compile(
    r"(\d+(?:[.,]\d+)?)\s*(mg|g|mcg)\s*(?:/|per|a|an|each)\s*(day|d|24 ?h|week|wk)\b", re.I
)
_TIMING_CODES = {
    "QD": 1,
    "BID": 2,
    "TID": 3,
    "QID": 4,
    "AM": 1,
    "PM": 1,
    "QOD": 0.5,
    "Q4H": 6,
    "Q6H": 4,
    "Q8H": 3,
    "Q12H": 2,
    "WK": 1 / 7,
    "QW": 1 / 7,
}
_PERIOD_DAYS = {"h": 1 / 24, "min": 1 / 1440, "d": 1, "wk": 7, "mo": 30, "a": 365}


@dataclass(frozen=True)
class Dose:
    """One order's dose: the amount per administration (mg) and administrations per day."""

    per_dose_mg: (
        float | None
    )  # None when the amount is not in mass units and no strength converts it
    per_day: float | None  # administrations a day (1/7 for weekly); None when not stated
    prn: bool = False
    text: str = ""  # what the order said, for the evidence line
    daily_total_mg: float | None = None  # stated directly ("6 g/day")
    units: float | None = None  # tablets/capsules a dose, when counted so
    strengths: tuple[
        tuple[str, float], ...
    ] = ()  # (ingredient words, mg a unit) of a combination product
    strength_only: bool = False  # no dose written: one unit of the product, frequency unknown

    @property
    def daily_mg(self) -> float | None:
        if self.daily_total_mg is not None:
            return self.daily_total_mg
        if self.per_dose_mg is None or self.per_day is None:
            return None
        return self.per_dose_mg * self.per_day

    def daily_mg_of(self, ingredient: str) -> float | None:
        """The daily amount of one ingredient: of a combination product (2 tablets of
        oxycodone 5 mg / acetaminophen 325 mg every 4 hours → 3,900 mg acetaminophen), else the
        dose's."""
        if not self.strengths:
            return self.daily_mg
        mg = next((m for words, m in self.strengths if ingredient in words), None)
        if mg is not None and self.units is not None and self.per_day is not None:
            return self.units * mg * self.per_day
        return None  # an amount in mg of a combination product says nothing of one ingredient

    @property
    def weekly_mg(self) -> float | None:
        return None if self.daily_mg is None else self.daily_mg * 7

    @property
    def weekly(self) -> bool:
        return self.per_day is not None and self.per_day < 0.5 and self.daily_total_mg is None

    def describe(self) -> str:
        daily = self.daily_mg
        if daily is None:
            return self.text or "dose not stated"
        amount = f"{_num(daily * 7)} mg a week" if self.weekly else f"{_num(daily)} mg a day"
        return f"{amount} ({self.text})" if self.text else amount


def _num(x: float) -> str:
    return f"{x:g}" if x < 100 else f"{round(x):d}"


def strengths(name: str) -> tuple[tuple[str, float], ...]:
    """Each ingredient's strength in a combination product name ("oxycodone hydrochloride 5 MG /
    acetaminophen 325 MG Oral Tablet" → (("oxycodone hydrochloride", 5), ("acetaminophen",
    325)))."""
    parts = [
        re.match(r"\s*(.*?)\s+(\d+(?:\.\d+)?)\s*(MG|MCG|G)\b", p, re.I)
        for p in (name or "").split(" / ")
    ]
    if len(parts) < 2 or not all(parts):
        return ()
    return tuple(
        (m.group(1).lower(), float(m.group(2)) * _UNIT_MG[m.group(3).lower()]) for m in parts if m
    )


def _units(value: float, unit: str) -> float | None:
    return value if unit.strip().lower() in _COUNT else None


def strength_mg(name: str) -> float | None:
    """The single-ingredient strength of an RxNorm product name ("… 500 MG Oral Tablet" → 500)."""
    found = re.findall(r"(\d+(?:\.\d+)?)\s*(MG|MCG|G)\b(?!\s*/\s*ML)", name or "", re.I)
    if len(found) != 1:
        return None  # combination products and solutions are not converted
    value, unit = found[0]
    return float(value) * _UNIT_MG[unit.lower()]


def dose_of(order: dict[str, Any] | None = None, text: str = "", product: str = "") -> Dose | None:
    """The dose of a MedicationRequest (its ``dosageInstruction``) or of a free-text order.

    ``product``: the drug's name, whose RxNorm strength converts "2 tablets" to mg."""
    instruction = ((order or {}).get("dosageInstruction") or [None])[0]
    if not isinstance(instruction, dict):
        return from_text(text, product) if text else None
    per_dose, per_day = _fhir_amount(instruction, product), _fhir_frequency(instruction)
    units = _fhir_units(instruction)
    words = instruction.get("text") or text
    parsed = from_text(words, product) if words else None
    if parsed:
        per_dose = per_dose if per_dose is not None else parsed.per_dose_mg
        per_day = per_day if per_day is not None else parsed.per_day
        units = units if units is not None else parsed.units
    prn = bool(
        instruction.get("asNeededBoolean") or instruction.get("asNeededCodeableConcept")
    ) or bool(parsed and parsed.prn)
    if per_dose is None and per_day is None and not (parsed and parsed.daily_total_mg):
        return None
    return Dose(
        per_dose,
        per_day,
        prn,
        words or "",
        parsed.daily_total_mg if parsed else None,
        units,
        strengths(product),
    )


def product_dose(product: str) -> Dose | None:
    """An order that writes no dose: one unit of its product ("simvastatin 80 MG Oral Tablet" →
    80 mg a dose, frequency unknown), for the checks whose limit one unit already passes."""
    strength = strength_mg(product)
    if strength is None:
        return None
    return Dose(strength, None, text=f"{product}, dose not written: one unit", strength_only=True)


def _fhir_units(instruction: dict[str, Any]) -> float | None:
    for dr in instruction.get("doseAndRate") or []:
        q = (dr or {}).get("doseQuantity") or {}
        if isinstance(q.get("value"), (int, float)):
            return _units(float(q["value"]), str(q.get("code") or q.get("unit") or ""))
    return None


def _fhir_amount(instruction: dict[str, Any], product: str) -> float | None:
    for dr in instruction.get("doseAndRate") or []:
        q = (dr or {}).get("doseQuantity") or {}
        if isinstance(q.get("value"), (int, float)):
            return _to_mg(float(q["value"]), str(q.get("code") or q.get("unit") or ""), product)
    return None


def _fhir_frequency(instruction: dict[str, Any]) -> float | None:
    timing = instruction.get("timing") or {}
    rep = timing.get("repeat") or {}
    if isinstance(rep.get("frequency"), (int, float)) and rep.get("periodUnit") in _PERIOD_DAYS:
        days = float(rep.get("period") or 1) * _PERIOD_DAYS[rep["periodUnit"]]
        return float(rep.get("frequencyMax") or rep["frequency"]) / days if days else None
    for coding in (timing.get("code") or {}).get("coding") or []:
        if str(coding.get("code", "")).upper() in _TIMING_CODES:
            return _TIMING_CODES[str(coding["code"]).upper()]
    return None


_CONCENTRATION = re.compile(
    r"(\d+(?:\.\d+)?)\s*(MG|MCG|G)\s*(?:/|per)\s*(\d+(?:\.\d+)?)?\s*ML\b", re.I
)


def mg_per_ml(product: str) -> float | None:
    """The concentration of a single-ingredient liquid ("acetaminophen 160 MG/5ML Oral Suspension"
    → 32 mg/mL); None for a solid, a combination or no stated concentration."""
    found = _CONCENTRATION.findall(product or "")
    if len(found) != 1 or len(re.findall(r"\d\s*(?:MG|MCG|G)\b", product, re.I)) != 1:
        return None
    value, unit, volume = found[0]
    return float(value) * _UNIT_MG[unit.lower()] / float(volume or 1)


def _to_mg(value: float, unit: str, product: str) -> float | None:
    unit = unit.strip().lower()
    if unit in ("ml", "millilitre", "millilitres", "milliliter", "milliliters"):
        conc = mg_per_ml(product)
        return round(value * conc, 2) if conc else None
    if unit in _UNIT_MG:
        return value * _UNIT_MG[unit]
    if unit in _COUNT or unit in ("", "1"):
        strength = strength_mg(product)
        return value * strength if strength else None
    return None


def from_text(text: str, product: str = "") -> Dose | None:
    """A dose written in words: "1 g qid", "two 500 mg tablets twice a day", "15 mg weekly"."""
    t = (text or "").replace(",", ".")
    total = _PER_PERIOD.search(t)
    daily_total = None
    if total:
        mg = float(total.group(1)) * _UNIT_MG[total.group(2).lower()]
        daily_total = mg / 7 if total.group(3).lower() in ("week", "wk") else mg
    amount = _AMOUNT.search(t)
    per_dose = _to_mg(float(amount.group(1)), amount.group(2), product) if amount else None
    units = _units(float(amount.group(1)), amount.group(2)) if amount else None
    if amount is None and daily_total is None and not _PER_KG.search(t):
        per_dose = strength_mg(product)  # "1 twice a day": one unit of the product
    per_day = _frequency(t)
    prn = bool(re.search(r"\b(?:prn|as needed|if needed|when required)\b", t, re.I))
    if per_dose is None and per_day is None and daily_total is None:
        return None
    return Dose(per_dose, per_day, prn, " ".join(t.split()), daily_total, units, strengths(product))


def _frequency(text: str) -> float | None:
    """Administrations a day, from the package's one frequency table
    (``languages/frequencies/``)."""
    return frequency.per_day(text)


# --- limits -------------------------------------------------------------------------


def limit_findings(
    drug: str, dose: Dose | None, age: int | None = None, others: dict[str, Dose] | None = None
) -> list[Finding]:
    """Daily maxima, methotrexate weekly-vs-daily and similar dose rules of ``data/doses.yaml``.

    ``others``: the patient's other orders (generic name → dose); an ingredient they also contain
    counts toward the same daily maximum (acetaminophen alone and in a combination product)."""
    if dose is None:
        return []
    out = []
    for ingredient in drug.split("/"):
        also = {
            name: d
            for name, d in (others or {}).items()
            if name != drug and ingredient in name.split("/") and d.daily_mg_of(ingredient)
        }
        for rule in load("doses.yaml")["limits"].get(ingredient, []):
            found = _apply(ingredient, rule, dose, age, also)
            if found:
                out.append(found)
                break  # the first (most severe) rule that applies
    return out


def _apply(
    drug: str, rule: dict[str, Any], dose: Dose, age: int | None, also: dict[str, Dose]
) -> Finding | None:
    if rule.get("min_age") and (age is None or age < rule["min_age"]):
        return None
    evidence = [f"Ordered: {dose.describe()}"]
    if rule["kind"] == "daily_frequency":  # e.g. oral methotrexate ordered daily
        if dose.per_day is None or dose.per_day < rule["at_least_per_day"]:
            return None
        value = "once a day" if dose.per_day == 1 else f"{dose.per_day:g} times a day"
    else:
        daily = dose.daily_mg_of(drug)
        if daily is None:
            return None
        daily += sum(d.daily_mg_of(drug) or 0.0 for d in also.values())
        evidence += [f"Also ordered: {name}, {d.describe()}" for name, d in also.items()]
        amount = daily * 7 if rule["kind"] == "weekly_max" else daily
        if amount <= rule["max_mg"]:
            return None
        value = f"{amount:g} mg a {'week' if rule['kind'] == 'weekly_max' else 'day'}"
        value += " in all" if also else ""
    summary = rule["summary"].format(drug=drug, value=value)
    return Finding(
        "dose",
        rule["severity"],
        (drug,),
        summary,
        rule["effect"],
        rule["management"],
        (Source(rule["source"], rule.get("url", "")),),
        evidence=tuple(evidence),
        key=f"dose:{drug}:{rule['kind']}",
    )


def aspirin_band(dose: Dose | None) -> str:
    """ "antiplatelet" (50-375 mg a day), "analgesic" (≥ 500 mg a dose, < 3 g a day),
    "anti-inflammatory" (≥ 1 g a dose or ≥ 3 g a day) — the ANSM thesaurus' aspirin bands;
    "" when the dose is not known."""
    if dose is None or dose.strength_only:
        return ""
    daily, each = dose.daily_mg, dose.per_dose_mg
    if (each is not None and each >= 1000) or (daily is not None and daily >= 3000):
        return "anti-inflammatory"
    if (each is not None and each >= 500) or (daily is not None and daily > 375):
        return "analgesic"
    if (daily or each or 0) > 0:
        return "antiplatelet"
    return ""
