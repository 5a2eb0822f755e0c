"""What the ninth blind English set (probe9_en) found read wrongly, read rightly, each rule beside
the near-words it must not catch: a class named with one of its members is that member; a
hospital's own words for its record number name a patient; a slip in "allergies" still asks
them; a yes/no question judging her value asks the chart; a side and a body part is no initial;
initials as a subject and a lower-case name before a chart question are someone else; "undo"
withdraws the card; "give it iv instead" changes the card; "no, the other one - X" replaces it;
"it" after a drug discussed is that drug."""
from __future__ import annotations

import pytest
from smart_docgemma.agent import amendments
from smart_docgemma.agent.extraction import extract, find_patient_ids, read
from smart_docgemma.reading.drugs import members_over_classes
from smart_docgemma.reading.people import (
    initialled_people,
    initials_people,
    leading_lower_people,
)
from smart_docgemma.tools.chart.answers import chart_focus
from smart_docgemma.tools.chart.in_context import ChartInContext, InContext

SAMUEL = ChartInContext(InContext("Samuel Okoro", "pt-4", "MRN-100845", "1962-11-03"), sex="male")


@pytest.mark.parametrize("message, drugs", [
    ("no, the other quinolone - levofloxacin 500 od", ("levofloxacin",)),
    ("an nsaid like naproxen ok?", ("naproxen",)),
    ("can she have an NSAID?", ("NSAID",)),  # the class alone is what is asked
    ("is a statin fine with her warfarin?", ("statin", "warfarin")),  # not one of its members
])
def test_a_class_named_with_one_of_its_members_is_that_member(message, drugs):
    assert extract(message).drugs == drugs


def test_members_over_classes_keeps_a_class_with_no_member_named():
    assert members_over_classes(["fluoroquinolone", "levofloxacin"]) == {"fluoroquinolone"}
    assert members_over_classes(["fluoroquinolone", "amoxicillin"]) == set()


@pytest.mark.parametrize("message, ids", [
    ("hosp no 100933 - is she pregnant?", ["100933"]),
    ("unit no. 100-933 allergies", ["100-933"]),
    ("hospital number: 100933", ["100933"]),
    ("NHS no 943 476 5919 meds", ["943 476 5919"]),
    # near-words: a count, a dose, a bed, "no longer"
    ("pt 2 - 5 mg", []),
    ("hosp no longer needed, home tomorrow", []),
    ("ibuprofen 400 mg no. 30 tablets", []),
    ("bed no 12 needs a review", []),
])
def test_a_hospitals_words_for_its_record_number_name_a_patient(message, ids):
    assert find_patient_ids(message) == ids


def test_another_record_number_is_another_patient_and_hers_is_her():
    assert read("hosp no 100933 - is she pregnant?", chart=SAMUEL).subject.about == "other"
    assert read("hosp no 100-845 - latest weight?", chart=SAMUEL).subject.about == "patient"


@pytest.mark.parametrize("message, focus", [
    ("any alergies?", "allergies"), ("allergys?", "allergies"), ("allegies on file?", "allergies"),
    ("how heavy is he", "vitals:weight"),
    # near-words
    ("analgesia?", None), ("alert and orientated?", None), ("heavy bleeding on warfarin", None),
])
def test_a_slip_in_allergies_and_how_heavy_ask_the_chart(message, focus):
    assert chart_focus(message) == focus


@pytest.mark.parametrize("message, asks", [
    ("is the INR therapeutic?", True),
    ("is INR ok", True),
    ("are the sugars up?", True),
    # a value in general, a definition
    ("is a high INR dangerous?", False),
    ("what is INR?", False),
])
def test_a_yes_no_question_judging_her_value_asks_the_chart(message, asks):
    assert ("chart_question" in extract(message).actions) is asks


@pytest.mark.parametrize("message, names", [
    ("Cellulitis L leg now spreading, flucloxacillin 1g qds IV", []),
    ("Swelling R calf, ?DVT", []),
    ("Margaret T - creat?", ["Margaret T"]),
    ("Grace A's allergies", ["Grace A"]),
])
def test_a_side_and_a_body_part_is_no_initial(message, names):
    assert initialled_people(message) == names


