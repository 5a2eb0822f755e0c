"""Clock times as typed on the ward, in the four languages: a four-figure time after a day's
word or with its leading zero, an hour after "a las" before a comma; a year or a count is never
a time. Pure: no HAPI."""
from __future__ import annotations

from datetime import UTC, datetime

import pytest
from smart_docgemma.tools.words import when

NOW = datetime(2026, 12, 5, 2, 30, tzinfo=UTC)


@pytest.mark.parametrize(("text", "hhmm"), [
    ("fbc, u&e tmrw 0700", "07:00"), ("NFS demain 0630", "06:30"),
    ("TA 140/90 a las 6, registrar", "06:00"), ("cbg 3.2 at 0600", "06:00"),
    ("hemograma amanhã 0800", "08:00"),
])
def test_a_clock_time_as_typed(text, hhmm):
    at = when.parse(text, "UTC", NOW).at
    assert at is not None and at.strftime("%H:%M") == hhmm


@pytest.mark.parametrize("text", [
    "amox 500 mg x 2000 tablets", "cbc 2024 results", "seen in 2019", "temp 38 a las 6,5?",
    "dispense 0.5 mg",
])
def test_a_year_a_count_or_a_decimal_is_no_time(text):
    assert when.parse(text, "UTC", NOW).at is None
