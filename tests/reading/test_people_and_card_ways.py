"""Other people named in new ways, and the pending card's follow-ups in words, read by the real
readers (pure: no HAPI). Each rule beside its near-words that must not match: a microbe written
like a user name, "both" of two drugs, "tous les deux jours", a relative who reports, a place's
word beside a person's name, an approval or a cancel inside a request of its own."""
from __future__ import annotations

import pytest
from smart_docgemma.agent import amendments, several_orders
from smart_docgemma.agent.extraction import extract, read
from smart_docgemma.agent.ward_amendments import _new_time, changed_card
from smart_docgemma.approval.types import PendingCard, PendingOrder
from smart_docgemma.evaluation.fhircheck import Quantity, _quantity_ok
from smart_docgemma.reading.people import (
    across_patients,
    beside_people,
    follows_on,
    handle_people,
    is_across,
    is_place,
)
from smart_docgemma.reading.subject import is_own_name
from smart_docgemma.tools.chart.in_context import InContext
from smart_docgemma.tools.words.ward_words import lab_tests

GRACE = InContext("Grace Adeyemi", "pt-pen-allergy", "MRN-100712", "1985-02-17")


@pytest.mark.parametrize(("message", "who"), [
    ("s.okoro still on metformin?", "S Okoro"),
    ("g.adeyemi - any allergies on file?", "G Adeyemi"),
    ("grace_adeyemi@hospital.org allergies", "Grace Adeyemi"),
    ("a.nwosu — enceinte — ibuprofène ok ?", "A Nwosu"),
])
def test_a_user_name_is_a_person(message, who):
    assert handle_people(message) == [who]


@pytest.mark.parametrize("message", [
    "e.coli in the urine - which antibiotic?", "MRSA s.aureus on the swab", "h.pylori positive",
    "dr.okafor wants the K", "amox 500 t.d.s.", "see p.12", "2.5 mg", "www.nice.org", "i.e. bd",
])
def test_a_microbe_a_title_or_an_abbreviation_is_no_user_name(message):
    assert handle_people(message) == []


def test_her_own_user_name_is_her_and_another_is_not():
    assert is_own_name("G Adeyemi", GRACE) and not is_own_name("S Okoro", GRACE)
    assert "S Okoro" in extract("s.okoro still on metformin?").patient_names


@pytest.mark.parametrize(("message", "said"), [
    ("list all my patients with an INR above 3", "all my patients"),
    ("are both of them on warfarin?", "both of them on"),
    ("la liste de tous mes patients sous metformine", "tous mes patients"),
    ("os dois estão com o INR alto?", "os dois estao"),
    ("¿cuáles de mis pacientes tienen el potasio alto?", "mis pacientes"),
])
def test_a_list_across_patients_is_not_this_chart(message, said):
    assert across_patients(message) == [said] and is_across(said)


@pytest.mark.parametrize("message", [
    "are both of them safe with her kidneys?", "paracétamol tous les deux jours",
    "¿los dos riñones?", "both kidneys ok?", "as duas doses juntas?", "all of her meds ok?",
])
def test_two_drugs_or_a_rhythm_is_no_list_of_patients(message):
    assert across_patients(message) == []


@pytest.mark.parametrize(("message", "who"), [
    ("her son Kofi has an ear infection, can he have amoxicillin?", "son"),
    ("sa fille Aïcha a de la fièvre, paracétamol pour elle ?", "fille"),
    ("o filho dela, Tiago, tem asma — pode usar ibuprofeno?", "filho"),
    ("su marido Carlos toma warfarina, ¿puede tomar aspirina?", "marido"),
])
def test_a_relative_named_by_name_is_that_relative(message, who):
    assert who in beside_people(message)


@pytest.mark.parametrize("message", [
    "his wife says he is confused", "her INR Tuesday was 3.4", "Dr Kofi Mensah wants the K",
])
def test_no_relative_named(message):
    assert beside_people(message) == []


@pytest.mark.parametrize(("span", "text"), [
    ("Mercy Hospital", "transferred from Mercy Hospital - allergies?"),
    ("Santa Maria", "veio transferida do Hospital Santa Maria, tem alergias?"),
    ("San José", "viene de la Clínica San José"),
])
def test_a_place_is_no_person(span, text):
    assert is_place(span, text)


def test_a_name_beside_a_lower_case_place_word_is_still_a_person():
    assert not is_place("Grace Adeyemi", "is Grace Adeyemi in hospital?")
    names = extract("veio transferida do Hospital Santa Maria, tem alergias?").patient_names
    assert not any("Maria" in n or "Hospital" in n for n in names)


