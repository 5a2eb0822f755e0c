"""Rules from the seventeenth stop's walks 68-71 (fixture charts, no model): a relative asked
about as a question's subject or by what is measured of them, a hold before theatre asked of her
list, a test told by its state beside a hold, a replacement protocol's result told alone or with
its unit, "stop it" after a message naming several drugs, a threshold with no window, her list by
her name, her birth date to confirm, a dose change said after the drug, "for a week" as a course,
and a verb said alone after a drug discussed; each with the near words that must not trigger
it."""
from __future__ import annotations

import pytest
from smart_docgemma.agent import clarification
from smart_docgemma.agent.extraction import extract
from smart_docgemma.agent.ward_requests import actions, workflow_of
from smart_docgemma.reading.people import beside_people
from smart_docgemma.tools.chart.answers import focus_of

from tests.reading.test_probe19_rules import _k  # a potassium result on a day


@pytest.mark.parametrize("said", [
    "what does his sister weigh",
    "how old is her son",
    "what dose does his son take",
    "the weight of his sister?",
    "combien pèse sa sœur ?",
    "quanto pesa a irmã dele?",
    "cuánto pesa su hermana?",
    "las alergias de su hija?",
    "poids de sa fille",
])
def test_a_relative_asked_about_is_another_person(said):
    assert beside_people(said)


@pytest.mark.parametrize("said", [
    "does his wife give him his tablets?",   # she acts for him: his question
    "does his wife manage his meds",
    "what is his weight",
    "his wife says his weight is 70",
    "is her bp ok",
    "what dose does he take",
    "has her husband brought the meds in",
])
def test_near_words_the_patient_asked_about_or_a_relative_acting_for_her(said):
    assert not beside_people(said)


@pytest.mark.parametrize("said", [
    "going to theatre tmrw - anything on his list to hold?",
    "anything to hold before the op?",
    "anything to hold pre op",
    "what should I stop before surgery",
])
def test_a_hold_before_theatre_asked_of_her_list_is_the_review(said):
    assert focus_of(said) == "review"


@pytest.mark.parametrize("said", [
    "hold the warfarin tonight, INR high",
    "K bas ce soir",
    "potasio alto hoy",
    "INR élevé ce soir",
])
def test_a_test_told_by_its_state_is_no_order(said):
    assert "order_lab" not in actions(said)


@pytest.mark.parametrize("said", [
    "INR in the morning",
    "bmp + mg in am",
    "U&E tomorrow - k was low",     # the K told, the U&E ordered
    "low dose aspirin, INR tomorrow",
    "fbc tmrw, follow up",
])
def test_near_words_a_bare_timed_test_list_is_still_ordered(said):
    assert "order_lab" in actions(said)


@pytest.mark.parametrize(("said", "value", "unit"), [
    ("magnesium 0.5 this morning", 0.5, None),
    ("Mg 0.5", 0.5, None),
    ("magnesium 1.2 urgent", 1.2, None),
    ("magnésium 0,5 ce matin", 0.5, None),
    ("mg 0.5 mmol/l at 0600", 0.5, "mmol/L"),
    ("K 3.0 mmol/L", 3.0, "mmol/L"),
])
def test_a_replacement_result_told_alone_asks_its_protocol(said, value, unit):
    flow = workflow_of(said)
    assert actions(said) == ["protocol"]
    assert (flow.protocol_value, flow.protocol_unit) == (value, unit)


@pytest.mark.parametrize("said", [
    "magnesium 0.5 after the diarrhoea",       # a story told with it: not guessed
    "mg 500",                                   # a dose, no result
    "magnesium 0.5?",                           # asked
    "potassium 40 mmol",                        # a dose of potassium
])
def test_near_words_a_result_with_more_or_a_dose_is_no_protocol_told_alone(said):
    assert actions(said) != ["protocol"]


def _history(asked: str) -> list[dict[str, str]]:
    return [{"role": "user", "content": asked}, {"role": "assistant", "content": "…"}]


def test_stop_it_after_two_drugs_asks_which():
    drugs = clarification.several_discussed(
        "stop it", extract("stop it"), _history("is his metformin ok with the gliclazide?"))
    assert [d.lower() for d in drugs] == ["metformin", "gliclazide"]


