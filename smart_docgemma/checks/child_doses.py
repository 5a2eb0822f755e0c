"""A child's order in mg, mL or tablets checked against the paediatric table
(``knowledge/data/disease.yaml`` → ``paediatric_doses``): per-dose and per-day mg/kg with their
maxima, weight bands of band-dosed products (artemether–lumefantrine), fixed doses by age
(albendazole, zinc). The weight is the chart's, in kg with its date; a drug the table lacks is
said ("no paediatric range on file"), never passed as checked."""

from __future__ import annotations

from typing import Any

from .. import knowledge
from ..knowledge.tables import load
from ..languages import N_, message
from .chart_values import ChartWeight
from .findings import Finding, Source

SLACK = 1.05  # rounding of a measured liquid dose


def _table() -> dict[str, Any]:
    table: dict[str, Any] = load("disease.yaml")["paediatric_doses"]
    return table


def _source(key: str | None) -> Source:
    src = _table()["sources"].get(key or "") or _table()["source"]
    return Source(src["label"], src["url"])


def check(
    drug: str, product: str, draft: dict, weight: ChartWeight, age_days: int, key: str
) -> list[Finding]:
    """The findings of a child's order written in mg, mL or tablets (an mg/kg order is worked out
    elsewhere)."""
    dose = knowledge.dose_of(draft, product=product)
    table = _table()
    if drug in table["weight_bands"]:
        return _band(drug, table["weight_bands"][drug], dose, weight, draft, key)
    for ing in drug.split("/"):
        if ing in table["fixed_doses"]:
            return _fixed(ing, table["fixed_doses"][ing], dose, age_days, weight, draft, key)
        if ing in table["drugs"]:
            return _per_kg(ing, table["drugs"][ing], dose, weight, draft, key)
    return [no_range(drug, weight, draft, key)]


def no_range(drug: str, weight: ChartWeight, draft: dict, key: str) -> Finding:
    return Finding(
        key,
        "info",
        [
            f"No paediatric range on file for {drug}: the dose for {weight.kg:g} kg is not checked",
            f"No paediatric range on file for {drug}",
        ],
        "paediatric-dose",
        management="Check the dose against a paediatric formulary by hand.",
        evidence=[f"Weight {weight.describe()}"],
        draft=draft,
        fingerprint_of=("no-range", drug),
        message=message(N_("No paediatric range on file for %(drug)s"), drug=drug),
    )


def _unread_amount(ing: str, said: str, weight: ChartWeight, draft: dict, key: str) -> Finding:
    """A child's dose whose mg the order does not give ("calpol 5ml qds": no strength): the
    range check did not run, and the card says so rather than nothing."""
    return Finding(
        key,
        "info",
        [f"Not checked: the {ing} dose — {said} gives no mg (state the strength, e.g. mg per 5 mL)",
         f"Not checked: the {ing} dose — no mg"],
        "paediatric-dose",
        management="State the strength of the liquid or the dose in mg to check it.",
        evidence=[f"Weight {weight.describe()}"],
        draft=draft,
        fingerprint_of=("no-mg", ing),
        message=message(N_("Not checked: the %(drug)s dose — no mg stated (give the strength, "
                           "e.g. mg per 5 mL)"), drug=ing),
    )


def _band(drug, row, dose, weight, draft, key) -> list[Finding]:
    band = next(
        (
            b
            for b in row["bands"]
            if weight.kg >= b["from_kg"] and weight.kg < b.get("below_kg", 1e9)
        ),
        None,
    )
    if band is None or dose is None or dose.units is None:
        return []
    if dose.units <= band["units"]:
        return []
    span = (
        f"{band['from_kg']:g}-<{band['below_kg']:g} kg"
        if band.get("below_kg")
        else f"≥{band['from_kg']:g} kg"
    )
    allowed = f"{band['units']:g} tablet{'s' if band['units'] > 1 else ''} a dose"
    return [
        _over(
            drug,
            f"{dose.units:g} tablets a dose",
            f"the weight band {span} takes {allowed}",
            weight,
            row.get("src"),
            draft,
            key,
            f"Give {allowed} ({row['unit']}), {row['usual']}.",
        )
    ]


def _fixed(ing, row, dose, age_days, weight, draft, key) -> list[Finding]:
    band = next(b for b in row["bands"] if age_days < b.get("below_days", 10**9))
    each = dose.per_dose_mg if dose else None
    if each is not None and each > band["max_mg"] * SLACK:
        return [
            _over(
                ing,
                f"{each:g} mg a dose",
                f"at most {band['max_mg']:g} mg a dose at this age",
                weight,
                row.get("src"),
                draft,
                key,
                f"Give {row['usual']}.",
            )
        ]
    return []


def _per_kg(ing, row, dose, weight, draft, key) -> list[Finding]:
    if dose is None:
        return []
    each = _ingredient_dose(ing, dose)
    if each is None:
        return [_unread_amount(ing, dose.text, weight, draft, key)]
    kg = weight.kg
    most = min(row["mg_per_kg"] * kg, row["max_mg"])
    if each > most * SLACK:
        said = f"{each:g} mg a dose ({each / kg:.1f} mg/kg)"
        return [
            _over(
                ing,
                said,
                f"at most {most:g} mg a dose ({row['mg_per_kg']:g} mg/kg, "
                f"at most {row['max_mg']:g} mg)",
                weight,
                row.get("src"),
                draft,
                key,
                f"Give at most {most:g} mg a dose; usual: {row['usual']}.",
                dose.text,
            )
        ]
    per_day = dose.per_day
    if per_day and row.get("mg_per_kg_day"):
        day_most = min(row["mg_per_kg_day"] * kg, row.get("max_mg_day") or 1e12)
        if each * per_day > day_most * SLACK:
            said = f"{each * per_day:g} mg a day ({each * per_day / kg:.1f} mg/kg a day)"
            return [
                _over(
                    ing,
                    said,
                    f"at most {day_most:g} mg a day ({row['mg_per_kg_day']:g} mg/kg a day)",
                    weight,
                    row.get("src"),
                    draft,
                    key,
                    f"Give at most {day_most:g} mg a day; usual: {row['usual']}.",
                    dose.text,
                )
            ]
    return []


def _ingredient_dose(ing: str, dose: knowledge.Dose) -> float | None:
    if not dose.strengths:
        return dose.per_dose_mg
    mg = next((m for words, m in dose.strengths if ing in words), None)
    return dose.units * mg if mg is not None and dose.units is not None else None


def _over(drug, ordered, limit, weight, src, draft, key, management, written: str = "") -> Finding:
    summaries = [
        f"Check the {drug} dose — {ordered} for {weight.kg:g} kg is above {limit}"[:139],
        f"Check the {drug} dose — {ordered} is above the paediatric range for {weight.kg:g} kg"[
            :139
        ],
        f"Check the {drug} dose for {weight.kg:g} kg",
    ]
    return Finding(
        key,
        "critical",
        summaries,
        "paediatric-dose",
        mechanism=f"Ordered {ordered}; {limit} for a child of {weight.describe()}.",
        management=management,
        evidence=[f"Weight {weight.describe()}", f"Ordered: {ordered}"]
        + ([f"Written: {written}"] if written else []),
        sources=[_source(src)],
        draft=draft,
        fingerprint_of=("child-dose", drug, ordered),
        message=message(
            N_("Check the %(drug)s dose — %(dose)s for a child of %(kg)s kg"),
            drug=drug,
            dose=ordered,
            kg=f"{weight.kg:g}",
        ),
    )
