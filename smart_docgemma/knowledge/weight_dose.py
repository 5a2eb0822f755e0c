"""Weight-based doses for children: the order as clinicians write it, worked out in mg from the
charted weight and checked against the paediatric table (``data/disease.yaml`` →
``paediatric_doses``: BNF for Children per-dose and per-day mg/kg, with absolute maxima).

    wd = read("90mg/kg/day divided bd")      # 90 mg/kg a DAY in 2 doses → 45 mg/kg a dose
    wd = read("15 mg/kg qds")                # 15 mg/kg a DOSE, 4 a day
    wd = read("40 mg/kg/day in 3 doses")
    worked = work_out(wd, Weight(20.1, date(2026, 11, 1)))
    worked.per_dose_mg, worked.arithmetic
    # 904.5, "90 mg/kg/day ÷ 2 doses = 45 mg/kg a dose × 20.1 kg …"
    check("amoxicillin", worked)            # → DoseCheck(severity, text) against the table
    usual_dose("acetaminophen", Weight(18, None))   # for "paracetamol dose for him?"

A per-day amount is divided by the doses a day the words say; the words never double it. Nothing
is guessed: no dose count for a per-day amount → ``doses_per_day`` None and no mg per dose.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from typing import Any

from ..languages import fold, frequency
from .tables import load

# What a "mg/kg" is (a day's amount or a dose's) and the doses a day, in every language:
# ``data/dose_basis.yaml``, read on accent-folded lower-case text.
_TO_MG = {"mg": 1.0, "mcg": 0.001, "microgram": 0.001, "micrograms": 0.001, "g": 1000.0}


@dataclass(frozen=True)
class WeightDose:
    """An order written in mg/kg: a dose or a day's amount, and the doses a day the words say."""

    mg_per_kg: float
    per: str  # "dose" | "day"
    doses_per_day: float | None
    written: str  # the words it was read from

    @property
    def per_dose_mg_per_kg(self) -> float | None:
        if self.per == "dose":
            return self.mg_per_kg
        return self.mg_per_kg / self.doses_per_day if self.doses_per_day else None

    @property
    def per_day_mg_per_kg(self) -> float | None:
        if self.per == "day":
            return self.mg_per_kg
        return self.mg_per_kg * self.doses_per_day if self.doses_per_day else None


@dataclass(frozen=True)
class Weight:
    kg: float
    when: date | None = None

    def describe(self) -> str:
        return f"{self.kg:g} kg" + (
            f" (weighed {self.when.isoformat()})" if self.when else " (date unknown)"
        )


@dataclass(frozen=True)
class WorkedDose:
    """A weight-based order in mg for this child, with the sum shown."""

    order: WeightDose
    weight: Weight
    per_dose_mg: float | None
    per_day_mg: float | None
    arithmetic: str


@dataclass(frozen=True)
class DoseCheck:
    severity: str  # critical | info
    text: str
    source: str
    url: str


def read(text: str) -> WeightDose | None:
    """The mg/kg order in ``text`` ("90mg/kg/day divided bd", "50 mg/kg/j en 3 prises"), or None
    when it writes none. The basis (a day or a dose) is read before the amount is used."""
    low = fold(text or "").lower()
    m = _weight_dose().search(low)
    if not m:
        return None
    amount = float(m.group(1).replace(",", ".")) * _TO_MG[m.group(2)]
    per = "day" if m.group("day") else "dose"
    rest = low[m.end():] + " " + low[:m.start()]
    return WeightDose(amount, per, _doses_per_day(rest), " ".join(text.split()))


def once_daily(text: str) -> bool:
    """``text``'s mg/kg is a day's amount said with the word of once a day ("10mg/kg ao dia",
    "10 mg/kg daily", "al dia", "a day": ``dose_basis.yaml`` ``once_daily``); "10 mg/kg/dia" and
    "por dia" are a day's amount only."""
    low = fold(text or "").lower()
    m = _weight_dose().search(low)
    if not m or not m.group("day"):
        return False
    tail = " ".join(low[m.end("kg"):m.end()].split())
    return tail in (_basis().get("once_daily") or ())


def without_basis(text: str) -> str:
    """``text`` (folded, lower case) with its "N mg/kg<basis>" taken out: what is left says the
    frequency ("80 mg/kg daily split bid": "daily" is the basis, "bid" the frequency)."""
    low = fold(text or "").lower()
    m = _weight_dose().search(low)
    return f"{low[:m.start()]} {low[m.end():]}" if m else low


