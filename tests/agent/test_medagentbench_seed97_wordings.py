"""MedAgentBench-style ward tasks as a second new Synthea seed (97) wrote them: a name typed in
lower case before its birth date, a birth date whose day and month cannot be told apart
("07/09/1986": both readings searched, never one guessed). No model, no server: the agent with
recording tools."""
from __future__ import annotations

import pytest
from smart_docgemma.agent.extraction import extract, find_birth_dates
from smart_docgemma.agent.graph import Agent
from smart_docgemma.tools.base import ToolContext

from .conftest import FakeTool, ok
from .test_understanding import USER_SCOPES, _tools

ID = "9a45b7ec-0b16-dc01-2660-e8337c834e66"


def _search(message):
    tools = _tools()
    tools["search_patient"] = FakeTool("search_patient", ok("Beverley336 Mosciski958",
                                                            count=1, patients=[{"id": ID}]))
    ctx = ToolContext(patient_id=None, scopes=USER_SCOPES)
    Agent(None, {n: f.tool() for n, f in tools.items()}, ctx).run(message)
    return {n: f.calls for n, f in tools.items() if f.calls}


@pytest.mark.parametrize("said, readings", [
    ("dob 07/09/1986", ("1986-07-09", "1986-09-07")),  # English: month or day first, both
    ("born 12/21/1970", ("1970-12-21",)),  # a number over 12 is the day
    ("dob 21/12/1970", ("1970-12-21",)),
    ("née le 07/09/1986", ("1986-09-07",)),  # French, Portuguese, Spanish: the day first
    ("fecha de nacimiento 03/04/1961", ("1961-04-03",)),
    ("data de nascimento 05/05/1950", ("1950-05-05",)),
    ("DOB 21 Dec 1970", ("1970-12-21",)),
    ("dob 13/13/1970", ()),  # no date
])
def test_every_reading_of_a_birth_date_and_only_those(said, readings):
    assert find_birth_dates(said) == readings
    assert extract(said).birth_date == (readings[0] if len(readings) == 1 else None)


@pytest.mark.parametrize("message, name, born", [
    ("mrn for beverley mosciski dob 07/09/1986", "beverley mosciski", "1986-07-09,1986-09-07"),
    ("patient lookup: beverley mosciski, dob 1986-07-09", "beverley mosciski", "1986-07-09"),
    ("MRN for Beverley Mosciski DOB 9 Jul 1986", "Beverley Mosciski", "1986-07-09"),
])
def test_a_name_in_any_case_with_its_birth_date_is_searched_with_every_reading(message, name, born):
    calls = _search(message)
    assert list(calls) == ["search_patient"], calls
    assert calls["search_patient"][0] == {"name": name, "birth_date": born}


@pytest.mark.parametrize("message", [
    "please confirm identity dob 1980-01-01", "check his dob", "pt name and dob verified",
])
def test_words_about_identifying_someone_before_a_birth_date_name_no_one(message):
    assert extract(message).patient_names == ()
