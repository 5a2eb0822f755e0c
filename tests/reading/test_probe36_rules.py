"""Rules from the thirty-sixth to thirty-eighth unseen sets (probe36_en, probe37_mix, probe38_en): each a
pure reading of words, with the near words that must not trigger it."""
from __future__ import annotations

import pytest
from smart_docgemma.agent.amendments import _by_step
from smart_docgemma.agent.extraction import born_words
from smart_docgemma.agent.ward_requests import protocol_named, protocol_stated_value, switch_parts
from smart_docgemma.checks import drug_safety
from smart_docgemma.checks.hookdata import HookData
from smart_docgemma.languages import fold
from smart_docgemma.reading.drugs import allergen_named
from smart_docgemma.reading.people import beside_people
from smart_docgemma.reading.spoken import as_typed
from smart_docgemma.reading.subject import said_birth_year
from smart_docgemma.reading.ward import read_ward
from smart_docgemma.tools.chart.answers import chart_focus


@pytest.mark.parametrize("said", [
    "discharge med rec - anything to flag?",  # probe37_mix's one unsafe miss
    "med rec - anything to flag?",
    "discharge med rec",
    "anything to flag in her meds before discharge?",
    "discharge meds - anything to flag?",
    "meds on discharge ok?",
    "admission med rec pls",
    "med rec ok?",
])
def test_her_list_asked_beside_her_discharge_is_the_list_with_its_review(said):
    assert chart_focus(said) == "medications"


@pytest.mark.parametrize("said", [
    "when was she discharged?",
    "last admission?",
    "how many admissions this year",
    "was he admitted on warfarin?",  # the stay asked, a drug said with it
])
def test_her_stays_asked_alone_stay_her_stays(said):
    assert chart_focus(said) == "encounters"


def test_a_record_is_not_a_reconciliation():
    assert chart_focus("medical records") is None


def test_a_renal_rule_that_could_not_run_is_not_said_to_have_found_nothing():
    # metformin for a man with no eGFR on file: its renal rule did not run, so the clean line
    # must not name the renal rules among those that found nothing
    data = HookData(resources={"medications": [], "conditions": [], "pregnancy": [],
                               "labs": [], "allergies": []})
    said = " ".join(drug_safety.check(["metformin"], data, None, True).lines())
    assert "no eGFR on file" in said
    assert "renal, drug–disease" not in said and "nothing found in the" not in said
    assert "no finding in the checks that ran" in said


@pytest.mark.parametrize(("said", "dose"), [
    ("up it by 50", "100 mg"), ("increase by 25 mg", "75 mg"), ("reduce it by 10", "40 mg"),
    ("augmente de 25", "75 mg"), ("aumenta em 50", "100 mg"), ("bajale 25", "25 mg"),
    ("up it by another 25", "75 mg"),
])
def test_a_dose_stepped_by_an_amount_is_the_cards_dose_plus_or_minus_it(said, dose):
    assert _by_step(said, "50 mg") == dose


@pytest.mark.parametrize("said", [
    "aumenta pra 100",  # the target, read elsewhere
    "increase by 1 g",  # another unit than the card's: asked, never guessed
    "reduce by 60",  # to nothing
    "increase the frequency", "up to date",
])
def test_no_step_is_read_where_none_is_said(said):
    assert _by_step(said, "50 mg") is None


@pytest.mark.parametrize(("said", "year"), [
    ("is this the James Wilson born in 58?", "1958"), ("James Wilson b. '58", "1958"),
    ("DOB 71", "1971"), ("born in 20", "2020"), ("née en 58", "1958"), ("born 1971", "1971"),
])
def test_a_birth_year_in_two_figures_is_of_the_last_century_or_this_one(said, year):
    assert said_birth_year(said, born_words()) == year


@pytest.mark.parametrize("said", ["born at 32 weeks", "born 32 weeks", "born 58 kg", "vitamin b. 12 level"])
def test_a_birth_said_with_a_gestation_or_a_weight_is_no_year(said):
    assert said_birth_year(said, born_words()) is None


def test_a_drug_with_its_dose_after_the_allergy_word_is_the_order_it_explains():
    said = "sorry, she's allergic - clarithromycin 500 bd instead"
    assert not allergen_named(said, ["clarithromycin"])
    assert allergen_named("allergy: codeine", ["codeine"])
    assert allergen_named("allergic to amoxicillin - hives", ["amoxicillin"])


@pytest.mark.parametrize(("said", "focus"), [
    ("K in the last 12h?", "lab:Potassium"), ("K last 12h?", "lab:Potassium"),
    ("K within 48h", "lab:Potassium"), ("Na in the last 24h?", "lab:Sodium"),
    ("Na past 24h", "lab:Sodium"),
    ("any red flags with what he's prescribed?", "medications"),
    ("is what she is prescribed ok?", "medications"),
])
def test_k_and_na_with_their_window_and_what_is_prescribed_are_asked(said, focus):
    assert chart_focus(said) == focus


@pytest.mark.parametrize("said", ["K in am", "na ultima semana teve febre?",
                                  "what was he prescribed for"])
def test_near_words_ask_neither(said):
    assert chart_focus(said) is None


@pytest.mark.parametrize(("said", "typed"), [
    ("paracetamol - a gram a day in four doses", "paracetamol - 1 g a day in 4 doses"),
    ("metformin, a gram twice a day", "metformin, 1 g twice a day"),
    ("half a gram bd", "0.5 g bd"),
])
def test_a_gram_said_with_its_article_is_one_gram(said, typed):
    assert as_typed(said) == typed