@pytest.mark.parametrize("message", [
    "and is he allergic to anything?", "et elle prend quoi ?", "e ele toma aspirina?",
    "¿y es alérgico a algo?", "what's her INR?",
])
def test_a_short_follow_up_goes_on_about_the_last_person(message):
    assert follows_on(message)


@pytest.mark.parametrize("message", [
    "and this patient's INR?", "y la paciente, ¿alergias?", "INR?", "eGFR",
    "what is the latest potassium and creatinine for the patient in this chart today please",
])
def test_back_to_her_or_no_follow_up(message):
    assert not follows_on(message)


@pytest.mark.parametrize("message", [
    "go ahead", "ok sign it", "ok, valide", "pode assinar", "dale, fírmalo", "yes please approve",
])
def test_an_approval_in_words(message):
    assert amendments.approves(message) and not amendments.cancels(message)


@pytest.mark.parametrize("message", [
    "go ahead with 500 mg", "sign the discharge note", "approve the referral to cardio?",
    "ok start amoxicillin 500 tds", "no",
])
def test_no_approval_in_a_request_of_its_own(message):
    assert not amendments.approves(message)


@pytest.mark.parametrize("message", [
    "stop — wrong patient", "para, paciente errado", "para, es el paciente equivocado",
    "stop, mauvais patient", "wrong patient",
])
def test_a_wrong_patient_withdraws_the_card(message):
    assert amendments.cancels(message)


@pytest.mark.parametrize("message", ["stop warfarin", "para a varfarina", "wrong dose?"])
def test_a_stop_of_a_drug_is_no_cancel(message):
    assert not amendments.cancels(message)


LAB = PendingCard("p1", "order_lab_test", "lab_order", "Order potassium",
                  {"test": "potassium", "when": "tomorrow 8am", "priority": None,
                   "reason": None}, False)
REFERRAL = PendingCard("p2", "refer_patient", "referral", "Refer to cardiology",
                       {"specialty": "cardiology", "reason": None, "priority": None}, False)


@pytest.mark.parametrize(("said", "drafted", "now"), [
    ("6am instead", "tomorrow 8am", "tomorrow 6am instead"),
    ("7h", "demain 8h", "demain 7h"),
    ("a las 6", "manana a las 8", "manana a las 6"),
    ("monday 9am", "tomorrow 8am", "monday 9am"),
])
def test_a_new_time_keeps_the_card_s_day(said, drafted, now):
    assert _new_time(said, drafted) == now


def test_a_follow_up_changes_the_lab_order_s_time_and_the_referral_s_specialty():
    call = changed_card(read("make that 6am instead"), LAB, "pt-ckd-elder")
    assert call and call.tool == "order_lab_test" and call.args["test"] == "potassium"
    call = changed_card(read("actually nephrology, not cardio"), REFERRAL, "pt-warfarin")
    assert call and call.args["specialty"] == "nephrology"
    call = changed_card(read("na verdade nefrologia"), REFERRAL, "pt-warfarin")
    assert call and call.args["specialty"] == "nephrology"


@pytest.mark.parametrize(("message", "card"), [
    ("what time is the potassium?", LAB), ("also magnesium tomorrow 6am", LAB),
    ("nephrology too please", REFERRAL), ("and ibuprofen instead of paracetamol", REFERRAL),
])
def test_a_request_of_its_own_is_no_change_of_the_card(message, card):
    assert changed_card(read(message), card, "pt-ckd-elder") is None


def test_a_mass_in_another_unit_is_the_same_dose():
    assert _quantity_ok({"value": 1, "unit": "g", "code": "g"}, Quantity(value=1000, unit="mg"))
    assert not _quantity_ok({"value": 1, "unit": "g"}, Quantity(value=1, unit="mg"))
    assert not _quantity_ok({"value": 1, "unit": "mL"}, Quantity(value=1000, unit="mg"))


def test_a_relative_of_someone_named_is_that_relative():
    assert "fils" in beside_people("le fils de M. Mensah, Kwame, peut-il prendre de l'aspirine ?")
    assert "hija" in beside_people("la hija de la señora López tiene fiebre")


def test_an_interjection_before_a_cancel():
    assert amendments.cancels("uy, paciente equivocado, anúlalo")
    assert not amendments.cancels("uy, 500 mg")


PARACETAMOL_1G = PendingOrder("p3", "pt-t2dm", "acetaminophen", "acetaminophen", "1 g",
                              "cada 8 horas", None)


