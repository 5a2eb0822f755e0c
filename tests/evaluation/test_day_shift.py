"""A ward case asked by the calendar means what its author meant at any hour of the run: run
just after midnight, the results meant inside "today" are placed inside it, in their order, and
those meant before it stay before it; rolling windows and later hours are as written."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from smart_docgemma.evaluation.cases import Case
from smart_docgemma.evaluation.ward_run import warped_hours, windowed
from smart_docgemma.tools.words.windows import bounds

EARLY = datetime(2026, 12, 6, 0, 40, tzinfo=UTC)


def _inside(query: str, window: str, hours: float, now: datetime = EARLY) -> bool:
    placed = now - timedelta(hours=warped_hours(hours, query, now, UTC))
    return bounds(window, now, UTC).start <= placed <= now


@pytest.mark.parametrize("hours, inside", [(1, True), (6, True), (13, True), (30, False)])
def test_today_just_after_midnight_keeps_what_was_meant_inside_it(hours, inside):
    assert _inside("whats the latest magnesium today", "today", hours) is inside


def test_the_order_of_the_results_holds():
    placed = [warped_hours(h, "mean cbg today", EARLY, UTC) for h in (1, 3, 8, 30, 50)]
    assert placed == sorted(placed)


@pytest.mark.parametrize("query, hours", [
    ("magnesium in the last 24 hours", 1), ("magnesium in the last 24 hours", 30),
])
def test_rolling_windows_and_later_hours_are_as_written(query, hours):
    assert warped_hours(hours, query, EARLY, UTC) == hours
    later = datetime(2026, 12, 6, 16, 0, tzinfo=UTC)
    assert warped_hours(hours, "latest magnesium today", later, UTC) == hours


def test_since_yesterday_evening_just_after_midnight():
    assert _inside("average fingerstick since yesterday evening", "night", 10)
    assert warped_hours(3, "glucose this morning", EARLY, UTC) == 3  # the morning has not begun


def test_a_follow_up_keeps_the_window_of_the_message_before_it():
    # seed 367 at 00:42: "Mg today?" then "and in mmol per litre?" placed the result 3 h before,
    # yesterday; the window the results are set out for is the earlier message's
    case = Case(id="c", category="single_tool", route="tool", query="and in mmol per litre?",
                before=["Mg today?"])
    assert windowed(case) == "Mg today?"
    placed = EARLY - timedelta(hours=warped_hours(3, windowed(case), EARLY, UTC))
    assert bounds("today", EARLY, UTC).start <= placed
    alone = Case(id="d", category="single_tool", route="tool", query="and in mmol per litre?")
    assert windowed(alone) == "and in mmol per litre?"
