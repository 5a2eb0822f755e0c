"""Answers to window questions asked of results: "any glucose <4 in the last 48h?" (each value
past the threshold with its time, or none and how many were read), "mean K over the last 3
days", "average bp this week?" (a true mean with the count of values), "highest K in 6 months"
(the value, its time and how many were read), in the unit asked.

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
from ...languages import N_, answer_language, lab_name, message, say
from ..words.windows import Aggregate, Asked, Comparator, Threshold, Window, plausible_units
from .labs import LabResult, taken
from .records import num

SAID = {Comparator.LT: N_("under %(value)s %(unit)s"),
        Comparator.LE: N_("at or under %(value)s %(unit)s"),
        Comparator.GT: N_("over %(value)s %(unit)s"),
        Comparator.GE: N_("at or over %(value)s %(unit)s")}
SYSTOLIC, DIASTOLIC = "8480-6", "8462-4"
LISTED = 12  # values past a threshold listed one by one


def _say(msgid: str, **args: Any) -> str:
    """A sentence of the answer in this turn's language (English: the msgid filled)."""
    return say(message(msgid, **args), answer_language())


def _n(n: int, one: str, many: str, **args: Any) -> str:
    """``one`` or ``many`` (each a msgid with ``%(n)s``) as ``n`` asks, said."""
    return _say(one if n == 1 else many, n=n, **args)


def _named(a: Analyte) -> str:
    """The analyte's name, lower case, in this turn's language (``translations/labs.yaml``)."""
    return lab_name(a.name, answer_language()).lower()


def _limit(t: Threshold, unit: str) -> dict[str, Any]:
    return message(SAID[t.comparator], value=num(t.value), unit=unit)


def at(when: datetime | None, tz: tzinfo) -> str:
    """"06:00 (2026-12-03)" in the site's time zone."""
    if when is None:
        return _say(N_("time not recorded"))
    local = when.astimezone(tz)
    return local.strftime("%H:%M (%Y-%m-%d)")


def in_unit(value: float, unit: str, a: Analyte) -> float | None:
    """A value in the analyte's unit expressed in ``unit`` (None: no known conversion)."""
    one, zero = analytes.convert(1.0, unit, a), analytes.convert(0.0, unit, a)
    if one is None or zero is None or one == zero:
        return None
    return (value - zero) / (one - zero)


def converted(value: float, a: Analyte | None = None, unit: str = "") -> str:
    """A value converted to another unit than the chart's, to one decimal ("5.0 mmol/L"): the
    precision a converted glucose is reported to, never more digits than measured; the
    analyte's own decimals for that unit where the table gives them (magnesium 0.82 mmol/L)."""
    places = a.decimals.get(analytes.unit_key(unit), 1) if a else 1
    return f"{value:.{places}f}"


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
        return _say(N_("%(value)s %(unit)s cannot be compared with %(lab)s results (charted in "
                       "%(charted)s; no conversion from %(unit)s is known)."),
                    value=num(t.value), unit=t.unit, lab=_named(a), charted=chart_unit(a, inside))
    unit = threshold_unit(a, t, inside)
    values = shown(inside, unit, a)
    hits = [s for s in values if t.comparator.holds(s.value, t.value)]
    limit, window = _limit(t, unit), w.said
    skipped = len(inside) - len(values)
    tail = _n(skipped, N_(" (%(n)s result in a unit that cannot be compared were not read.)"),
              N_(" (%(n)s results in a unit that cannot be compared were not read.)")
              ) if skipped else ""
    if not values:
        return _say(N_("No %(lab)s value %(window)s could be compared with %(value)s.%(tail)s"),
                    lab=_named(a), window=window, value=num(t.value), tail=tail)
    if not hits:
        latest = values[0]
        return _n(len(values),
                  N_("None %(limit)s %(window)s (%(n)s value, latest %(latest)s at %(when)s)."
                     "%(tail)s"),
                  N_("None %(limit)s %(window)s (%(n)s values, latest %(latest)s at %(when)s)."
                     "%(tail)s"),
                  limit=limit, window=window, latest=num(latest.value),
                  when=at(latest.when, tz), tail=tail)
    listed = ", ".join(_say(N_("%(value)s at %(when)s"), value=num(s.value), when=at(s.when, tz))
                       for s in hits[:LISTED])
    more = _say(N_(" and %(n)s more"), n=len(hits) - LISTED) if len(hits) > LISTED else ""
    return _n(len(hits),
              N_("%(n)s value %(limit)s %(window)s (of %(read)s read): %(listed)s%(more)s."
                 "%(tail)s"),
              N_("%(n)s values %(limit)s %(window)s (of %(read)s read): %(listed)s%(more)s."
                 "%(tail)s"),
              limit=limit, window=window, read=len(values), listed=listed, more=more, tail=tail)


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
        also = _say(N_(" (%(value)s %(unit)s as charted)"),
                    value=num(round(sum(s.value for s in again) / len(again), 1)), unit=held)
    left = len(inside) - len(values)
    tail = _n(left, N_(" Not in the mean: %(n)s result in a unit not convertible."),
              N_(" Not in the mean: %(n)s results in a unit not convertible.")) if left else ""
    return _n(len(values),
              N_("Mean %(lab)s %(window)s: %(value)s %(unit)s%(also)s (mean of %(n)s result)."
                 "%(tail)s"),
              N_("Mean %(lab)s %(window)s: %(value)s %(unit)s%(also)s (mean of %(n)s results)."
                 "%(tail)s"),
              lab=_named(a), window=w.said,
              value=converted(mean, a, unit) if unit != held else num(round(mean, 1)), unit=unit,
              also=also, tail=tail)


