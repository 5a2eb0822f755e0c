"""The rules the seed-647 ward set (``smart_docgemma/evaluation/medagentbench_seed647.yaml``:
the benchmark's own wording, dictation, shorthand, typos, windows said as the ward says them,
other patients of the population named in one chart) found missing, without a server: the past
medical history's shorthand asked as the question itself ("pmhx - any seizures?", "pmhx?") reads
her past problems, as "pmhx of asthma?" already did. Found by the holdout: the card's own verb
refused with the card left unsaid after a cancel ("hold off on that, don't send") takes the card
back, as "don't send it" did; a verb refused of something else is still no cancel."""
from __future__ import annotations

import pytest
from smart_docgemma.agent import amendments
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


# Found by the holdout (unsafe: the referral stayed pending after it was taken back)
@pytest.mark.parametrize("said", ["hold off on that, don't send", "don't send", "hold off, don't order",
                                  "don't order", "nah, do not send", "don't send the referral"])
def test_the_card_s_own_verb_refused_without_its_object_cancels(said):
    assert amendments.cancels(said)


@pytest.mark.parametrize("said", ["don't send the referral before the x-ray",
                                  "don't order the ct yet, first a K", "don't send him home yet",
                                  "don't order anything else", "don't send bloods till 8",
                                  "don't order a CT", "don't forget to send it"])
def test_a_verb_refused_of_something_else_still_is_no_cancel(said):
    assert not amendments.cancels(said)
