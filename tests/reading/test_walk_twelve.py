"""What the lead's nineteenth to twenty-first blind walks found read wrongly, read rightly:
"Surname, Given" names the given name too; "the other James Wilson" is a namesake; a draft for
her own name with an initial is hers; a chronic disease's review and what is missing ask the care
gaps, and what is overdue in other words orders them; "stop it", "add it", "arrête-le" act on
the drug just discussed and "recheck it" on the test just asked; a test done again is the test;
a bare "ok" before an order assents; a route asked of the card re-drafts it; a count of days
after the frequency is the course; a plan is read as asked even where no plan covers it; the
word "allergy" is never part of a reaction."""
from __future__ import annotations

import pytest
from smart_docgemma.agent.ward_requests import _low, workflow_actions, workflow_of
from smart_docgemma.reading.people import heading_names
from smart_docgemma.tools.writes.drafts import says_all


@pytest.mark.parametrize("message, named", [
    ("Mensah, Roberta INR?", ["Roberta Mensah"]),
    ("Thompson, Joan - egfr?", ["Joan Thompson"]),
    ("Okafor, Samuel: meds", ["Samuel Okafor"]),
    ("Adeyemi : allergies ?", ["Adeyemi"]),
])
def test_a_surname_then_a_given_name_heading_the_message_is_both(message, named):
    assert heading_names(message) == named


@pytest.mark.parametrize("message", ["Thompson, what is her K?", "Mensah, INR?",
                                     "Warfarin, Aspirin: ok?", "Hello, Dr Smith here"])
def test_a_question_or_a_drug_after_the_comma_is_no_given_name(message):
    assert all(" " not in n for n in heading_names(message))


@pytest.mark.parametrize("words, hers", [
    (["Samuel", "O."], True), (["Samuel", "O"], True), (["S.", "Okoro"], True),
    (["Samuel", "B."], False), (["Samuel", "Okafor"], False), (["Sam", "Okoro"], False),
])
def test_an_initial_in_a_draft_request_is_hers_only_when_her_name_begins_with_it(words, hers):
    assert says_all("Samuel Okoro", words) is hers


@pytest.mark.parametrize("message", [
    "diabetes review", "diabetic review: hba1c, egfr, acr, lipids", "ckd review",
    "annual review due?", "¿le falta alguna vacuna o control?", "revisão da diabetes",
    "bilan annuel du diabète ?", "falta algum exame?",
])
def test_a_chronic_disease_review_or_what_is_missing_asks_the_care_gaps(message):
    low = _low(message)
    assert workflow_actions(low, workflow_of(message)) == ["care_gaps"]


@pytest.mark.parametrize("message", [
    "review of his diabetes meds", "diabetes review of her meds", "she has diabetes",
    "review the INR", "le falta el aire",
])
def test_a_medicine_review_or_a_disease_named_is_not_the_care_gaps(message):
    low = _low(message)
    assert workflow_actions(low, workflow_of(message)) != ["care_gaps"]


ASPIRIN_ASKED = [{"role": "user", "content": "is he still on aspirin?"},
                 {"role": "assistant", "content": "Active medications (2): aspirin 81 mg …"}]


@pytest.mark.parametrize("message, understood", [
    ("stop it", "stop aspirin"),
    ("ok hold it too", "ok hold aspirin too"),
    ("add it", "start aspirin"),
    ("arrête-le", "stop aspirin"),
    ("on l'arrête ?", "on stop aspirin ?"),
    ("suspende-a", "stop aspirin"),
    ("suspéndelo", "stop aspirin"),
    ("stop it and start clopidogrel 75 od", "stop aspirin and start clopidogrel 75 od"),
])
def test_a_verb_with_a_pronoun_acts_on_the_drug_just_discussed(message, understood):
    from smart_docgemma.agent.clarification import acts_on_discussed
    from smart_docgemma.agent.extraction import extract

    assert acts_on_discussed(message, extract(message), ASPIRIN_ASKED) == understood


@pytest.mark.parametrize("message", [
    "para o INR?", "is it ok?", "what dose of it", "stop", "cancel it", "stop the aspirin",
    "stop it - James Wilson's", "la dose ?",
])
def test_no_pronoun_act_or_the_drug_named_is_left_as_said(message):
    from smart_docgemma.agent.clarification import acts_on_discussed
    from smart_docgemma.agent.extraction import extract

    assert acts_on_discussed(message, extract(message), ASPIRIN_ASKED) is None


