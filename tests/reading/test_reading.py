"""The reading floor without HAPI: who a message names, who it is about, and what a drug named
in her chart asks — in English, French, Portuguese and Spanish."""
from __future__ import annotations

import pytest
from smart_docgemma.reading.drugs import asks_general_knowledge, ordered_drug
from smart_docgemma.reading.people import named_people
from smart_docgemma.reading.subject import InContext, subject_of, without_identifiers

ROBERT = InContext(name="Robert Mensah", id="pt-warfarin", mrn="MRN-100587", born="1950-09-30")


@pytest.mark.parametrize("text, names", [
    ("does Grace Adeyemi have any allergies?", ["Grace Adeyemi"]),
    ("et Margaret Thompson, elle prend quoi comme traitement ?", ["Margaret Thompson"]),
    ("a Grace Adeyemi tem alergia a algum antibiótico?", ["Grace Adeyemi"]),
    ("¿Qué medicamentos toma Margaret Thompson?", ["Margaret Thompson"]),
    ("Kwame Asante's INR", ["Kwame Asante"]),
    ("Basic Metabolic Panel tomorrow", []),  # the vocabulary's words are no name
    ("Does Amiodarone Have A Boxed Warning", []),
    ("Recent research on SGLT2 inhibitors in Heart Failure", []),
    ("Hello, what can you help me with?", []),
])
def test_a_person_named_anywhere_in_the_sentence(text, names):
    assert named_people(text) == names


def test_another_person_named_is_another_patient_whatever_else_is_said():
    assert subject_of(["Grace Adeyemi"], [], None, ROBERT).others == ("Grace Adeyemi",)
    assert subject_of(["Mensah"], ["MRN-999"], None, ROBERT).reason == "id"
    assert subject_of([], ["e6d40a8a-d7ff-0b71-d8f3-dfe66d96e812"], None, ROBERT).about == "other"


def test_her_own_name_id_mrn_and_birth_date_are_her():
    said = subject_of(["Robert Mensah"], ["MRN-100587", "pt-warfarin"], "1950-09-30", ROBERT)
    assert said.about == "patient"


def test_her_name_with_another_birth_date_is_a_namesake_refused_with_the_reason():
    said = subject_of(["Robert Mensah"], [], "1951-09-30", ROBERT)
    assert (said.about, said.reason, said.said_born) == ("other", "birth_date", "1951-09-30")


def test_her_identifiers_are_not_the_question():
    born = "born|ne le|nascido|nacido"
    assert "MRN" not in without_identifiers("MRN-100587 any allergies on file?", ROBERT, born)
    rest = without_identifiers("Robert Mensah nascido em 30/09/1950, alergias?", ROBERT, born)
    assert "1950" not in rest


@pytest.mark.parametrize("folded, general", [
    ("how does warfarin work?", True), ("demi-vie de l'apixaban ?", True),
    ("mecanismo da varfarina?", True),
    ("aspirine pour la fievre chez ce petit ?", False), ("inr 3,4 - suspendo a varfarina?", False),
])
def test_a_drug_named_asks_for_her_unless_general_knowledge_is_asked(folded, general):
    assert asks_general_knowledge(folded) is general


def test_of_several_drugs_the_one_before_the_dose_is_ordered():
    mentions = [("losartan", "losartan"), ("lisinopril", "lisinopril")]
    said = "add losartan 50mg od, bp still high on the lisinopril"
    assert ordered_drug(said, mentions, "50 mg") == "losartan"
    assert ordered_drug("on the lisinopril, add losartan 50mg od", mentions, "50 mg") == "losartan"
    assert ordered_drug("losartan or lisinopril?", mentions, None) is None


@pytest.mark.parametrize("text, general", [
    ("what do ace inhibitors do?", True),
    ("what does metformin do ?", True),
    ("warfarin inr 5 what do i do?", False),  # a plan for her: her safety check runs
    ("what do you think of amoxicillin for her?", False),
])
def test_what_a_drug_does_is_asked_of_the_drug_not_of_her(text, general):
    from smart_docgemma.reading.drugs import asks_general_knowledge

    assert asks_general_knowledge(text) is general


@pytest.mark.parametrize("text, names", [
    ("and grace adeyemi's meds?", ["grace adeyemi"]),  # a person typed without capitals
    ("what about mrs adeyemi?", ["adeyemi"]),
    ("¿la señora Thompson toma algo para la tensión?", ["Thompson"]),  # a title with an accent
    ("e a dona margaret tem alergia?", ["margaret"]),
    ("et Mme Thompson ?", ["Thompson"]),
    # ordinary words after a title or before a possessive are no one
    ("madame est allergique ?", []),
    ("the doctor's note", []),
    ("last week's potassium", []),
    ("is crohn's disease a problem with his ibuprofen", []),
    ("Seu potássio está alto?", []),  # pt "seu": his, not a title, unless a name follows
    ("ms flare last week", []),
])
def test_titles_and_possessives_name_people_in_any_case(text, names):
    from smart_docgemma.agent.extraction import extract

    assert list(extract(text).patient_names) == names


