"""Walk 95 (the issue's intents in new words): a replacement protocol asked with its question
mark right after the value told ("K 6.2 - protocol?") read the value as a question and ignored
it; near words: a value asked over a window stays a question."""
from __future__ import annotations

import pytest
from smart_docgemma.agent.ward_requests import protocol_stated_value


@pytest.mark.parametrize(("said", "value"), [
    ("k 6.2 this am - protocol?", 6.2), ("K 6.2 - protocol?", 6.2), ("k 3.1 - k protocol?", 3.1),
    ("mg 0,5 : protocole ?", 0.5), ("potasio 3,1 - protocolo?", 3.1)])
def test_a_protocol_asked_with_its_mark_keeps_the_value_told(said, value):
    assert protocol_stated_value(said.lower(), "potassium_oral") == value


@pytest.mark.parametrize("said", ["k 3.3 in the last 24h? protocol?", "is there a k protocol?",
                                  "k below 3.5 in the past 36 hours? if so replace per protocol"])
def test_a_value_asked_or_none_is_no_value_told(said):
    assert protocol_stated_value(said, "potassium_oral") is None


@pytest.mark.parametrize(("said", "problem", "value"), [
    ("hypo 3.2 at 0300, managed?", "low_glucose", 3.2), ("K 6.1 - manage?", "high_potassium", 6.1),
])
def test_how_to_manage_a_value_told_asks_its_plan(said, problem, value):
    from smart_docgemma.agent.ward_requests import workflow_actions, workflow_of
    from smart_docgemma.languages import fold

    flow = workflow_of(said)
    assert flow.problem == problem and flow.stated_value == value
    assert "plan" in workflow_actions(fold(said).lower(), flow)


@pytest.mark.parametrize(("said", "judged"), [
    ("what's his inr target?", True), ("target inr for af?", True), ("INR cible ?", True),
    ("alvo do INR?", True), ("is he therapeutic?", True),
    # near words: the latest asked, no target
    ("latest inr?", False), ("inr trend", False)])
def test_the_target_asked_is_the_result_judged(said, judged):
    from smart_docgemma.tools.words.windows import judged as judged_of

    assert judged_of(said.lower()) is judged


# walk 98: the multi-step work in new words
@pytest.mark.parametrize("said", ["med rec on admission", "medicines reconciliation at discharge",
                                  "med rec since admission", "med rec"])
def test_a_reconciliation_with_its_moment_is_her_list(said):
    from smart_docgemma.tools.chart.answers import chart_focus

    assert chart_focus(said) == "medications"


@pytest.mark.parametrize("said", ["admissions this year?", "any admissions since discharge"])
def test_admissions_asked_stay_the_stays(said):
    from smart_docgemma.tools.chart.answers import chart_focus

    assert chart_focus(said) == "encounters"


@pytest.mark.parametrize(("said", "gaps"), [
    ("o que está em atraso no seguimento dele?", True),
    ("¿qué está atrasado en su control?", True), ("qu'est-ce qui manque dans son suivi ?", True),
    ("o que está pendente no acompanhamento dela?", True),
    # near words: one thing late, no follow-up asked
    ("a consulta está em atraso?", False)])
def test_what_is_late_in_her_follow_up_is_her_care_gaps(said, gaps):
    from smart_docgemma.agent.extraction import extract

    assert ("care_gaps" in extract(said).actions) is gaps


# probe43 left: the lab's glucose as India's wards order and ask it
@pytest.mark.parametrize(("said", "tests"), [
    ("FBS, PPBS tomorrow morning", ["fasting glucose", "post-meal glucose"]),
    ("rbs stat", ["random glucose"]), ("glicemia de jejum amanhã às 7h", ["fasting glucose"])])
def test_the_lab_s_glucose_is_ordered_by_its_ward_names(said, tests):
    from smart_docgemma.tools.words.ward_words import lab_tests

    assert lab_tests(said.lower()) == tests


# probe43 left: an adverse effect told against one drug, to document
@pytest.mark.parametrize(("said", "reaction", "code"), [
    ("reacted to morphine - hallucinations. document pls", "hallucinations", "7011001"),
    ("codeine causes drowsiness, note it as an intolerance", "drowsiness", "271782001"),
    ("dizziness after amlodipine, please document", "dizziness", "404640003")])
def test_an_adverse_effect_told_against_one_drug_is_recorded_coded(said, reaction, code):
    from smart_docgemma.agent.extraction import extract
    from smart_docgemma.tools.writes.orders import manifestation

    found = extract(said)
    assert "document_allergy" in found.actions and found.allergy.reaction == reaction
    assert manifestation(reaction)["coding"][0]["code"] == code


@pytest.mark.parametrize("said", ["ondansetron for the nausea after morphine - document",
                                  "confusion this am, ?cause, on no meds"])
def test_an_effect_treated_or_with_no_drug_records_no_allergy(said):
    from smart_docgemma.agent.extraction import extract

    assert "document_allergy" not in extract(said).actions


# "problem list and plan" where a plan covers a problem of hers: her problems and her list's
# review are read beside the plan drafted (the warfarin-with-aspirin finding was not said)
@pytest.mark.parametrize(("said", "whole"), [
    ("problem list and plan", True), ("problem list + plan pls", True),
    ("liste des problèmes + conduite à tenir", True),
    # near words: one problem's plan, or a problem list with no plan asked
    ("plan for his high inr", False), ("problem list", False)])
def test_a_whole_plan_reads_her_problems_and_review_beside_the_plan(said, whole):
    from smart_docgemma.agent.extraction import read

    from tests.support.fixture_charts import chart

    found = read(said, chart=chart("02-warfarin.json").in_context)
    assert ("review" in found.foci) is whole
