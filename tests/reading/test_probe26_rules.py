"""probe26_en's rules, each with near words that must not trigger: "gent" after a determiner is
a person, not gentamicin; a result's trend asked is her chart's; a test added to the pending lab
orders in a short follow-up is ordered beside them; a dose-capped pair's card says the cap."""
from __future__ import annotations

import pytest
from smart_docgemma.agent import ward_amendments
from smart_docgemma.agent.extraction import read
from smart_docgemma.approval.types import PendingCard
from smart_docgemma.checks import drug_safety
from smart_docgemma.checks.hookdata import HookData
from smart_docgemma.knowledge.mentions import find_drugs
from smart_docgemma.languages import say
from smart_docgemma.tools.words import dosing


@pytest.mark.parametrize("said", [
    "pharmacist wants a med review on this gent", "the old gent in bed 4", "a nice gent, 82",
])
def test_gent_after_a_determiner_is_a_person(said):
    assert "gentamicin" not in [d.name for d in find_drugs(said)]


@pytest.mark.parametrize("said", [
    "the gent level tomorrow", "start gent 5mg/kg od", "this gent 5 mg/kg", "is gent ok for her?",
    "check the gent levels",
])
def test_near_words_gent_is_still_gentamicin(said):
    assert "gentamicin" in [d.name for d in find_drugs(said)]


@pytest.mark.parametrize("said", [
    "eGFR - how has it changed?", "K trending?", "comment a évolué la créat ?",
    "¿cómo ha evolucionado la creatinina?", "creatinine over time",
])
def test_a_results_trend_asked_is_her_chart(said):
    assert "chart_question" in read(said).entities.actions


@pytest.mark.parametrize("said", ["what is eGFR?", "define creatinine clearance"])
def test_near_words_a_definition_is_not_her_chart(said):
    assert "chart_question" not in read(said).entities.actions


def _lab_card(test: str = "basic metabolic panel") -> PendingCard:
    return PendingCard(proposal_id="p1", tool="order_lab_test", kind="lab_order", title=test,
                       request={"test": test, "when": "tomorrow 8am", "priority": "routine"},
                       edited=False)


@pytest.mark.parametrize("said", [
    "and a magnesium with it", "magnesium too", "add a magnesium to that", "et un magnésium avec",
    "e um magnésio junto", "y un magnesio también", "plus a CRP",
])
def test_a_test_added_to_the_pending_lab_orders(said):
    call = ward_amendments.added_lab_orders(read(said), [_lab_card()], "pt-1")
    assert call is not None and call.args["when"] == "tomorrow 8am"
    assert "basic metabolic panel" not in call.args["test"]


@pytest.mark.parametrize("said", [
    "and the magnesium?", "magnesium 400 mg bd too", "add magnesium for Robert Mensah",
    "and a U&E with it", "magnesium",
])
def test_near_words_add_no_test(said):
    assert ward_amendments.added_lab_orders(read(said), [_lab_card()], "pt-1") is None


def test_a_capped_pair_says_the_cap_on_the_card():
    med = {"resourceType": "MedicationRequest", "id": "a1", "status": "active", "intent": "order",
           "medicationCodeableConcept": {"text": "amlodipine 5 MG Oral Tablet"}}
    data = HookData(resources={"medications": [med], "conditions": [], "pregnancy": [],
                               "labs": [], "allergies": []})
    over = drug_safety.check(["simvastatin"], data, dosing.order("40 mg", "at night", None).dosage)
    [found] = [f for f in over.findings if f.topic == "drug-interaction"]
    assert found.severity == "critical"
    assert say(found.message, "en") == "Do not give more than 20 mg of simvastatin a day with amlodipine"
    within = drug_safety.check(["simvastatin"], data, dosing.order("10 mg", "at night", None).dosage)
    [kept] = [f for f in within.findings if f.topic == "drug-interaction"]
    assert kept.severity != "critical"
    assert say(kept.message, "en") == "Keep simvastatin to at most 20 mg a day with amlodipine"


@pytest.mark.parametrize("said", [
    "K+ in 4 hours please", "potassium in 6 hrs pls", "kaliémie dans 6h", "potasio en 4 horas",
])
def test_one_test_hours_ahead_is_an_order(said):
    from smart_docgemma.reading.ward import read_ward

    assert read_ward(said).tests == ("serum potassium",)


@pytest.mark.parametrize("said", ["K+ in the last 4 hours", "magnesium in 2 hours?"])
def test_near_words_a_window_asked_orders_nothing(said):
    from smart_docgemma.reading.ward import read_ward

    assert read_ward(said).tests == ()


@pytest.mark.parametrize("said, focus", [
    ("what did the last note say?", "notes"), ("sa dernière note ?", "notes"),
    ("a última nota dela?", "notes"), ("is this the 1990 one?", "identifiers"),
    ("is this him born in 1971?", "identifiers"),
])
def test_the_last_note_and_the_namesake_by_birth_year(said, focus):
    from smart_docgemma.tools.chart.answers import chart_focus

    assert chart_focus(said) == focus