@lru_cache(maxsize=1)
def _basis() -> dict[str, Any]:
    found: dict[str, Any] = load("dose_basis.yaml")
    return found


def _alt(words: list[str]) -> str:
    return "|".join(sorted(words, key=len, reverse=True))


@lru_cache(maxsize=1)
def _weight_dose() -> re.Pattern[str]:
    """"N mg/kg" (or "N mg per kg", "por kg", "par kg"), then its basis when written: a joiner and
    a unit of a day or of a dose."""
    b = _basis()
    joiner = _alt([re.escape(j) if j == "/" else j for j in b["joiners"]])
    return re.compile(
        rf"(\d+(?:[.,]\d+)?)\s*(mg|mcg|micrograms?|g)\s*(?:/|\s(?:per|por|par|a)\s)\s*"
        rf"(?P<kg>{_alt(b.get('kilograms') or ['kg'])})(?![a-z])"
        rf"(?:\s*(?:{joiner})?\s*(?:(?P<day>{_alt(b['per_day'])})|"
        rf"(?P<dose>{_alt(b['per_dose'])}))(?![a-z]))?")


@lru_cache(maxsize=1)
def _divided() -> tuple[re.Pattern[str], ...]:
    b = _basis()
    n = rf"(\d+|{_alt(list(b['numbers']))})"
    return tuple(re.compile(rf"(?<![a-z])(?:{p.replace('{n}', n)})") for p in b["divided"])


def from_dosage(instruction: dict[str, Any]) -> WeightDose | None:
    """A FHIR Dosage written in mg/kg: its text, or a doseQuantity in mg/kg with its timing."""
    found = read(instruction.get("text") or "")
    if found:
        return found
    for dr in instruction.get("doseAndRate") or []:
        q = dr.get("doseQuantity") or {}
        unit = str(q.get("code") or q.get("unit") or "").lower().replace(" ", "")
        if isinstance(q.get("value"), (int, float)) and unit in ("mg/kg", "mg/kg/d", "mg/kg/day"):
            rep = (instruction.get("timing") or {}).get("repeat") or {}
            per_day = repeat_per_day(rep)
            return WeightDose(float(q["value"]), "day" if unit != "mg/kg" else "dose", per_day,
                              f"{q['value']:g} {unit}")
    return None


def repeat_per_day(rep: dict[str, Any]) -> float | None:
    days = {"h": 1 / 24, "d": 1, "wk": 7, "mo": 30}
    if rep.get("frequency") and rep.get("period") and rep.get("periodUnit") in days:
        return float(rep["frequency"]) / (float(rep["period"]) * days[rep["periodUnit"]])
    return None


def _doses_per_day(words: str) -> float | None:
    """The doses a day the words say: a divided form first ("en 3 prises"), then a frequency."""
    for pattern in _divided():
        m = pattern.search(words)
        if m:
            said = m.group(1)
            return float(int(said) if said.isdigit() else _basis()["numbers"][said])
    return frequency.per_day(words)


def work_out(order: WeightDose, weight: Weight) -> WorkedDose:
    """The order in mg for this weight, with the arithmetic a prescriber can check."""
    dose_kg, day_kg = order.per_dose_mg_per_kg, order.per_day_mg_per_kg
    per_dose = round(dose_kg * weight.kg, 1) if dose_kg is not None else None
    per_day = round(day_kg * weight.kg, 1) if day_kg is not None else None
    if order.per == "day" and order.doses_per_day and dose_kg is not None:
        sums = (f"{order.mg_per_kg:g} mg/kg/day ÷ {order.doses_per_day:g} doses = "
                f"{round(dose_kg, 1):g} mg/kg a dose; × {weight.describe()} = {per_dose:g} mg a "
                f"dose ({per_day:g} mg a day)")
    elif order.per == "day":
        sums = (
            f"{order.mg_per_kg:g} mg/kg/day × {weight.describe()} "
            f"= {per_day:g} mg a day (doses a day not stated)"
        )
    elif order.doses_per_day and day_kg is not None:
        sums = (f"{order.mg_per_kg:g} mg/kg a dose × {weight.describe()} = {per_dose:g} mg a dose; "
                f"× {order.doses_per_day:g} a day = {per_day:g} "
                f"mg a day ({round(day_kg, 1):g} mg/kg/day)")
    else:
        sums = f"{order.mg_per_kg:g} mg/kg a dose × {weight.describe()} = {per_dose:g} mg a dose"
    return WorkedDose(order, weight, per_dose, per_day, sums)