@pytest.mark.parametrize("message, names", [
    ("JM needs his metformin dose checked", ["J M"]),
    ("re: JM - K?", ["J M"]),
    ("pls check KJ's meds", ["K J"]),
    ("for AB - start amox 500 tds", ["A B"]),
    # shorthand written in capitals
    ("BP is 150/90", []), ("GP has asked for a review", []), ("INR is 3.4, hold warfarin", []),
    ("ok, TDS it is", []), ("CT has been done", []), ("for CXR pls", []), ("ECG's fine", []),
])
def test_initials_as_a_subject_name_someone(message, names):
    assert initials_people(message) == names


def test_her_own_initials_are_hers():
    assert read("SO needs his metformin checked", chart=SAMUEL).subject.about == "patient"
    assert read("JM needs his metformin checked", chart=SAMUEL).subject.about == "other"


@pytest.mark.parametrize("message, names", [
    ("grace adeyemi weight pls", ["grace adeyemi"]),
    ("re: esther banda - k?", ["esther banda"]),
    # the clinician's own words before a chart question
    ("pain poorly controlled overnight", []), ("bp ok today?", []), ("k trend", []),
    ("has her creat gone up?", []), ("home sugars high per patient", []),
    ("room air sats 94", []), ("room air sats?", []),
])
def test_a_lower_case_name_before_a_chart_question_is_someone(message, names):
    assert leading_lower_people(message) == names


@pytest.mark.parametrize("message, cancels", [
    ("undo", True), ("undo that", True), ("scratch that", True),
    ("undo the dressing at 10", False), ("ignore the last K, haemolysed", False),
])
def test_undo_withdraws_the_card(message, cancels):
    assert amendments.cancels(message) is cancels


def test_no_the_other_one_puts_a_drug_in_the_cards_place():
    assert amendments.switches("no, the other quinolone - levofloxacin 500 od")
    assert not amendments.switches("also paracetamol 1g qds")


def test_it_after_a_drug_discussed_is_that_drug():
    said = read("can he take it alongside the aspirin?")
    assert amendments.asked_of(said, "clopidogrel", "clopidogrel") == (
        "clopidogrel can he take it alongside the aspirin?")
    # no pointer, the drug itself named, or no question of safety: not asked of it
    assert amendments.asked_of(read("can he take aspirin?"), "clopidogrel", "clopidogrel") is None
    assert amendments.asked_of(read("is clopidogrel ok?"), "clopidogrel", "clopidogrel") is None
    assert amendments.asked_of(read("what is it for"), "clopidogrel", "clopidogrel") is None


# probe10_en, the second blind set


def test_a_held_dose_beside_a_new_drug_is_no_switch():
    held = read("INR 3.4 today. Hold tonight's warfarin and recheck Thurs. Also starting "
                "fluconazole 50mg od for oral thrush.")
    assert held.workflow.switch is None
    # a stop and a start is still a switch
    assert read("stop the metformin, start gliclazide 40mg od").workflow.switch is not None


@pytest.mark.parametrize("message, orders", [
    ("any drug interactions with warfarin if i add clarithro?", False),
    ("what if we start naproxen 250 bd?", False),
    # an order, and a question that is no supposition
    ("add clarithromycin 500 bd", True),
    ("can you add clarithromycin 500 bd?", True),
])
def test_a_question_supposing_an_order_orders_nothing(message, orders):
    actions = set(extract(message).actions)
    assert bool(actions & {"prescribe", "prescribe_drug", "administer"}) is orders


@pytest.mark.parametrize("message", ["any drug interactons with warfarin?",
                                     "interations with his meds?"])
def test_a_slip_in_interactions_checks_them(message):
    assert "check_interactions" in extract(message).actions


@pytest.mark.parametrize("message, frequency", [
    ("Lasix 20 mg PO QAM", "qam"), ("atorvastatin 40 mg qpm", "qpm"),
])
def test_qam_and_qpm_are_frequencies(message, frequency):
    dose = extract(message).dose
    assert dose is not None and dose.frequency == frequency


def test_her_other_patient_is_someone_else():
    said = read("Dr Okafor asked me to check the K on her other patient")
    assert said.subject.about == "other"
    assert read("is her other kidney ok").subject.about == "patient"
