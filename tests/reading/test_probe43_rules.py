"""Rules from the forty-third unseen English set (probe43_en): each a pure reading of words, with
the near words that must not trigger it."""
from __future__ import annotations

import pytest
from smart_docgemma.agent import clarification
from smart_docgemma.agent.extraction import asked, reaction_beside, read
from smart_docgemma.agent.ward_requests import workflow_of
from smart_docgemma.reading.dose_change import bare, scaled
from smart_docgemma.tools.chart.answers import focus_of
from smart_docgemma.tools.chart.in_context import ChartInContext, InContext, Medication

_CHART = ChartInContext(patient=InContext(id="pt-x", name="Margaret Thompson"), medications=(
    Medication(text="amlodipine 5 MG Oral Tablet", names=("amlodipine",),
               dose="5 mg by mouth once daily"),
    Medication(text="metformin hydrochloride 500 MG Oral Tablet", names=("metformin",),
               dose="500 mg by mouth twice daily")))
_DOSES = {"amlodipine": "5 mg by mouth once daily", "metformin": "500 mg by mouth twice daily"}


def _actions(said: str) -> tuple[str, ...]:
    return read(said).entities.actions


# a reaction to a drug told with a word of recording is an allergy to record (p43-11)
@pytest.mark.parametrize("said", [
    "reacted to co-amox in 2019 - rash. pls document",  # p43-11
    "reacted badly to the co amoxiclav, document",
    "came out in hives with the flucloxacillin - pls record",
    "codeine makes him vomit, note it",
    "rash with septrin, add to allergies",
    "rash with septrin, add to her allergies",
    "hives to fluclox - pop it on his allergy list",
    "codeine makes him vomit, note it as an intolerance pls",  # p43-13
    "co-amox gave her a rash, document",
    "septrin - rash, record",
    "rash after the amoxil, pls document",
])
def test_a_reaction_told_to_record_is_an_allergy_card(said):
    actions = _actions(said)
    assert "document_allergy" in actions
    assert not {"prescribe", "prescribe_drug", "administer", "allergy_question"} & set(actions)


@pytest.mark.parametrize("said", [
    "amoxicillin 500 tds, rash day 3 - document",  # a dose: an order, never an allergy
    "rash on his back, started doxycycline yesterday - document",  # the rash is no reaction to it
    "did he react to the co-amox?",  # asked
    "vomiting since the morphine, plan?",  # no word of recording
    "pt on codeine, document pain score 3",
    "is penicillin on her allergies",  # her list asked
    "add amoxicillin 500 tds, check her allergies",  # an order and her allergies asked
    "pen allergy (hives), started on clarithromycin - document",  # the allergy is another drug's
])
def test_no_allergy_recorded_without_a_reaction_told_of_the_drug_to_record(said):
    assert "document_allergy" not in _actions(said)


# a dose scaled by a word, or a bare number, against her list (p43-15, p43-17)
@pytest.mark.parametrize(("said", "drug", "dose"), [
    ("halve the amlodipine", "amlodipine", "2.5 mg"),  # p43-15
    ("amlodipine halved", "amlodipine", "2.5 mg"),
    ("double his metformin", "metformin", "1000 mg"),
    ("double the dose of metformin", "metformin", "1000 mg"),
    ("amlodipine 10", "amlodipine", "10 mg"),  # p43-17
    ("amlo 10 pls", "amlodipine", "10 mg"),
])
def test_a_change_read_against_her_list(said, drug, dose):
    change = read(said, chart=_CHART).workflow.dose_change
    assert change is not None and (change.drug, change.dosage, change.frequency) == (drug, dose, None)


@pytest.mark.parametrize("said", [
    "should we halve the amlodipine?",  # asked, nothing changes
    "double check his metformin",  # no dose doubled
    "amlodipine 5",  # her own dose
    "amlodipine 10 mg/24h",  # a new order written in full
    "amlodipine 10mg od",
    "amoxicillin 500",  # not on her list
    "halve the amoxicillin",
])
def test_no_change_without_a_new_dose_of_a_drug_on_her_list(said):
    assert read(said, chart=_CHART).workflow.dose_change is None


def test_no_change_read_when_her_list_was_not_read():
    assert read("halve the amlodipine").workflow.dose_change is None
    assert scaled("halve the amlodipine", [("amlodipine", "amlodipine")], {}) is None
    assert bare("amlodipine 10", [("amlodipine", "amlodipine")], {"amlodipine": ""}) is None
    assert bare("amlodipine 10", [("amlodipine", "amlodipine")], _DOSES).dosage == "10 mg"


# the target a drug sets asked (p43-30): her result placed against it
@pytest.mark.parametrize("said", [
    "what range are we aiming for with his inr?",  # p43-30
    "what's his inr target?",
    "is his inr therapeutic?",
    "inr in target?",
])
def test_a_target_asked_judges_her_result(said):
    assert asked(said).judge


@pytest.mark.parametrize("said", ["inr?", "latest inr", "inr trend", "inr for tomorrow"])
def test_a_result_asked_alone_is_not_judged(said):
    assert not asked(said).judge


# what else to do, after a low glucose told with what was done (p43-28)
@pytest.mark.parametrize("said", [
    "BM 3.1 at 2am, treated with juice - anything else to do?",  # p43-28
    "sugar 3.1 at 2am treated - anything else?",
    "glucose 3.0, gave dextrose, what else should we do",
])
def test_what_else_to_do_asks_the_plan(said):
    w = workflow_of(said)
    assert w.problem == "low_glucose" and w.plan_asked


@pytest.mark.parametrize("said", [
    "is he on anything else?", "what else is she taking?", "anything else?",
    "anything else on his list?",
])
def test_anything_else_asked_of_her_list_is_no_plan(said):
    assert not workflow_of(said).plan_asked


