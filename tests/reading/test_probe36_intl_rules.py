"""Rules added for probe36_intl (fr/pt/es), pinned by pure tests with near wordings that must not
trigger them."""

from __future__ import annotations

import pytest
from smart_docgemma.agent import ward_requests
from smart_docgemma.agent.extraction import added_to_allergies, extract, recording_words_out
from smart_docgemma.reading.first_names import first_name_people


# p36-pt-5: the allergy list named as where a reaction told goes, in French, Portuguese, Spanish
@pytest.mark.parametrize("said", [
    "paciente fez urticaria com ceftriaxona, coloca nas alergias dele",
    "deu rash com amoxicilina, poe na lista de alergias",
    "il a fait une urticaire sous Bactrim, mets-le dans ses allergies",
    "eruption sous Augmentin, ajoute dans les allergies",
    "le dio ronchas con la dicloxacilina, agregalo a sus alergias",
    "hizo rash con el Bactrim, ponlo como alergia",
])
def test_the_allergy_list_named_as_the_place_records(said):
    assert added_to_allergies(said)
    entities = extract(said)
    assert "document_allergy" in entities.actions
    assert not {"prescribe_drug", "administer"} & set(entities.actions)


@pytest.mark.parametrize("said", [
    "tem alergias?",
    "revisa sus alergias",
    "coloca ceftriaxona 1 g EV",             # "coloca" an order, no list named
    "mets-lui du Bactrim forte",
    "ponle amoxicilina 500 c/8h",
    "recoloca o soro",
])
def test_no_list_named_records_nothing(said):
    assert not added_to_allergies(said)


def test_the_place_words_name_no_allergen():
    kept = recording_words_out("fez urticaria com ceftriaxona, coloca nas alergias dele")
    assert "ceftriaxona" in kept and "alergias" not in kept


# p36-es-7: the replacement asked with a verb of giving after its low value told
@pytest.mark.parametrize("said, value", [
    ("en la QS de hoy salio el potasio en 3.1, le doy KCl?", 3.1),
    ("K 3.1 today, give kcl?", 3.1),
    ("K 3,2, dou KCl?", 3.2),
    ("kaliemie a 3,1, je lui donne du potassium ?", 3.1),
    ("Mg 1.2 this am - give mag sulph?", 1.2),
])
def test_a_low_value_and_its_replacement_asked_is_its_protocol(said, value):
    flow = ward_requests.workflow_of(said)
    assert flow.plan_asked and flow.protocol_value == value
    assert "protocol" in ward_requests.actions(said, workflow=flow)


@pytest.mark.parametrize("said", [
    "give kcl 40 mmol?",                    # no value told: the drug's check
    "K 3.1 today, give furosemide?",        # another drug asked
    "K 3.1 today, gave kcl 40 at 6",        # told as given, nothing asked
    "potasio 3.1, ya le di KCl",
])
def test_no_replacement_asked_keeps_the_old_reading(said):
    flow = ward_requests.workflow_of(said)
    assert not (ward_requests.replacement_asked(ward_requests._low(said))
                and flow.protocol_value is not None)


# p36-es-11: a ward nickname or a West African given name in small letters is a person
@pytest.mark.parametrize("said, name", [
    ("y don chuy de la 8, que le estamos dando?", "chuy"),
    ("et awa, elle a eu son bilan ?", "awa"),
    ("mamadou du lit 4, sa creat ?", "mamadou"),
    ("o dudu ja tomou o antibiotico?", "dudu"),
])
def test_ward_given_names_are_people(said, name):
    assert name in first_name_people(said)


@pytest.mark.parametrize("said", [
    "lo pasaron del pronto socorro",
    "tengo una duda con la dosis",
    "manda un memo a farmacia",
    "changer la meche tous les jours",
    "se tomo una chela anoche",
])
def test_near_words_are_no_names(said):
    assert first_name_people(said) == []


