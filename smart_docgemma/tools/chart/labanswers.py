"""Answers to a question about one analyte: "last potassium?", "latest finger-prick glucose?",
"most recent magnesium within the last 24 hours?", "mean CBG over the past 24h?", "last HbA1c
and when was it recorded?".

The analyte is read across all its codes (``knowledge.analytes``): a narrower analyte with no
result of its own (capillary glucose) answers with its family's latest result (glucose) and says
so, never "no result" while one exists. A window answer states the window, each value in it with
its time and unit, or that there is none and the last value before it; a mean states how many
results it is the mean of. A result older than a year says so.
"""
from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, tzinfo
from typing import Any

from ...knowledge import analytes
from ...knowledge.analytes import Analyte
from ...languages import N_, answer_language, day, day_text, lab_name, message, say
from ..words.windows import Asked, Window, bounds
from . import labs, ranges, records, windowanswers
from .chartdata import ChartData, ChartSeries
from .labs import LabResult

LAB_POINTS = 5  # results listed for one lab, newest first
LAB_WINDOW = labs.WINDOW
WINDOW_POINTS = 12  # results listed inside a window
YEAR = timedelta(days=365)


def sentence(msgid: str, **args: Any) -> str:
    """A sentence of the answer in this turn's language (English: the msgid filled)."""
    return say(message(msgid, **args), answer_language())


def day_said(iso: str) -> str:
    """A date of the answer as this turn's language writes it (ISO in English)."""
    return day_text(iso, answer_language())


def lab_said(entry: ChartSeries | None, name: str = "") -> str:
    """A test's name in this turn's language (``translations/labs.yaml``), else as read."""
    return entry.label() if entry else lab_name(name, answer_language(), None)


def stamp(when: datetime | None, tz: tzinfo) -> str:
    """"2026-11-27 14:02 UTC" in the site's time zone."""
    if when is None:
        return sentence(N_("time not recorded"))
    local = when.astimezone(tz)
    return local.strftime("%Y-%m-%d %H:%M ") + (local.tzname() or "")


def lab_answer(focus: str, d: ChartData, asked: Asked | None = None,
               observations: list[dict[str, Any]] | None = None, now: datetime | None = None,
               tz: tzinfo = UTC, total: int | None = None) -> str:
    """The answer for ``lab:<analyte>``: the latest result with its trend, or the window's."""
    a = analytes.analyte(focus.partition(":")[2])
    why = d.unavailable.get("observations")
    if why:
        return sentence(N_("%(what)s: NOT AVAILABLE (%(why)s) — do not assume there are none."),
                    what=lab_said(None, a.name), why=why)
    asked = asked or Asked()
    if asked.window and observations is not None:
        found = labs.results(observations, a, tz)
        return window_answer(a, found, asked, now or datetime.now(UTC), tz)
    said = latest_answer(a, d, (now or datetime.now(UTC)).date(), asked.unit, asked.count)
    if (asked.statistic or asked.thresholds) and observations is not None:
        # "highest potassium?", "peak glucose?", "was she ever hypo?": over every result read
        stat = of_all_read(a, labs.results(observations, a, tz), asked, tz, total)
        said = f"{stat}\n{said}" if stat else said
    judged = ranges.judged(a, d) if asked.judge else ""
    return f"{said}\n{judged}" if judged else said


def of_all_read(a: Analyte, found: list[LabResult], asked: Asked, tz: tzinfo,
                total: int | None = None) -> str:
    """The highest, lowest or mean, or a threshold's values, asked with no window: over every
    result read, saying so — on file when all were read (the server's ``total`` of them, when it
    counted; else fewer than a page), else the newest read with its first date and that older
    results were not (a statistic is never of the five results listed)."""
    chosen, _ = _own_first(a, found)
    dated = [r for r in chosen if r.when]
    if not dated:
        return ""
    start, end = dated[-1].when, dated[0].when
    assert start is not None and end is not None
    every = len(found) >= total if total is not None else len(found) < labs.WINDOW
    scope = (message(N_("on file")) if every else
             message(N_("in the newest results read (from %(start)s; older ones not read)"),
                     start=day(start.date().isoformat())))
    w = Window(start, end, "", scope)
    said = [windowanswers.threshold_answer(a, dated, t, w, tz) for t in asked.thresholds]
    if asked.statistic:
        said.append((windowanswers.mean_answer(a, dated, asked, w) if asked.statistic == "mean"
                     else windowanswers.extreme_answer(a, dated, asked, w, tz)) or "")
    return "\n".join(s for s in said if s)