@pytest.mark.parametrize("said", ["MRN-100587", "mrn 100587", "100587", "MRN100587", "PT-WARFARIN"])
def test_her_mrn_is_hers_however_it_is_written(said):
    assert subject_of([], [said], None, ROBERT).about == "patient"


@pytest.mark.parametrize("said", ["MRN-100712", "100588", "1005870", "mrn-10058", "pt-warfarin-2"])
def test_another_mrn_near_hers_is_another_patient(said):
    assert subject_of([], [said], None, ROBERT).about == "other"


@pytest.mark.parametrize("text", ["mrn 100587 - inr?", "MRN 100587 alergias?", "mrn: 100587 inr"])
def test_her_mrn_without_its_prefix_is_not_the_question(text):
    assert "100587" not in without_identifiers(text, ROBERT, "born")


@pytest.mark.parametrize(("text", "ids"), [
    ("MRN-100712 allergies?", ["MRN-100712"]), ("dossier MRN-100845 : traitements ?", ["MRN-100845"]),
    ("historia MRN-100712, ¿alergias?", ["MRN-100712"]), ("mrn 100587 - inr?", ["100587"]),
    ("mrna vaccine given?", []), ("mrn chart please", []),
])
def test_an_mrn_written_with_its_prefix_is_one_id(text, ids):
    from smart_docgemma.agent.extraction import find_patient_ids

    assert find_patient_ids(text) == ids


@pytest.mark.parametrize(("text", "asked"), [
    ("o Sr. Mensah tem alergia?", True), ("¿el señor Mensah tiene alergias?", True),
    ("M. Mensah a des allergies ?", True), ("alguma alergia?", True), ("sus alergias", True),
    ("alergia a amoxicilina", False), ("allergie à l'amoxicilline, urticaire", False),
    ("registrar alergia a penicilina", False),
])
def test_asking_about_her_allergies_in_any_language_records_none(text, asked):
    from smart_docgemma.agent.extraction import extract

    actions = extract(text).actions
    assert ("allergy_question" in actions) is asked
    if not asked:
        assert "document_allergy" in actions


@pytest.mark.parametrize("text, names", [
    ("what about Grace, any allergies?", ["Grace"]),  # a first name addressed on its own
    ("et pour Margaret, ses allergies ?", ["Margaret"]),
    ("e o Samuel, qual a HbA1c?", ["Samuel"]),
    ("y Kofi, cuánto pesa?", ["Kofi"]),
    ("his wife asks if she can take ibuprofen", ["wife"]),  # someone beside the patient
    ("can his wife take ibuprofen?", ["wife"]),
    ("a esposa dele pode tomar ibuprofeno?", ["esposa"]),
    ("son mari peut prendre de l'ibuprofène ?", ["mari"]),
    ("check allergies for bed 4", ["bed 4"]),
    # the patient herself, and words that are no one
    ("his wife asks if he can take ibuprofen", []), ("his wife says he is confused", []),
    ("pour son traitement", []), ("dose pour la femme enceinte ?", []), ("bed rest", []),
    ("what about Potassium?", []), ("and tomorrow?", []), ("room air sats 94", []),
])
def test_a_first_name_a_relative_or_a_bed_is_someone_else(text, names):
    from smart_docgemma.agent.extraction import extract

    assert list(extract(text).patient_names) == names


@pytest.mark.parametrize(("text", "names"), [
    ("and Grace?", ["Grace"]), ("what about Grace", ["Grace"]), ("e a Grace?", ["Grace"]),
    ("¿y Grace?", ["Grace"]), ("et Grace ?", ["Grace"]), ("how's Kofi's weight?", ["Kofi"]),
    # near words: a drug, a test, a day, a disease named after a person
    ("and Warfarin?", []), ("and INR?", []), ("And the INR?", []), ("and Potassium?", []),
    ("and Monday?", []), ("What about Augmentin?", []), ("check Parkinson's meds", []),
    ("and Hba1c?", []), ("and BP?", []),
])
def test_a_first_name_alone_after_a_follow_ups_opening_or_with_a_possessive(text, names):
    from smart_docgemma.agent.extraction import extract

    assert list(extract(text).patient_names) == names


@pytest.mark.parametrize("text, names", [
    ("how's Kofi's weight?", ["Kofi"]), ("Robert's allergies?", ["Robert"]),
    ("is Reye's syndrome a risk?", []), ("Bell's palsy", []), ("Let's check his K", []),
    ("Parkinson's meds", []),
])
def test_one_capitalised_name_owning_something_is_a_person_an_eponym_is_not(text, names):
    from smart_docgemma.agent.extraction import extract

    assert list(extract(text).patient_names) == names


