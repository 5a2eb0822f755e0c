"""French, Portuguese and Spanish ward idiom read as rules of the four languages, each beside
near words that must not match: a surname heading a message, a relative asked for, "D. Grace",
an allergy asked, a colleague's opinion as a referral, the kidney panel and D-dimer as tests,
"SatO2", "de las 7", "ordo" and "polymédiqué", "súbelo a 10", an order said with a safety
question. Pure: no HAPI."""
from __future__ import annotations

import pytest
from smart_docgemma.agent import amendments
from smart_docgemma.agent.extraction import extract, find_names
from smart_docgemma.reading.people import beside_people, heading_names
from smart_docgemma.tools import catalog
from smart_docgemma.tools.chart.answers import chart_focus
from smart_docgemma.tools.words import ward_words, when
from smart_docgemma.tools.words.ward_words import asks_opinion, referral_reason


@pytest.mark.parametrize(("said", "who"), [
    ("Adeyemi : allergies ?", ["Adeyemi"]),
    ("Thompson, Margaret - última creatinina?", ["Margaret Thompson"]),
    ("Okoro: dernière HbA1c ?", ["Okoro"]),
    ("¿Adeyemi, alergias?", ["Adeyemi"]),
])
def test_a_surname_heading_the_message_is_a_person(said, who):
    assert heading_names(said) == who


@pytest.mark.parametrize("said", [
    "Constantes : TA 150/90, FC 88",
    "Pneumonia: start amoxicillin",
    "Plan: recheck K tomorrow",
    "Warfarin: INR 3.4, hold?",
    "Asthma, any issue with bisoprolol?",
    "Kofi, 20 kg: amox dose?",  # four letters or fewer: never read as a heading name
    "Situation: AF on warfarin",
    "Allergies: none?",
    "Hello, can you check his INR?",
    "what about Adeyemi: allergies?",  # not heading the message (other rules read it)
])
def test_a_heading_word_is_no_person(said):
    assert heading_names(said, {"warfarin", "bisoprolol"}) == []


@pytest.mark.parametrize(("said", "who"), [
    ("sa fille est sous AVK aussi, elle peut prendre de l'aspirine ?", "fille"),
    ("su hijo también es hipertenso, le puedo dar amlodipino?", "hijo"),
    ("a mãe dela tambem é alergica a penicilina, pode tomar cefalexina?", "mae"),
    ("his son has the same cough, can I give him amoxicillin?", "son"),
])
def test_a_relative_opening_the_message_and_asked_a_drug_is_someone_else(said, who):
    assert who in beside_people(said)


@pytest.mark.parametrize("said", [
    "his wife says he is confused",
    "his wife says he can take nothing by mouth, can we give iv paracetamol?",
    "sa fille demande si on peut lui donner du doliprane",
    "son mari dit qu'elle ne peut plus marcher",
    "su hija pregunta si le podemos dar paracetamol",
])
def test_a_relative_reporting_for_the_patient_is_not_another_patient(said):
    assert beside_people(said) == []


def test_dona_abbreviated_is_a_title_only_with_its_full_stop():
    assert "Grace" in find_names("a D. Grace é alérgica a quê?", [])
    assert find_names("dímero D elevado, o que fazer?", []) == []


@pytest.mark.parametrize("said", [
    "a D. Grace é alérgica a quê?", "ele é alérgico a penicilina?", "¿es alérgica a algo más?",
    "elle est allergique aux AINS ?",
])
def test_an_allergy_asked_reads_the_chart(said):
    assert "allergy_question" in extract(said).actions


@pytest.mark.parametrize("said", [
    "alergia a penicilina: anafilaxia", "allergie à la pénicilline, à noter",
    "allergique à l'amoxicilline ? à enregistrer",
])
def test_an_allergy_stated_or_to_record_is_not_a_question(said):
    actions = extract(said).actions
    assert "document_allergy" in actions and "allergy_question" not in actions


@pytest.mark.parametrize("said", [
    "avis hémato pour son INR instable", "avis de l'hémato svp", "valoración por nefrología",
    "parecer da cardiologia", "avis cardio", "interconsulta neumo",
])
def test_a_colleagues_opinion_asked_of_a_specialty_is_a_referral(said):
    assert asks_opinion(said)


@pytest.mark.parametrize("said", [
    "ton avis ?", "parecer favorável", "mon avis sur la cardio", "avis : stable",
    "consult the label",
])
def test_an_opinion_without_a_specialty_is_none(said):
    assert not asks_opinion(said)


@pytest.mark.parametrize(("said", "key", "why"), [
    ("avis hémato pour son INR instable", "hematology", "INR instable"),
    ("hacer interconsulta a hematología por el INR", "hematology", "INR"),
    ("encaminhar para cardiologia - FA com INR lábil", "cardiology", "FA com INR lábil"),
    ("refer to cardiology for chest pain please", "cardiology", "chest pain"),
    ("refer for cardiology", "cardiology", None),
])
def test_the_referrals_reason_in_each_language(said, key, why):
    assert referral_reason(said, key) == why


