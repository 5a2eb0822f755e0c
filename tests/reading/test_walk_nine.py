"""What a fifth blind walk through the sandbox's patients found read wrongly, read rightly: a drug
said after "instead of" is never the one ordered; a problem's value with "what now?" asks its
plan; her own first name asked about is her; a count after a strength multiplies it; vitamin K
by any of its names meets warfarin; ward words for oxygen saturation are vital signs."""
from __future__ import annotations

import pytest
from smart_docgemma import knowledge
from smart_docgemma.agent import ward_requests
from smart_docgemma.agent.extraction import find_dose, read
from smart_docgemma.knowledge.mentions import find_drugs
from smart_docgemma.reading.subject import as_the_patient
from smart_docgemma.tools.chart.answers import chart_focus
from smart_docgemma.tools.chart.in_context import ChartInContext, InContext

AMARA = ChartInContext(InContext("Amara Nwosu", "pt-9", "MRN-9", "1994-04-22"), sex="female")
GRACE = ChartInContext(InContext("Grace Adeyemi", "pt-8", "MRN-8", "1985-02-17"), sex="female")


@pytest.mark.parametrize("message, ordered", [
    ("start co-amoxiclav instead of amoxicillin 500 tds", None),  # 500 tds is amoxicillin's
    ("give clarithromycin 500 bd instead of the amoxicillin", "clarithromycin"),
    ("commencer clarithromycine 500 mg 2x/j au lieu de l'amoxicilline", "clarithromycin"),
    ("iniciar azitromicina 500 mg 1x/dia em vez de amoxicilina 500 mg", "azithromycin"),
    ("add losartan 50mg od, bp still high on the lisinopril", "losartan"),
])
def test_a_drug_said_after_instead_of_is_never_the_one_ordered(message, ordered):
    assert read(message).ordered == ordered


@pytest.mark.parametrize("message, value", [
    ("K 6.1 this am - what now?", 6.1),
    ("potassium came back 6.1, anything on her list making it worse?", 6.1),
    ("INR 4,8 y ahora que hago", 4.8),
    ("INR 5.2 - et maintenant ?", 5.2),
])
def test_a_problems_value_with_what_now_asks_its_plan(message, value):
    said = read(message)
    assert "plan" in said.entities.actions
    assert said.workflow.stated_value == value


def test_a_value_ahead_in_time_is_no_value_stated():
    assert ward_requests.stated_value("recheck potassium in 3 days", "high_potassium") is None


@pytest.mark.parametrize("message, focus", [
    ("what is amara on", "medications"),
    ("what's Amara taking at the moment", "medications"),
    ("what's Amara Nwosu taking at the moment", "medications"),
])
def test_her_own_name_asked_about_is_her(message, focus):
    said = read(message, chart=AMARA)
    assert "chart_question" in said.entities.actions and said.focus == focus
    assert said.subject.about == "patient"


def test_another_first_name_is_not_read_as_her():
    assert as_the_patient("what is robert on", AMARA.patient) == "what is robert on"


def test_a_word_of_the_language_in_her_name_is_left_as_written():
    # "Grace" is a name here, but "grace period" is English: only her surname is read as her
    # (her surname after "for" goes with it, as "check K for Samuel" reads "check K")
    said = as_the_patient("is the grace period over for adeyemi", GRACE.patient)
    assert "grace period" in said and "adeyemi" not in said
    assert as_the_patient("is adeyemi's grace period over", GRACE.patient).startswith(
        "is the patient's grace period")


@pytest.mark.parametrize("message", ["is his sugar control ok?", "controle glycemique ?"])
def test_how_well_diabetes_is_controlled_is_asked_of_the_hba1c(message):
    assert chart_focus(message) == "lab:HbA1c"


@pytest.mark.parametrize("text, dose", [
    ("paracetamol 500mg x 2 qds prn", "1000 mg (2 × 500 mg)"),
    ("paracetamol 500mg 2 tabs qds", "1000 mg (2 × 500 mg)"),
    ("paracetamol 2 x 500mg qds", "1000 mg (2 × 500 mg)"),
    ("amoxicillin 500 mg x 7 days tds", "500 mg"),  # days, not tablets
    ("ceftriaxone 1g x 2 doses", "1 g"),
    ("amoxicillin 500mg x 3/day", "500 mg"),
    ("ceftriaxone 1g x 2", "1 g"),  # nothing after: two doses or two grams, not guessed
])
def test_a_count_after_a_strength_multiplies_it_and_days_do_not(text, dose):
    assert (find_dose(text) or {})["dose"] == dose


@pytest.mark.parametrize("text", ["vit K 1mg po", "phytomenadione 10 mg", "Konakion 2 mg",
                                  "vitamine K 2 mg", "vitamina K 1 mg"])
def test_vitamin_k_by_any_of_its_names_meets_warfarin(text):
    drug = find_drugs(text.lower())[0].name
    assert knowledge.interaction_findings(["warfarin", drug])


