"""Results "since admission", "this admission", "depuis l'admission", "desde el ingreso": the
window from the start of the encounter in progress on the chart.

An encounter in progress (FHIR ``Encounter.status``) with a start is the current stay, an
inpatient, emergency or observation one before any other. Without one the answer says that no
admission is in progress and gives the latest results, or, when a statistic or a threshold is
asked ("mean Mg this admission?"), answers it over the last ``admission_fallback_days`` days
(``data/chart_windows.yaml``) and says so; when the encounters could not be read it
says so, never "no admission".
"""
from __future__ import annotations

import math
from dataclasses import replace
from datetime import UTC, datetime, time

from ...languages import N_, answer_language, day, message, say
from ..words.windows import Asked, admission_fallback_days
from .chartdata import ChartData, ChartEncounter

# the search for the stay in progress (the ``encounters`` section of a chart read)
SEARCH = ("Encounter", {"status": "in-progress,arrived,triaged,onleave", "_sort": "-date",
                        "_count": 5})
_IN_PROGRESS = frozenset({"in-progress", "arrived", "triaged", "onleave"})


def current(encounters: tuple[ChartEncounter, ...]) -> ChartEncounter | None:
    """The stay in progress: an admission (inpatient, emergency, observation) before any other
    encounter in progress, the latest start first; None when none is in progress."""
    going = [e for e in encounters if e.status in _IN_PROGRESS and e.date and not e.end]
    going.sort(key=lambda e: (e.admission is not None, e.date), reverse=True)
    return going[0] if going else None


def resolved(asked: Asked, d: ChartData, now: datetime | None = None) -> tuple[Asked, str]:
    """``asked`` with "admission" made the hours since the stay began, and the sentence saying
    from when; ("", unchanged) for any other window. Without a stay in progress the window is
    dropped (the latest results answer) and the sentence says why."""
    if asked.window != "admission":
        return asked, ""
    why = d.unavailable.get("encounters")
    if why:
        return replace(asked, window=None), _say(N_(
            "The encounters could not be read (%(why)s), so the admission's start is not known; "
            "the latest results follow."), why=why)
    stay = current(d.encounters)
    if stay is None and (asked.statistic or asked.thresholds):
        # "mean Mg this admission?" with no stay open: the statistic is still answered, over
        # the days a ward stay most often spans, and the answer says which window that was
        days = admission_fallback_days()
        return replace(asked, window=f"{days}d"), _say(N_(
            "No admission is in progress on the chart (no current encounter), so the window "
            "used instead is the last %(days)s days:"), days=days)
    if stay is None:
        return replace(asked, window=None), _say(N_(
            "No admission is in progress on the chart (no current encounter), so there is no "
            "'since admission' window; the latest results follow."))
    start = datetime.combine(datetime.fromisoformat(stay.date).date(), time(0), tzinfo=UTC)
    hours = max(1, math.ceil(((now or datetime.now(UTC)) - start).total_seconds() / 3600))
    return replace(asked, window=f"{hours}h"), _say(N_(
        "Since admission on %(date)s (%(ref)s, in progress):"), date=day(stay.date), ref=stay.ref)


def _say(msgid: str, **args: object) -> str:
    return say(message(msgid, **args), answer_language())
