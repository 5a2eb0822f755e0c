"""The rules the seed-521 ward set (``smart_docgemma/evaluation/medagentbench_seed521.yaml``:
dictation, shorthand, typos, relative times and windows) found missing, without a server: a
recheck refused in the protocol's own request ("no recheck needed"); a recheck's time changed by
name ("make the recheck 6am instead": a clock time is no dose); a surname in s owning with the
apostrophe alone ("Ama Banks' magnesium"); a name owning the MRN before its birth date ("whats
peter lindqvists mrn, born …"); a window gone by is no order ahead ("any mag in the past 6 hrs");
any of a kind asked of her list ("any antiplatelets on board?"); a fracture ever had asked by
its noun; another statistic asked back ("and the lowest?"); a spoken slash between a reading's
numbers; "at half five"; the card's own verb refused ("don't order any of that", "hold that").
The last ED visit older than the encounter window is read against HAPI by the ward set itself
(``tests/synthea/test_medagentbench_seeds.py``)."""
from __future__ import annotations

from datetime import time

import pytest
from smart_docgemma.agent import amendments, clarification, nodes
from smart_docgemma.agent.extraction import extract, find_names, read
from smart_docgemma.approval.types import PendingCard
from smart_docgemma.reading.spoken import as_typed
from smart_docgemma.tools import args as tool_args
from smart_docgemma.tools.chart.answers import chart_focus
from smart_docgemma.tools.words import when, windows
from smart_docgemma.tools.writes import protocols


@pytest.mark.parametrize("said", ["K of three point three, give per protocol, no recheck needed",
                                  "K 3.3 replace per protocol, recheck not needed",
                                  "K 3.3 replace, no recheck",
                                  "K 3,3, remplacer selon protocole, pas de contrôle"])
def test_a_recheck_refused_in_the_request_is_refused(said):
    assert amendments.refuses_recheck(said)


@pytest.mark.parametrize("said", ["K 3.3 replace per protocol, recheck needed",
                                  "K 3.3 replace and recheck tomorrow",
                                  "recheck needed tomorrow 8am", "no K", "no recheck of the INR"])
def test_a_recheck_asked_or_another_refusal_refuses_no_recheck(said):
    assert not amendments.refuses_recheck(said)


def test_the_refused_recheck_is_not_drafted():
    table = {"kind": "replace", "recheck": {"test": "serum potassium", "when": "tomorrow 08:00"}}
    said = tool_args.ProtocolArgs(patient_id="p1", protocol="potassium", without_recheck=True)
    assert "recheck" not in protocols._asked_recheck(table, said)
    kept = tool_args.ProtocolArgs(patient_id="p1", protocol="potassium")
    assert protocols._asked_recheck(table, kept) == table


@pytest.mark.parametrize(("said", "dose"), [("make it 40 instead", "40"),
                                            ("make it 20", "20")])
def test_a_bare_number_is_still_the_new_dose(said, dose):
    assert amendments._bare_dose(said) == dose


@pytest.mark.parametrize("said", ["make the recheck 6am instead", "make it 6 am instead",
                                  "make it 7pm instead", "make it 06:30 instead"])
def test_a_clock_time_is_no_dose(said):
    assert amendments._bare_dose(said) is None


def _card(kind: str, n: int = 1) -> PendingCard:
    return PendingCard(f"p{n}", "order_lab_test" if kind == "lab_order" else "x", kind, "t",
                       {"test": "serum potassium", "when": "tomorrow 8am"}, False)


def test_the_recheck_named_is_the_lab_card_beside_the_replacement():
    lab, med = _card("lab_order"), _card("medication", 2)
    assert amendments.mentions_recheck("make the recheck 6am instead")
    assert not amendments.mentions_recheck("make it 6am instead")
    assert nodes._paired_recheck([lab, med]) is lab
    assert nodes._paired_recheck([lab, _card("lab_order", 3)]) is None  # two tests, no pair
    assert nodes._paired_recheck([lab]) is None  # no replacement beside it


@pytest.mark.parametrize(("said", "name"), [("what's Ama Banks' magnesium today", "Ama Banks"),
                                            ("and Jo Evans' INR?", "Jo Evans")])
def test_a_surname_in_s_owns_with_the_apostrophe_alone(said, name):
    assert find_names(said, []) == [name]