@pytest.mark.parametrize("said", [
    "why is he on warfarin?", "what's the metformin for?", "indication for his aspirin?",
    "pourquoi il prend de la warfarine ?", "por que ela toma metformina?", "¿para qué toma aspirina?",
])
def test_why_a_drug_was_ordered_is_asked_of_her_list(said):
    from smart_docgemma.tools.chart.answers import chart_focus

    assert chart_focus(said) == "reason"
    assert "chart_question" in read(said).entities.actions


@pytest.mark.parametrize("said", ["what's the plan for tomorrow?", "what is metformin?",
                                  "what meds is he on?", "start warfarin 5 od"])
def test_near_words_ask_no_reason(said):
    from smart_docgemma.tools.chart.answers import chart_focus

    assert chart_focus(said) != "reason"


def test_an_orders_reason_is_said_by_its_problem_and_none_is_never_guessed():
    from smart_docgemma.tools.chart import records
    from smart_docgemma.tools.chart.answers import answer
    from smart_docgemma.tools.chart.chartdata import ChartData, ChartPatient, ChartProblem

    warfarin = records.medication({"resourceType": "MedicationRequest", "id": "m1",
                                   "medicationCodeableConcept": {"text": "warfarin 5 mg"},
                                   "reasonReference": [{"reference": "Condition/c1"}]})
    aspirin = records.medication({"resourceType": "MedicationRequest", "id": "m2",
                                  "medicationCodeableConcept": {"text": "aspirin 81 mg"}})
    af = ChartProblem("Atrial fibrillation", "disorder", "2018-02-14", "Condition/c1", "disorder")
    chart = ChartData(patient=ChartPatient(id="p1"), medications=(warfarin, aspirin),
                      problems=(af,))
    said = answer("reason", chart)
    assert "- warfarin 5 mg: Atrial fibrillation" in said
    assert "- aspirin 81 mg: no reason on the order" in said


@pytest.mark.parametrize("said", [
    "mrs thompson's sister is also here, she takes ibuprofen daily - ok?",
    "Mr Okoro's wife is here too - she is on warfarin, can she take aspirin?",
    "sa fille est là, elle prend de l'ibuprofène, c'est ok ?",
])
def test_a_relative_told_with_her_own_drug_is_another_person(said):
    from smart_docgemma.reading.people import beside_people

    assert beside_people(said)


@pytest.mark.parametrize("said", [
    "mrs thompson's daughter says she takes ibuprofen at home - ok with her kidneys?",
    "her husband is here, can we go through her meds?",
])
def test_near_words_a_relative_reporting_for_her_is_no_one_else(said):
    from smart_docgemma.reading.people import beside_people

    assert beside_people(said) == []


def test_a_childs_dose_in_ml_without_its_strength_is_said_unchecked():
    from datetime import date

    from smart_docgemma.checks import child_doses
    from smart_docgemma.checks.chart_values import ChartWeight

    weight = ChartWeight(20.1, date(2026, 11, 19), "w1", "", 10)
    draft = {"resourceType": "MedicationRequest", "id": "d1", "status": "draft", "intent": "order",
             "medicationCodeableConcept": {"text": "acetaminophen"},
             "dosageInstruction": [dosing.order("5 ml", "four times daily", None).dosage]}
    [found] = child_doses.check("acetaminophen", "acetaminophen", draft, weight, 2000, "k")
    assert found.severity == "info" and "no mg" in found.summary
    mg = {**draft, "dosageInstruction": [dosing.order("240 mg", "four times daily", None).dosage]}
    assert child_doses.check("acetaminophen", "acetaminophen", mg, weight, 2000, "k") == []


@pytest.mark.parametrize("said", [
    "INR daily for 3 days", "U&E daily x3", "NFS tous les jours pendant 3 jours",
    "INR diário por 3 dias", "INR diario por 3 días",
])
def test_a_test_daily_for_days_is_a_series_of_orders(said):
    from smart_docgemma.tools.words import when

    assert when.daily_count(said) == 3
    first = when.parse(said, "UTC")
    days = when.series(first, 3)
    assert [d.at.date().toordinal() - days[0].at.date().toordinal() for d in days] == [0, 1, 2]
    assert "order_lab" in read(said).entities.actions


@pytest.mark.parametrize("said", ["check U&E daily", "metformin 500 daily", "INR daily for 30 days"])
def test_near_words_daily_without_a_short_count_is_one_order(said):
    from smart_docgemma.tools.words import when

    assert when.daily_count(said) is None


@pytest.mark.parametrize("said, other", [
    ("the lady in the side room's INR pls", True), ("the man in the side room - allergies?", True),
    ("side room patient K?", True), ("move her to a side room", False),
    ("she's in a side room for barrier nursing, K?", False),
])
def test_someone_in_a_side_room_is_another_patient(said, other):
    from smart_docgemma.reading.people import beside_people

    assert bool(beside_people(said)) is other
