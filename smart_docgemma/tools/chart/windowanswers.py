"""Answers to window questions asked of results: "any glucose <4 in the last 48h?" (each value
past the threshold with its time, or none and how many were read), "mean K over the last 3
days", "average bp this week?" (a true mean with the count of values), in the unit asked.

A threshold written without a unit is read in the unit where its number is a plausible result
(glucose 4 is mmol/L, 70 is mg/dL; ``chart_windows.yaml``), else in the chart's own unit; values
are compared and shown in that unit. A mean is given in the unit asked and, when the chart holds
another, in the chart's unit too. Blood pressure is read from the panel's systolic and diastolic
components (or from separate systolic and diastolic results taken at the same time).
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, tzinfo
from typing import Any

from ...knowledge import analytes
from ...knowledge.analytes import Analyte
from ..words.windows import Aggregate, Asked, Comparator, Threshold, Window, plausible_units
from .labs import LabResult, taken
from .records import num

SAID = {Comparator.LT: "under", Comparator.LE: "at or under", Comparator.GT: "over",
        Comparator.GE: "at or over"}
SYSTOLIC, DIASTOLIC = "8480-6", "8462-4"
LISTED = 12  # values past a threshold listed one by one


def _plural(n: int, word: str = "value") -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


def at(when: datetime | None, tz: tzinfo) -> str:
    """"06:00 (2026-12-03)" in the site's time zone."""
    if when is None:
        return "time not recorded"
    local = when.astimezone(tz)
    return local.strftime("%H:%M (%Y-%m-%d)")


def in_unit(value: float, unit: str, a: Analyte) -> float | None:
    """A value in the analyte's unit expressed in ``unit`` (None: no known conversion)."""
    one, zero = analytes.convert(1.0, unit, a), analytes.convert(0.0, unit, a)
    if one is None or zero is None or one == zero:
        return None
    return (value - zero) / (one - zero)


def chart_unit(a: Analyte, results: list[LabResult]) -> str:
    """The unit the chart reports this analyte in (its newest convertible result)."""
    for r in results:
        if r.converted:
            reported = r.reported.partition(" ")[2]
            if reported and in_unit(r.value, reported, a) is not None:
                return reported
    return a.unit


def threshold_unit(a: Analyte, t: Threshold, results: list[LabResult]) -> str:
    """The unit a threshold is read in: written, else the only plausible one, else the chart's."""
    if t.unit and in_unit(1.0, t.unit, a) is not None:
        return t.unit
    fits = [u for u in plausible_units(a.name, t.value) if in_unit(1.0, u, a) is not None]
    return fits[0] if len(fits) == 1 else chart_unit(a, results)


@dataclass(frozen=True)
class Shown:
    """One result as the answer shows it: its value in the unit asked, and when."""

    value: float
    when: datetime | None


def shown(results: list[LabResult], unit: str, a: Analyte) -> list[Shown]:
    out = []
    for r in results:
        v = in_unit(r.value, unit, a) if r.converted else None
        if v is not None:
            out.append(Shown(round(v, 2), r.when))
    return out


def threshold_answer(a: Analyte, inside: list[LabResult], t: Threshold, w: Window,
                     tz: tzinfo) -> str:
    """"1 value under 4 mmol/L in the last 48 hours: 3.2 at 06:00 (2026-12-03)." or none, with
    how many were read and the latest."""
    if t.unit and in_unit(1.0, t.unit, a) is None:  # never silently read in another unit
        return (f"{num(t.value)} {t.unit} cannot be compared with {a.name.lower()} results "
                f"(charted in {chart_unit(a, inside)}; no conversion from {t.unit} is known).")
    unit = threshold_unit(a, t, inside)
    values = shown(inside, unit, a)
    hits = [s for s in values if t.comparator.holds(s.value, t.value)]
    limit = f"{SAID[t.comparator]} {num(t.value)} {unit}"
    skipped = len(inside) - len(values)
    tail = (f" ({_plural(skipped, 'result')} in a unit that cannot be compared were not read.)"
            if skipped else "")
    if not values:
        return f"No {a.name.lower()} value {w.label} could be compared with {num(t.value)}.{tail}"
    if not hits:
        latest = values[0]
        return (f"None {limit} {w.label} ({_plural(len(values))}, latest {num(latest.value)} "
                f"at {at(latest.when, tz)}).{tail}")
    listed = ", ".join(f"{num(s.value)} at {at(s.when, tz)}" for s in hits[:LISTED])
    more = f" and {len(hits) - LISTED} more" if len(hits) > LISTED else ""
    return (f"{_plural(len(hits))} {limit} {w.label} (of {len(values)} read): "
            f"{listed}{more}.{tail}")