@pytest.mark.parametrize(("said", "tests"), [
    ("pede função renal e potássio pra amanhã", ["basic metabolic panel", "serum potassium"]),
    ("pedir función renal mañana", ["basic metabolic panel"]),
    ("bilan rénal demain matin", ["basic metabolic panel"]),
    ("troponina y dímero D ya, urgente", ["troponin i", "d-dimer"]),
    ("d-dimères en urgence", ["d-dimer"]),
])
def test_the_kidney_panel_and_d_dimer_in_each_language(said, tests):
    assert ward_words.lab_tests(said) == tests


def test_a_colleague_asked_in_the_imperative_orders():
    assert ward_words.says_any("pede função renal e potássio pra amanhã", "lab_order_words")
    assert ward_words.says_any("pide hemograma", "lab_order_words")
    assert not ward_words.says_any("o que ele pediu?", "lab_order_words")


def test_a_long_list_of_tests_fits_the_lab_order():
    args = catalog.spec("order_lab_test").args_model
    joined = "complete blood count and electrolytes panel and creatinine and c reactive protein"
    assert args(patient_id="p", test=joined, when="demain 7h : nfs, iono, creat, crp").test


@pytest.mark.parametrize(("said", "vital"), [
    ("SatO2 95% AA", "oxygen saturation"), ("sat O2 92 %", "oxygen saturation"),
    ("saturação 89%", "oxygen saturation"),
])
def test_oxygen_saturation_as_fr_pt_es_wards_write_it(said, vital):
    assert [r.vital for r in ward_words.readings(said)] == [vital]


def test_portugal_records_with_registar():
    assert ward_words.says_any("registar temperatura 38,9", "record_words")


@pytest.mark.parametrize(("said", "hour"), [
    ("temp 37,8 de las 7", 7), ("TA 160/95 de las 22", 22), ("a las 8 horas", 8),
])
def test_the_time_a_reading_was_taken_de_las(said, hour):
    clock = when.clock_said(said)
    assert clock is not None and clock.at.hour == hour


@pytest.mark.parametrize("said", ["glucemia de las 24 horas", "la mayoría de las 3 dosis"])
def test_a_span_or_a_count_after_de_las_is_no_time(said):
    assert when.clock_said(said) is None


@pytest.mark.parametrize(("said", "focus"), [
    ("tu peux me faire une revue de l'ordo stp ?", "medications"),
    ("il est polymédiqué, y a des trucs à arrêter ?", "review"),
    ("REVUE DES TTT EN COURS - DEPRESCRIPTION POSSIBLE ?", "review"),
    ("polimedicado, qué retiro?", "review"),
    ("deprescribe?", "review"),
])
def test_the_whole_list_in_ward_shorthand(said, focus):
    assert chart_focus(said) in (focus, "review")


@pytest.mark.parametrize("said", ["ordonner une NFS", "il est médecin", "ordre du jour"])
def test_near_words_name_no_medication_list(said):
    assert chart_focus(said) not in ("medications", "review")


@pytest.mark.parametrize("said", ["súbelo a 10", "bájala a 250", "monte à 100", "passa pra 850"])
def test_a_change_said_with_its_pronoun_or_infinitive(said):
    assert amendments._change_words().search(said.replace("ú", "u").replace("á", "a")
                                             .replace("à", "a"))


@pytest.mark.parametrize("said", [
    "vou entrar com metronidazol pra giardia, algum problema?",
    "je le mets sous kétoprofène, ça passe ?",
    "le pauto ibuprofeno, ¿algún problema?",
])
def test_an_order_said_with_a_safety_question_asks(said):
    actions = set(extract(said).actions)
    assert "give" in actions or not actions & {"prescribe", "prescribe_drug", "order_line"}


@pytest.mark.parametrize("said", [
    "entrar com metronidazol 500 mg 8/8h", "débuter kétoprofène 100 mg 2x/j",
])
def test_an_order_without_a_question_still_orders(said):
    assert "give" not in extract(said).actions


@pytest.mark.parametrize(("said", "who"), [
    ("et Mme A. du 14, son K ?", "Mme A."),
    ("Mr M, his INR?", "Mr M"),
    ("o paciente do leito ao lado ta com INR alto tambem?", "leito ao lado"),
    ("y la paciente de la 3, que toma?", "de la 3"),
    ("el de la 5 tiene fiebre", "de la 5"),
    ("THOMPSON MARGARET kaliémie ?", "Thompson Margaret"),
    ("MENSAH Robert (30/09/1950) dernier INR", "Mensah Robert"),
    ("Adeyemi tiene alergia a la penicilina?", "Adeyemi"),
    ("Okoro a fait son HbA1c ?", "Okoro"),
])
def test_another_person_written_the_ward_way(said, who):
    assert who in find_names(said, [])