def test_a_bare_number_after_a_dose_in_grams_is_milligrams():
    change = amendments.read(read("el paracetamol a 650"), PARACETAMOL_1G)
    assert change and amendments.redraft(PARACETAMOL_1G, change)["dosage"] == "650 mg"
    change = amendments.read(read("make it 2"), PARACETAMOL_1G)
    assert change and amendments.redraft(PARACETAMOL_1G, change)["dosage"] == "2 g"


@pytest.mark.parametrize(("message", "names"), [
    ("start amoxicillin 250mg tds and paracetamol 1g qds", ["amoxicillin", "acetaminophen"]),
    ("amoxicilline 500 mg 3x/j et paracétamol 1 g 4x/j", ["amoxicillin", "acetaminophen"]),
    ("omeprazol 20 mg al día y paracetamol 1 g cada 8 horas", ["omeprazole", "acetaminophen"]),
])
def test_order_lines_joined_are_each_an_order(message, names):
    assert [d.name for d in several_orders.lines(message, read)] == names


@pytest.mark.parametrize("message", [
    "amoxicillin and clavulanate 625 mg tds", "amlodipine 10 od and ramipril",
    "warfarin 5 mg and 3 mg alternate days", "paracetamol 1g qds and 500mg qds prn",
    "is amoxicillin 500 tds and paracetamol 1g qds ok?",
])
def test_no_list_of_complete_order_lines(message):
    lines = several_orders.lines(message, read)
    assert len(lines) < 2 or len({d.name for d in lines}) < 2 or "?" in message


def test_the_first_card_keeps_its_own_line_s_dose():
    said = several_orders.several(read("omeprazol 20 mg al día y paracetamol 1 g cada 8 horas"),
                                  read, read)
    assert said.ordered == "omeprazole" and said.entities.dose
    assert said.entities.dose.written == "20 mg" and "8" not in (said.entities.dose.frequency or "")
    assert [d.name for d in said.also_ordered] == ["acetaminophen"]


@pytest.mark.parametrize(("message", "tests"), [
    ("kaliémie demain 8h", ["serum potassium"]), ("potássio amanhã às 8h", ["serum potassium"]),
    ("potassium tomorrow 8am", ["serum potassium"]),
    ("potassium 40 mmol tomorrow", []), ("start potassium tomorrow 8am", []),
    ("magnesium tomorrow", []),
])
def test_one_test_timed_on_a_day_ahead_is_a_lab_order(message, tests):
    assert lab_tests(message) == tests


@pytest.mark.parametrize("message", ["back from Accra, any allergy on file?", "allergy on record?"])
def test_an_allergy_asked_is_read_not_recorded(message):
    said = read(message)
    assert said.focus == "allergies" and "allergy_question" in said.entities.actions


def test_a_title_of_the_other_sex_after_an_article():
    from smart_docgemma.reading.subject import titled_of_other_sex

    samuel = InContext("Samuel Okoro", "pt-t2dm", "MRN-100845", "1962-11-03")
    assert titled_of_other_sex("a Sra. Okoro pode tomar ibuprofeno?", samuel, "male") == (
        "Sra. Okoro",)
    assert titled_of_other_sex("o Sr. Okoro pode tomar ibuprofeno?", samuel, "male") == ()


def test_titles_of_the_other_sex_with_accents_and_monsieur():
    from smart_docgemma.reading.subject import titled_of_other_sex

    grace = InContext("Grace Adeyemi", "pt-pen-allergy", "MRN-100712", "1985-02-17")
    margaret = InContext("Margaret Thompson", "pt-ckd-elder", "MRN-100231", "1943-05-12")
    assert titled_of_other_sex("¿el señor Adeyemi es alérgico a algo?", grace, "female")
    assert titled_of_other_sex("M. Thompson prend-il de l'amlodipine ?", margaret, "female")
    assert titled_of_other_sex("M Thompson creat?", margaret, "female") == ()  # her initial
    assert titled_of_other_sex("Mme Thompson, sa créat ?", margaret, "female") == ()


def test_a_sister_written_with_its_ligature():
    assert beside_people("et pour sa sœur ?") == ["sœur"]


@pytest.mark.parametrize("message", [
    "le Dr Mensah demande le dernier INR", "Dr Otieno asks for the latest K",
])
def test_a_colleague_asking_is_no_order(message):
    said = read(message)
    assert said.focus and said.focus.startswith("lab:") and "order_lab" not in said.entities.actions


def test_an_order_word_of_the_clinician_still_orders():
    assert "order_lab" in read("demande un INR demain 8h").entities.actions
