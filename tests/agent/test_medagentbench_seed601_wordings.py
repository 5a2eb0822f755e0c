"""The rules the seed-601 ward set (``smart_docgemma/evaluation/medagentbench_seed601.yaml``:
the benchmark's own wording, dictation, shorthand, typos, windows said as the ward says them)
found missing, without a server: the history's shorthand after "in her" ("any fractures in her
hx") reads her past problems as "in her history" does; a day said by the clock ("since this time
yesterday", "desde ayer a esta hora") is the 24 hours just passed, never yesterday's midnight."""
from __future__ import annotations

import pytest
from smart_docgemma.tools.chart.answers import chart_focus
from smart_docgemma.tools.words.windows import asked


@pytest.mark.parametrize("said", ["any fractures in her hx", "any fractures in her history",
                                  "fractures in his pmhx?", "falls in the pt's hx?"])
def test_the_history_shorthand_after_in_her_reads_her_past(said):
    assert chart_focus(said) == "history"


@pytest.mark.parametrize(("said", "focus"), [("send hx to gp", None),
                                             ("hx taken in her ED notes", "notes")])
def test_hx_not_after_in_her_is_no_history_asked(said, focus):
    assert chart_focus(said) == focus


@pytest.mark.parametrize("said", ["avg fingersticks since this time yesterday",
                                  "mag level since this time yesterday?",
                                  "mean cbg since the same time yesterday",
                                  "glycémie moyenne depuis hier à la même heure",
                                  "promedio de glucemia desde ayer a esta hora",
                                  "média da glicemia desde ontem a esta hora"])
def test_a_day_said_by_the_clock_is_the_last_24_hours(said):
    assert asked(said).window == "24h"


@pytest.mark.parametrize(("said", "window"), [("avg cbg since yesterday", "yesterday"),
                                              ("mean cbg since yesterday evening", "night"),
                                              ("what time yesterday was the K drawn", "yesterday"),
                                              ("glycémie depuis hier", "yesterday")])
def test_yesterday_without_the_clock_stays_the_calendar_day(said, window):
    assert asked(said).window == window