def mean_answer(a: Analyte, inside: list[LabResult], asked: Asked, w: Window) -> str | None:
    """"Mean glucose in the last 3 days: 108.1 mg/dL (6.0 mmol/L as charted), 4 values."""
    held = chart_unit(a, inside)
    unit = asked.unit if asked.unit and in_unit(1.0, asked.unit, a) is not None else held
    values = shown(inside, unit, a)
    if not values:
        return None
    mean = sum(s.value for s in values) / len(values)
    also = ""
    if unit != held:
        again = shown(inside, held, a)
        also = f" ({num(round(sum(s.value for s in again) / len(again), 1))} {held} as charted)"
    left = len(inside) - len(values)
    tail = f" Not in the mean: {_plural(left, 'result')} in a unit not convertible." if left else ""
    return (f"Mean {a.name.lower()} {w.label}: {num(round(mean, 1))} {unit}{also} "
            f"(mean of {_plural(len(values), 'result')}).{tail}")


# ------------------------------------------------------------------ blood pressure
@dataclass(frozen=True)
class Pressure:
    systolic: float
    diastolic: float | None
    when: datetime | None


def pressures(observations: list[dict[str, Any]], tz: tzinfo) -> list[Pressure]:
    """Each blood pressure reading, newest first: a panel's components, or a systolic result
    paired with the diastolic taken at the same time."""
    by_time: dict[datetime | None, dict[str, float]] = {}
    for obs in observations:
        if obs.get("status") in ("entered-in-error", "cancelled"):
            continue
        when = taken(obs, tz)
        for part in [obs] + list(obs.get("component") or []):
            codes = {c.get("code") for c in (part.get("code") or {}).get("coding") or []}
            value = (part.get("valueQuantity") or {}).get("value")
            for code in codes & {SYSTOLIC, DIASTOLIC}:
                if value is not None:
                    by_time.setdefault(when, {})[code] = float(value)
    out = [Pressure(v[SYSTOLIC], v.get(DIASTOLIC), when) for when, v in by_time.items()
           if SYSTOLIC in v]
    return sorted(out, key=lambda p: p.when.timestamp() if p.when else 0.0, reverse=True)


def bp_window_answer(observations: list[dict[str, Any]], asked: Asked, w: Window,
                     tz: tzinfo) -> str:
    """The blood pressures of a window: the mean systolic/diastolic with the count, or each
    systolic past a threshold; none in the window: the latest before it."""
    every = pressures(observations, tz)
    inside = [p for p in every if p.when and w.start <= p.when <= w.end]
    if not inside:
        before = next((p for p in every if p.when and p.when < w.start), None)
        if before is None:
            return f"No blood pressure recorded {w.label}, and none before it in the chart."
        return (f"No blood pressure recorded {w.label}. The latest before it: "
                f"{_bp(before)} mmHg at {at(before.when, tz)}.")
    lines = []
    if asked.statistic == Aggregate.MEAN:
        dias = [p.diastolic for p in inside if p.diastolic is not None]
        dia = f"/{num(round(sum(dias) / len(dias)))}" if dias else ""
        lines.append(f"Mean blood pressure {w.label}: "
                     f"{num(round(sum(p.systolic for p in inside) / len(inside)))}{dia} mmHg, "
                     f"the mean of {_plural(len(inside), 'reading')}.")
    for t in asked.thresholds:
        hits = [p for p in inside if t.comparator.holds(p.systolic, t.value)]
        limit = f"systolic {SAID[t.comparator]} {num(t.value)} mmHg {w.label}"
        lines.append(f"{_plural(len(hits), 'reading')} with {limit} (of {len(inside)}): "
                     + ", ".join(f"{_bp(p)} at {at(p.when, tz)}" for p in hits[:LISTED]) + "."
                     if hits else f"None with {limit} ({_plural(len(inside), 'reading')}, "
                     f"latest {_bp(inside[0])} at {at(inside[0].when, tz)}).")
    if not lines:
        lines.append(f"{_plural(len(inside), 'reading')} {w.label}: "
                     + ", ".join(f"{_bp(p)} at {at(p.when, tz)}" for p in inside[:LISTED]) + ".")
    return "\n".join(lines)


def _bp(p: Pressure) -> str:
    return num(p.systolic) + (f"/{num(p.diastolic)}" if p.diastolic is not None else "")
