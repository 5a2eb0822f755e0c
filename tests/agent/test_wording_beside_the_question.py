"""The same request in other words: her own name beside a drug, a relative who is ill, a
follow-up that points back at the drugs just named, a follow-up's first words, the medication
list named by what it is, and a drug written as the start of its name. Pure (the agent runs on
the tests' fake tools; the words are read by the real readers)."""
from __future__ import annotations

from dataclasses import replace

import pytest
from smart_docgemma.agent import clarification
from smart_docgemma.agent.extraction import extract, read
from smart_docgemma.agent.graph import Agent
from smart_docgemma.knowledge.mentions import find_drugs
from smart_docgemma.reading.people import beside_people
from smart_docgemma.tools.base import ToolContext
from smart_docgemma.tools.chart.in_context import ChartInContext, InContext, Medication

from .conftest import FakeTool, ok
from .test_understanding import OWN, OWN_CHART, PATIENT_SCOPES, _tools

THOMPSON = ("Margaret Thompson, 83 y female; problems: CKD; meds: amlodipine 5 mg daily; "
            "allergies: none recorded")
# the same charts typed, for the launch patient of these turns
TYPED = {
    OWN: replace(OWN_CHART, patient=replace(OWN_CHART.patient, id="pt-1")),
    THOMPSON: ChartInContext(InContext("Margaret Thompson", "pt-1"), sex="female", age=83,
                             medications=(Medication("amlodipine 5 mg daily", ("amlodipine",)),)),
}


def _run(message, chart=OWN, history=None):
    tools = _tools()
    tools["check_drug_safety"] = FakeTool("check_drug_safety", ok("Avoid naproxen", count=1))
    ctx = ToolContext(patient_id="pt-1", scopes=PATIENT_SCOPES)
    agent = Agent(None, {n: f.tool() for n, f in tools.items()}, ctx)
    turn = agent.run(message, chart_summary=chart, chart=TYPED[chart], history=history)
    return turn, {n: f.calls for n, f in tools.items() if f.calls}


@pytest.mark.parametrize("message", [
    "Robert Mensah - naproxen ok?",
    "naproxen for Robert Mensah?",
    "Mensah, Robert: naproxen?",
])
def test_her_own_name_beside_a_drug_checks_the_drug_without_a_search(message):
    _, calls = _run(message)
    # the drug checked against her chart (alone, or with her list's drugs), never a lookup
    assert {"check_drug_safety", "check_drug_interactions"} & set(calls)
    assert "search_patient" not in calls


def test_her_own_name_alone_is_still_looked_up():
    _, calls = _run("Robert Mensah?")
    assert "search_patient" in calls


@pytest.mark.parametrize("message, who", [
    ("son frère a de la fièvre, je peux lui donner du paracétamol ?", "frere"),
    ("her daughter has a rash, can she use hydrocortisone cream?", "daughter"),
    ("a filha dela está com febre, pode tomar dipirona?", "filha"),
    ("su hija tiene tos, le doy codeína?", "hija"),
])
def test_a_relative_ill_in_their_own_right_is_someone_else(message, who):
    assert who in beside_people(message)
    turn, calls = _run(message)
    assert calls == {} and "this chart only" in turn.answer and "not this patient" in turn.answer


@pytest.mark.parametrize("message", [
    "her daughter says she has been confused, any of her meds?",  # the relative reports
    "his wife is here, what is his INR?",
    "son fils demande si elle peut prendre du paracétamol",  # asks: the patient, "elle"
])
def test_a_relative_who_reports_or_is_present_is_not_the_subject(message):
    assert "daughter" not in beside_people(message) and "wife" not in beside_people(message)


def _history(*said):
    out = []
    for text in said:
        out += [{"role": "user", "content": text}, {"role": "assistant", "content": "…"}]
    return out


@pytest.mark.parametrize("before, message", [
    ("his meds?", "any probs with those?"),
    ("warfarin and aspirin", "ok together?"),
    ("il prend quoi comme traitement ?", "et ça, c'est grave ?"),
    ("¿qué medicamentos toma?", "¿y esos, algún problema?"),
    ("quais os remédios dele?", "algum problema com esses?"),
])
def test_a_follow_up_pointing_back_is_read_with_the_message_it_points_at(before, message):
    understood = clarification.completed(message, _history(before))
    assert understood == f"{before} {message}"


