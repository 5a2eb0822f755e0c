"""The most a day of a drug, from the tables the checks already use:

- an adult's label maximum (``data/doses.yaml`` → ``limits``: FDA labels, with the rows that
  apply from an age, e.g. tramadol 300 mg a day over 75);
- a child's ceiling in mg/kg a day, worked out for the charted weight and capped at the
  table's most a day (``data/disease.yaml`` → ``paediatric_doses``: BNF for Children, WHO).

The label's dose at the patient's kidney band comes with the check's renal finding (its
``band``), not from here. A drug no table holds is said to be not in the data; nothing is
written from memory.

    adult_maximum("tramadol", age=83)    # two Ceilings: 400 mg a day; 300 mg a day over 75
    child_maximum("acetaminophen", Weight(20.1, None))   # 75 mg/kg a day = 1507.5 mg a day
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import weight_dose
from .tables import load
from .weight_dose import Weight, limits


@dataclass(frozen=True)
class Ceiling:
    """One daily maximum, in English, with the source that states it."""

    text: str
    source: str


def _rows(ingredient: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = load("doses.yaml")["limits"].get(ingredient) or []
    return rows


def adult_maximum(ingredient: str, age: int | None) -> list[Ceiling]:
    """The label's daily (or weekly) maxima of ``ingredient`` that apply at ``age``: the
    general row first, then any row that applies from an age the patient has reached."""
    out = []
    for row in _rows(ingredient):
        if row.get("min_age") is not None and (age is None or age < row["min_age"]):
            continue
        most = float(row["max_mg"]) if "max_mg" in row else None
        if row["kind"] == "daily_max" and most is not None:
            text = f"at most {most:g} mg a day"
        elif row["kind"] == "weekly_max" and most is not None:
            text = f"at most {most:g} mg a week"
        else:
            continue
        if row.get("min_age") is not None:
            text += f" from age {row['min_age']}"
        out.append(Ceiling(f"{text} ({row['management']})", str(row["source"])))
    return out


def child_maximum(ingredient: str, weight: Weight) -> Ceiling | None:
    """A child's most a day of ``ingredient`` for ``weight`` (mg/kg a day × kg, never above the
    table's most a day); None when the paediatric table holds no daily ceiling for it."""
    row = limits(ingredient)
    if not row or not row.get("mg_per_kg_day"):
        return None
    per_kg = float(row["mg_per_kg_day"])
    most = row.get("max_mg_day")
    mg = round(per_kg * weight.kg, 1)
    text = f"at most {per_kg:g} mg/kg a day × {weight.describe()} = {mg:g} mg a day"
    if most is not None and mg > float(most):
        text += f", capped at {float(most):g} mg a day"
    elif most is not None:
        text += f" (never above {float(most):g} mg a day)"
    return Ceiling(text, _child_source(row))


def _child_source(row: dict[str, Any]) -> str:
    """The row's own source when it names one (WHO formularies), else the table's."""
    return weight_dose.row_source(row)["label"]
