"""What the lead's eleventh and twelfth blind walks found read wrongly, read rightly: her name
after a title of the other sex, a relative of someone named and an age that is not hers are
someone else; a day's results asked by name are no order; "today" said after its morning is
now; "x3/j" is a frequency beside a bare strength; a route is never read inside a word;
something to stop, asked alone, is the whole-list review."""
from __future__ import annotations

from datetime import UTC, datetime

import pytest
from smart_docgemma.agent.extraction import find_dose, read
from smart_docgemma.reading.people import beside_people
from smart_docgemma.reading.subject import InContext, ages_not_hers, titled_of_other_sex
from smart_docgemma.tools.chart.answers import focus_of
from smart_docgemma.tools.words import when

ROBERT = InContext("Robert Mensah", "pt-warfarin", "MRN-100587", "1950-09-30")
MARGARET = InContext("Margaret Thompson", "pt-ckd-elder", "MRN-100231", "1943-05-12")


@pytest.mark.parametrize("message, here, sex, other", [
    ("Mme Mensah a-t-elle des allergies ?", ROBERT, "male", "Mme Mensah"),
    ("Mrs Mensah's INR?", ROBERT, "male", "Mrs Mensah"),
    ("Mr Thompson meds?", MARGARET, "female", "Mr Thompson"),
    ("Sr. Thompson, ¿sus medicamentos?", MARGARET, "female", "Sr. Thompson"),
])
def test_her_name_after_a_title_of_the_other_sex_is_someone_else(message, here, sex, other):
    assert titled_of_other_sex(message, here, sex) == (other,)


@pytest.mark.parametrize("message, here, sex", [
    ("Mr Mensah's INR?", ROBERT, "male"),
    ("M. Mensah, ses allergies ?", ROBERT, "male"),  # M. may be Monsieur or an initial
    ("Mrs Thompson meds?", MARGARET, "female"),
    ("Mrs Okafor's INR?", ROBERT, "male"),  # not her name: the name rules decide
    ("Mrs Mensah's INR?", ROBERT, ""),  # sex unknown: nothing claimed
])
def test_a_title_of_her_own_sex_or_an_initial_is_not_read_as_another(message, here, sex):
    assert titled_of_other_sex(message, here, sex) == ()


@pytest.mark.parametrize("message, relative", [
    ("la madre de Grace tiene asma también, ¿qué inhalador usa?", "madre"),
    ("the mother of Kofi has a cough", "mother"),
    ("o irmão do Kofi tem otite", "irmao"),
])
def test_a_relative_of_someone_named_is_the_relative(message, relative):
    assert relative in beside_people(message)


# "a mãe da paciente" alone now names the mother, as "la mère de la patiente" and "la madre de la
# paciente" did (probe27_intl: "a mãe da paciente tá com …, pode tomar …?" was answered from her
# chart); reporting for her, she is still the patient asked about
@pytest.mark.parametrize("message", ["la mère de Grace dit qu elle tousse",
                                     "a mãe da paciente disse que ela tosse",
                                     "the son of the patient"])
def test_a_relative_reporting_or_of_the_patient_unnamed_is_not_another(message):
    assert beside_people(message) == []


@pytest.mark.parametrize("message, others", [
    ("James Wilson, 58 ans, ses traitements ?", ("58 ans",)),
    ("a 58-year-old man, meds?", ("a 58-year-old",)),
    ("paciente de 58 años, ¿alergias?", ("paciente de 58 años",)),
    ("diabétique depuis 10 ans", ()),  # a length of time
    ("a 10 year history of asthma", ()),
    ("James Wilson (36 y/o) meds?", ()),  # hers, a birthday apart
])
def test_an_age_that_is_not_hers_is_someone_else(message, others):
    assert ages_not_hers(message, 35) == others


@pytest.mark.parametrize("message", ["potássio e creatinina de hoje", "today's K and creat",
                                     "iono d'aujourd'hui"])
def test_a_days_results_asked_by_name_are_no_order(message):
    assert "order_lab" not in read(message).entities.actions


def test_today_said_after_its_morning_is_now_and_tonight_is_the_night():
    noon = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)
    assert when.parse("K and creat today", "UTC", noon).at == noon
    assert when.parse("tonight", "UTC", noon).at == datetime(2026, 12, 5, 22, 0, tzinfo=UTC)
    assert when.parse("today at 14:00", "UTC", noon).at == \
        datetime(2026, 12, 5, 14, 0, tzinfo=UTC)


@pytest.mark.parametrize("message, dose, frequency", [
    ("préscrire ibuprofène 400 x3/j", "400 mg", "x3/j"),
    ("amoxicilina 500 x3/dia", "500 mg", "x3/dia"),
    ("amox 500 x 3 days tds", None, "three times daily"),  # a count of days, never a dose
])
def test_times_a_day_after_a_bare_strength(message, dose, frequency):
    said = read(message).dose
    assert (said.written, said.frequency) == (dose, frequency)


def test_a_route_is_never_read_inside_a_word():
    assert "route" not in (find_dose("préscrire ibuprofène 400 x3/j") or {})
    assert find_dose("paracetamol 1g PR")["route"] == "rectal"