def latest_answer(a: Analyte, d: ChartData, today: date, unit: str | None = None,
                  count: int | None = None) -> str:
    """Latest value, unit, date, arrow against the previous; the last five newest first (the
    ``count`` asked, and how many there were when fewer exist); in the unit asked too ("most
    recent CBG in mmol/L?") when it is not the chart's."""
    series = d.labs + d.vitals
    entries = [e for e in series if e.code in a.codes]
    lead = ""
    if not entries and a.family:
        entries = [e for e in series if e.code in analytes.codes_with_family(a)]
        if entries:
            lead = (
                f"No {a.name.lower()} result in the chart (searched LOINC {', '.join(a.codes)}); "
                f"the latest {a.family.lower()} of another specimen follows.\n"
            )
    if not entries:
        codes = analytes.codes_with_family(a)
        return sentence(
            N_("No %(name)s result in the chart (searched LOINC %(codes)s, all dates)."),
            name=lab_said(None, a.name),
            codes=", ".join(codes),
        )
    e = max(entries, key=lambda e: (e.latest.date, e.count))
    points = list(reversed(e.series))[:count or LAB_POINTS]
    latest = points[0]
    value = dict(
        name=lab_said(e), value=records.num(latest.value),
        unit=e.unit + _also_in(latest.value, e.unit, unit, a), date=day(latest.date),
    )
    lines = [
        sentence(
            N_(
                "Latest %(name)s: %(value)s %(unit)s on %(date)s "
                "(%(direction)s from %(before)s on %(then)s)."
            ),
            direction=e.direction,
            before=records.num(points[1].value),
            then=day(points[1].date),
            **value,
        )
        if len(points) > 1
        else sentence(
            N_("Latest %(name)s: %(value)s %(unit)s on %(date)s (the only result)."), **value
        )
    ]
    if len(points) > 1:
        trend = ", ".join(f"{records.num(p.value)} ({day_said(p.date)})" for p in points)
        total = (sentence(N_("the newest %(n)s read"), n=e.count) if e.count >= LAB_WINDOW
                 else sentence(N_("%(n)s in all"), n=e.count))
        lines.append(
            sentence(
                N_("Last %(n)s results, newest first: %(trend)s (%(total)s)."),
                n=len(points),
                trend=trend,
                total=total,
            )
        )
    if count and e.count < count:
        lines.append(sentence(N_("%(asked)s asked: only %(n)s on file."), asked=count, n=e.count))
    old = age_said(latest.date, today)
    if old:
        lines.append(old)
    return lead + "\n".join(lines)


def _also_in(value: float, charted: str, unit: str | None, a: Analyte) -> str:
    """" (5.0 mmol/L)", written after the charted unit: the value in the unit asked, when that
    is another unit the analyte converts to ("" otherwise)."""
    if not unit or analytes.unit_key(unit) == analytes.unit_key(charted):
        return ""
    mine = analytes.convert(value, charted, a)
    there = windowanswers.in_unit(mine, unit, a) if mine is not None else None
    return "" if there is None else f" ({windowanswers.converted(there, a, unit)} {unit})"