EXTREME = {
    Aggregate.MAX: (N_("Highest %(lab)s %(window)s: %(value)s %(unit)s at %(when)s (the only "
                       "result)."),
                    N_("Highest %(lab)s %(window)s: %(value)s %(unit)s at %(when)s (of %(n)s "
                       "results).")),
    Aggregate.MIN: (N_("Lowest %(lab)s %(window)s: %(value)s %(unit)s at %(when)s (the only "
                       "result)."),
                    N_("Lowest %(lab)s %(window)s: %(value)s %(unit)s at %(when)s (of %(n)s "
                       "results).")),
}


def extreme_answer(a: Analyte, inside: list[LabResult], asked: Asked, w: Window,
                   tz: tzinfo) -> str | None:
    """"Highest potassium in the last 180 days: 5.6 mmol/L at 00:00 (2026-11-10) (of 2
    results)." in the unit asked (else the chart's); the earliest of equal values."""
    if asked.statistic not in EXTREME:
        return None
    unit = (asked.unit if asked.unit and in_unit(1.0, asked.unit, a) is not None
            else chart_unit(a, inside))
    values = shown(inside, unit, a)
    if not values:
        return None
    pick = max if asked.statistic == Aggregate.MAX else min
    best = pick(reversed(values), key=lambda s: s.value)
    one, many = EXTREME[asked.statistic]
    return _n(len(values), one, many, lab=_named(a), window=w.said, value=num(best.value),
              unit=unit, when=at(best.when, tz))


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
            return _say(N_("No blood pressure recorded %(window)s, and none before it in the "
                           "chart."), window=w.said)
        return _say(N_("No blood pressure recorded %(window)s. The latest before it: %(bp)s mmHg "
                       "at %(when)s."), window=w.said, bp=_bp(before), when=at(before.when, tz))
    lines = []
    if asked.statistic == Aggregate.MEAN:
        dias = [p.diastolic for p in inside if p.diastolic is not None]
        dia = f"/{num(round(sum(dias) / len(dias)))}" if dias else ""
        bp = num(round(sum(p.systolic for p in inside) / len(inside))) + dia
        lines.append(_n(len(inside),
                        N_("Mean blood pressure %(window)s: %(bp)s mmHg, the mean of %(n)s "
                           "reading."),
                        N_("Mean blood pressure %(window)s: %(bp)s mmHg, the mean of %(n)s "
                           "readings."), window=w.said, bp=bp))
    if asked.statistic in (Aggregate.MAX, Aggregate.MIN):
        pick = max if asked.statistic == Aggregate.MAX else min
        best = pick(reversed(inside), key=lambda p: p.systolic)
        lines.append(_n(len(inside), *BP_EXTREME[asked.statistic], window=w.said,
                        bp=_bp(best), when=at(best.when, tz)))
    lines += [_systolic(inside, t, w, tz) for t in asked.thresholds]
    if not lines:
        lines.append(_n(len(inside), N_("%(n)s reading %(window)s: %(listed)s."),
                        N_("%(n)s readings %(window)s: %(listed)s."),
                        window=w.said, listed=_readings(inside, tz)))
    return "\n".join(lines)


BP_EXTREME = {
    Aggregate.MAX: (N_("Highest blood pressure %(window)s (by systolic): %(bp)s mmHg at %(when)s "
                       "(the only reading)."),
                    N_("Highest blood pressure %(window)s (by systolic): %(bp)s mmHg at %(when)s "
                       "(of %(n)s readings).")),
    Aggregate.MIN: (N_("Lowest blood pressure %(window)s (by systolic): %(bp)s mmHg at %(when)s "
                       "(the only reading)."),
                    N_("Lowest blood pressure %(window)s (by systolic): %(bp)s mmHg at %(when)s "
                       "(of %(n)s readings).")),
}


def _systolic(inside: list[Pressure], t: Threshold, w: Window, tz: tzinfo) -> str:
    """The readings whose systolic passes ``t``, or none and the latest."""
    hits = [p for p in inside if t.comparator.holds(p.systolic, t.value)]
    limit = message(N_("systolic %(limit)s %(window)s"), limit=_limit(t, "mmHg"), window=w.said)
    if hits:
        return _n(len(hits), N_("%(n)s reading with %(limit)s (of %(read)s): %(listed)s."),
                  N_("%(n)s readings with %(limit)s (of %(read)s): %(listed)s."),
                  limit=limit, read=len(inside), listed=_readings(hits, tz))
    return _n(len(inside), N_("None with %(limit)s (%(n)s reading, latest %(bp)s at %(when)s)."),
              N_("None with %(limit)s (%(n)s readings, latest %(bp)s at %(when)s)."),
              limit=limit, bp=_bp(inside[0]), when=at(inside[0].when, tz))


def _readings(shown_: list[Pressure], tz: tzinfo) -> str:
    return ", ".join(_say(N_("%(value)s at %(when)s"), value=_bp(p), when=at(p.when, tz))
                     for p in shown_[:LISTED])


def _bp(p: Pressure) -> str:
    return num(p.systolic) + (f"/{num(p.diastolic)}" if p.diastolic is not None else "")