@pytest.mark.parametrize(("said", "asked"), [
    ("stop it", "is his metformin ok?"),                          # one drug: that one
    ("stop the metformin", "is his metformin ok with the gliclazide?"),  # named
    ("thanks", "is his metformin ok with the gliclazide?"),       # acts on nothing
    ("stop it", "what is Samuel Okoro on, metformin and gliclazide?"),  # another patient named
])
def test_near_words_one_drug_a_drug_named_or_no_act_asks_nothing(said, asked):
    assert clarification.several_discussed(said, extract(said), _history(asked)) == []


@pytest.mark.parametrize(("question", "said"), [
    ("any potassium over 5.5?", "1 value over 5.5 mmol/L on file"),
    ("was his potassium ever under 4?", "None under 4 mmol/L on file (3 values"),
])
def test_a_threshold_with_no_window_is_answered_over_every_result_read(question, said):
    from smart_docgemma.knowledge import analytes
    from smart_docgemma.tools.chart import labanswers, labs
    from smart_docgemma.tools.words.windows import asked

    a = analytes.analyte("potassium")
    found = labs.results([_k(5.6, "2026-11-10"), _k(5.2, "2026-08-20"), _k(4.6, "2026-02-03")], a)
    assert labanswers.of_all_read(a, found, asked(question), labanswers.UTC).startswith(said)


@pytest.mark.parametrize(("said", "focus"), [
    ("Mrs Thompson's list please", "medications"),
    ("her list pls", "medications"),
    ("pt's med list?", "medications"),
    ("confirm dob 30/09/1950", "identifiers"),
    ("dob 12/05/1943 correct?", "identifiers"),
])
def test_her_list_by_her_name_and_her_birth_date_to_confirm_are_asked_of_her_chart(said, focus):
    assert focus_of(said) == focus


@pytest.mark.parametrize(("said", "focus"), [
    ("her problem list please", "problems"),   # her problems, not her drugs
    ("the list please", None),                   # whose list is not said
    ("her to-do list", None),
    ("dob 12/05/1943 - her creat?", "lab:Creatinine"),  # her birth date names her; the lab asked
])
def test_near_words_another_list_or_a_question_beside_the_birth_date(said, focus):
    assert focus_of(said) == focus


@pytest.mark.parametrize("said", ["¿y la señora Thompson?", "et Mme Thompson ?",
                                  "e a senhora Thompson?", "¿y el de la señora Thompson?"])
def test_a_surname_after_a_title_is_a_person_in_every_language(said):
    assert "Thompson" in extract(said).patient_names


@pytest.mark.parametrize(("said", "drug", "dose"), [
    ("amlodipine up to 7.5 please", "amlodipine", "7.5 mg"),
    ("amlo down to 2.5", "amlodipine", "2.5 mg"),
    ("furosemide reduced to 20 mg od", "furosemide", "20 mg"),
    ("amlodipine passée à 10", "amlodipine", "10 mg"),
])
def test_a_dose_change_said_after_the_drug_is_read(said, drug, dose):
    change = workflow_of(said).dose_change
    assert change is not None and (change.drug, change.dosage) == (drug, dose)


@pytest.mark.parametrize("said", [
    "paracetamol up to 1 g qds prn",   # the most a dose gives, not a change
    "paracetamol up to 4 g a day",
    "is amlodipine up to 10 ok?",      # asked
])
def test_near_words_a_range_top_or_a_question_changes_no_dose(said):
    assert workflow_of(said).dose_change is None


@pytest.mark.parametrize(("said", "frequency"), [
    ("amoxicillin 500mg for a week", None),   # a course's length: the frequency is asked
    ("for a week", None),
    ("500mg x a week", None),
    ("methotrexate 15mg a week", "a week"),    # weekly
    ("once a week", "once a week"),
])
def test_a_week_after_for_is_a_course_never_weekly(said, frequency):
    from smart_docgemma.languages.frequency import written

    assert written(said) == frequency


def _asked(question: str) -> list[dict[str, str]]:
    return [{"role": "user", "content": question}, {"role": "assistant", "content": "…"}]


@pytest.mark.parametrize("said", ["pode prescrever", "ok, start", "vas-y, prescris",
                                  "puedes indicar por favor", "receite"])
def test_a_verb_said_alone_acts_on_the_drug_just_discussed(said):
    done = clarification.acts_on_discussed(
        said, extract(said), _asked("paracetamol 1 g de 6/6h, tudo bem pra ele?"))
    assert done == "start paracetamol 1 g 6/6h"