@pytest.mark.parametrize("message", ["o2 sats?", "temp spiking?"])
def test_ward_words_for_saturation_and_temperature_are_vital_signs(message):
    assert chart_focus(message) == "vitals"


def test_the_lowest_saturation_over_a_window_is_its_series():
    # asked over a window with its extreme: the saturation's own series (seventeenth stop)
    assert chart_focus("lowest sat in last 24h") == "lab:Oxygen saturation"


@pytest.mark.parametrize("message, stopped", [
    ("hold warfarin tonight and recheck INR tomorrow am", ("warfarin",)),
    ("stop the metformin and start gliclazide 40 od", ("metformin",)),
    ("suspendre le Sintrom ce soir", ("acenocoumarol",)),
    ("dc the amlodipine", ("amlodipine",)),
    ("INR 3,4 - suspendo a varfarina?", ()),  # a question: the drug is checked
    ("stop taking aspirin he says", ()),  # what he stopped, told
    ("start warfarin 5 mg od", ()),
])
def test_an_order_stopped_in_words_is_read_as_stopped(message, stopped):
    assert read(message).stopped == stopped


# --- the sixth walk (ctx10) -----------------------------------------------------------------
from smart_docgemma.tools.words.ward_words import lab_tests, referral_reason, unread_tests  # noqa: E402
from smart_docgemma.tools.words.windows import asked  # noqa: E402


@pytest.mark.parametrize("message, unread", [
    ("fbc, ldh and inr tomorrow 8am", ["ldh"]),
    ("cbc, procalcitonin, lactate now", ["procalcitonin"]),
    ("tsh and free t4 please", ["free t4"]),
    ("fbc, u+e and inr tomorrow 8am", []),  # u+e is the basic metabolic panel
    ("recheck k and call me", []),
    ("order cbc and bmp stat pls", []),
    ("NFS, VS, TP/INR demain 7h", []),  # VS: the sedimentation rate in a French list
    ("warfarin vs apixaban?", []),
])
def test_a_test_of_a_list_the_table_lacks_is_said_never_dropped(message, unread):
    assert unread_tests(message) == unread


def test_u_plus_e_is_the_basic_metabolic_panel():
    assert "basic metabolic panel" in lab_tests("fbc, u+e and inr tomorrow 8am")


@pytest.mark.parametrize("message, reason", [
    ("refer to haem for anticoag review", "anticoag review"),
    ("refer to cardio for a murmur", "murmur"),
])
def test_a_referral_reason_keeps_its_first_letter(message, reason):
    assert referral_reason(message) == reason


@pytest.mark.parametrize("message", ["revisão da medicação, por favor", "revue de son traitement svp",
                                     "revisar su tratamiento"])
def test_a_medication_review_in_other_languages_is_the_whole_list_review(message):
    assert chart_focus(message) == "review"


@pytest.mark.parametrize("message", ["mean glucose this month", "glycémie moyenne ce mois-ci",
                                     "media de glucosa este mes"])
def test_this_month_is_the_last_thirty_days(message):
    assert asked(message).window == "30d"


# --- the seventh walk (ctx11) ---------------------------------------------------------------
MENSAH = ChartInContext(InContext("Robert Mensah", "pt-warfarin", "MRN-100587", "1950-09-30"),
                        sex="male")


@pytest.mark.parametrize("message", [
    "the lady from this morning needs her INR checked",
    "the man I saw earlier - can he have ibuprofen?",
    "la dame de ce matin, son INR ?",
    "o senhor de ontem precisa de amoxicilina",
    "la señora de urgencias, ¿puede tomar ibuprofeno?",
])
def test_someone_met_at_another_time_or_place_is_not_her(message):
    assert read(message, chart=MENSAH).subject.about == "other"


@pytest.mark.parametrize("message", ["born 02/09/1971 - INR?", "DOB 1971 - INR?"])
def test_a_birth_date_alone_that_is_not_hers_is_someone_else(message):
    assert read(message, chart=MENSAH).subject.about == "other"


@pytest.mark.parametrize("message", ["born 30.09.1950 - INR?", "DOB 30/09/1950 - INR?",
                                     "born 1950, INR?", "INR from this morning?"])
def test_her_own_birth_date_before_a_question_asks_the_question(message):
    said = read(message, chart=MENSAH)
    assert said.subject.about == "patient" and "chart_question" in said.entities.actions
    assert said.focus == "lab:INR"


def test_her_own_id_names_no_drug():
    assert read("id pt-warfarin meds?", chart=MENSAH).entities.drugs == ()


@pytest.mark.parametrize("message, window", [
    ("glucoses yesterday", "yesterday"), ("K d'hier", "yesterday"),
    ("any hypos overnight", "night"), ("INR from this morning?", "morning"),
    ("recheck k tomorrow", None),
])
def test_yesterday_overnight_and_this_morning_are_windows(message, window):
    assert asked(message).window == window


