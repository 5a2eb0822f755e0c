"""probe29_intl's rules, each with near words that must not trigger: a day named after a word of
since ("depuis le 1er décembre", "desde el 1 de diciembre") starts a window running to now, while
the day said alone stays that day; her prescriptions as "rx" after a plural possessive, looked
over or doubted, are the whole-list review, while "rx" as an order's verb or with a time after it
is not; "terapêutica" names her list, the masculine adjective does not."""
from __future__ import annotations

from datetime import UTC, datetime

import pytest
from smart_docgemma.tools.chart.answers import chart_focus
from smart_docgemma.tools.words import windows

NOW = datetime(2026, 12, 7, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize(("said", "key"), [
    ("glycémies depuis le 1er décembre", "from12-1"), ("magnesio mas bajo desde el 1 de diciembre",
                                                       "from12-1"),
    ("K desde o dia 1 de dezembro", "from12-1"), ("creat since Dec 1st", "from12-1"),
    ("INR depuis le 3 novembre 2025", "from11-3-2025"),
])
def test_a_day_after_since_starts_a_window_to_now(said, key):
    asked = windows.asked(said)
    assert asked.window == key
    window = windows.bounds(key, NOW, UTC)
    assert window.end == NOW and window.start.day == int(key.split("-")[1])
    assert window.label.startswith("since ")


@pytest.mark.parametrize(("said", "key"), [
    ("glycémie le 1er décembre", "on12-1"),       # the day alone: that day only
    ("K on 3 May", "on5-3"),
    ("creat depuis décembre", "m12"),             # a month after since: from its first day
    ("INR depuis lundi", "since-0"),              # a weekday after since
])
def test_near_words_day_alone_or_month_after_since(said, key):
    assert windows.asked(said).window == key


def test_the_day_since_a_future_date_this_year_is_last_years():
    window = windows.bounds("from12-20", NOW, UTC)
    assert window.start == datetime(2025, 12, 20, tzinfo=UTC) and window.end == NOW


@pytest.mark.parametrize("said", [
    "fais-moi le tour de ses rx, y a-tu de quoi qui cloche?", "revisá sus rx",
    "algum risco nos seus rx?", "faz-me a revisão da terapêutica desta senhora",
])
def test_her_rx_looked_over_and_the_therapeutics_are_the_review(said):
    assert chart_focus(said) == "review"


@pytest.mark.parametrize(("said", "focus"), [
    ("terapêutica habitual?", "medications"),     # her list named, no review asked
    ("ses rx de la semaine", None),               # a time after it: not her list judged
    ("rx amoxicilline 500 mg", None),             # "rx" as the order's verb
    ("check ses rx pour demain", None),
    ("nível terapêutico da vancomicina?", None),  # the masculine adjective
    ("INR na faixa terapêutica?", "lab:INR"),     # the INR's range, a lab first
])
def test_near_words_rx_as_a_verb_and_the_adjective(said, focus):
    assert chart_focus(said) == focus
