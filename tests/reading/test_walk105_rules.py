"""Walk 105 (the #48 intents in new words, twenty-second stop): "is Mrs St John's inr back
yet?" was answered from the chart in context (the saint's word of her surname dropped her);
"transferred from st. mary's", "del hospital san jose's" refused as persons; "TAS 90 TAD 60 FC
110" recorded the pulse and dropped the pressure unsaid; "tuvo 39.2 de temp a las 4" recorded
nothing; "is she on anything that affects her potassium?" checked potassium as a drug; "who else
on this ward has an INR over 3?" answered with his own; "GP letter - mention the potassium"
flagged potassium as a drug to start; "1g bd -> 500 bd" read as "above 500"."""
from __future__ import annotations

import pytest
from smart_docgemma.agent import amendments
from smart_docgemma.agent.draft_requests import _fresh
from smart_docgemma.agent.extraction import find_names, read
from smart_docgemma.knowledge.mentions import find_drugs
from smart_docgemma.reading.people import across_patients
from smart_docgemma.reading.ward import read_ward
from smart_docgemma.tools.chart.answers import focus_of
from smart_docgemma.tools.words import ward_words
from smart_docgemma.tools.words.windows import thresholds


def _names(said: str) -> list[str]:
    return find_names(said, find_drugs(said))


@pytest.mark.parametrize(("said", "who"), [
    ("is Mrs St John's inr back yet?", "St John"),
    ("Mr St Clair's k?", "St Clair"),
    ("bloods for Ms St Pierre please", "St Pierre"),
])
def test_a_saints_word_after_a_title_is_her_surname(said, who):
    assert _names(said) == [who]


@pytest.mark.parametrize("said", [
    "he was transferred from st. mary's yesterday - any bleeding risk with his meds?",
    "la trajeron del hospital san jose's anoche, qué toma?",
    "refer to the renal clinic at St George's please",
    "seen at st thomas' last week, inr?",
])
def test_a_saints_place_names_no_one(said):
    assert _names(said) == []


def test_a_given_name_owning_a_result_is_still_a_person():
    assert _names("and mary's inr?") == ["mary"]


@pytest.mark.parametrize(("said", "pair"), [
    ("TAS 90 TAD 60 FC 110 - registrar", (90.0, 60.0)),
    ("sbp 88 dbp 50", (88.0, 50.0)),
    ("PAS 100, PAD 70 às 6h", (100.0, 70.0)),
    ("sys 95 dia 55", (95.0, 55.0)),
])
def test_a_pressure_said_as_its_halves_is_one_reading(said, pair):
    found = {r.vital: r.values for r in ward_words.readings(said)}
    assert found["blood pressure"] == pair


def test_the_pulse_beside_the_halves_is_kept():
    found = {r.vital: r.values for r in ward_words.readings("TAS 90 TAD 60 FC 110")}
    assert found["heart rate"] == (110.0,)


@pytest.mark.parametrize(("said", "value"), [
    ("tuvo 39.2 de temp a las 4, anótalo", 39.2),
    ("fez 38,5 de febre às 3h", 38.5),
    ("39 de fièvre ce soir", 39.0),
])
def test_a_temperature_said_before_its_word_is_read(said, value):
    found = {r.vital: r.values for r in ward_words.readings(said)}
    assert found["body temperature"] == (value,)


@pytest.mark.parametrize("said", ["dia 12 de temperatura", "fiebre de 3 dias", "a las 4 de la tarde"])
def test_no_temperature_from_a_day_or_a_span(said):
    assert "body temperature" not in {r.vital for r in ward_words.readings(said)}


@pytest.mark.parametrize("said", ["de una, dale", "listo, fírmalo", "perfeito, pode assinar",
                                  "parfait, valide"])
def test_assent_with_its_filler_approves_on_the_card(said):
    assert amendments.approves(said)


def test_a_drug_given_with_de_una_is_no_bare_approval():
    assert not amendments.approves("de una, dale 1 g de paracetamol")


@pytest.mark.parametrize("said", [
    "o q ela toma ta ok pra funcao renal?",
    "lo que toma está bien para su edad?",
    "is what she's taking ok for her kidneys",
    "Margaret - is she on anything that affects her potassium?",
    "anything on his list that could raise his INR",
    "ela toma algo que aumenta o potássio?",
])
def test_what_she_takes_judged_is_her_lists_review(said):
    assert focus_of(said) == "review"


def test_her_result_in_a_review_is_no_drug_given():
    actions = read("is she on anything that raises her potassium?").entities.actions
    assert "give" not in actions


@pytest.mark.parametrize("said", [
    "who else is on this ward with an inr over 3?",
    "anyone else on warfarin here?",
    "quem mais está com inr alto?",
    "quién más tiene el potasio alto?",
])
def test_the_ward_searched_for_others_is_not_this_chart(said):
    assert across_patients(said)


@pytest.mark.parametrize("said", ["who else has seen him today?",
                                  "is there anyone else i should tell about his inr?"])
def test_who_else_of_his_own_care_is_his(said):
    assert not across_patients(said)


def test_a_result_to_mention_in_a_letter_is_no_drug():
    said = "GP letter pls - mention the potassium"
    args = _fresh(said, "discharge", "pt-ckd-elder", [], (), read_ward(said), ("potassium",))
    assert args["drugs"] == [] and args["include"] == ["Potassium"]


@pytest.mark.parametrize("said", ["metformin 1g bd -> 500 bd, egfr dropped?", "inr 3.4 -> 2.1?"])
def test_an_arrow_is_a_change_not_a_threshold(said):
    assert thresholds(said) == ()


@pytest.mark.parametrize(("said", "value"), [("inr>3", 3.0), ("k<3.5 in last 48h", 3.5)])
def test_a_sign_right_after_its_analyte_is_a_threshold(said, value):
    assert [t.value for t in thresholds(said)] == [value]