@pytest.mark.parametrize(("text", "asks"), [
    ("e se eu passar amoxicilina pra ela?", True), ("pensando em iniciar espironolactona nela", True),
    ("pensaba empezar espironolactona", True), ("je pensais lui donner de l'amoxicilline", True),
    ("si je mets de l'ibuprofène ?", True), ("y si le doy amoxicilina", True),
    # orders, stated
    ("iniciar losartana 50 mg 1x ao dia", False), ("prescrire amoxicilline 500 mg si fièvre", False),
    ("add losartan 50mg od", False), ("pautar espironolactona 25 mg cada 24 h", False),
])
def test_thinking_aloud_about_a_drug_asks_whether_it_is_safe(text, asks):
    from smart_docgemma.agent.extraction import extract

    assert ("give" in extract(text).actions) is asks


@pytest.mark.parametrize("text", ["thinking of adding losartan 50 mg od",
                                  "what about enalapril for her bp",
                                  "thinking of starting ibuprofen for his knee"])
def test_thinking_aloud_in_english_orders_nothing(text):
    from smart_docgemma.agent.extraction import extract

    assert not {"prescribe", "prescribe_drug", "administer"} & set(extract(text).actions)


@pytest.mark.parametrize(("text", "names"), [
    ("quanto pesa o Kofi?", ["Kofi"]), ("¿cuánto pesa Kofi?", ["Kofi"]), ("how is Kofi?", ["Kofi"]),
    ("la paciente Grace tiene alergias", ["Grace"]), ("a Samara tem febre", ["Samara"]),
    # a colleague, a place, a drug, a test, a day, the first word
    ("ask Dr Smith?", []), ("seen at St Mary?", []), ("any allergies to Augmentin?", []),
    ("is he on Eliquis?", []), ("o INR dele?", []), ("any K above 5 in November?", []),
    ("TA ok on Monday?", []), ("Posso dar amoxicilina?", []), ("Tem alergia?", []),
])
def test_a_first_name_alone_after_an_article_or_ending_a_question(text, names):
    from smart_docgemma.agent.extraction import extract

    assert list(extract(text).patient_names) == names


@pytest.mark.parametrize("text", [
    "has she had the Pfizer?", "any travel to Brazil?", "pt from Ghana?", "any contact with Ebola?",
    "is she Jehovah?", "his BP in Lisbon?",
])
def test_a_questions_last_word_after_a_preposition_is_no_person(text):
    from smart_docgemma.agent.extraction import extract

    assert extract(text).patient_names == ()


@pytest.mark.parametrize("text, names", [
    ("et la petite Aïcha, elle est allergique ?", ["Aicha"]), ("y el pequeño Kofi?", ["Kofi"]),
    ("and the young Potassium?", []),
])
def test_a_first_name_after_an_adjective_is_someone_else(text, names):
    from smart_docgemma.agent.extraction import extract

    assert list(extract(text).patient_names) == names


@pytest.mark.parametrize("text, frequency", [
    ("amoxicilline 90 mg/kg/jour en deux fois", "en deux fois"),
    ("amoxicilina 50 mg/kg/dia em duas vezes", "em duas vezes"),
    ("amoxicilina 50 mg/kg/día en dos veces", "en dos veces"),
])
def test_a_days_amount_given_in_n_goes_is_its_frequency(text, frequency):
    from smart_docgemma.agent.extraction import extract

    said = extract(text).dose
    assert said is not None and said.frequency == frequency


def test_a_verb_one_slip_from_a_brand_is_no_drug():
    from smart_docgemma.knowledge.mentions import find_drugs

    assert find_drugs("corrige para 10 mg") == [] and find_drugs("corrigé 10 mg") == []


def test_a_blood_pressure_written_with_an_x_is_read():
    from smart_docgemma.tools.words.ward_words import readings

    [bp] = [r for r in readings("registra PA 160x95 e FC 92") if r.vital == "blood pressure"]
    assert bp.values == (160.0, 95.0)


@pytest.mark.parametrize("text, action", [
    ("ele tem alergia a alguma coisa?", "allergy_question"), ("¿es alérgico a algo?", "allergy_question"),
    ("allergique à quoi ?", "allergy_question"), ("encaminha pra hematologia, urgente", "refer"),
    ("interconsulta a hematología", "refer"), ("adresser en pneumologie", "refer"),
    ("derivar a traumatología", "refer"), ("il pèse combien ?", "chart_question"),
    ("¿cuánto pesa el niño?", "chart_question"), ("quanto ele pesa?", "chart_question"),
])
def test_questions_and_referrals_in_every_language(text, action):
    from smart_docgemma.agent.extraction import extract

    assert action in extract(text).actions
