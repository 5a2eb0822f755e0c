"""The rules of the eleventh English round (probe11_en), each with near words that must not
match: her K judged with a state word, several requests in one message, an order conditional on
a result, a drug declined beside the one ordered."""
from __future__ import annotations

import pytest
from smart_docgemma.agent.extraction import read
from smart_docgemma.agent.planning import chart_args
from smart_docgemma.agent.several_asks import conditional_order, conditions, parts
from smart_docgemma.tools.args import PatientChartArgs
from smart_docgemma.tools.chart.answers import chart_focus

ORDERS = {"prescribe", "prescribe_drug", "administer", "order_line"}


@pytest.mark.parametrize("message", ["K still high?", "is K high?", "K ok?", "K coming down?",
                                     "k now normal?"])
def test_her_k_judged_with_a_state_word_is_her_potassium(message):
    assert chart_focus(message) == "lab:Potassium"
    assert "chart_question" in read(message).entities.actions


@pytest.mark.parametrize("message", ["vit K ok to give?", "vitamin K high dose?",
                                     "K ok to give with the ramipril?"])
def test_vitamin_k_or_a_k_given_is_no_potassium_asked(message):
    assert chart_focus(message) != "lab:Potassium"


@pytest.mark.parametrize("message, foci", [
    ("K and eGFR pls, and is naproxen ok", ("lab:Potassium", "lab:eGFR")),
    ("allergies + current meds", ("allergies", "medications")),
    ("INR? and stop the aspirin", ("lab:INR",)),
    ("INR, and any bleeding risk with his meds?", ("lab:INR", "medications")),
])
def test_each_request_of_a_message_of_several_is_read(message, foci):
    assert read(message).foci == foci


@pytest.mark.parametrize("message", [
    "start naproxen 250 bd, recheck U&E in 2 days",  # a lab ordered, not asked
    "K 5,6 - on arrête la spironolactone?",  # a result stated (and a decimal comma)
    "amoxicillin 500mg tds, and paracetamol 1g qds",  # two orders
    "bp 150/95, hr 88 - pls record",  # readings to record
    "INR?",  # one request: its one focus says it
])
def test_a_part_that_orders_states_or_records_asks_no_result(message):
    assert read(message).foci == ()


def test_the_parts_of_a_message():
    assert parts("INR? and stop the aspirin") == ["inr?", "stop the aspirin"]
    assert parts("allergies + current meds") == ["allergies", "current meds"]


@pytest.mark.parametrize("message, focus", [
    ("consider vit K if INR >5", "lab:INR"),
    ("if K < 3.5 give sando-k 2 tabs bd", "lab:Potassium"),
    ("give KCl 20mmol if K<3.5", "lab:Potassium"),
])
def test_an_order_on_a_results_condition_waits_and_the_result_is_shown(message, focus):
    said = read(message)
    assert focus in said.foci
    assert not ORDERS & set(said.entities.actions)


def test_a_condition_on_stopping_leaves_the_order_carded():
    said = read("Suggest ibuprofen 400 tds with food from today, stop if creat rises.")
    assert "administer" in said.entities.actions  # the condition's clause names no drug
    assert "lab:Creatinine" in said.foci
    assert not conditional_order("start amoxicillin 500mg tds, recheck if K rises", ["amoxicillin"])


@pytest.mark.parametrize("low", ["if still febrile give amoxicillin 500 tds",
                                 "if she is still in pain", "when pain settles stop the oxycodone"])
def test_a_condition_not_on_a_result_names_no_result(low):
    assert conditions(low) == []


@pytest.mark.parametrize("message, ordered", [
    ("not the amox, the doxy - 100mg bd for 5 days", "doxycycline"),
    ("don't give the naproxen, paracetamol 1g qds instead", "acetaminophen"),
])
def test_a_drug_declined_beside_another_is_never_the_one_ordered(message, ordered):
    said = read(message)
    assert said.ordered == ordered and "order_line" in said.entities.actions
    assert said.dose is not None and said.dose.written


def test_a_drug_alone_after_not_is_read_as_written():
    said = read("not amox allergic?")  # no other drug: nothing declined, the allergy asked
    assert "allergy_question" in said.entities.actions