# p36-es-12: a relative asking whether she too may take the patient's drug, "also" said
@pytest.mark.parametrize("said, relative", [
    ("la esposa del paciente pregunta si ella tambien puede tomar la metformina de el", "esposa"),
    ("a filha quer saber se ela tambem pode tomar o remedio da mae", "filha"),
    ("sa femme demande si elle aussi peut prendre son kardegic", "femme"),
])
def test_a_relative_asking_for_herself_too_is_asked_about(said, relative):
    from smart_docgemma.reading.people import beside_people
    assert relative in beside_people(said)


@pytest.mark.parametrize("said", [
    "la esposa pregunta si el tambien puede tomar la metformina",   # him, the patient
    "la esposa pregunta si ella puede darle la metformina",         # giving it to him
    "su hijo pregunta si ella tambien puede tomar ibuprofeno",      # the other sex's pronoun
])
def test_the_patient_stays_the_one_asked_about(said):
    from smart_docgemma.reading.people import beside_people
    assert beside_people(said) == []


# walk after the set: the unit asked of a dose is no magnesium asked
@pytest.mark.parametrize("said", [
    "amoxicilina 50 mg/kg/dia de 8/8h, quantos mg por dose?",
    "amoxicilline 50 mg/kg/j en 3 prises, combien de mg par prise ?",
    "amoxicilina 50 mg/kg/dia c/8h, cuantos mg por dosis?",
])
def test_the_unit_asked_of_a_dose_is_no_magnesium(said):
    from smart_docgemma.tools.chart.answers import chart_focus
    assert chart_focus(said) is None


@pytest.mark.parametrize("said", ["mg today?", "Mg de 1,3 no exame de agora", "ultimo mg?"])
def test_magnesium_asked_is_still_read(said):
    from smart_docgemma.tools.chart.answers import chart_focus
    assert chart_focus(said) == "lab:Magnesium"


# walk after the set: the follow-up's pending checks asked with the spoken "tá"
def test_what_is_pending_in_the_follow_up_is_her_care_gaps():
    said = "o que ta pendente no seguimento do diabetes dele?"
    assert "care_gaps" in ward_requests.actions(said)
    assert "care_gaps" not in ward_requests.actions("a consulta ta pendente?")


def test_a_low_value_in_alarm_and_its_replacement_asked_is_its_protocol():
    # pinned as no protocol by test_left48_rules until probe36_intl; the drug is still checked
    said = "potassium 2.9 - urgent, give kcl?"
    assert ward_requests.actions(said) == ["protocol"]
    assert "potassium chloride" in extract(said).drugs


# walk after the set: Latin American and Brazilian brands read as the ingredient checked
@pytest.mark.parametrize("said, drug", [
    ("le puedo dar un Dolo-Neurobion?", "diclofenac"),
    ("dolo neurobion inyectable", "diclofenac"),
    ("posso passar um Torsilax pra dor nas costas dele?", "diclofenac"),
    ("Dorflex de 6/6h", "metamizole"),
    ("Neosaldina pra cefaleia", "metamizole"),
    ("un Artrosilene para la rodilla?", "ketoprofen"),
    ("dolo 650 bd", "acetaminophen"),          # "dolo" alone stays paracetamol
])
def test_brands_are_their_ingredient(said, drug):
    from smart_docgemma.knowledge.mentions import find_drugs
    assert [d.name for d in find_drugs(said)] == [drug]


def test_a_brand_is_no_person():
    assert first_name_people("le puedo dar un Dolo-Neurobion?") == []


# second walk after the set: what he uses asked of his list; a Brazilian diminutive is a person
@pytest.mark.parametrize("said", ["algum risco no que ele usa?", "revisa lo que usa",
                                  "o que a paciente utiliza em casa"])
def test_what_she_uses_is_her_list(said):
    from smart_docgemma.tools.chart.answers import chart_focus
    assert chart_focus(said) == "medications"


@pytest.mark.parametrize("said", ["que dose usa?", "o que eu uso pra dor?"])
def test_no_list_asked_by_use_alone(said):
    from smart_docgemma.tools.chart.answers import chart_focus
    assert chart_focus(said) is None


def test_a_brazilian_diminutive_is_a_person():
    assert first_name_people("o joaozinho do 9 ja fez a glicemia?") == ["joaozinho"]
