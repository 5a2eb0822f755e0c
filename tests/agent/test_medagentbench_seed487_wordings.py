"""The rules the seed-487 ward set (``smart_docgemma/evaluation/medagentbench_seed487.yaml``:
speech-to-text, shorthand, relative times and windows) found missing, without a server: "b p"
said as letters and a pressure's pair never a pulse; a refusal with the verb of recording ("don't
file it"); "NKDA" offered beside a question about her allergies; a recheck skipped; the time said
for a protocol's recheck; "in 2h" a span; a protocol's "if there is none"; "record number";
"hows old"; an injury ever had; "hx of"; an ER trip; "over the weekend"; "ortho consult";
minutes past the hour; a card refused by its noun; a name after "on". The whole loop against HAPI
is ``tests/synthea/test_medagentbench_seeds.py``."""
from __future__ import annotations

from datetime import UTC, datetime, time

import pytest
from smart_docgemma.agent import amendments, ward_requests
from smart_docgemma.agent.extraction import find_actions, find_names, read
from smart_docgemma.reading.spoken import as_typed
from smart_docgemma.tools import args as tool_args
from smart_docgemma.tools.chart.answers import chart_focus
from smart_docgemma.tools.words import ward_words, when, windows
from smart_docgemma.tools.writes import protocols


def _signs(said: str) -> dict[str, tuple[float, ...]]:
    return {r.vital: r.values for r in ward_words.readings(said)}


@pytest.mark.parametrize("said", ["b p 122/78 pls chart", "b.p. 130/80 record", "B P 118/70"])
def test_bp_said_as_letters_is_the_pressure(said):
    signs = _signs(said)
    assert "blood pressure" in signs and "heart rate" not in signs


def test_a_pair_after_the_pulse_letter_is_never_a_pulse():
    assert "heart rate" not in _signs("p 122/78 pls chart")


@pytest.mark.parametrize(("said", "pulse"), [("T 37.8 P 92 chart", 92.0), ("pulse 88", 88.0),
                                             ("hr 104, bp 150/95", 104.0)])
def test_a_pulse_with_its_own_value_is_still_read(said, pulse):
    assert _signs(said)["heart rate"] == (pulse,)


@pytest.mark.parametrize("said", ["no wait, don't file it", "don't chart that", "dont record it",
                                  "non, ne le note pas", "não registe", "no lo anotes"])
def test_a_refusal_with_the_verb_of_recording_cancels(said):
    assert amendments.cancels(said)


@pytest.mark.parametrize("said", ["don't chart it yet, first order a K",
                                  "don't record the 6am one, record this: 120/80",
                                  "don't file the referral before the x-ray"])
def test_a_refusal_before_another_request_is_still_no_cancel(said):
    assert not amendments.cancels(said)


@pytest.mark.parametrize("said", ["nkda or does she have allergies", "is she nkda",
                                  "NKDA or not", "nkda o tiene alergias"])
def test_no_known_allergy_beside_a_question_reads_her_list(said):
    actions = read(said).entities.actions
    assert "allergy_question" in actions and "record_no_known_allergy" not in actions


@pytest.mark.parametrize("said", ["pt is NKDA", "NKDA", "NKDA, please record"])
def test_no_known_allergy_told_is_still_recorded(said):
    assert "record_no_known_allergy" in read(said).entities.actions


@pytest.mark.parametrize("said", ["skip the repeat level, just give the K", "skip the recheck",
                                  "don't bother with the recheck"])
def test_a_recheck_skipped_names_the_paired_lab_card(said):
    assert amendments.names_the_recheck(amendments.cancel_clause(said))


@pytest.mark.parametrize("said", ["skip the potassium", "skip breakfast, recheck at 8"])
def test_skipping_something_else_names_no_recheck(said):
    assert not amendments.names_the_recheck(amendments.cancel_clause(said))


@pytest.mark.parametrize(("said", "words"), [
    ("potassium 3.1 - replace per protocol, redraw tomorrow at 6am", "tomorrow at 6am"),
    ("K 3.2, replete per protocol and recheck in 2h", "in 2h")])
def test_the_time_said_after_the_recheck_is_the_recheck_s(said, words):
    assert ward_requests._recheck_when(said, read(said).ward) == words


@pytest.mark.parametrize("said", ["K 3.2 at 10am, replace per protocol",
                                  "mag per protocol tomorrow at 9"])
def test_a_time_said_before_any_recheck_is_not_the_recheck_s(said):
    assert ward_requests._recheck_when(said, read(said).ward) is None


def test_the_recheck_s_time_replaces_the_protocol_s_only_when_it_names_a_time():
    table = {"kind": "replace", "recheck": {"test": "serum potassium", "when": "tomorrow at 8am"}}
    said = tool_args.ProtocolArgs(patient_id="p1", protocol="potassium",
                                  recheck_when="tomorrow at 6am")
    assert protocols._asked_recheck(table, said)["recheck"]["when"] == "tomorrow at 6am"
    vague = tool_args.ProtocolArgs(patient_id="p1", protocol="potassium", recheck_when="later")
    assert protocols._asked_recheck(table, vague) == table


