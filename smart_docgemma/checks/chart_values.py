"""The chart's quantities read with their units and dates for the checks: the latest body
weight in kg (lb, g converted, the conversion said), whether it is recent enough to dose a child
by, the latest creatinine in mg/dL, potassium, and a Cockcroft–Gault clearance when the chart has
a creatinine but no eGFR or measured clearance."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from ..knowledge import quantities
from . import monitoring
from .context import HookData

WEIGHT = ["29463-7", "3141-9"]
CREATININE = ["2160-0", "38483-4", "14682-9"]
POTASSIUM = ["2823-3", "6298-4"]


@dataclass(frozen=True)
class ChartWeight:
    kg: float
    when: date
    id: str
    written: str  # "30.9 [lb_av] = 14.02 kg", or "" when recorded in kg
    days_old: int

    def describe(self) -> str:
        said = f"{self.kg:g} kg (weighed {self.when.isoformat()}"
        return said + (f"; recorded as {self.written})" if self.written else ")")


def _unit(obs: dict) -> str:
    q = obs.get("valueQuantity") or {}
    return str(q.get("code") or q.get("unit") or "")


def latest_weight(data: HookData, today: date | None = None) -> ChartWeight | None:
    """The newest weight whose unit converts to kg (a weight in an unknown unit is skipped)."""
    today = today or date.today()
    by_id = {o.get("id") or "": o for o in data.get("weight")}
    for r in reversed(monitoring.results(data.get("weight"), WEIGHT)):
        unit = _unit(by_id.get(r.id, {}))
        kg = quantities.to_kg(r.value, unit)
        if kg is None:
            continue
        written = "" if unit.lower() in ("", "kg") else f"{r.value:g} {unit} = {kg:g} kg"
        return ChartWeight(kg, r.when, r.id, written, (today - r.when).days)
    return None


def latest(data: HookData, loinc: list[str]) -> monitoring.Result | None:
    if "labs" in data.missing:
        return None
    found = monitoring.results(data.get("labs"), loinc)
    return found[-1] if found else None


def creatinine(data: HookData) -> tuple[float, date, str] | None:
    """The latest serum creatinine in mg/dL, its date and id (None when absent or unreadable)."""
    if "labs" in data.missing:
        return None
    by_id = {o.get("id") or "": o for o in data.get("labs")}
    for r in reversed(monitoring.results(data.get("labs"), CREATININE)):
        mg = quantities.creatinine_mg_dl(r.value, _unit(by_id.get(r.id, {})) or "mg/dL")
        if mg is not None:
            return mg, r.when, r.id
    return None


def estimated_clearance(data: HookData, age: int | None) -> quantities.Clearance | None:
    """Cockcroft–Gault from the latest creatinine, weight, age and sex (None when any is missing,
    the weight is more than a year old, or the sex is not recorded)."""
    sex = next((p.get("gender") for p in data.get("patient") if p.get("gender")), None)
    found, weight = creatinine(data), latest_weight(data)
    if age is None or found is None or weight is None or sex not in ("male", "female"):
        return None
    if weight.days_old > quantities.max_age_days("adult_weight"):
        return None
    mg, when, _ = found
    return quantities.cockcroft_gault(age, weight.kg, sex == "female", mg, when, weight.when)