@pytest.mark.parametrize("said", [
    "la paciente de 83 años", "la dosis de la 3", "REVUE DES TTT EN COURS - DEPRESCRIPTION ?",
    "NFS CRP ECBU demain", "relais AVK HBPM ?", "TA 150/90 FC 88 URGENT",
    "Tiene alergias?", "Paracetamol tiene interacciones?", "Vitamin D 50000 UI",
    "AMOXICILLINE 1G x3/j",
])
def test_capitals_numbers_and_first_words_that_name_no_one(said):
    assert find_names(said, extract(said).drug_mentions) == []


def test_the_ordinal_t_is_a_temperature_never_a_blood_pressure():
    read = {r.vital for r in ward_words.readings("Tª 38,4 a las 18h, FC 104")}
    assert read == {"body temperature", "heart rate"}


@pytest.mark.parametrize("said", [
    "checa interação medicamentosa da prescrição", "interactions dans son ttt ?",
    "¿hay interacciones entre sus fármacos?",
])
def test_interactions_of_her_list_in_fr_pt_es_are_the_whole_list_review(said):
    assert chart_focus(said) == "review"
    assert "chart_question" in extract(said).actions


@pytest.mark.parametrize(("said", "key"), [
    ("prontuario 100712 - alergias?", "100712"), ("historia 100712 - alergias?", "100712"),
    ("IPP 100587 : allergies ?", "100587"), ("NHC 100587, alergias?", "100587"),
])
def test_a_sites_record_number_in_fr_pt_es_is_an_id(said, key):
    from smart_docgemma.agent.extraction import find_patient_ids

    assert find_patient_ids(said) == [key]


@pytest.mark.parametrize("said", [
    "historia clinica de la paciente", "dossier du patient ?", "registro de la TA",
])
def test_the_record_words_without_a_number_name_no_id(said):
    from smart_docgemma.agent.extraction import find_patient_ids

    assert find_patient_ids(said) == []


@pytest.mark.parametrize("said", ["non, 2 fois/j", "não, 3 vezes ao dia", "mejor 2 tomas"])
def test_a_count_of_doses_is_never_read_as_the_new_dose(said):
    from smart_docgemma.languages import fold

    assert amendments._bare_dose(" ".join(fold(said).lower().split())) is None


@pytest.mark.parametrize(("said", "bed"), [
    ("et pour le patient de la 7, il a une créat à combien ?", "de la 7"),
    ("¿y el abuelo de la 12, qué INR tiene?", "de la 12"),
])
def test_a_person_of_a_numbered_bed_anywhere_in_the_sentence(said, bed):
    assert bed in beside_people(said)


@pytest.mark.parametrize("said", ["la paciente de 83 años", "el paciente de 45 kg",
                                  "patient de 76 ans, FA"])
def test_an_age_or_a_weight_is_no_bed(said):
    assert beside_people(said) == []


def test_a_date_right_after_a_name_is_read_as_its_birth_date_either_way():
    from smart_docgemma.agent.extraction import find_birth_dates

    assert find_birth_dates("o Robert Mensah de 12/03/1950, alergias?") == (
        "1950-12-03", "1950-03-12")
    assert find_birth_dates("Mensah 12/03/2026 INR 3.4") == ()  # this year: an event's date
    assert find_birth_dates("dose 12/03/1950?") == ()


@pytest.mark.parametrize(("said", "tests"), [
    ("pide magnesio y fósforo para mañana a las 7", ["serum magnesium", "serum phosphate"]),
    ("solicitar TSH e ferritina pra amanhã 7h", ["thyroid stimulating hormone", "ferritin"]),
    ("lactato e VHS agora", ["lactate", "erythrocyte sedimentation rate"]),
])
def test_more_tests_in_fr_pt_es(said, tests):
    assert ward_words.lab_tests(said) == tests


@pytest.mark.parametrize("said", ["phosphate binder?", "start phosphate 500mg"])
def test_phosphate_alone_is_the_drug_not_the_test(said):
    assert ward_words.lab_tests(said) == []


def test_a_value_gone_past_is_a_threshold():
    from smart_docgemma.tools.words.windows import asked

    said = asked("sa kaliémie a dépassé 5 combien de fois cette année ?")
    assert [t.key() for t in said.thresholds] == ["gt:5"]
    assert asked("supera el tratamiento").thresholds == ()


def test_a_new_dose_before_a_comma():
    assert amendments._bare_dose("sube a 850, por fa") == "850"


def test_dona_is_a_title_never_the_glucosamine_brand():
    from smart_docgemma.knowledge.mentions import find_drugs

    assert [d.name for d in find_drugs("dona grace com amigdalite: amoxicilina")] == ["amoxicillin"]


@pytest.mark.parametrize(("said", "line"), [
    ("Dona Grace com amigdalite: amoxicilina 500 8/8h", True),
    ("amigdalite: qual a dose de amoxicilina 500 8/8h?", False),  # asks
    ("amoxicilina 500 8/8h", True),
])
def test_an_order_line_after_a_heading(said, line):
    assert ("order_line" in extract(said).actions) is line