# --- the eighth walk (ctx12) ----------------------------------------------------------------
from smart_docgemma.agent.ward_requests import switch_parts  # noqa: E402
from smart_docgemma.tools.words.dosing import parse_dose  # noqa: E402


@pytest.mark.parametrize("text, dose", [
    # had been carded 50 mg; units in words are read as typed ("micrograms" as "mcg")
    ("levothyroxine 50 micrograms od", "50 mcg"),
    ("lévothyroxine 50 microgrammes 1x/j", "50 mcg"),
    ("levotiroxina 50 microgramos cada 24 h", "50 mcg"),
    ("lantus 10u nocte", "10 u"),
    ("insulin 10 ui le soir", "10 ui"),
])
def test_micrograms_and_units_in_words_are_their_unit_never_mg(text, dose):
    said = read(text)
    assert said.dose is not None and said.dose.written == dose


def test_micrograms_in_words_are_coded_ug():
    assert parse_dose("50 micrograms") == {"value": 50, "unit": "micrograms",
                                              "system": "http://unitsofmeasure.org", "code": "ug"}


@pytest.mark.parametrize("message, parts", [
    ("switch warfarin to apixaban 5 bd",
     {"new_drug": "apixaban", "dosage": "5 mg", "frequency": "bd", "replaces": "warfarin"}),
    ("labetalol 200 bd and stop the lisinopril",
     {"new_drug": "labetalol", "dosage": "200 mg", "frequency": "bd", "replaces": "lisinopril"}),
    ("stop the metformin and start gliclazide 40 od",
     {"new_drug": "gliclazide", "dosage": "40 mg", "frequency": "od", "replaces": "metformin"}),
    ("is it ok to stop lisinopril and start labetalol 200 bd?", None),  # a question
    ("hold warfarin tonight and recheck inr tomorrow am", None),  # no drug started
])
def test_a_switch_said_as_an_order_and_a_stop_is_a_switch(message, parts):
    assert switch_parts(message) == parts


@pytest.mark.parametrize("allergy, held", [("Penicillin", "penicillins"),
                                           ("Sulfa", "sulfonamide antibiotics")])
def test_a_class_named_that_holds_drugs_her_allergy_rules_out_is_never_a_clean_check(allergy, held):
    [conflict] = knowledge.allergy_conflicts(allergy, "anti-bacterial agents")
    assert held in conflict.reason and conflict.severity == "warning"


@pytest.mark.parametrize("text", ["what antibiotic can she have?", "quel antibiotique ?",
                                  "antibiotico para ela?"])  # read accent folded
def test_antibiotic_in_any_language_names_the_class(text):
    [mention] = find_drugs(text.lower())
    assert knowledge.class_named(mention.name) == "antibacterial"


# --- probe7_en's holdout, read at the end ---------------------------------------------------
OKORO = ChartInContext(InContext("Samuel Okoro", "pt-t2dm", "MRN-100845", "1962-11-03"), sex="male")


@pytest.mark.parametrize("message", ["Okoro's daughter is diabetic too, can she have metformin?",
                                     "the new admission needs enoxaparin 40 od",
                                     "el nuevo ingreso necesita enoxaparina"])
def test_a_relative_after_a_surname_or_a_new_admission_is_someone_else(message):
    assert read(message, chart=OKORO).subject.about == "other"


@pytest.mark.parametrize("message", ["Samuel's HbA1c?", "admission bloods for him"])
def test_her_own_possessive_and_admission_words_stay_hers(message):
    assert read(message, chart=OKORO).subject.about == "patient"


@pytest.mark.parametrize("message", ["bleeding risk?", "what is his bleeding risk?", "falls risk",
                                     "risque hémorragique ?", "riesgo de sangrado?"])
def test_a_harm_of_her_list_asked_alone_is_the_whole_list_review(message):
    assert chart_focus(message) == "review"


def test_a_risk_of_a_drug_in_general_is_no_review_of_her_list():
    assert chart_focus("bleeding risk of warfarin in general") is None


# --- the ninth walk (ctx13) -----------------------------------------------------------------
WILSON = ChartInContext(InContext("James Wilson", "pt-jw-1971", "MRN-200171", "1971-09-02"),
                        sex="male")


@pytest.mark.parametrize("message, about", [
    ("James Wilson 1958 - meds?", "other"),  # had been answered from the 1971 namesake's chart
    ("James Wilson (1990) allergies", "other"),
    ("James Wilson 1971 - meds?", "patient"),
])
def test_a_birth_year_after_her_name_tells_a_namesake(message, about):
    assert read(message, chart=WILSON).subject.about == about


@pytest.mark.parametrize("low", ["make it 5 days", "plutôt 7 jours", "por 10 dias"])
def test_a_length_of_time_is_no_dose(low):
    from smart_docgemma.agent.amendments import _BARE_NUMBER

    assert _BARE_NUMBER.search(low) is None