@pytest.mark.parametrize("message, focus", [
    ("tem alguma coisa a suspender na lista dele?", "review"),
    ("hay algo que suspender?", "review"),
    ("qqch à arrêter ?", "review"),
    ("alguma coisa para parar a dor?", None),  # something for the pain: no review
])
def test_something_to_stop_asked_alone_is_the_review(message, focus):
    assert focus_of(message) == focus


# the thirteenth walk (ctx17)
@pytest.mark.parametrize("message, others", [
    ("72M CKD3, meds?", ("72M",)),  # another age
    ("83M CKD3", ("83M",)),  # the other sex
    ("83F CKD3, meds?", ()),  # hers
    ("83yo f", ()),
    ("every 15m", ()),  # minutes, no age
    ("500M", ()),
])
def test_the_wards_age_and_sex_not_hers_is_someone_else(message, others):
    assert ages_not_hers(message, 83, "female") == others


@pytest.mark.parametrize("message, born", [
    ("James Wilson 02/09/71 - asthma meds?", ("1971-02-09", "1971-09-02")),
    ("Mensah, R (DOB 30/9/50) - latest INR", ("1950-09-30",)),
    ("Kofi DOB 15/06/20", ("2020-06-15",)),  # this century's when not ahead of this year
    ("INR 3/7 ago", ()),
])
def test_a_birth_date_with_a_two_digit_year(message, born):
    from smart_docgemma.agent.extraction import find_birth_dates

    assert find_birth_dates(message) == born


@pytest.mark.parametrize("message, dose", [
    ("nifedipine MR 20 bd", "20 mg"),
    ("metformin SR 500 od", "500 mg"),
])
def test_a_bare_strength_after_a_release_form(message, dose):
    assert read(message).dose.written == dose


@pytest.mark.parametrize("message, relative", [
    ("the wife's on aspirin as well", "wife"),
    ("his son's got a cough", "son"),
])
def test_the_wife_and_a_relatives_contraction_are_the_relative(message, relative):
    assert relative in beside_people(message)


@pytest.mark.parametrize("message", ["the baby has a fever", "the daughter says he fell"])
def test_the_baby_or_a_reporting_relative_leave_the_question_hers(message):
    assert beside_people(message) == []


# the fourteenth walk (ctx18)
GRACE = InContext("Grace Adeyemi", "pt-pen-allergy", "MRN-100712", "1985-02-17")


@pytest.mark.parametrize("message, others", [
    ("B. Adeyemi allergies", ("B. Adeyemi",)),
    ("G. Adeyemi allergies", ()),  # her initial
    ("A. Adeyemi allergies", ()),  # begins a word of her name: not claimed as another
    ("Adeyemi allergies", ()),
])
def test_an_initial_not_hers_before_her_surname_is_someone_else(message, others):
    from smart_docgemma.reading.subject import initial_of_another

    assert initial_of_another(message, GRACE) == others


def test_a_name_an_initial_and_a_birth_date():
    from smart_docgemma.agent.extraction import find_birth_dates

    assert find_birth_dates("Thompson M 12/05/44 eGFR") == ("1944-12-05", "1944-05-12")


@pytest.mark.parametrize("message, switch", [
    ("give vit K 1mg po and hold warfarin", False),  # a hold ends no order
    ("labetalol 200 tds and stop lisinopril", True),
])
def test_a_hold_is_never_the_stop_of_a_switch(message, switch):
    from smart_docgemma.agent.ward_requests import switch_parts

    assert (switch_parts(message.lower()) is not None) == switch


@pytest.mark.parametrize("message, records", [
    ("amoxil 500 tds - she's not really allergic, just a rash as a kid", False),
    ("pas vraiment allergique à la pénicilline, amoxicilline 500 x3/j", False),
    ("allergic to penicillin - rash", True),
])
def test_an_allergy_denied_in_words_is_not_recorded(message, records):
    assert ("document_allergy" in read(message).entities.actions) == records


def test_no_renal_rule_and_no_kidney_result_is_said_not_covered():
    from smart_docgemma.checks.drug_safety import Report

    said = " ".join(Report(drugs=["dapagliflozin"], renal_uncovered=["dapagliflozin"]).lines())
    assert "no kidney result is on file; kidney dosing was not checked" in said


# the fifteenth walk (ctx19): rules the knowledge lacked
@pytest.mark.parametrize("drug", ["tetracycline", "minocycline", "trimethoprim"])
def test_the_other_tetracyclines_and_trimethoprim_are_flagged_in_pregnancy(drug):
    from smart_docgemma import knowledge

    [flag] = knowledge.pregnancy_flags([drug])
    assert flag.severity == "warning" and flag.source.startswith("FDA")


def test_allopurinol_is_flagged_from_ckd_stage_3():
    from smart_docgemma import knowledge

    [stage3] = knowledge.renal_flags(["allopurinol"], 38)
    assert "50 mg a day or less" in stage3.management
    assert knowledge.renal_flags(["allopurinol"], 75) == []