@pytest.mark.parametrize("said", ["ok thanks", "pode ser", "ok", "yes please",
                                  "start him on something for the pain"])
def test_near_words_an_acknowledgement_or_a_longer_order_acts_on_nothing_discussed(said):
    assert clarification.acts_on_discussed(
        said, extract(said), _asked("paracetamol 1 g de 6/6h, tudo bem pra ele?")) is None


@pytest.mark.parametrize("said", ["K 3.2 this am, started on furosemide",
                                  "kaliémie 3,1 ce matin, mis sous furosémide",
                                  "magnesium 0.5 - started on omeprazole"])
def test_a_drug_told_as_started_beside_a_result_told_alone_keeps_the_protocol(said):
    assert actions(said) == ["protocol"]


@pytest.mark.parametrize("said", [
    "K 3.2 this am, started on oral KCl",   # the replacement itself was given: never again
    "K 3.2 this am, started on sando-k",
    "K 3.2 - start furosemide 40 od",       # an order, not a drug told
    "K 3.2 this am after the vomiting",     # a story: not guessed
])
def test_near_words_a_replacement_told_given_or_a_drug_ordered_asks_no_protocol(said):
    assert actions(said) != ["protocol"]


@pytest.mark.parametrize("said", [
    "pt next door c/o chest pain, can I give aspirin?",
    "patient opposite needs an INR",
    "my 3 o'clock patient is on warfarin too - dose?",
    "my next patient is diabetic",
    "my 10am clinic patient needs x",
])
def test_a_patient_by_the_bed_beside_or_the_clinicians_own_list_is_another(said):
    assert beside_people(said)


@pytest.mark.parametrize("said", [
    "my patient has AF, can I give aspirin?",   # the patient in context, said as the doctor's
    "start the pt next week on x",              # a time, no one beside her
])
def test_near_words_my_patient_or_a_time_ahead_is_her(said):
    assert not beside_people(said)


@pytest.mark.parametrize(("said", "name"), [
    ("check K for Samuel", "Samuel"),
    ("INR for Robert pls", "Robert"),
    ("refer to cardiology for Samuel", "Samuel"),   # an order for someone else: never carded here
    ("FBC tomorrow for Samuel", "Samuel"),
    ("potasio para Samuel por favor", "Samuel"),    # a polite phrase of two words after it
])
def test_a_first_name_ending_a_chart_question_after_for_is_the_one_asked_for(said, name):
    assert extract(said).patient_names == (name,)


@pytest.mark.parametrize("said", ["transfert pour Lyon", "trip to Lagos for Christmas",
                                  "refer to cardiology for Parkinson"])
def test_near_words_a_place_a_season_or_no_chart_question_names_no_one(said):
    assert extract(said).patient_names == ()


@pytest.mark.parametrize(("said", "at"), [
    ("poids 72 kg ce matin", "2026-12-07 07:01"),   # today's morning, said before 08:00: by now
    ("weight 72kg this morning", "2026-12-07 07:01"),
    ("BP 140/90 at 0600", "2026-12-07 06:00"),       # a clock already past today
    ("BP 140/90 at 0800", "2026-12-06 08:00"),       # a clock not yet reached: yesterday's
    ("temp 38 last night at 22:00", "2026-12-06 22:00"),
])
def test_a_reading_said_this_morning_before_its_hour_is_todays(said, at):
    from datetime import UTC, datetime

    from smart_docgemma.tools.words.when import clock_said, taken

    now = datetime(2026, 12, 7, 7, 1, 30, tzinfo=UTC)
    clock = clock_said(said)
    assert clock is not None
    # the tool reads back the words the reading gave it
    assert f"{taken(clock.words(), 'UTC', now):%Y-%m-%d %H:%M}" == at


@pytest.mark.parametrize(("said", "focus"), [
    ("how many times has she spiked >38 in the last 72h", "lab:Temperature"),
    ("max temp last 24h?", "lab:Temperature"),
    ("température max sur 24h ?", "lab:Temperature"),
    ("¿fiebre mayor de 38 en las últimas 48 horas?", "lab:Temperature"),
    ("highest HR today?", "lab:Heart rate"),
    ("lowest sats overnight", "lab:Oxygen saturation"),
    ("saturação mais baixa nas últimas 24h?", "lab:Oxygen saturation"),
])
def test_one_vital_sign_asked_over_a_window_or_its_extreme_is_its_series(said, focus):
    assert focus_of(said) == focus