def age_said(iso: str, today: date) -> str:
    """"Recorded 1 year 8 months ago: older than a year." for a result over a year old."""
    try:
        taken = date.fromisoformat(iso[:10])
    except ValueError:
        return ""
    months = (today.year - taken.year) * 12 + today.month - taken.month - (today.day < taken.day)
    if today - taken <= YEAR:
        return ""
    years, rest = divmod(months, 12)
    span = f"{years} year{'s' if years != 1 else ''}" + (
        f" {rest} month{'s' if rest != 1 else ''}" if rest else ""
    )
    return f"That result was recorded {span} ago: older than a year."


def _own_first(a: Analyte, found: list[LabResult]) -> tuple[list[LabResult], str]:
    """The analyte's own results, else its family's with a sentence saying so."""
    mine = labs.own(found, a)
    if mine or not a.family:
        return mine, ""
    wider = [r for r in found if r.converted]
    if not wider:
        return [], ""
    return wider, (f"No {a.name.lower()} result in the chart (LOINC {', '.join(a.codes)}); "
                   f"{a.family.lower()} results of other specimens are used.")


def _line(r: LabResult, tz: tzinfo) -> str:
    return sentence(N_("%(value)s at %(when)s (%(specimen)s, LOINC %(code)s)"), value=r.text(),
                    when=stamp(r.when, tz), specimen=r.specimen, code=r.code)


def window_answer(
    a: Analyte, found: list[LabResult], asked: Asked, now: datetime, tz: tzinfo
) -> str:
    """Every value in the window with its time (or none, and the last before it); the mean,
    the highest or the lowest asked."""
    assert asked.window is not None
    w = bounds(asked.window, now, tz)
    chosen, lead = _own_first(a, found)
    inside = [r for r in chosen if r.when and w.start <= r.when <= w.end]
    span = sentence(N_("%(window)s (from %(start)s)"), window=w.said, start=stamp(w.start, tz))
    head = [lead] if lead else []
    if not inside:
        return "\n".join(head + [_none_inside(a, chosen, span, tz, w.start)])
    if len(found) >= labs.STATISTIC_WINDOW and inside[-1] is chosen[-1]:
        # a window is read up to a statistic's count (chart.plan): that many, all inside the
        # window, and its older results were not read, so no count, mean or extreme here is
        # said to be the window's whole
        head.append(sentence(N_("Only the newest %(n)s results were read and the window holds "
                                "more: the count, mean, highest and lowest below are of those "
                                "read."), n=len(found)))
    for t in asked.thresholds:  # asked whether any value passed it: answered, not listed
        head.append(windowanswers.threshold_answer(a, inside, t, w, tz))
    mean = windowanswers.mean_answer(a, inside, asked, w) if asked.statistic == "mean" else None
    mean = mean or windowanswers.extreme_answer(a, inside, asked, w, tz)
    if mean:
        head.append(mean)
    if asked.thresholds and not mean:
        return "\n".join(head)
    latest = inside[0]
    head.append(sentence(
        N_("%(lab)s %(span)s: %(n)s result; the latest %(value)s at %(when)s.") if len(inside) == 1
        else N_("%(lab)s %(span)s: %(n)s results; the latest %(value)s at %(when)s."),
        lab=lab_name(a.name, answer_language()), span=span, n=len(inside),
        value=latest.text() + _also_in(latest.value, latest.unit, asked.unit, a),
        when=stamp(latest.when, tz)))
    head += [f"- {_line(r, tz)}" for r in inside[:WINDOW_POINTS]]
    return "\n".join(head)


def _none_inside(
    a: Analyte, chosen: list[LabResult], span: str, tz: tzinfo, start: datetime
) -> str:
    before = [r for r in chosen if r.when and r.when < start]
    named = lab_name(a.name, answer_language()).lower()
    if before:
        return sentence(N_("No %(lab)s result %(span)s. The last one before it: %(line)s."),
                        lab=named, span=span, line=_line(before[0], tz))
    return sentence(N_("No %(lab)s result %(span)s, and none in the chart before it (searched "
                       "LOINC %(codes)s)."),
                    lab=named, span=span, codes=", ".join(analytes.codes_with_family(a)))