@pytest.mark.parametrize("said", ["Check Daily Weights' trend", "Blood Cultures' results?",
                                  "the Nurses' notes"])
def test_vocabulary_owning_with_an_apostrophe_names_no_one(said):
    assert find_names(said, []) == []


@pytest.mark.parametrize(("said", "name"), [
    ("whats peter lindqvists mrn, born may 28 98", "peter lindqvist"),
    ("peter lindqvist mrn dob 5/28/1998", "peter lindqvist")])
def test_a_name_owning_the_mrn_before_its_birth_date(said, name):
    assert find_names(said, []) == [name]


@pytest.mark.parametrize("said", ["whats his mrn, born when?", "check the mrn, dob 1990-01-01",
                                  "whats the mrn, dob 1990-01-01"])
def test_no_name_before_the_mrn_names_no_one(said):
    assert find_names(said, []) == []


@pytest.mark.parametrize("said", ["any mag in the past 6 hrs", "any K over the last 12 hours"])
def test_a_window_gone_by_asks_her_results(said):
    assert "chart_question" in read(said).entities.actions


@pytest.mark.parametrize("said", ["mag in 6 hrs", "repeat mag in 6 hours"])
def test_a_test_in_hours_ahead_is_still_an_order(said):
    actions = read(said).entities.actions
    assert "order_lab" in actions and "chart_question" not in actions


@pytest.mark.parametrize("said", ["any antiplatelets on board?", "is he on any antiplatelets?",
                                  "any anticoagulants on board?"])
def test_any_of_a_kind_is_asked_of_her_list(said):
    assert chart_focus(said) == "medications"
    assert "chart_question" in read(said).entities.actions


@pytest.mark.parametrize(("said", "focus"), [("ever had a fracture?", "history"),
                                             ("any fractures?", "history"),
                                             ("previous broken bones?", "history")])
def test_a_fracture_ever_had_asked_by_its_noun(said, focus):
    assert chart_focus(said) == focus


@pytest.mark.parametrize("said", ["any fractures on the xray?", "fracture clinic referral"])
def test_a_fracture_on_a_film_or_a_clinic_is_no_history(said):
    assert chart_focus(said) != "history"


def _back(message: str, before: str) -> str | None:
    return clarification.referred_back(message, extract(message),
                                       [{"role": "user", "content": before}])


def test_another_statistic_asked_back_reads_the_question_before():
    said = _back("and the lowest?", "avg cbg last 24h")
    assert said is not None
    asked = windows.asked(said)
    assert asked.statistic == windows.Aggregate.MIN and asked.window == "24h"


@pytest.mark.parametrize(("message", "before"), [("and the lowest?", "start metformin 500mg bd"),
                                                 ("and the lowest dose?", "avg cbg last 24h"),
                                                 ("the lowest?", "lowest cbg last 24h")])
def test_no_statistic_asked_back_of_an_order_or_the_same_one(message, before):
    assert _back(message, before) is None


@pytest.mark.parametrize(("said", "typed"), [
    ("blood pressure was one thirty eight slash eighty six last night",
     "blood pressure was 138/86 last night"),
    ("bp one forty over ninety two at half five", "bp 140/92 at half past 5")])
def test_a_reading_said_with_a_slash_and_half_an_hour(said, typed):
    assert as_typed(said) == typed


@pytest.mark.parametrize(("said", "typed"), [("one/two", "one/two"),
                                             ("give half five mg", "give half 5 mg")])
def test_a_slash_or_a_half_that_is_no_reading_or_time(said, typed):
    assert as_typed(said) == typed


def test_at_half_five_is_half_past_five():
    clock = when.clock_said(as_typed("bp 140/92 at half five, chart it"))
    assert clock is not None and clock.at == time(5, 30)


@pytest.mark.parametrize("said", ["forget it, don't order any of that", "don't send it",
                                  "hold that, don't send it", "hold that"])
def test_the_card_s_own_verb_refused_cancels(said):
    assert amendments.cancels(said)


@pytest.mark.parametrize("said", ["hold the metoprolol", "don't order the ct yet, first a K",
                                  "don't send the referral before the x-ray",
                                  "don't forget to order it"])
def test_a_verb_refused_of_something_else_is_no_cancel(said):
    assert not amendments.cancels(said)