def test_gaps_in_her_care_asked_in_spanish():
    assert "care_gaps" in read("brechas en su atención?").entities.actions


# Walk 106: "a medicação dele ta segura?" read "ta" as the blood pressure (TA) and showed no
# reading; "start co-amox 1.2 iv tds" and "ceftriaxone 2 iv od" were carded as 1.2 mg and 2 mg
@pytest.mark.parametrize("said", ["a medicação dele ta segura?",
                                  "a medicacao dela ta adequada pra idade?",
                                  "su medicación está bien?", "son traitement est adapté ?"])
def test_her_list_judged_with_a_verb_of_being_is_her_review(said):
    assert focus_of(said) == "review"


@pytest.mark.parametrize("said", ["a TA dela ta alta?", "TA 150/90?", "ultima PA?"])
def test_the_pressure_named_is_still_the_pressure(said):
    assert focus_of(said) == "vitals:bp"


def test_her_list_said_fine_before_another_ask_is_no_review():
    assert focus_of("her meds are fine, check her k") != "review"


@pytest.mark.parametrize("said", ["start co-amox 1.2 iv tds", "ceftriaxone 2 iv od",
                                  "tazocin 4.5 iv tds", "meropenem 1 iv tds"])
def test_a_gram_dose_without_its_unit_is_asked_never_milligrams(said):
    found = read(said).entities
    assert found.dose is None or found.dose.written is None


@pytest.mark.parametrize(("said", "dose"), [("ceftriaxone 1000 iv od", "1000 mg"),
                                            ("warfarin 5 od", "5 mg")])
def test_a_bare_dose_at_the_drugs_strength_is_milligrams(said, dose):
    assert read(said).entities.dose.written == dose


# Walk 107: "does he need bridging for his op?", "anticoag plan for surgery friday?" and "hip
# replacement on the 15th - what about his warfarin?" reached no peri-operative plan; "glucose 2.1 -
# treat?" and "K 6.1, treat it?" no problem plan; "anaphylaxis to what exactly?" nothing;
# "suspende lisinopril e inicia metildopa 250 8/8h" stopped it and dropped the new drug
@pytest.mark.parametrize(("said", "weekday_or_day"), [
    ("anticoag plan for surgery friday?", ("weekday", 4)),
    ("hip replacement on the 15th - what about his warfarin?", ("day", 15)),
    ("pre-op: surgery tomorrow", ("days", 1)),
])
def test_a_surgery_day_said_without_its_month(said, weekday_or_day):
    from datetime import date, timedelta

    from smart_docgemma.tools.writes.periop import surgery_date
    today = date(2026, 12, 8)  # a Tuesday
    day, wrong = surgery_date(said, today)
    kind, value = weekday_or_day
    assert wrong is None and day > today
    assert {"weekday": day.weekday(), "day": day.day, "days": (day - today).days}[kind] == value
    assert day - today <= timedelta(days=31)
    assert surgery_date(said, today, month_said=True) is None


@pytest.mark.parametrize("said", ["does he need bridging for his op?",
                                  "anticoag plan for surgery friday?",
                                  "he's for a hip replacement on the 15th - what about his warfarin?"])
def test_an_antithrombotic_asked_with_a_surgery_is_its_plan(said):
    assert "periop" in read(said).entities.actions


@pytest.mark.parametrize("said", ["procedure next to his bed tomorrow - bloods?",
                                  "is she fit for surgery?"])
def test_a_procedure_without_its_drug_or_date_is_no_plan(said):
    assert "periop" not in read(said).entities.actions


@pytest.mark.parametrize("said", ["K 6.1, treat it?", "glucose 2.1 - treat?",
                                  "potasio 6,3, lo trato?", "kaliémie 6,2 : on traite ?"])
def test_a_value_then_whether_to_treat_asks_its_plan(said):
    assert read(said).workflow.plan_asked


def test_how_to_treat_a_disease_is_no_plan_of_hers():
    assert not read("how do you treat gout?").workflow.plan_asked


@pytest.mark.parametrize("said", ["anaphylaxis to what exactly?", "anafilaxia a quê?",
                                  "allergic reaction to what?"])
def test_the_reaction_asked_what_to_is_her_allergies(said):
    assert focus_of(said) == "allergies"


@pytest.mark.parametrize("said", ["suspende lisinopril e inicia metildopa 250 8/8h",
                                  "suspende el lisinopril y empieza labetalol 100 c/12h"])
def test_suspend_without_a_time_and_a_new_drug_is_a_switch(said):
    assert read(said).workflow.switch is not None


def test_suspend_for_tonight_beside_a_new_drug_replaces_nothing():
    said = "suspende a varfarina hoje à noite e inicia enoxaparina 40 1x/dia"
    assert read(said).workflow.switch is None


@pytest.mark.parametrize(("said", "value"), [("mg 0.5, replace?", 0.5),
                                             ("magnesium 0.5 - replace?", 0.5),
                                             ("K 3.2 - replete?", 3.2)])
def test_a_value_then_replace_asked_in_one_word_is_its_protocols_value(said, value):
    assert read(said).workflow.protocol_value == value


def test_a_value_asked_of_a_window_is_no_value_stated():
    assert read("Mg 0.5 in the last 24h?").workflow.protocol_value is None


def test_a_referrals_history_naming_an_antithrombotic_is_no_surgery_plan():
    said = ("Order orthopedic surgery referral for patient X. Background: rotator cuff injury, "
            "ischemic heart disease on clopidogrel. Recommendation: orthopedic evaluation.")
    actions = read(said).entities.actions
    assert "periop" not in actions and "refer" in actions
