"""Rules from the sixteenth stop's walks (walks 62-64, fixture charts, no model): a per-kg dose
typed without its unit, a result told with only its time, who to tell after a list of tests, and
an approval in words with no card waiting; each with the near words that must not trigger it."""
from __future__ import annotations

import pytest
from smart_docgemma.agent import amendments
from smart_docgemma.agent.ward_requests import actions, workflow_of
from smart_docgemma.reading.per_kg import per_kg_in_mg
from smart_docgemma.tools.words.ward_words import unread_tests


@pytest.mark.parametrize(("said", "read"), [
    ("amox 80/kg/d div bd", "amox 80 mg/kg/d div bd"),
    ("ibuprofen 10/kg tds", "ibuprofen 10 mg/kg tds"),
    ("paracetamol 15 per kilo q6h", "paracetamol 15 mg/kg q6h"),
    ("amoxicilina 90/kg/dia de 12/12h", "amoxicilina 90 mg/kg/dia de 12/12h"),
    ("ceftriaxone 50 / kg od", "ceftriaxone 50 mg/kg od"),
])
def test_a_per_kg_dose_without_its_unit_is_in_mg_for_a_drug_dosed_so(said, read):
    assert per_kg_in_mg(said) == read


@pytest.mark.parametrize("said", [
    "fentanyl 1/kg",            # dosed in micrograms: never guessed as mg
    "NS bolus 20/kg",           # a fluid in mL
    "80/kg/d div bd",           # no drug named
    "amox 50 mg/kg/d",          # the unit said
    "give 20 ml/kg",
    "co-amox 30/kg/day",        # a combination the table holds one part of: asked
    "weight 20/kg",
])
def test_near_words_no_drug_of_the_table_or_a_unit_said_stay_as_written(said):
    assert per_kg_in_mg(said) == said


@pytest.mark.parametrize(("said", "want"), [
    ("K 3.2 this am", ["protocol"]),
    ("K 3.2", ["protocol"]),
    ("kaliémie 3,1 ce matin à 6h", ["protocol"]),
    ("potasio 3,0 hoy", ["protocol"]),
    ("K 6.1 on the gas", ["plan"]),
    ("potassium 6.3 at 0600", ["plan"]),
])
def test_a_result_told_with_only_its_time_is_told_for_what_it_needs(said, want):
    assert actions(said) == want


@pytest.mark.parametrize("said", [
    "K 3.2 this am, started on oral KCl",     # its replacement told as given: not again
    "K 3.2 this am?",                          # asked
    "record K 3.2 this am",                    # recorded, not planned
    "K 3.2 this am after the vomiting",        # told with a story: not guessed
])
def test_near_words_a_result_told_with_more_is_not_planned_alone(said):
    assert actions(said) not in (["protocol"], ["plan"])


def test_a_result_told_alone_keeps_its_value():
    assert workflow_of("K 3.2 this am").stated_value == 3.2


@pytest.mark.parametrize("said", [
    "ionograma mañana temprano y avísame",
    "U&E and Mg tomorrow am, let me know",
    "NFS et iono demain, préviens-moi",
])
def test_who_to_tell_after_a_list_of_tests_is_no_test(said):
    assert unread_tests(said) == []


def test_near_words_an_unknown_test_in_the_list_is_still_said():
    assert unread_tests("fbc, zorbix and crp tomorrow") == ["zorbix"]


@pytest.mark.parametrize(("said", "approves"), [
    ("go ahead", True), ("yes go ahead", True), ("ok sign it", True),
    ("yes", False), ("go ahead and order a CRP", False),
])
def test_an_approval_in_words_is_only_the_approval(said, approves):
    assert amendments.approves(said) is approves


# --- a stop said plainly: the drug her order of is stopped, on approval

