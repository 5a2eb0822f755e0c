"""Her own name said with a request is the request, answered as without her name; her name
alone, or with who she is, is still looked up."""
from __future__ import annotations

import pytest
from smart_docgemma.agent import planning, state
from smart_docgemma.agent.extraction import read

from ..support.fixture_charts import chart

CKD = chart("01-ckd-elder.json")  # Margaret Thompson, born 1943-05-12
PREGNANT = chart("08-pregnant.json")  # Amara Nwosu


def _tools(message: str, here) -> list[str]:
    said = read(message, chart=here.in_context)
    turn = state.merge(state.new_turn(message, patient_id="pt", chart_summary=here.brief,
                                      chart=here.in_context),
                       {"request": said, "entities": said.entities})
    return planning.required_tools(turn)


@pytest.mark.parametrize("message, here, tools", [
    ("Amara needs something for heartburn", PREGNANT, []),
    ("Margaret is on what?", CKD, ["get_patient_chart"]),
    # who she is: looked up
    ("who is Amara?", PREGNANT, ["search_patient"]),
    ("is this Amara Nwosu?", PREGNANT, ["search_patient"]),
    ("Margaret Thompson born 1943-05-12", CKD, ["search_patient"]),
    ("Margaret Thompson 12/05/1943 - find her", CKD, ["search_patient"]),
])
def test_her_name_with_a_request_is_the_request(message, here, tools):
    assert _tools(message, here) == tools


def test_no_name_of_a_chart_is_a_vocabulary_word():
    """The vocabulary files' words, comments included, are read as no one's name: a name
    written in one of their examples would stop that name being read as a person."""
    from smart_docgemma.knowledge.mentions import normalise
    from smart_docgemma.reading.people import not_name_words

    names = "Margaret Thompson Robert Mensah Samuel Okoro James Wilson Amara Nwosu Kofi Asante"
    assert {w for w in names.split() if normalise(w) in not_name_words()} == set()


@pytest.mark.parametrize("message, said", [
    ("what's his potassium?", True), ("can she have ibuprofen?", True),
    ("start amoxicillin 500 tds", True), ("elle est sous quoi ?", True),
    # no patient asked of, or one named (the lookup answers who)
    ("mechanism of metformin", False), ("Grace Adeyemi", False),
])
def test_no_patient_open_is_said_when_one_is_asked_of(message, said):
    from smart_docgemma.agent.synthesis import _no_patient
    from smart_docgemma.tools.chart.in_context import ChartInContext

    request = read(message, chart=ChartInContext())
    turn = state.merge(state.new_turn(message, patient_id=None),
                       {"request": request, "entities": request.entities})
    assert bool(_no_patient(turn)) is said
