"""A scenario patient's chart read from its transaction bundle in ``fhir_fixtures/``, without a
FHIR server: each section holds what the chart tool's search of it would match (the same
filters: active conditions and orders, lab and vital-sign observations newest first), then the
chart tool's own summary turns it into text, brief, data and the typed chart in context."""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from smart_docgemma.tools.chart.chart import Chart, ChartFetch, summarise

FIXTURES = Path(__file__).resolve().parents[2] / "fhir_fixtures"
_TYPES = {"conditions": "Condition", "medications": "MedicationRequest",
          "allergies": "AllergyIntolerance", "observations": "Observation",
          "notes": "DocumentReference", "encounters": "Encounter",
          "immunizations": "Immunization"}


def _status(res: dict[str, Any]) -> str | None:
    return next(iter((res.get("clinicalStatus") or {}).get("coding") or []), {}).get("code")


def _matches(section: str, res: dict[str, Any]) -> bool:
    if section == "conditions":
        return _status(res) == "active"
    if section == "medications":
        return res.get("status") == "active"
    if section == "observations":
        cats = {c.get("code") for cc in res.get("category") or [] for c in cc.get("coding") or []}
        return bool(cats & {"laboratory", "vital-signs"})
    return True


def _newest(res: dict[str, Any]) -> str:
    return str(res.get("effectiveDateTime") or res.get("date") or "")


@cache
def chart(bundle: str) -> Chart:
    """The chart of the patient in ``fhir_fixtures/<bundle>`` as ``chart.read_for_turn`` makes
    it from a server holding that bundle."""
    resources = [e["resource"] for e in json.loads((FIXTURES / bundle).read_text())["entry"]]
    patient = next(r for r in resources if r["resourceType"] == "Patient")
    sections = {
        key: sorted((r for r in resources if r["resourceType"] == rtype and _matches(key, r)),
                    key=_newest, reverse=True)
        for key, rtype in _TYPES.items()
    }
    fetch = ChartFetch(patient, sections, {}, 0.0, whole=set(sections))
    return summarise(fetch, "http://fixtures.example/fhir")
