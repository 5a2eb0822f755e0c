"""Rules from a walk of new questions about other people (each with near words that must not
trigger): a first name after a word of whom the message is about ("quick one about Esther"); a
surname between "the" and a person's noun ("the Thompson lady"); a relative with a word between
the possessive and the relation ("her twin sister is also pregnant"); a room neighbour in
Portuguese and Spanish; a patient seen at a place before ("my patient in clinic yesterday")."""
from __future__ import annotations

import pytest
from smart_docgemma.agent.ward_requests import actions
from smart_docgemma.reading.people import beside_people, lone_names


@pytest.mark.parametrize(("said", "name"), [
    ("quick one about Esther - is her sugar ok?", "Esther"), ("re Kofi: weight?", "Kofi"),
    ("does the Thompson lady still have a high K?", "Thompson"),
    ("the Okoro boy needs amoxicillin", "Okoro"),
])
def test_a_name_by_whom_it_is_about_or_as_a_description(said, name):
    assert name in lone_names(said)


@pytest.mark.parametrize("said", [
    "question about Warfarin dosing", "the Foley catheter is blocked", "about Parkinson meds",
    "tell me about Addison disease", "the New patient list",
])
def test_near_words_no_name(said):
    assert lone_names(said) == []


@pytest.mark.parametrize("said", [
    "her twin sister is also pregnant - is lisinopril ok for her?",
    "his older brother has asthma, can he take propranolol?",
    "seu vizinho de quarto tem alergia a penicilina?",
    "el vecino de habitación, ¿es alérgico?",
    "my patient in clinic yesterday, 28 weeks, asked about ibuprofen",
])
def test_someone_beside_her_is_another_person(said):
    assert beside_people(said)


@pytest.mark.parametrize("said", [
    "my patient has a headache - paracetamol ok?", "seen in clinic yesterday, BP 150/95 - labetalol?",
    "her older sister says she stopped the amlodipine",
])
def test_near_words_the_patient_herself(said):
    assert not beside_people(said)


@pytest.mark.parametrize("said", [
    "et la dame qui sort demain, on arrête son AVK ?",
    "la señora que ingresó anoche, ¿qué alergias tiene?",
    "o rapaz da ortopedia precisa de enoxaparina, dose?",
    "le petit de la pédiatrie pèse 12 kg, amox combien ?",
    "ma patiente diabétique de ce matin, sa glycémie ?",
    "the lady from cardiology needs a BP",
])
def test_someone_told_by_their_service_or_coming_and_going_is_another(said):
    assert beside_people(said)


@pytest.mark.parametrize("said", [
    "the patient who was admitted with chest pain has K 5.9",
    "le patient qui sort demain: ordonnance de sortie ?", "la patiente a mal à la tête",
])
def test_near_words_the_patient_described_is_hers(said):
    assert not beside_people(said)


@pytest.mark.parametrize(("said", "name"), [
    ("a1c for okoro", "okoro"), ("hba1c de okoro?", "okoro"), ("peso do kofi", "kofi"),
])
def test_a_lower_case_name_ending_a_chart_question(said, name):
    from smart_docgemma.reading.unknown_words import trailing_lower_names
    assert trailing_lower_names(said) == [name]


@pytest.mark.parametrize("said", [
    "potassium for tomorrow", "a1c for today", "inr for warfarin", "bp de hoje",
    "glucose de ayer", "creat for aki", "k de mañana",
])
def test_near_words_a_lower_case_word_that_is_a_word(said):
    from smart_docgemma.reading.unknown_words import trailing_lower_names
    assert trailing_lower_names(said) == []


def test_a_lower_case_full_name_before_a1c():
    from smart_docgemma.reading.people import leading_lower_people
    assert leading_lower_people("samuel okoro a1c") == ["samuel okoro"]
    assert leading_lower_people("room air sats 94") == []


@pytest.mark.parametrize("said", [
    "beers check pls", "STOPP/START him", "can you look at his tablets", "med safety?",
    "he's on a lot of stuff - any problems?", "drug chart review before discharge",
    "is it ok to continue both", "she's 12 weeks - anything teratogenic on her list?",
    "renally adjust her meds",
])
def test_her_list_reviewed_in_new_words(said):
    from smart_docgemma.tools.chart.answers import chart_focus
    assert chart_focus(said) == "review"


@pytest.mark.parametrize("said", [
    "amoxicillin 500 mg tablets tds", "stop the aspirin", "start metformin 500 bd",
    "what does she weigh?",
])
def test_near_words_no_review(said):
    from smart_docgemma.tools.chart.answers import chart_focus
    assert chart_focus(said) != "review"