@pytest.mark.parametrize(("said", "focus"), [
    ("temp?", "vitals"),                            # its latest: the vital signs, as before
    ("what is her temp", "vitals"),
    ("temp and pulse in the last 24h", "vitals"),   # two signs: together
    ("obs overnight?", "vitals"),
    ("temp 38.4 at 2200 - chart pls", "vitals"),    # a reading to record
    ("K and temp last 24h", "lab:Potassium"),       # a lab named first, as before
])
def test_near_words_a_latest_two_signs_or_a_reading_stay_the_vital_signs(said, focus):
    assert focus_of(said) == focus


def test_a_vital_series_is_no_key_lab_of_the_chart_summary():
    from smart_docgemma.tools.chart import records

    assert not {"Temperature", "Heart rate", "Oxygen saturation"} & set(records.terms()["key_labs"])


@pytest.mark.parametrize(("said", "drug"), [
    ("arrêt de l'aspirine svp", "aspirin"),
    ("suspensão do AAS", "aspirin"),
    ("suspensión de la aspirina", "aspirin"),
])
def test_a_stop_said_as_a_noun_is_a_stop(said, drug):
    assert workflow_of(said).stop == drug


@pytest.mark.parametrize("said", ["arrêt de la warfarine ?",      # asked
                                  "arrêt cardiaque, aspirine ?"])  # a cardiac arrest, no stop
def test_near_words_a_stop_noun_asked_or_another_arrest_stops_nothing(said):
    assert workflow_of(said).stop is None


@pytest.mark.parametrize(("said", "when"), [
    ("warf 3mg tonight then recheck inr thurs", "thurs"),   # the INR's day, never the dose's
    ("give 40mg furosemide now, U&E tomorrow am", "tomorrow am"),
    ("bloods tues", "tues"),
    ("INR fri", "fri"),
])
def test_a_test_is_timed_by_its_own_clause_and_the_wards_short_days(said, when):
    from smart_docgemma.reading.ward import when_words

    assert when_words(said) == when


@pytest.mark.parametrize(("said", "when"), [("FBC tomorrow morning", "tomorrow morning"),
                                            ("warfarin 5mg tonight", "tonight")])
def test_near_words_one_clause_keeps_its_time(said, when):
    from smart_docgemma.reading.ward import when_words

    assert when_words(said) == when


@pytest.mark.parametrize("said", ["renal r/v pls, urgent", "cardio review please"])
def test_a_specialtys_review_is_a_referral(said):
    assert actions(said) == ["refer"]


@pytest.mark.parametrize("said", ["med review pls", "review her renal function",
                                  "renal review of her meds"])
def test_near_words_a_review_of_her_meds_or_results_is_no_referral(said):
    assert "refer" not in actions(said)


@pytest.mark.parametrize(("said", "asked", "understood"), [
    ("recheck both tomorrow", "creat and K?", "recheck creatinine and serum potassium tomorrow"),
    ("pídelo para mañana", "y el INR?", "pidelo inr para manana"),
    ("demande-le pour demain", "son INR ?", "demande-le inr pour demain"),
    ("recheck it tomorrow am", "her K?", "recheck potassium it tomorrow am"),
])
def test_a_test_just_asked_is_ordered_again_by_a_pronoun_or_both(said, asked, understood):
    done = clarification.redo_discussed(said, extract(said), (), _asked(asked))
    assert done == understood


@pytest.mark.parametrize(("said", "focus"), [
    ("any bleeding risk with what he's on?", "review"),
    ("interactions in what she's taking?", "review"),
    ("what does she react to?", "allergies"),
    ("any drug reactions?", "allergies"),
])
def test_a_risk_of_what_she_takes_and_what_she_reacts_to_are_asked_of_her_chart(said, focus):
    assert focus_of(said) == focus


@pytest.mark.parametrize(("said", "focus"), [
    ("what's he on?", "medications"),                  # the list (with its review), as before
    ("any reactions to the vaccine?", "immunizations"),  # a vaccine's reaction is no allergy asked
])
def test_near_words_her_list_or_a_vaccine_reaction_stay_as_before(said, focus):
    assert focus_of(said) == focus