@pytest.mark.parametrize("said", ["cover a gram negative sepsis", "a gram positive cocci"])
def test_a_gram_stain_is_no_amount(said):
    assert "1 g" not in as_typed(said)


@pytest.mark.parametrize(("said", "value"), [
    ("k 3.2 on the gas - k protocol", 3.2), ("mg 0.5 this am - replace per protocol", 0.5),
    ("potassium protocol, k was 3.1", 3.1), ("kaliemie a 3,1 - protocole potassium", 3.1),
])
def test_a_value_stated_with_a_replacement_protocol_is_read(said, value):
    assert protocol_stated_value(said, protocol_named(said) or "") == value


@pytest.mark.parametrize("said", [
    "k 3.3 in the past 36 hours? if so replete per protocol",  # a threshold asked
    "if k under 3.5 replete per protocol", "k 3.3 within 24h, replace per protocol",
    "k protocol recheck in 6 h", "replace mg per protocol, give 2 g",
    "hba1c 7.2 - protocol",  # a reorder protocol acts on its interval, not a value
])
def test_no_value_is_stated_where_one_is_asked_supposed_or_a_dose(said):
    assert protocol_stated_value(said, protocol_named(said) or "") is None


@pytest.mark.parametrize(("said", "values"), [
    ("BMs 4.1 at 0600 and 12.3 at 1200, log both", 2),
    ("temp 38.1 at 0200 and 37.2 at 0600, record", 2),
    ("glicemia 62 às 3h e 110 às 4h, registra", 2),
    ("temp 38.1 and 2 paracetamol given", 1),  # a count given, no second reading
])
def test_a_sign_said_again_after_and_with_its_own_time_is_a_second_reading(said, values):
    assert len(read_ward(said).readings) == values


@pytest.mark.parametrize(("said", "new", "old"), [
    ("cambia el lisinopril por labetalol 100 mg cada 12 h", "labetalol", "lisinopril"),
    ("troca o lisinopril por metildopa 250 mg 8/8h", "methyldopa", "lisinopril"),
    ("remplace le lisinopril par de la nifédipine LP 20 mg 2 fois par jour", "nifedipine LP",
     "lisinopril"),
    ("sustituye el enalapril por losartán 50 mg cada 24 h", "losartan", "enalapril"),
])
def test_a_switch_said_in_the_imperative_is_a_switch_in_every_language(said, new, old):
    parts = switch_parts(fold(said).lower())
    assert parts is not None and parts["new_drug"] == new and parts["replaces"] == old


@pytest.mark.parametrize("said", [
    "cambia a la paciente de cama", "troca o curativo amanhã", "remplace la sonde urinaire",
    "cambia el lisinopril por favor",  # no new drug, dose and frequency
])
def test_near_words_switch_nothing(said):
    assert switch_parts(fold(said).lower()) is None


@pytest.mark.parametrize(("said", "who"), [
    ("does Grace's mum have any allergies on file?", "mum"),  # walk 59: answered from Grace's
    ("what about her daughter - she's on lithium", "daughter"),  # walk 59: lithium checked on her
    ("is his wife on warfarin too?", "wife"),
    ("can his mum take ibuprofen?", "mum"),
    ("can his mum give her baby ibuprofen?", "mum"),
    ("his son has the same cough, can I give him amoxicillin?", "son"),
])
def test_a_relative_asked_in_a_question_is_someone_else(said, who):
    assert who in beside_people(said)


@pytest.mark.parametrize("said", [
    "can his mum give him calpol?", "can her husband give her the insulin?",
    "his mum asks if she can give him calpol", "sa mère peut lui donner du doliprane ?",
])
def test_a_relative_giving_the_patient_the_drug_asks_of_the_patient(said):
    assert beside_people(said) == []


@pytest.mark.parametrize(("said", "values"), [
    ("PA 170x100 às 6h e 150x90 às 7h, registra as duas", [(170.0, 100.0), (150.0, 90.0)]),
    ("BP 160/95 at 06:00 and 150/90 at 07:00", [(160.0, 95.0), (150.0, 90.0)]),
    ("BP 150/90 at 0800 pls record", [(150.0, 90.0)]),
])
def test_a_pressure_said_again_after_and_with_its_own_time_is_a_second_reading(said, values):
    assert [r.values for r in read_ward(said).readings] == values


@pytest.mark.parametrize("said", ["change her lisinopril to nifedipine MR 20mg bd",
                                  "change his amlodipine to lercanidipine 10mg od"])
def test_a_change_of_her_drug_to_another_is_a_switch(said):
    assert switch_parts(fold(said).lower()) is not None


@pytest.mark.parametrize(("said", "dose"), [
    ("sobe 25 mg", "75 mg"), ("subele 25", "75 mg"), ("augmente 25 mg", "75 mg"), ("up 25", "75 mg"),
])
def test_a_raise_by_a_number_below_the_dose_is_a_step_up(said, dose):
    # walk 61: "sobe 25 mg" after sertraline 50 mg drafted 25 mg (a raise read as a fall)
    assert _by_step(said, "50 mg") == dose


@pytest.mark.parametrize("said", ["aumenta 100", "sobe 2 g", "sobe 25 mg pra ver"])
def test_a_raise_to_more_than_the_dose_stays_the_target(said):
    assert _by_step(said, "50 mg") is None


def test_a_two_figure_year_after_en_el_is_read():
    assert said_birth_year("¿es el James Wilson nacido en el 58?", born_words()) == "1958"
