"""The rules the seed-647 ward set (``smart_docgemma/evaluation/medagentbench_seed647.yaml``:
the benchmark's own wording, dictation, shorthand, typos, windows said as the ward says them,
other patients of the population named in one chart) found missing, without a server: the past
medical history's shorthand asked as the question itself ("pmhx - any seizures?", "pmhx?") reads
her past problems, as "pmhx of asthma?" already did."""
from __future__ import annotations

import pytest
from smart_docgemma.agent.extraction import extract
from smart_docgemma.tools.chart.answers import chart_focus


@pytest.mark.parametrize("said", ["pmhx - any seizures?", "pmhx?", "PMHx?", "pmhx: seizures?",
                                  "PMHx \u2013 asthma?", "pmhx", "what's his pmhx",
                                  "whats her pmhx?"])
def test_the_past_history_shorthand_asked_as_the_question_reads_her_past(said):
    assert chart_focus(said) == "history"
    assert "chart_question" in extract(said).actions


@pytest.mark.parametrize("said", ["send pmhx to gp", "pmhx reviewed", "pmhx taken from her daughter",
                                  "pmhxyz?"])
def test_pmhx_said_of_something_else_asks_no_history(said):
    assert chart_focus(said) is None