@pytest.mark.parametrize("message, before, understood", [
    ("recheck it tomorrow am", "her K?", "recheck potassium it tomorrow am"),
    ("à refaire demain matin", "kaliémie ?", "a refaire potassium demain matin"),
    ("repetir mañana", "¿potasio?", "repetir potassium manana"),
])
def test_doing_a_test_again_after_its_results_were_asked_names_that_test(
        message, before, understood):
    from smart_docgemma.agent.clarification import redo_discussed
    from smart_docgemma.agent.extraction import extract

    history = [{"role": "user", "content": before}, {"role": "assistant", "content": "5.6"}]
    from smart_docgemma.tools.words.ward_words import lab_tests

    assert redo_discussed(message, extract(message), tuple(lab_tests(message)),
                          history) == understood


@pytest.mark.parametrize("message, before", [
    ("recheck it tomorrow", "is amlodipine ok for her?"),  # a drug asked, no test
    ("repeat the INR tomorrow", "her K?"),  # names its own test
    ("recheck it", "any allergies?"),
])
def test_doing_again_is_read_back_only_after_a_test_was_asked(message, before):
    from smart_docgemma.agent.clarification import redo_discussed
    from smart_docgemma.agent.extraction import extract

    history = [{"role": "user", "content": before}, {"role": "assistant", "content": "…"}]
    from smart_docgemma.tools.words.ward_words import lab_tests

    assert redo_discussed(message, extract(message), tuple(lab_tests(message)), history) is None


@pytest.mark.parametrize("message, test", [
    ("recontrôler la kaliémie demain matin", "serum potassium"),
    ("repetir potasio mañana", "serum potassium"),
    ("refazer o potássio amanhã às 8h", "serum potassium"),
])
def test_a_test_done_again_is_the_test_even_where_its_word_is_a_drug(message, test):
    from smart_docgemma.tools.words.ward_words import lab_tests

    assert lab_tests(message) == [test]


@pytest.mark.parametrize("message", ["repeat potassium chloride 20mmol",
                                     "repeat the potassium replacement", "repetir el cloruro de potasio"])
def test_a_drug_given_again_is_no_test(message):
    from smart_docgemma.tools.words.ward_words import lab_tests

    assert lab_tests(message) == []


def test_her_name_after_the_other_is_a_namesake():
    from smart_docgemma.reading.subject import InContext, other_of_her_name

    james = InContext("James Wilson", "pt-jw-1958", "MRN-200158", "1958-03-14")
    assert other_of_her_name("the other James Wilson's meds", james) == ("the other James",)
    assert other_of_her_name("l'autre Wilson, ses allergies ?", james) == ("l'autre Wilson",)
    assert other_of_her_name("la otra Sra. Wilson", james) == ("la otra Sra. Wilson",)
    for said in ("the other meds", "another INR for James Wilson", "James Wilson's other meds",
                 "the other drug James Wilson takes"):
        assert other_of_her_name(said, james) == ()


@pytest.mark.parametrize("message, asks", [
    ("ok start empagliflozin 10mg od", False), ("ok, give amox 500 tds", False),
    ("ok ibuprofen 400 tds for her?", True),
])
def test_a_bare_ok_before_an_order_assents_and_asks_only_with_a_question_mark(message, asks):
    from smart_docgemma.agent.extraction import extract

    assert ("give" in extract(message).actions) is asks


def test_a_possessive_ta_before_a_noun_is_no_blood_pressure():
    from smart_docgemma.tools.chart.answers import focus_of

    assert focus_of("ta dernière réponse, tu peux la traduire ?") is None
    assert focus_of("TA ?") == focus_of("ta ce matin ?") == "vitals:bp"


@pytest.mark.parametrize("message, days", [
    ("clarithromycin 500 bd 7 days", "7 days"), ("amox 500 tds, 5 days", "5 days"),
    ("paracetamol 1g qds prn 3 days", "3 days"),
    ("warfarin 5 od, INR in 3 days", None), ("metformin 500 bd 2 weeks ago", None),
])
def test_a_count_of_days_right_after_the_frequency_is_the_course(message, days):
    from smart_docgemma.agent.extraction import find_dose

    assert (find_dose(message) or {}).get("duration") == days


