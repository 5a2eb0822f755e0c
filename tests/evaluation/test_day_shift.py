"""An evaluation run without a configured site zone takes one in which its hour is early
afternoon, so a case's "today" over a result placed an hour before the run holds at 00:30."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from smart_docgemma.evaluation.ward_run import day_shift_zone
from smart_docgemma.tools.words.windows import bounds


@pytest.mark.parametrize("hour", range(24))
def test_every_hour_of_the_run_falls_in_the_afternoon(hour):
    now = datetime(2026, 12, 6, hour, 40, tzinfo=UTC)
    assert now.astimezone(ZoneInfo(day_shift_zone(now))).hour == 14


def test_a_result_an_hour_before_a_run_after_midnight_is_today_and_last_evening_is_since_yesterday():
    now = datetime(2026, 12, 6, 0, 40, tzinfo=UTC)
    tz = ZoneInfo(day_shift_zone(now))
    today = bounds("today", now, tz)
    assert today.start <= now - timedelta(hours=1) <= today.end
    # under UTC the same result falls on the day before: the case would fail at this hour
    assert not bounds("today", now, UTC).start <= now - timedelta(hours=1)
    since = bounds("yesterday", now, tz)
    assert since.start <= now - timedelta(hours=20)