def test_the_chart_answers_each_focus_asked_beside_the_first():
    args = chart_args(read("allergies + current meds"), "pt-1")
    assert args["focus"] == "allergies" and args["also"] == "medications"
    # several results are one read of the lab table's (``tests``), not asked again in ``also``
    args = chart_args(read("K and eGFR pls, and is naproxen ok"), "pt-1")
    asked = {args["focus"], *(args["also"] or "").split(","), *(
        f"lab:{t}" for t in (args["tests"] or "").split(","))}
    assert {"lab:Potassium", "lab:eGFR"} <= asked and not args["also"]
    kept = PatientChartArgs(patient_id="pt-1", focus="lab:INR", also="medications,nonsense")
    assert kept.also == "medications"
    assert PatientChartArgs(patient_id="pt-1", also="nonsense").also is None


# probe12_en's rules
def test_a_drug_named_after_a_saint_names_no_person():
    assert read("daughter bought him st john's wort for his mood").subject.about == "patient"
    assert read("is John on warfarin?").subject.about == "other"


@pytest.mark.parametrize("message, about", [
    ("she's been taking her mum's enalapril", "patient"),
    ("he took his wife's tramadol last night", "patient"),
    ("can her mum take enalapril?", "other"),
    ("her mum's meds?", "other"),
])
def test_a_relatives_medicine_the_patient_takes_is_asked_of_the_patient(message, about):
    assert read(message).subject.about == about


@pytest.mark.parametrize("message, focus", [
    ("bp meds and is she ok to continue them", "medications"), ("what are her bp meds", "medications"),
    ("bp?", "vitals:bp"), ("bp 150/90", "vitals:bp"), ("BP trend", "vitals:bp"),
    ("how's her K trending", "lab:Potassium"), ("heaviest he's been?", "vitals:weight"),
    ("how much is that in mg?", None), ("what's that in mg", None), ("mg?", "lab:Magnesium"),
])
def test_what_a_short_word_names_beside_another(message, focus):
    assert chart_focus(message) == focus


def test_a_slash_between_two_results_asks_both_never_a_units_slash():
    assert read("K/eGFR?").foci == ("lab:Potassium", "lab:eGFR")
    assert read("paracetamol 15mg/kg qds prn").foci == ()


@pytest.mark.parametrize("message, cancels_it", [
    ("actually leave it at 5", True), ("keep it at 5mg please", True), ("leave it", True),
    ("no change", True), ("leave it at 5 and add ramipril", False), ("make it 5", False),
])
def test_the_dose_she_is_on_kept_withdraws_the_change(message, cancels_it):
    from smart_docgemma.agent.amendments import cancels

    assert cancels(message) is cancels_it


def test_a_switch_written_as_a_plan_is_a_switch():
    said = read("consider switching lisinopril to labetalol 100mg bd")
    assert "switch" in said.entities.actions


def test_a_stop_after_a_question_of_its_own_is_said_not_stopped():
    assert read("INR? and stop the aspirin").stopped == ("aspirin",)
    assert read("suspendo a varfarina?").stopped == ()
    assert read("stop the aspirin and is INR ok?").stopped == ()


def test_the_one_drug_declined_is_checked_not_ordered():
    said = read("don't start the apixaban yet, just check it's ok with what he's on")
    assert said.entities.drugs == ("apixaban",) and not ORDERS & set(said.entities.actions)
    assert "prescribe_drug" in read("start apixaban 5mg bd").entities.actions


def test_a_colleagues_patient_is_someone_else():
    assert read("quick one, my colleague's patient mr banda - what's his K?").subject.about == (
        "other")


def test_a_result_asked_with_its_question_mark_beside_an_order_is_shown():
    assert read("a1c? and start gliclazide 40 od").foci == ("lab:HbA1c",)
    assert read("hba1c 7.2, start gliclazide 40 od").foci == ()  # a value stated


@pytest.mark.parametrize("message, prescribes", [
    ("has he put on weight", False), ("has she put on any weight?", False),
    ("put her on ramipril 2.5", True),
])
def test_putting_on_weight_orders_nothing(message, prescribes):
    actions = set(read(message).entities.actions)
    assert bool({"prescribe", "prescribe_drug"} & actions) is prescribes