@pytest.mark.parametrize(("said", "drug"), [
    ("stop the aspirin", "aspirin"), ("d/c omeprazole pls", "omeprazole"),
    ("discontinue his amlodipine", "amlodipine"), ("arrête l'amlodipine", "amlodipine"),
    ("suspender o AAS", "aspirin"), ("suspende el enalapril", "enalapril"),
    ("INR? and stop the aspirin", "aspirin"),
])
def test_a_stop_said_plainly_names_the_drug_stopped(said, drug):
    assert workflow_of(said).stop == drug
    assert actions(said) == ["stop"]


@pytest.mark.parametrize("said", [
    "hold warfarin tonight",                  # a hold is not a stop
    "don't stop the aspirin", "ne pas arrêter l'aspirine", "não suspender o AAS",
    "should I stop the aspirin?", "suspendo a varfarina?",    # asked
    "stop the aspirin if he bleeds",          # waiting on a condition
    "he stopped taking his aspirin",          # told
    "stop taking aspirin he says",
    "stop warfarin 5 days before surgery",    # a peri-operative plan's
    "stop the lisinopril and start labetalol 100 bd",         # a switch
])
def test_near_words_a_hold_a_denial_a_question_or_a_switch_stops_nothing(said):
    assert workflow_of(said).stop is None


@pytest.mark.parametrize(("said", "drug"), [
    ("take him off the aspirin", "aspirin"), ("cease aspirin - on warfarin", "aspirin"),
    ("stop aspirin and warfarin", "aspirin"),     # one stop a message: the first
])
def test_a_stop_in_other_words_names_the_first_drug_stopped(said, drug):
    assert workflow_of(said).stop == drug


@pytest.mark.parametrize("said", ["stop lisinopril, start labetalol 100mg bd",
                                  "stop the metformin, start gliclazide 40 od"])
def test_near_words_a_stop_beside_a_start_is_the_switch(said):
    flow = workflow_of(said)
    assert flow.stop is None and flow.switch is not None
    assert flow.switch.replaces in ("lisinopril", "metformin")


@pytest.mark.parametrize("said", [
    "anything on her drug chart that worries you given her kidneys?",
    "anything in her meds that worries you given her kidneys?",
    "anything in his meds that concerns you?",
    "her meds - any issues with her egfr?",
])
def test_her_list_named_then_a_worry_is_the_review(said):
    from smart_docgemma.tools.chart.answers import chart_focus
    assert chart_focus(said) == "review"


@pytest.mark.parametrize(("said", "focus"), [
    ("what meds is she on", "medications"), ("is her creatinine concerning?", "lab:Creatinine"),
    ("his drug chart please", "medications"),
])
def test_near_words_her_list_or_a_result_asked_alone(said, focus):
    from smart_docgemma.tools.chart.answers import chart_focus
    assert chart_focus(said) == focus


@pytest.mark.parametrize(("said", "want"), [
    ("stop warfarin - INR 3.4, recheck in 2 days", ["stop", "order_lab"]),
    ("d/c metformin, U&E tomorrow", ["stop", "order_lab"]),
    ("stop the aspirin", ["stop"]),
])
def test_a_stop_keeps_the_lab_ordered_beside_it(said, want):
    assert actions(said) == want


@pytest.mark.parametrize("said", ["ok", "yes", "Oui", "sim", "vale.", "ok thanks"])
def test_a_bare_acknowledgement_is_one(said):
    assert amendments.acknowledges(said)


@pytest.mark.parametrize("said", ["ok start it", "yes 500 mg", "ok, and a CRP", "no", "thanks for that"])
def test_near_words_an_acknowledgement_with_more_is_not_one(said):
    assert not amendments.acknowledges(said)


@pytest.mark.parametrize("said", ["actually keep it", "no, leave him on it", "keep it for now",
                                  "on le garde", "non, garde-le", "mantém", "não, deixa estar",
                                  "déjalo como está", "mejor mantenlo"])
def test_the_drug_kept_after_its_stop_card(said):
    assert amendments.keeps_the_drug(said)


@pytest.mark.parametrize("said", ["keep an eye on his K", "leave a note", "continue amoxicillin 500 tds",
                                  "keep the INR above 2", "ok"])
def test_near_words_keeping_something_else_keeps_no_drug(said):
    assert not amendments.keeps_the_drug(said)