@pytest.mark.parametrize("before, message", [
    ("hello", "any probs with those?"),  # the message before named no drug nor the list
    ("his meds?", "ok to add naproxen to those?"),  # a drug of its own: its own request
    ("his meds?", "those look fine, now order a potassium for tomorrow please thanks"),  # long
])
def test_a_follow_up_with_its_own_content_stands_alone(before, message):
    assert clarification.completed(message, _history(before)) == message


@pytest.mark.parametrize("message, focus", [
    ("what about the INR?", "lab:INR"),
    ("and his K?", "lab:Potassium"),
    ("et la kaliémie ?", "lab:Potassium"),
    ("y la creatinina?", "lab:Creatinine"),
])
def test_a_follow_ups_first_words_are_no_definition_asked(message, focus):
    said = read(message)
    assert said.focus == focus and "chart_question" in said.entities.actions


def test_what_is_still_asks_a_definition():
    assert "chart_question" not in extract("what is eGFR?").actions


@pytest.mark.parametrize("message", ["is his drug combo safe", "his regimen ok?"])
def test_the_medication_list_named_by_what_it_is_is_the_review(message):
    said = read(message)
    assert said.focus == "medications" and "chart_question" in said.entities.actions


@pytest.mark.parametrize("text, drug", [
    ("fluclox for cellulitis?", "flucloxacillin"),
    ("clinda instead?", "clindamycin"),
    ("atorva for him", "atorvastatin"),
    ("cefurox iv?", "cefuroxime"),
])
def test_six_letters_of_one_ingredients_own_name_are_that_drug(text, drug):
    assert [m.name for m in find_drugs(text)] == [drug]


@pytest.mark.parametrize("text", [
    "proven benefit?",     # the start of a brand (Proventil), an ordinary word
    "deltas in the trend",  # Deltasone
    "reviewed yesterday",
    "normal range?",
])
def test_a_brands_start_or_an_ordinary_word_is_no_drug(text):
    assert find_drugs(text) == []


@pytest.mark.parametrize("message", [
    "cancel that", "non, annule", "esquece", "olvídalo", "no, cancel the pending order please",
    "Scrap that.", "laisse tomber",
])
def test_a_message_that_only_cancels_withdraws_the_pending_card(message):
    from smart_docgemma.agent.amendments import cancels

    assert cancels(message)


@pytest.mark.parametrize("message", [
    "cancel the lab order", "no, make it 100 mg", "can we cancel his warfarin?",
    "forget it, give amoxicillin instead",
])
def test_a_message_that_asks_more_than_cancelling_is_read_as_itself(message):
    from smart_docgemma.agent.amendments import cancels

    assert not cancels(message)


@pytest.mark.parametrize("message, who", [
    ("the patient next door needs ibuprofen, ok?", "the patient next door"),
    ("what is the other patient on?", "the other patient"),
    ("el de al lado tiene alergia a la penicilina?", "el de al lado"),
    ("his mum is asthmatic, can she take ibuprofen?", "mum"),
])
def test_someone_named_by_where_they_are_or_being_another_is_not_her(message, who):
    assert who in beside_people(message)


def test_living_next_door_to_someone_names_no_one_else():
    assert beside_people("she lives next door to her daughter; any issue with her meds?") == []


def test_at_ten_oclock_is_a_time_not_a_drug():
    assert find_drugs("bp 168/94 at 10:00 pls record") == []


@pytest.mark.parametrize("message", ["refer renal", "encaminhar para nefro", "refer to cardio"])
def test_a_specialtys_ward_short_name_is_a_referral(message):
    assert "refer" in extract(message).actions


