"""The fifth round's labelled cases (``data/round5.yaml``) as the FHIR an EHR sends: the draft
order and the order-sign prefetch, with weights in the unit the chart recorded them (UCUM
``kg``, ``g``, ``[lb_av]``) and their dates, potassium, eGFR and creatinine with their dates."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

import yaml

from . import drugclass_cases
from .drugclass_cases import draft, judge  # noqa: F401 (the same draft and verdict as round four)

DATA = Path(__file__).with_name("data")
LAB_CODES = {
    "egfr": ("33914-3", "mL/min/{1.73_m2}"),
    "potassium": ("2823-3", "mmol/L"),
    "creatinine": ("2160-0", "mg/dL"),
}
LAB_KEY = {"egfr": "labs", "potassium": "labs", "creatinine": "labs"}


def cases(split: str) -> list[dict]:
    data = yaml.safe_load((DATA / "round5.yaml").read_text())["cases"]
    return [c for c in data if c["split"] == split]


def _dated(spec, default_unit: str) -> tuple[float, str, str]:
    """A case's value as (value, unit, date): a bare number is dated 2026-11-01."""
    if isinstance(spec, dict):
        when = (
            (date.today() - timedelta(days=spec["days_ago"])).isoformat()
            if "days_ago" in spec
            else "2026-11-01"
        )
        return float(spec["value"]), spec.get("unit", default_unit), when
    return float(spec), default_unit, "2026-11-01"


def _obs(rid: str, loinc: str, spec, unit: str, patient: str) -> dict:
    value, unit, when = _dated(spec, unit)
    return {
        "resourceType": "Observation",
        "id": rid,
        "status": "final",
        "effectiveDateTime": when,
        "subject": {"reference": f"Patient/{patient}"},
        "code": {"coding": [{"system": "http://loinc.org", "code": loinc}]},
        "valueQuantity": {
            "value": value,
            "unit": unit,
            "system": "http://unitsofmeasure.org",
            "code": unit,
        },
    }


def chart(case: dict, patient: str) -> dict[str, list[dict]]:
    base = drugclass_cases.chart(
        {k: v for k, v in case.items() if k not in ("weight", "egfr")}, patient
    )
    base["labs"] = [
        _obs(f"{patient}-{k}", code, case[k], unit, patient)
        for k, (code, unit) in LAB_CODES.items()
        if case.get(k) is not None
    ]
    base["weight"] = (
        [_obs(f"{patient}-wt", "29463-7", case["weight"], "kg", patient)]
        if case.get("weight") is not None
        else []
    )
    return base


def prefetch(case: dict, patient: str) -> dict:
    data = chart(case, patient)
    return {
        "patient": data.pop("patient")[0],
        **{
            k: {
                "resourceType": "Bundle",
                "type": "searchset",
                "entry": [{"resource": r} for r in v],
            }
            for k, v in data.items()
        },
    }
