"""Walk 103 (the #48 intents in new words, twenty-first stop): "chuck in some co-codamol …"
was checked, never carded, and "make it 8/500" then matched nothing; "is it safe to do his
dental extraction tmrw given the inr" carded an INR order nobody asked for; "for CTG am" in a
dictated handover read as a person's initials and refused; "temp 39.1 at 2am, gave
paracetamol" charted nothing; "a potassemia dela de hoje?" matched no result."""
from __future__ import annotations

import pytest
from smart_docgemma.agent import amendments, ward_requests
from smart_docgemma.agent.extraction import read
from smart_docgemma.reading.people import initials_people
from smart_docgemma.tools.chart.answers import focus_of
from smart_docgemma.tools.words import ward_words


@pytest.mark.parametrize("said", [
    "chuck in some co-codamol 30/500 2 qds prn",
    "throw in a stat dose of ceftriaxone 2g iv",
    "bung in some lactulose 15ml bd",
])
def test_a_drug_chucked_in_is_ordered(said):
    actions = read(said).entities.actions
    assert "prescribe_drug" in actions and "check_interactions" not in actions


def test_popping_in_names_no_drug_and_orders_nothing():
    assert read("pop in to see her later").entities.drugs == ()


@pytest.mark.parametrize(("said", "dosage", "new"), [
    ("make it 8/500", "2 × 30/500 mg", "2 × 8/500 mg"),
    ("actually 15/500 instead", "1 × 30/500 mg", "1 × 15/500 mg"),
])
def test_a_combinations_strength_changed_keeps_the_count(said, dosage, new):
    assert amendments._strength(said, dosage) == new


@pytest.mark.parametrize(("said", "dosage"), [
    ("make it 8", "2 × 30/500 mg"),  # a bare number: the dose's own reader
    ("make it 8/500", "300 mg"),  # a card dosed by no strength
    ("8/500 please", "2 × 30/500 mg"),  # no word of change
])
def test_no_strength_change_without_its_strength_and_its_word(said, dosage):
    assert amendments._strength(said, dosage) is None


@pytest.mark.parametrize("said", [
    "handover: 32F G2P1 34/40, bp stable, for CTG am",
    "for PET bloods at 6",
    "re: LMP and EDD",
])
def test_ward_and_obstetric_shorthand_is_no_ones_initials(said):
    assert initials_people(said) == []


@pytest.mark.parametrize(("said", "who"), [("for JM - inr?", ["J M"]), ("AB's INR?", ["A B"])])
def test_initials_as_the_subject_are_still_a_person(said, who):
    assert initials_people(said) == who


@pytest.mark.parametrize("said", [
    "is it safe to do his dental extraction tmrw given the inr",
    "is it ok to operate tmrw given his inr",
    "es seguro operarlo mañana con ese INR?",
])
def test_a_procedures_safety_asked_with_a_result_orders_no_test(said):
    assert "order_lab" not in read(said).entities.actions


@pytest.mark.parametrize("said", ["inr tmrw", "can we do an inr tmrw am", "u&e + mg in am"])
def test_a_timed_test_is_still_ordered(said):
    assert "order_lab" in read(said).entities.actions


@pytest.mark.parametrize("said", [
    "temp 39.1 at 2am, gave paracetamol",
    "BM 2.8 at 04:00, hypostop given",
    "febre 39 as 3h, dei dipirona",
])
def test_a_reading_beside_a_drug_given_or_ordered_is_charted(said):
    assert "record_vital" in read(said).entities.actions


@pytest.mark.parametrize("said", [
    "temp 39.1, can I give paracetamol?",  # asked
    # an order beside the readings: they are its reason, not charted
    "temp 39.1 at 2am, paracetamol 1g qds", "PA 160/95, iniciar amlodipina 5 mg 1x/dia",
    "bp 150/90 on amlodipine 5mg, should we increase it",  # a question about her drug
])
def test_a_reading_beside_a_drug_asked_charts_nothing(said):
    assert "record_vital" not in read(said).entities.actions


@pytest.mark.parametrize("said", ["a potassemia dela de hoje?", "la kalemia de ayer?",
                                  "potasemia?"])
def test_the_potassium_level_in_pt_and_es_is_her_potassium(said):
    assert focus_of(said) == "lab:Potassium"


@pytest.mark.parametrize("said", ["furosemide 40mg om", "frusemide 40 om"])
def test_om_is_every_morning_and_makes_the_line_an_order(said):
    found = read(said).entities
    assert "order_line" in found.actions and found.dose and found.dose.frequency == "om"


@pytest.mark.parametrize("said", ["tom to review", "bring him home", "from the ward"])
def test_om_inside_a_word_is_no_frequency(said):
    dose = read(said).entities.dose
    assert dose is None or dose.frequency is None


# Walk 104 (work and documents, windows, a card a turn later, others named): "she's
# hyperkalaemic - what's the plan" said no plan was held for a raised potassium; "problem list +
# what we're doing about each" listed the problems alone; "gaps in her htn care?", "any abx she
# can't have?", "INR à 3,4 - je saute une prise ?", "peak flow 320 at 10:15" and "glucose 3.1 at
# 0400 - treated" matched nothing.

def test_hyperkalaemic_said_of_her_plans_her_raised_potassium():
    said = read("she's hyperkalaemic - what's the plan")
    assert said.workflow.problem == "high_potassium" and "plan" in said.entities.actions


def test_what_we_are_doing_about_each_problem_is_the_whole_plan():
    text = "problem list + what we're doing about each"
    assert ward_requests.whole_plan_asked(read(text).workflow, text)
    other = "what are we doing about the weekend rota"
    assert not read(other).entities.actions


@pytest.mark.parametrize("said", ["gaps in her htn care?", "any gaps in his diabetes care",
                                  "care gaps?"])
def test_gaps_in_a_named_programme_are_her_care_gaps(said):
    assert "care_gaps" in read(said).entities.actions


@pytest.mark.parametrize("said", ["any abx she can't have?", "drugs he mustn't get?",
                                  "anything she shouldn't be given?"])
def test_what_she_must_not_be_given_is_her_allergies(said):
    assert focus_of(said) == "allergies"


def test_what_she_cannot_have_beside_no_drug_word_is_no_allergy_question():
    assert focus_of("she can't have visitors today") != "allergies"


@pytest.mark.parametrize("said", ["INR à 3,4 - je saute une prise ?", "INR 3,4 - pulo uma dose?",
                                  "INR 3,4 - ¿salto una dosis?"])
def test_a_dose_skipped_asked_beside_the_inr_is_its_plan(said):
    found = read(said)
    assert found.workflow.problem == "high_inr" and "plan" in found.entities.actions


@pytest.mark.parametrize(("said", "vital"), [
    ("peak flow 320 at 10:15", "peak expiratory flow"),
    ("PEF 280 this morning", "peak expiratory flow"),
    ("glucose 3.1 at 0400 - treated", "capillary glucose"),
    ("glucose 250 this morning", "capillary glucose"),
])
def test_a_bedside_value_said_with_its_word_is_a_reading(said, vital):
    assert [r.vital for r in ward_words.readings(said)] == [vital]


@pytest.mark.parametrize("said", ["glucose 3 days ago", "glucose tomorrow am",
                                  "mean glucose in mg/dL over the last 48h", "dep 2 days ago"])
def test_glucose_or_a_peak_flow_word_without_its_value_is_no_reading(said):
    assert ward_words.readings(said) == []