@pytest.mark.parametrize("message, route", [
    ("et en intraveineux ?", "IV"), ("por vía intravenosa", "IV"), ("sous-cutané", "subcutaneous"),
    ("por boca", "oral"),
])
def test_routes_in_other_words(message, route):
    from smart_docgemma.agent.routes import route_said
    from smart_docgemma.languages import fold

    assert route_said(fold(message)) == route


@pytest.mark.parametrize("message, kind", [
    ("entrega de guardia", "handoff"), ("pase de turno por favor", "handoff"),
    ("write to haematology about his INR", "referral"),
    ("escrever para a cardiologia sobre a tensão dele", "referral"),
])
def test_handovers_and_letters_in_other_words_are_drafted(message, kind):
    from smart_docgemma.tools.writes.drafts import request_kind

    assert request_kind(message) == kind


@pytest.mark.parametrize("message", ["write to me later", "guardia civil", "write the INR down"])
def test_a_letter_to_no_specialty_and_a_guard_are_no_draft(message):
    from smart_docgemma.tools.writes.drafts import request_kind

    assert request_kind(message) is None


@pytest.mark.parametrize("message, labs_only", [
    ("order whatever's overdue", False), ("order everything that's due", False),
    ("order his diabetes bloods", True),
])
def test_ordering_what_is_overdue_in_other_words_orders_the_care_gaps(message, labs_only):
    low = _low(message)
    workflow = workflow_of(message)
    assert workflow_actions(low, workflow) == ["order_gaps"]
    assert workflow.labs_only is labs_only


@pytest.mark.parametrize("message", ["cuidados em falta?", "anything outstanding for him?"])
def test_what_is_outstanding_asks_the_care_gaps(message):
    assert workflow_actions(_low(message), workflow_of(message)) == ["care_gaps"]


@pytest.mark.parametrize("message, asked", [
    ("asthma plan", True), ("plan for her asthma please", True), ("INR 3.4 - plan?", True),
    ("plan: start metformin 500 bd", False), ("evidence for the asthma plan", False),
])
def test_a_plan_asked_is_read_whether_or_not_a_problem_is_known(message, asked):
    assert workflow_of(message).plan_asked is asked


@pytest.mark.parametrize("message, reaction", [
    ("record aspirin allergy rash", "rash"), ("aspirin allergy - generalised rash", "generalised rash"),
])
def test_the_word_allergy_is_never_part_of_its_reaction(message, reaction):
    from smart_docgemma.agent.extraction import read

    assert read(message).entities.allergy.reaction == reaction


def test_a_birth_year_after_a_name_with_its_initials_full_stop_is_compared():
    from smart_docgemma.reading.subject import year_after_name

    assert year_after_name("Mensah R. 1951 - INR", ("Mensah R",)) == "1951"


@pytest.mark.parametrize("message, recorded", [
    ("her BP is 160/110 - what do I do", False), ("BP 160/110", True),
    ("record BP 160/110 - plan?", True),
])
def test_a_reading_stated_with_a_plan_asked_is_no_record_unless_record_is_said(message, recorded):
    from smart_docgemma.agent.ward_requests import actions

    assert ("record_vital" in actions(message)) is recorded


@pytest.mark.parametrize("message", [
    "Pedido de consulta de ortopedia com a nota: Dor no joelho. Ressonância com rotura do menisco.",
    "Encaminhar para cirurgia ortopédica. Situação: dor lombar. Histórico: osteoporose.",
    "Interconsulta a cirugía ortopédica, nota: Evaluación: fractura. Recomendación: valoración.",
    "Adresser en orthopédie, motif : Gonalgie droite invalidante depuis un an.",
])
def test_accented_and_clinical_words_heading_a_note_are_no_people(message):
    from smart_docgemma.agent.extraction import extract

    assert extract(message).patient_names == ()


@pytest.mark.parametrize("message", ["Engracia alergias?", "Tião, potássio?", "Priya allergies?"])
def test_a_first_name_no_list_holds_is_still_a_person(message):
    from smart_docgemma.agent.extraction import extract

    assert extract(message).patient_names


@pytest.mark.parametrize("message, named", [
    ("how many times has Mg been checked in the last 24h?", "Magnesium"), ("was mg low", "Magnesium"),
    ("what is that in mg", None), ("how many mg", None),
])
def test_mg_after_a_word_ending_in_as_is_magnesium_and_after_in_or_as_a_unit(message, named):
    from smart_docgemma.knowledge import analytes

    found = analytes.named_in(message)
    assert (found.name if found else None) == named
