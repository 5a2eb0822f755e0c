"""Quantities as the chart records them, in the units the checks use: a body weight in kg from
its UCUM unit (``kg``, ``g``, ``[lb_av]``, ``[oz_av]``; the printed spellings lb, lbs, pounds), a
serum creatinine in mg/dL (from µmol/L), a creatinine clearance by Cockcroft–Gault with its
formula and inputs, and how old a value is for the decision it serves (``data/quantities.yaml``).

The conversion factors are the UCUM definitions (an avoirdupois pound is 0.45359237 kg exactly;
creatinine 1 mg/dL = 88.42 µmol/L); a unit not in the table is not guessed: ``to_kg`` returns
None and the caller says the weight could not be read.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from .tables import load


def _table() -> dict[str, Any]:
    table: dict[str, Any] = load("quantities.yaml")
    return table


def to_kg(value: float, unit: str) -> float | None:
    """A body weight in kg (None for a unit the table does not know)."""
    factor = _table()["mass_to_kg"].get((unit or "kg").strip().lower())
    return round(value * factor, 2) if factor is not None else None


def creatinine_mg_dl(value: float, unit: str) -> float | None:
    """Serum creatinine in mg/dL from mg/dL or µmol/L (None for another unit)."""
    factor = _table()["creatinine_to_mg_dl"].get((unit or "").strip().lower().replace("μ", "µ"))
    return round(value * factor, 3) if factor is not None else None


@dataclass(frozen=True)
class Clearance:
    """A creatinine clearance estimated by Cockcroft–Gault, with what it was computed from."""

    ml_min: float
    formula: str  # the arithmetic, inputs named: "(140 − 82) × 50 kg × 0.85 / (72 × 1.9 mg/dL)"
    creatinine_on: date | None
    weight_on: date | None

    def describe(self) -> str:
        dates = ", ".join(
            f"{what} {when.isoformat()}"
            for what, when in (("creatinine", self.creatinine_on), ("weight", self.weight_on))
            if when
        )
        return (
            f"CrCl {self.ml_min:g} mL/min by Cockcroft–Gault (no eGFR on file): {self.formula}"
            + (f"; {dates}" if dates else "")
        )


def cockcroft_gault(
    age: int,
    kg: float,
    female: bool,
    creatinine: float,
    creatinine_on: date | None = None,
    weight_on: date | None = None,
) -> Clearance | None:
    """CrCl (mL/min) = (140 − age) × weight (kg) [× 0.85 for a woman] / (72 × creatinine mg/dL);
    None for a child (the formula is for adults) or a creatinine of zero."""
    if age < 18 or creatinine <= 0 or kg <= 0:
        return None
    value = (140 - age) * kg * (0.85 if female else 1.0) / (72 * creatinine)
    sex = " × 0.85 (female)" if female else ""
    formula = f"(140 − {age} years) × {kg:g} kg{sex} / (72 × creatinine {creatinine:g} mg/dL)"
    return Clearance(round(value, 1), formula, creatinine_on, weight_on)


def max_age_days(decision: str, age_days: int | None = None) -> int:
    """How old a value may be for a decision ("child_weight"): younger children need a newer
    weight."""
    rows = _table()["max_age_days"][decision]
    for row in rows:
        if age_days is None or age_days < row.get("below_age_days", 10**9):
            return int(row["days"])
    return int(rows[-1]["days"])
