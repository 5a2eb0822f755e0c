"""The rules the seed-601 ward set (``smart_docgemma/evaluation/medagentbench_seed601.yaml``:
the benchmark's own wording, dictation, shorthand, typos, windows said as the ward says them)
found missing, without a server: the history's shorthand after "in her" ("any fractures in her
hx") reads her past problems as "in her history" does; a day said by the clock ("since this time
yesterday", "desde ayer a esta hora") is the 24 hours just passed, never yesterday's midnight.
Found by the holdout: a surname only guessed to be a drug (fuzzy) typed before its birth date
("mrn joanie sawayn dob …", near Savaysa) still names her; "what's" before a first name stands
where "is" does ("what's Dannie on?": another patient named in this chart); her list asked
without its subject ("on any blood thinners?"); her past asked by the injury then "hx"
("shoulder injury hx?") or with more words after "hx of" ("any hx of shoulder injury?")."""
from __future__ import annotations

import pytest
from smart_docgemma.agent.extraction import extract
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


@pytest.mark.parametrize(("said", "name"), [
    ("mrn joanie sawayn dob 3/7/1959", "joanie sawayn"),
    ("mrn joanie sawayn born 1959-03-07", "joanie sawayn")])
def test_a_surname_only_guessed_to_be_a_drug_before_a_birth_date_names_her(said, name):
    found = extract(said)
    assert found.patient_names == (name,) and found.drugs == ()


@pytest.mark.parametrize(("said", "drug"), [("give zocor dob 1950-01-01", "simvastatin"),
                                            ("mrn for sam zocor dob 1950-01-01", "simvastatin"),
                                            ("mrn for the savaysa dob", "edoxaban")])
def test_a_drug_spelt_exactly_before_a_birth_date_stays_the_drug(said, drug):
    found = extract(said)
    # the drug is never part of a name ("sam" alone is a given name: someone)
    assert found.drugs == (drug,)
    assert not any(w.lower() in {"zocor", "savaysa"} for n in found.patient_names
                   for w in n.split())


@pytest.mark.parametrize("said", ["what's Dannie on?", "what\u2019s Dannie on?", "whats Dannie on?"])
def test_a_first_name_after_whats_is_someone(said):
    assert extract(said).patient_names == ("Dannie",)


@pytest.mark.parametrize("said", ["what's Lasix dose?", "what's Hb?", "what's INR today?",
                                  "What's the K?", "what's Parkinson's", "what's January like"])
def test_a_drug_or_word_after_whats_is_no_one(said):
    assert extract(said).patient_names == ()


@pytest.mark.parametrize("said", ["on any blood thinners?", "still on any statins?",
                                  "on any anticoagulants?"])
def test_her_list_asked_without_its_subject(said):
    assert chart_focus(said) == "medications"
    assert "chart_question" in extract(said).actions


@pytest.mark.parametrize("said", ["on any given day?", "on any ward?", "on any day shift?",
                                  "is that ok on any ward"])
def test_on_any_day_or_place_is_no_list(said):
    assert chart_focus(said) is None


@pytest.mark.parametrize("said", ["shoulder injury hx?", "fracture hx?", "falls history?",
                                  "any hx of shoulder injury?"])
def test_her_past_asked_by_the_injury_and_hx(said):
    assert chart_focus(said) == "history"
    assert "chart_question" in extract(said).actions


@pytest.mark.parametrize(("said", "focus"), [("smoking hx?", None), ("surgical hx", None),
                                             ("sport injury clinic", None),
                                             ("vaccination history", "immunizations")])
def test_other_histories_are_not_her_injuries(said, focus):
    assert chart_focus(said) == focus