# the drug beside the reaction told is the allergen a card records (p43-12, p43-13)
@pytest.mark.parametrize(("said", "surface"), [
    ("rash with septrin, add to allergies", "septrin"),  # p43-12
    ("codeine makes him vomit, note it as an intolerance pls", "codeine"),  # p43-13
    ("reacted to co-amox in 2019 - rash", "co amox"),
    ("came out in hives with the flucloxacillin", "flucloxacillin"),
])
def test_the_drug_beside_the_reaction_is_the_allergen(said, surface):
    assert reaction_beside(said, surface)


@pytest.mark.parametrize(("said", "surface"), [
    ("pen allergy (hives), started on clarithromycin", "clarithromycin"),  # another's allergy
    ("hives, started on clarithromycin", "clarithromycin"),  # an order's word between
    ("amoxicillin 500 tds, rash day 3", "amoxicillin"),  # a dose: the order
    ("rash on his back, doxycycline started yesterday", "doxycycline"),
])
def test_a_drug_apart_from_the_reaction_is_no_allergen(said, surface):
    assert not reaction_beside(said, surface)


# the ward's "regulars" are her regular medications, reviewed (p43-2)
@pytest.mark.parametrize("said", [
    "pharmacy asked me to double check her regulars - all ok?",  # p43-2
    "her regulars ok?",
    "any concerns with his regulars",
])
def test_her_regulars_checked_are_the_review(said):
    assert focus_of(said) == "review"


@pytest.mark.parametrize("said", ["is she one of our regulars? ok", "her regular gp ok?"])
def test_regulars_of_no_list_are_no_review(said):
    assert focus_of(said) != "review"


# a place among the drugs the clinician offered as options (p43-22)
def _asked(before: str) -> list[dict[str, str]]:
    return [{"role": "user", "content": before}, {"role": "assistant", "content": "…"}]


@pytest.mark.parametrize(("said", "before", "drug"), [
    ("go with the first one, 100mg bd for 5 days", "doxycycline or clarithromycin for her chest?",
     "doxycycline"),  # p43-22
    ("the second one then, 500mg bd x5d", "amoxicillin vs clarithromycin?", "clarithromycin"),
    ("the last one", "nitrofurantoin, trimethoprim or cefalexin for her uti?", "cephalexin"),
])
def test_a_place_among_the_options_offered_is_that_drug(said, before, drug):
    understood = clarification.listed_by_place(said, read(said).entities, _asked(before))
    assert understood is not None and drug in understood


@pytest.mark.parametrize(("said", "before"), [
    ("stop the first one", "is clarithromycin ok with his warfarin?"),  # with, not a choice
    ("the first one", "is doxycycline ok for her chest?"),  # one drug
    ("the third one", "doxycycline or clarithromycin?"),  # past the options' end
    ("give the first dose now", "doxycycline or clarithromycin?"),  # a place of a dose
])
def test_no_option_placed_without_a_choice_of_drugs_offered(said, before):
    assert clarification.listed_by_place(said, read(said).entities, _asked(before)) is None


@pytest.mark.parametrize("said", ["go with doxycycline, 100mg bd for 5 days", "let's go with doxy"])
def test_going_with_a_drug_orders_it(said):
    assert "prescribe_drug" in read(said).entities.actions


def test_going_with_no_drug_orders_nothing():
    assert not read("go with the flow").entities.drugs


# walk after the set: a share or a step of her order's dose, after the drug
@pytest.mark.parametrize(("said", "drug", "dose"), [
    ("reduce amlodipine to half", "amlodipine", "2.5 mg"),
    ("cut the amlodipine by half", "amlodipine", "2.5 mg"),
    ("increase metformin by 500", "metformin", "1000 mg"),
    ("reduce metformin by 250mg", "metformin", "250 mg"),
    ("reduce metformin by 50%", "metformin", "250 mg"),
    ("reduce metformin by 50", "metformin", "450 mg"),  # no "%": a step of 50 mg
])
def test_a_share_or_a_step_of_her_dose(said, drug, dose):
    change = read(said, chart=_CHART).workflow.dose_change
    assert change is not None and (change.drug, change.dosage) == (drug, dose)


@pytest.mark.parametrize("said", [
    "reduce metformin by 20%",  # a share other than half: not worked
    "increase metformin by 1 g",  # another unit than the order's
    "reduce amlodipine by 5",  # nothing left
    "should we increase metformin by 500?",  # asked
])
def test_no_share_or_step_read_otherwise(said):
    assert read(said, chart=_CHART).workflow.dose_change is None


# walk after the set: two days ahead is no tomorrow
@pytest.mark.parametrize(("said", "day"), [
    ("day after tmrw 9am", 9), ("the day after tomorrow at 8", 9), ("après-demain à 8h", 9),
    ("pasado mañana a las 8", 9), ("depois de amanhã às 8h", 9),
    ("tomorrow 9am", 8), ("the day after", 8), ("mañana a las 8", 8),
])
def test_the_day_after_tomorrow_is_two_days_ahead(said, day):
    from datetime import UTC, datetime

    from smart_docgemma.tools.words.when import parse

    at = parse(said, "UTC", datetime(2026, 12, 7, 14, 0, tzinfo=UTC)).at
    assert at is not None and at.day == day


# walk after the set: "scratch the last one" takes the card at that place back
def test_scratch_with_a_place_cancels():
    from smart_docgemma.agent import amendments, card_picks

    pointed = card_picks.pointed("scratch the last one")
    assert pointed is not None and pointed.place == -1 and amendments.cancels(pointed.rest)
    assert not amendments.cancels("scratch on his arm")
    assert not amendments.cancels("scratch mark on arm - document")
