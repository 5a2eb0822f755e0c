"""Rules from the forty-first unseen English set (probe41_en): each a pure reading of words, with
the near words that must not trigger it."""
from __future__ import annotations

import pytest
from smart_docgemma.agent import clarification
from smart_docgemma.agent.extraction import read


def _asked(before: str) -> list[dict[str, str]]:
    return [{"role": "user", "content": before}, {"role": "assistant", "content": "…"}]


def _several(said: str, before: str):
    r = read(said)
    return clarification.act_on_several(said, r.entities, r.ward.tests, _asked(before))


@pytest.mark.parametrize(("said", "before", "done"), [
    ("ok stop it then", "is clarithromycin ok with his warfarin?", "stop"),  # p41-15
    ("stop it", "is tramadol ok with his sertraline", "stop"),
    ("ok hold that", "aspirin and warfarin together ok?", "hold"),
    ("start it 500 bd", "clarithromycin or doxycycline for him?", "start"),
])
def test_an_act_on_it_after_two_drugs_asks_which(said, before, done):
    found = _several(said, before)
    assert found is not None and found[0] == done and len(found[1]) == 2


@pytest.mark.parametrize(("said", "before"), [
    ("stop it", "is clarithromycin ok for him?"),  # one drug: that drug (acts_on_discussed)
    ("stop the warfarin", "is clarithromycin ok with his warfarin?"),  # a drug named
    ("stop it and order an INR", "is clarithromycin ok with his warfarin?"),  # a test named
    ("stop it", "is Mrs Banda on amoxicillin and warfarin?"),  # someone else's
    ("what's his INR?", "is clarithromycin ok with his warfarin?"),  # no act on it
    ("stop", "is clarithromycin ok with his warfarin?"),  # no pronoun: a cancel word
])
def test_no_question_back_without_two_drugs_and_a_pronoun(said, before):
    assert _several(said, before) is None


def test_no_question_back_without_an_earlier_message():
    r = read("stop it")
    assert clarification.act_on_several("stop it", r.entities, r.ward.tests, []) is None