@pytest.mark.parametrize(("said", "read_as"), [("in 2h", "in 2 hours"), ("dans 4h", "in 4 hours"),
                                               ("em 30min", "in 30 minutes"),
                                               ("in an hour", "in 1 hours")])
def test_a_span_written_against_its_unit_is_from_now(said, read_as):
    assert when.parse(said, "UTC").said == read_as


@pytest.mark.parametrize(("said", "hour"), [("at 8h", 8), ("demain a 8h", 8), ("2h", 2)])
def test_an_hour_of_the_clock_stays_a_clock_time(said, hour):
    at = when.parse(said, "UTC").at
    assert at is not None and at.hour == hour and at.minute == 0


@pytest.mark.parametrize("said", ["HbA1c : s'il n'y en a pas depuis un an, en demander une",
                                  "a1c, if there's none in the last year order one",
                                  "HbA1c: se não houver no último ano, pedir",
                                  "HbA1c, si no hay en el último año, pedirla"])
def test_if_there_is_none_is_a_conditional_order(said):
    assert "protocol" in read(said).entities.actions


def test_a_record_number_asked_reads_no_chart():
    assert "chart" not in find_actions("record number for lea martin, born 24 Mar 1937")
    assert chart_focus("what's her record number?") == "identifiers"


@pytest.mark.parametrize(("said", "focus"), [
    ("hows old is he", "age"), ("has he ever broken a bone", "history"),
    ("ever fractured anything?", "history"), ("any hx of fractures?", "history"),
    ("last ER trip?", "encounters")])
def test_the_chart_s_facts_in_the_ward_s_words(said, focus):
    assert chart_focus(said) == focus


@pytest.mark.parametrize(("said", "focus"), [("shows old results", "age"), ("hx?", "history"),
                                             ("er, trip planned?", "encounters")])
def test_near_words_ask_no_such_fact(said, focus):
    assert chart_focus(said) != focus


def test_over_the_weekend_is_saturday_and_sunday():
    assert windows.asked("any fingersticks over the weekend?").window == "weekend"
    assert windows.asked("glycémies du week-end ?").window == "weekend"
    assert windows.asked("any CBGs this week?").window == "7d"
    tuesday = datetime(2026, 12, 8, 15, 0, tzinfo=UTC)
    held = windows.bounds("weekend", tuesday, UTC)
    assert held.start == datetime(2026, 12, 5, tzinfo=UTC)
    assert held.end == datetime(2026, 12, 6, 23, 59, 59, tzinfo=UTC)
    sunday = datetime(2026, 12, 6, 10, 0, tzinfo=UTC)
    assert windows.bounds("weekend", sunday, UTC).end == sunday


@pytest.mark.parametrize("said", ["ortho consult pls - old clavicle fracture",
                                  "cardiology opinion please", "ortho consult re her knee"])
def test_a_consult_asked_after_the_specialty_is_a_referral(said):
    assert ward_words.asks_opinion(said)


@pytest.mark.parametrize("said", ["did ortho consult him last year?",
                                  "what did the ortho consult say?", "ortho consult?"])
def test_a_consult_told_or_asked_is_no_referral(said):
    assert not ward_words.asks_opinion(said)


def test_the_text_after_a_dash_is_the_referral_s_note():
    said = "ortho consult pls - old clavicle fracture, still painful"
    assert ward_words.referral_note(said) == "old clavicle fracture, still painful"


@pytest.mark.parametrize(("said", "typed", "at"), [
    ("hr eighty eight at ten past six", "hr 88 at 10 past 6", time(6, 10)),
    ("temp at twenty past seven", "temp at 20 past 7", time(7, 20)),
    ("at twenty minutes to seven", "at 20 minutes to 7", time(6, 40))])
def test_minutes_said_past_or_to_the_hour(said, typed, at):
    assert as_typed(said) == typed
    clock = when.clock_said(typed)
    assert clock is not None and clock.at == at


@pytest.mark.parametrize("said", ["reduce 10 to 6", "in the past 2 weeks"])
def test_numbers_beside_past_or_to_are_no_clock(said):
    assert when.clock_said(said) is None


@pytest.mark.parametrize("said", ["on second thought, no referral", "no referral",
                                  "pas d'ordonnance finalement", "sem encaminhamento"])
def test_a_card_refused_by_its_noun_cancels(said):
    assert amendments.cancels(said)


@pytest.mark.parametrize("said", ["no recheck", "no referral needed?",
                                  "no, referral to cardio instead", "no order for her"])
def test_a_noun_refused_with_more_said_is_no_cancel(said):
    assert not amendments.cancels(said)


def test_a_name_after_on_is_the_name():
    assert find_names("whats the mrn on lea martin dob 1990-04-02", []) == ["lea martin"]