# the sixteenth walk (ctx20)
@pytest.mark.parametrize("message, focus", [
    ("anything to watch with his current list?", "review"),
    ("what should I look out for in her tablets", "review"),
    ("his current list", None),  # nothing asked of it
    ("watch his bp", "vitals:bp"),
])
def test_what_to_watch_in_her_list_is_the_review(message, focus):
    assert focus_of(message) == focus


# the seventeenth walk (ctx21)
@pytest.mark.parametrize("message", ["e o risco de sangramento?", "et le risque hémorragique ?",
                                     "y el riesgo de sangrado?", "and the bleeding risk?"])
def test_a_harm_of_her_list_asked_as_a_follow_up_is_the_review(message):
    assert focus_of(message) == "review"


def test_a_correction_names_the_new_value_beside_the_old():
    from smart_docgemma.agent.amendments import corrected_reading
    from smart_docgemma.approval.types import PendingCard

    card = PendingCard(proposal_id="p1", tool="record_vital_sign", kind="vital_sign",
                       title="Record capillary glucose 70.26 mg/dL", edited=False,
                       request={"reading": "capillary glucose 3.9 mmol/L", "taken": "06:00"})
    assert corrected_reading(read("sorry 2.9 not 3.9"), card) == "capillary glucose 2.9 mmol/L"
    assert corrected_reading(read("sorry, it was 2.9"), card) == "capillary glucose 2.9 mmol/L"


def test_another_drug_in_the_cards_place_takes_no_bare_number_in_the_cards_unit():
    from smart_docgemma.agent.amendments import read as amend
    from smart_docgemma.approval.types import PendingOrder

    card = PendingOrder("p1", "pt-1", "acetaminophen", "acetaminophen", "1 g", "four times daily",
                        None)
    change = amend(read("actually naproxen instead, 250 bd"), card)
    # a bare number before a ward frequency code is milligrams, never the card's grams
    assert change is not None and change.drug == "naproxen" and change.dose == "250 mg"


# the eighteenth walk (ctx22)
@pytest.mark.parametrize("message, other", [
    ("a Sra. Mensah tem alergias?", "Sra. Mensah"),  # "a" before the title is no title
    ("la señora Mensah, ¿qué toma?", "senora Mensah"),
])
def test_a_title_after_an_article_is_read(message, other):
    assert titled_of_other_sex(message, ROBERT, "male") == (other,)


@pytest.mark.parametrize("message, other", [
    ("pt 2 - INR?", "pt 2"), ("patient #3 allergies", "patient #3"),
    ("paciente 4 alergias", "paciente 4"),
    ("mon patient précédent était sous warfarine aussi, INR ?", "patient precedent"),
])
def test_another_patient_by_number_or_seen_before(message, other):
    assert other in beside_people(message)


@pytest.mark.parametrize("message", ["pt 65 yo chest pain", "patient 2 days post op",
                                     "pt 1g paracetamol", "patient 12 hours ago", "pt 2.5 mg"])
def test_a_number_after_pt_that_is_an_age_a_dose_or_a_time_is_no_patient(message):
    assert beside_people(message) == []


def test_dn_is_a_birth_date_word_day_first():
    from smart_docgemma.agent.extraction import find_birth_dates

    assert find_birth_dates("Samuel Okoro, DN 03/11/1965, HbA1c?") == ("1965-11-03",)


# four of probe9_en's holdout unsafe, read at the end of its round, as rules
def test_a_number_after_a_new_course_length_is_never_a_dose():
    from smart_docgemma.agent.amendments import read as amend
    from smart_docgemma.approval.types import PendingOrder

    card = PendingOrder("p1", "pt", "doxycycline", "doxycycline", "100 mg", "once daily",
                        "for 5 days")
    assert amend(read("for 10 days not 5"), card).dose is None
    assert amend(read("make it 250 for 10 days"), card).dose == "250"


def test_a_roommate_is_someone_else():
    assert "roommate" in beside_people("her roommate is asking for ibuprofen")


def test_a_class_asked_meets_its_members_drug_disease_rules():
    from smart_docgemma import knowledge
    from smart_docgemma.knowledge.disease import Problem

    diabetic = [Problem("Type 2 diabetes mellitus", frozenset({"44054006"}))]
    assert any(f.severity == "warning"
               for f in knowledge.disease_flags(["corticosteroid"], diabetic))
    assert knowledge.disease_flags(["corticosteroid"], []) == []


def test_the_clinicians_own_plan_starting_a_drug_is_no_problem_plan():
    said = read("Plan: start clarithromycin 500 bd, CXR, repeat INR thurs.")
    assert "plan" not in said.entities.actions


@pytest.mark.parametrize("message, found", [
    ("algun metaanalisis sobre control intensivo de la TA en adultos mayores?", []),
    ("grace adeyemi weight pls", ["grace adeyemi"]),
    ("re: esther banda - k?", ["esther banda"]),
])
def test_two_lower_case_words_name_someone_only_before_a_short_chart_question(message, found):
    from smart_docgemma.reading.people import leading_lower_people

    assert leading_lower_people(message) == found