def _table() -> dict[str, Any]:
    table: dict[str, Any] = load("disease.yaml")["paediatric_doses"]
    return table


def limits(ingredient: str, doses_per_day: float | None = None) -> dict[str, Any] | None:
    """The paediatric table's row for an ingredient (per-dose and per-day mg/kg and maxima); a
    regimen of ``doses_per_day`` with its own per-dose limit (amoxicillin twice a day) takes it."""
    row: dict[str, Any] | None = _table()["drugs"].get(ingredient)
    if row and doses_per_day is not None:
        regimen = (row.get("when_doses_a_day") or {}).get(int(round(doses_per_day)))
        if regimen and abs(doses_per_day - round(doses_per_day)) < 0.01:
            row = {**row, **regimen}
    return row


def row_source(row: dict[str, Any]) -> dict[str, str]:
    """The label and address of a row's own source when it names one (``src``: the WHO
    formularies, the otitis media guideline), else the table's: each dose cites what it rests on."""
    table = _table()
    found: dict[str, str] = table["sources"].get(row.get("src") or "") or table["source"]
    return found


def check(ingredient: str, worked: WorkedDose) -> DoseCheck | None:
    """The worked dose against the paediatric range and maximum (None when the table has no row)."""
    row = limits(ingredient, worked.order.doses_per_day)
    if row is None:
        return None
    src = row_source(row)
    over = _over(row, worked)
    if over:
        return DoseCheck(
            "critical", f"{worked.arithmetic} — above {over}", src["label"], src["url"]
        )
    return DoseCheck("info", f"{worked.arithmetic} — within the paediatric range ({_range(row)})",
                     src["label"], src["url"])


def _over(row: dict[str, Any], worked: WorkedDose) -> str:
    """The first limit the worked dose exceeds (5 % allowed for rounding), "" when none."""
    order, slack = worked.order, 1.05
    dose_kg, day_kg = order.per_dose_mg_per_kg, order.per_day_mg_per_kg
    if dose_kg is not None and dose_kg > row["mg_per_kg"] * slack:
        return f"the maximum of {row['mg_per_kg']:g} mg/kg a dose"
    if day_kg is not None and row.get("mg_per_kg_day") and day_kg > row["mg_per_kg_day"] * slack:
        return f"the maximum of {row['mg_per_kg_day']:g} mg/kg a day"
    if worked.per_dose_mg is not None and worked.per_dose_mg > row["max_mg"] * slack:
        return f"the adult maximum of {row['max_mg']:g} mg a dose"
    if (
        worked.per_day_mg is not None
        and row.get("max_mg_day")
        and worked.per_day_mg > row["max_mg_day"] * slack
    ):
        return f"the maximum of {row['max_mg_day']:g} mg a day"
    return ""


def _range(row: dict[str, Any]) -> str:
    day = f", {row['mg_per_kg_day']:g} mg/kg a day" if row.get("mg_per_kg_day") else ""
    return f"at most {row['mg_per_kg']:g} mg/kg a dose{day}, {row['max_mg']:g} mg a dose"


@dataclass(frozen=True)
class UsualDose:
    """The table's usual dose of a drug for a child of this weight (for a dose question)."""

    ingredient: str
    weight: Weight
    usual: str  # the table's words ("15 mg/kg every 4-6 hours")
    per_dose_mg: float
    max_day_mg: float | None
    arithmetic: str
    source: str
    url: str


def usual_dose(ingredient: str, weight: Weight) -> UsualDose | None:
    """The usual paediatric dose of ``ingredient`` worked out for ``weight`` (None without a
    row)."""
    row = limits(ingredient)
    if row is None or not row.get("usual"):
        return None
    per_dose = round(min(row["mg_per_kg"] * weight.kg, row["max_mg"]), 1)
    max_day = (
        round(min(row["mg_per_kg_day"] * weight.kg, row.get("max_mg_day") or float("inf")), 1)
        if row.get("mg_per_kg_day")
        else None
    )
    sums = f"{row['mg_per_kg']:g} mg/kg × {weight.describe()} = {per_dose:g} mg a dose"
    if per_dose >= row["max_mg"]:
        sums += f" (capped at {row['max_mg']:g} mg)"
    if max_day is not None:
        sums += f"; at most {row['mg_per_kg_day']:g} mg/kg a day = {max_day:g} mg a day"
    src = _table()["source"]
    return UsualDose(
        ingredient, weight, row["usual"], per_dose, max_day, sums, src["label"], src["url"]
    )