def test_two_order_lines_joined_by_and_are_checked_together_and_carded_each():
    # each line with its own dose is an order of its own (agent/several_orders.py)
    _, calls = _run("start atorvastatin 20 od and ramipril 5 od", chart=THOMPSON)
    assert calls["check_drug_interactions"][0]["drug_names"][:2] == ["atorvastatin", "ramipril"]
    assert [(c["medication_name"], c["dosage"]) for c in calls["prescribe_medication"]] == [
        ("atorvastatin", "20 mg"), ("ramipril", "5 mg")]


@pytest.mark.parametrize("text, named", [
    ("can he have an NSAID?", "NSAID"), ("AINS possible ?", "NSAID"),
    ("posso dar um anti-inflamatório a ele?", "NSAID"), ("ok to start an ACE inhibitor?", "ACE inhibitor"),
    ("IECA ?", "ACE inhibitor"), ("can she have a statin?", "statin"),
    ("any cephalosporin ok for her?", "cephalosporin"), ("bêta-bloquant possible ?", "beta-blocker"),
])
def test_a_class_named_is_read_as_that_class(text, named):
    assert named in extract(text).drugs


@pytest.mark.parametrize("name, key", [
    ("NSAID", "nsaid"), ("ACE inhibitor", "ace_inhibitor"), ("cephalosporin", "cephalosporin"),
    ("statin", "statin"),
])
def test_a_class_named_carries_the_classes_its_rules_are_written_for(name, key):
    from smart_docgemma.knowledge import classes, identity

    assert key in classes.of(name)
    assert identity.parse(name).identified  # never "name not recognised", never a clean check


def test_penicillin_is_still_the_ingredient():
    from smart_docgemma.knowledge import classes

    assert classes.named("penicillin") is None


@pytest.mark.parametrize("message, ids", [
    ("pt-ckd-elder latest K", ("pt-ckd-elder",)),
    ("PT-CKD-ELDER meds", ("PT-CKD-ELDER",)),
    ("pt-jw-1971 allergies", ("pt-jw-1971",)),
    ("pt-warfarin latest INR", ("pt-warfarin",)),  # hers: read, then known as hers
    ("pt education given re INR", ()),  # "pt" alone is the patient, not an id's head
])
def test_a_word_written_as_her_id_is_is_an_id(message, ids):
    from smart_docgemma.tools.chart.in_context import ChartInContext, InContext

    chart = ChartInContext(patient=InContext(name="Robert Mensah", id="pt-warfarin"))
    assert read(message, chart=chart).entities.patient_ids == ids


@pytest.mark.parametrize("message, who", [
    ("okoro's hba1c?", ["okoro"]), ("and banda's glucose?", ["banda"]),
    ("today's INR?", []), ("the consultant's plan for his warfarin?", []),
    ("parkinson's risk with his meds?", []), ("patient's meds?", []),
])
def test_one_lower_case_word_owning_something_is_a_person_unless_a_word(message, who):
    from smart_docgemma.reading.people import possessor_people

    assert possessor_people(message) == who


@pytest.mark.parametrize("message, who", [
    ("is esther banda on insulin or not", ["esther banda"]),
    ("does grace adeyemi have allergies", ["grace adeyemi"]),
    ("is he still on warfarin", []), ("does this patient have allergies", []),
    ("is the inr on target", []),
])
def test_two_lower_case_words_asked_about_are_a_person_unless_words(message, who):
    from smart_docgemma.reading.people import questioned_people

    assert questioned_people(message) == who


@pytest.mark.parametrize("message, names", [
    ("e o seu Robert, como está o INR?", ("Robert",)), ("don Pedro tiene alergia?", ("Pedro",)),
    ("como está o seu INR?", ()), ("o seu Marevan foi suspenso?", ()), ("qual o seu peso?", ()),
])
def test_a_short_title_in_lower_case_before_a_capitalised_name_names_someone(message, names):
    assert extract(message).patient_names == names


@pytest.mark.parametrize("message, who", [
    ("Draft a discharge summary", []), ("Write a referral letter", []),
    ("Okoro a fait son HbA1c ?", ["Okoro"]), ("Adeyemi a une allergie ?", ["Adeyemi"]),
])
def test_an_english_imperative_and_its_article_are_no_french_subject_and_verb(message, who):
    from smart_docgemma.reading.people import subject_names

    assert subject_names(message) == who