@pytest.mark.parametrize(("window", "tests", "least"), [
    ("y2026", None, 200), ("c10-2026", None, 200), ("m6-2026", "Glucose,Potassium", 400),
])
def test_a_window_is_read_up_to_a_statistics_count(window, tests, least):
    from smart_docgemma.tools.args import PatientChartArgs
    from smart_docgemma.tools.chart.chart import _sections
    args = PatientChartArgs(patient_id="p", focus="lab:Glucose", window=window, tests=tests)
    assert int(_sections(args)["observations"][1]["_count"]) >= least


def test_near_words_no_window_reads_one_page():
    from smart_docgemma.tools.args import PatientChartArgs
    from smart_docgemma.tools.chart.chart import _sections
    args = PatientChartArgs(patient_id="p", focus="lab:Glucose")
    assert int(_sections(args)["observations"][1]["_count"]) <= 100


@pytest.mark.parametrize(("said", "tests"), [
    ("g&s and clotting for theatre tmrw", ["group and screen", "inr", "aptt"]),
    ("VBG stat", ["venous blood gas"]), ("abg now", ["arterial blood gas"]),
    ("tiempos de coagulación mañana", ["inr", "aptt"]),
    ("bilan d'hémostase demain 7h", ["inr", "aptt"]),
])
def test_a_group_and_screen_the_clotting_and_the_gases_are_tests(said, tests):
    from smart_docgemma.tools.words.ward_words import lab_tests
    assert lab_tests(said) == tests


@pytest.mark.parametrize("said", ["a few beers a night", "gas in the stomach", "clot on the CT"])
def test_near_words_no_such_test_or_review(said):
    from smart_docgemma.tools.chart.answers import chart_focus
    from smart_docgemma.tools.words.ward_words import lab_tests
    assert lab_tests(said) == [] and chart_focus(said) != "review"


@pytest.mark.parametrize("said", [
    "NEWS 7 - obs: RR 26 sats 91 BP 95/60 HR 118 T 38.9 confused",
])
def test_a_long_line_of_obs_is_recorded(said):
    assert actions(said) == ["record_vital"]


@pytest.mark.parametrize(("said", "before", "test"), [
    ("order one for tomorrow then", "when was her last K?", "potassium"),
    ("ok pede um amanhã", "qual foi o último potássio?", "potassium"),
    ("demande-en une demain 8h", "sa dernière kaliémie ?", "potassium"),
])
def test_the_test_just_asked_ordered_by_a_pronoun(said, before, test):
    from smart_docgemma.agent.clarification import redo_discussed
    from smart_docgemma.agent.extraction import read
    got = redo_discussed(said, read(said).entities, (), [{"role": "user", "content": before}])
    assert got is not None and test in got


def test_near_words_a_pronoun_after_a_drug_question_orders_no_test():
    from smart_docgemma.agent.clarification import redo_discussed
    from smart_docgemma.agent.extraction import read
    said = "order one"
    assert redo_discussed(said, read(said).entities, (),
                          [{"role": "user", "content": "is amlodipine ok?"}]) is None


@pytest.mark.parametrize("said", ["same for magnesium", "pareil pour le magnésium",
                                  "o mesmo para o magnésio", "lo mismo para el magnesio"])
def test_same_for_another_test_adds_it_to_the_pending_lab_orders(said):
    from smart_docgemma.agent import ward_amendments
    from smart_docgemma.agent.extraction import read
    from smart_docgemma.approval.types import PendingCard
    card = PendingCard(proposal_id="p1", tool="order_lab_test", kind="lab_order",
                       title="serum potassium", request={"test": "serum potassium",
                                                         "when": "tomorrow 8am"}, edited=False)
    call = ward_amendments.added_lab_orders(read(said), [card], "pt-1")
    assert call is not None and "magnesium" in call.args["test"]
    assert call.args["when"] == "tomorrow 8am"


@pytest.mark.parametrize("said", ["thank god, is the a1c improving?", "oh dear, hba1c?",
                                  "good grief, a1c?"])
def test_near_words_a_replys_opening_words_before_a1c_are_no_name(said):
    from smart_docgemma.reading.people import leading_lower_people
    assert leading_lower_people(said) == []


@pytest.mark.parametrize("said", ["as before", "same as before", "comme avant", "como antes",
                                  "ok, as before please"])
def test_as_before_takes_the_last_cancel_back(said):
    from smart_docgemma.agent.card_picks import restores
    assert restores(said)


@pytest.mark.parametrize("said", ["same as before but bd", "as before, 10 mg", "BP as before?"])
def test_near_words_a_change_or_a_question_takes_nothing_back(said):
    from smart_docgemma.agent.card_picks import restores
    assert not restores(said)


@pytest.mark.parametrize(("said", "other"), [
    ("la maman demande si elle peut lui donner de l'aspirine", False),
    ("su mamá pregunta si puede darle ibuprofeno", False),
    ("sa fille demande si elle peut prendre du paracétamol", True),
])
def test_a_mother_asking_to_give_it_to_the_patient_asks_for_the_patient(said, other):
    assert bool(beside_people(said)) is other
