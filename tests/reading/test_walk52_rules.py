"""A walk after probe26_en: one day named is a window ("glucose on 3rd May", "le 3 mai"); a
window that ended before now is read from its end back (the newest page held only later
results, and "no glucose in May, none before it" was said of a chart holding 31); a full page
inside a window says it is not the window's whole."""
from __future__ import annotations

from datetime import UTC, datetime

import pytest
from smart_docgemma.knowledge import analytes
from smart_docgemma.tools.args import PatientChartArgs
from smart_docgemma.tools.chart import chart, labanswers
from smart_docgemma.tools.chart.labs import LabResult
from smart_docgemma.tools.words.windows import Asked, asked, bounds, zone

NOW = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize("said, key", [
    ("what was her glucose on 3rd May?", "on5-3"), ("glucose on May 3", "on5-3"),
    ("sa glycémie le 3 mai ?", "on5-3"), ("a glicemia em 3 de maio de 2026?", "on5-3-2026"),
    ("la glucosa el 3 de mayo", "on5-3"), ("K on the 10th of November", "on11-10"),
])
def test_one_day_named_is_a_window(said, key):
    assert asked(said).window == key


@pytest.mark.parametrize("said", ["INR on 5/10", "on 31st June glucose", "glucose on 29 February 2026",
                                  "glucose in May"])
def test_near_words_no_day_window(said):
    assert not (asked(said).window or "").startswith("on")


def test_a_day_window_is_that_day_the_last_one_not_after_today():
    w = bounds("on5-3", NOW, zone("UTC"))
    assert (w.start.date().isoformat(), w.end.isoformat()) == (
        "2026-05-03", "2026-05-03T23:59:59+00:00")
    assert bounds("on12-25", NOW, zone("UTC")).start.year == 2025
    assert bounds("on2-29", NOW, zone("UTC")).start.year == 2024


def test_a_window_that_ended_is_read_from_its_end_back():
    args = PatientChartArgs(patient_id="p1", focus="lab:Glucose", window="c5")
    _, params = chart._sections(args, zone("UTC"))["observations"]
    assert params["date"].startswith("le2026-05-31T23:59:59") or params["date"].startswith("le20")
    ongoing = PatientChartArgs(patient_id="p1", focus="lab:Glucose", window="24h")
    assert "date" not in chart._sections(ongoing, zone("UTC"))["observations"][1]


def _glucose(day: int, month: int = 10) -> LabResult:
    when = datetime(2026, month, day, tzinfo=UTC)
    return LabResult(analyte="Glucose", code="2339-0", specimen="blood", value=100.0 + day,
                     unit="mg/dL", reported=f"{100 + day} mg/dL", when=when,
                     ref=f"Observation/g{month}-{day}")


def test_a_full_page_inside_the_window_says_it_is_not_the_whole():
    a = analytes.analyte("Glucose")
    # a window is read up to a statistic's count: that many, all inside it, is not its whole
    full = labanswers.labs.STATISTIC_WINDOW
    page = [_glucose(d % 28 + 1, 1 + d // 28) for d in range(full)]
    page.sort(key=lambda r: r.when, reverse=True)
    said = labanswers.window_answer(a, page, Asked("y2026"), NOW, UTC)
    assert f"Only the newest {full} results were read" in said
    fewer = page[:170]  # a year of daily sugars read whole (fewer than the page asked)
    assert "Only the newest" not in labanswers.window_answer(a, fewer, Asked("y2026"), NOW, UTC)
