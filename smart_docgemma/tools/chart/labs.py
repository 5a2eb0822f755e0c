"""Results of one analyte, read by what they measure, not by one code.

A question or a protocol names an analyte ("Magnesium", "Capillary glucose"); the chart may
hold it under any of its LOINC codes, in another unit, with a time. ``results`` reads FHIR
Observations into ``LabResult``s in the analyte's unit (``knowledge.analytes``), newest first;
``search`` is the one Observation search that finds them; ``latest`` is what a ward protocol
asks ("the latest magnesium in mg/dL within the last 24 hours"): the newest result in the
window, or none with the last one before it, so the protocol can say why it orders nothing.

    reading = latest(gateway, patient_id, "Magnesium", within=timedelta(hours=24))
    reading.result.value  # mg/dL, or None when nothing in the window (reading.before: the last)
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from typing import Any

from ...fhir import FhirGateway
from ...knowledge import analytes
from ...knowledge.analytes import Analyte
from .records import SORT_NEWEST, num

LOINC = "http://loinc.org"
WINDOW = 50  # results of one analyte read, newest first (one page)
# ... and for a highest, lowest or mean asked with no window ("peak glucose?"): the page the
# server gives at most (HAPI's largest), so that the statistic is of the whole series when it
# fits, and the answer says when it did not
STATISTIC_WINDOW = 200


@dataclass(frozen=True)
class LabResult:
    """One result: the analyte, its code and specimen, the value in the analyte's unit."""

    analyte: str
    code: str
    specimen: str
    value: float  # in ``unit``
    unit: str  # the analyte's unit; the reported unit when it could not be converted
    reported: str  # the value as the chart has it ("1.2 mmol/L")
    when: datetime | None  # aware; None when the result carries no time
    ref: str  # Observation/<id>
    converted: bool = True  # False: a unit the analyte table does not know (kept, never mixed in)

    def text(self) -> str:
        """"1.8 mg/dL", with the reported value when it was converted ("(0.74 mmol/L)")."""
        shown = f"{num(round(self.value, 2))} {self.unit}".strip()
        same = self.reported.replace(" ", "").lower() == shown.replace(" ", "").lower()
        return shown if same or not self.converted else f"{shown} (reported {self.reported})"


@dataclass(frozen=True)
class Reading:
    """The newest result in a window (None when there is none) and the last one before it."""

    analyte: Analyte
    result: LabResult | None
    before: LabResult | None
    start: datetime | None


def search(a: Analyte) -> tuple[str, dict[str, Any]]:
    """The Observation search for an analyte's codes and its family's, newest first."""
    codes = ",".join(f"{LOINC}|{c}" for c in analytes.codes_with_family(a))
    return "Observation", {"code": codes, "_sort": SORT_NEWEST, "_count": WINDOW}


def results(
    observations: list[dict[str, Any]], a: Analyte, tz: tzinfo = UTC
) -> list[LabResult]:
    """Every result of ``a`` (its own codes, then its family's) among ``observations``, newest
    first; a value in a unit the table does not convert is kept with ``converted=False``."""
    wanted = set(analytes.codes_with_family(a))
    out = [r for obs in observations for r in _of(obs, wanted, tz)]
    return sorted(
        out, key=lambda r: r.when or datetime.min.replace(tzinfo=UTC), reverse=True
    )


# an Observation in these states holds no result to read (withdrawn, or not yet taken)
NO_RESULT = frozenset({"entered-in-error", "cancelled", "registered"})


def _of(obs: dict[str, Any], wanted: set[str], tz: tzinfo) -> list[LabResult]:
    if obs.get("status") in NO_RESULT:
        return []
    out = []
    for part in [obs] + list(obs.get("component") or []):
        code = next((c.get("code") for c in (part.get("code") or {}).get("coding") or []
                     if c.get("code") in wanted), None)
        qty = part.get("valueQuantity") or {}
        if code is None or qty.get("value") is None:
            continue
        found = analytes.of_code(code)
        assert found is not None  # every wanted code is in the table
        unit = qty.get("unit") or qty.get("code") or ""
        value = analytes.convert(qty["value"], qty.get("code") or unit, found)
        out.append(
            LabResult(
                found.name,
                code,
                found.specimen(code),
                value if value is not None else float(qty["value"]),
                found.unit if value is not None else unit,
                f"{num(qty['value'])} {unit}".strip(),
                taken(obs, tz),
                f"Observation/{obs.get('id')}",
                value is not None,
            )
        )
    return out


def taken(obs: dict[str, Any], tz: tzinfo = UTC) -> datetime | None:
    """When the result was taken (effective, else issued), aware; a date alone is its midnight
    in the site's time zone."""
    raw = (
        obs.get("effectiveDateTime")
        or (obs.get("effectivePeriod") or {}).get("start")
        or obs.get("issued")
    )
    if not raw:
        return None
    try:
        if len(raw) <= 10:
            return datetime.combine(date.fromisoformat((raw + "-01-01")[:10]), time(0), tzinfo=tz)
        found = datetime.fromisoformat(raw.replace("Z", "+00:00"))
    except ValueError:
        return None
    return found if found.tzinfo else found.replace(tzinfo=tz)


def own(found: list[LabResult], a: Analyte) -> list[LabResult]:
    """The results under the analyte's own codes (a capillary glucose, not a serum one)."""
    return [r for r in found if r.code in a.codes]


def latest(fhir: FhirGateway, patient_id: str, analyte: str, *, within: timedelta | None = None,
           now: datetime | None = None, family: bool = False) -> Reading:
    """The newest ``analyte`` result (in the analyte's unit) taken within ``within`` of ``now``,
    and the last one before the window. Its own codes only unless ``family``: a protocol for
    serum potassium is not applied to another analyte. Raises the gateway's errors (a check
    that could not run is never "no result")."""
    a = analytes.analyte(analyte)
    rtype, params = search(a)
    found = results(fhir.search(rtype, {"patient": patient_id, **params}, max_pages=1), a)
    found = found if family else own(found, a)
    now = now or datetime.now(UTC)
    start = now - within if within is not None else None
    inside = [
        r for r in found if r.converted and r.when and (start is None or start <= r.when <= now)
    ]
    before = [r for r in found if r.converted and r.when and start is not None and r.when < start]
    return Reading(a, inside[0] if inside else None, before[0] if before else None, start)
