"""Rules added for probe38_intl (fr/pt/es), pinned by pure tests with near wordings that must not
trigger them."""

from __future__ import annotations

import pytest
from smart_docgemma.knowledge.mentions import find_drugs
from smart_docgemma.reading.first_names import first_name_people
from smart_docgemma.tools.writes.drafts import request_kind


# p38-es-8: Apronax (naproxen, Peru and Bolivia) is its NSAID, not a person
@pytest.mark.parametrize("said", ["le caeria bien un Apronax para el dolor de rodilla?",
                                  "apronax 550 c/12h", "Apranax 550 matin et soir"])
def test_apronax_is_naproxen(said):
    assert [d.name for d in find_drugs(said)] == ["naproxen"]


def test_apronax_is_no_person():
    assert first_name_people("le caeria bien un Apronax para el dolor de rodilla?") == []


@pytest.mark.parametrize("said", ["aprobado por el jefe", "a prona, pronto"])
def test_near_words_are_no_naproxen(said):
    assert find_drugs(said) == []


# p38-fr-7: the hospital stay's report as French wards name it, in full or as "le CRH"
@pytest.mark.parametrize(("said", "kind"), [
    ("fais-moi le CRH stp", "discharge"),
    ("compte rendu d'hospitalisation pour madame", "discharge"),
    ("tu peux faire le cr d'hospit ?", "discharge"),
    ("dosage de la CRH", None),            # the hormone assayed
    ("le CRP est a 40", None),
    ("il est hospitalise depuis quand ?", None),
])
def test_the_hospital_stay_report_is_the_discharge_summary(said, kind):
    assert request_kind(said) == kind


# p38-es-4: enoxaparin clipped as Spanish and Portuguese wards clip it
@pytest.mark.parametrize("said", ["borra la enoxa, ya tiene heparina", "a enoxa 40 SC 1x/dia"])
def test_enoxa_is_enoxaparin(said):
    assert "enoxaparin" in [d.name for d in find_drugs(said)]


@pytest.mark.parametrize("said", ["enoxaparina 40 mg SC", "enox 40 od"])
def test_enoxaparin_still_read(said):
    assert [d.name for d in find_drugs(said)] == ["enoxaparin"]


# p38-es-1: the drug struck off her list, "dar de baja"
@pytest.mark.parametrize("said", ["dale de baja a la aspirina, el INR esta en 3.4",
                                  "damos de baja el enalapril", "hay que darle de baja al AAS"])
def test_struck_off_her_list_is_a_stop(said):
    from smart_docgemma.reading.drugs import says_stop
    assert says_stop(said)


@pytest.mark.parametrize("said", ["TA de baja, 90/60", "la aspirina de baja dosis",
                                  "esta de baja por enfermedad"])
def test_low_is_no_stop(said):
    from smart_docgemma.reading.drugs import says_stop
    assert not says_stop(said)


# walk after the set: a hold for today only is no stop
@pytest.mark.parametrize("said", ["suspende a metformina so hoje, vai fazer contraste",
                                  "suspende el amlodipino solo hoy, esta hipotensa",
                                  "hoy solo quitale la aspirina",
                                  "arrete la metformine juste aujourd'hui"])
def test_a_stop_for_today_only_is_a_hold(said):
    from smart_docgemma.agent.ward_requests import _low, stop_of
    assert stop_of(_low(said)) is None


@pytest.mark.parametrize(("said", "drug"), [("suspende o AAS hoje", "aspirin"),
                                            ("stop the aspirin today", "aspirin"),
                                            ("descontinuar anlodipino, PA 100/60", "amlodipine"),
                                            ("para a metformina de vez, TFG baixou", "metformin"),
                                            ("para o AAS dele definitivamente", "aspirin")])
def test_a_stop_for_good_is_a_stop(said, drug):
    from smart_docgemma.agent.ward_requests import _low, stop_of
    assert stop_of(_low(said)) == drug


@pytest.mark.parametrize("said", ["amoxicilina para a otite de vez", "para a dor de vez"])
def test_para_as_for_stops_nothing(said):
    from smart_docgemma.agent.ward_requests import _low, stop_of
    assert stop_of(_low(said)) is None


# walk after the set: Andean and Argentine nicknames are pinned in test_first_names.py


# walk after the set: the discharge in the voseo and the discharge sheet
@pytest.mark.parametrize(("said", "kind"), [
    ("haceme la hoja de alta", "discharge"),
    ("hacele el alta a la senora", "discharge"),
    ("ya tiene el alta?", None),
    ("hoja de indicaciones", None),
])
def test_the_discharge_in_voseo(said, kind):
    assert request_kind(said) == kind


# second walk: Ben-u-ron (Portugal) is paracetamol, not a person
@pytest.mark.parametrize("said", ["o doente pode levar um Ben-u-ron?", "ben u ron 1 g 8/8h",
                                  "benuron xarope"])
def test_ben_u_ron_is_paracetamol(said):
    assert [d.name for d in find_drugs(said)] == ["acetaminophen"]
    assert first_name_people(said) == []


# second walk: a relative asking for herself, the patient's drug named his and "also" last
@pytest.mark.parametrize("said, relative", [
    ("a esposa dele quer saber se pode tomar o marevan dele tambem", "esposa"),
    ("la esposa pregunta si puede tomar la metformina de el tambien", "esposa"),
    ("sa femme demande si peut prendre le kardegic du patient aussi", "femme"),
])
def test_a_relative_asking_for_herself_with_his_drug_also(said, relative):
    from smart_docgemma.reading.people import beside_people
    assert relative in beside_people(said)


@pytest.mark.parametrize("said", [
    "a filha pergunta se pode tomar dipirona tambem",            # may be the patient's
    "la esposa pregunta si puede tomar la metformina tambien con la comida",
    "su hijo pregunta si puede tomar ibuprofeno",
])
def test_also_without_his_drug_stays_the_patient(said):
    from smart_docgemma.reading.people import beside_people
    assert beside_people(said) == []


# second walk: Brazil's referral form and France's discharge letter
@pytest.mark.parametrize(("said", "kind"), [
    ("faz a guia de referencia pra nefrologia", "referral"),
    ("prepare la lettre de liaison pour l'ehpad", "discharge"),
    ("a guia do exame?", None),
    ("guia de tratamento?", None),
    ("lettre de motivation", None),
])
def test_the_referral_form_and_the_liaison_letter(said, kind):
    assert request_kind(said) == kind


# fourth walk: "sacale" (Argentina, Peru) stops a drug on her list; a drug must follow it
@pytest.mark.parametrize(("said", "drug"), [("sacale la aspirina, sangro por la nariz", "aspirin"),
                                            ("saca el amlodipino", "amlodipine")])
def test_sacale_stops_the_drug(said, drug):
    from smart_docgemma.agent.ward_requests import _low, stop_of
    assert stop_of(_low(said)) == drug


@pytest.mark.parametrize("said", ["sacale sangre para INR", "saca una gasometria"])
def test_sacale_without_a_drug_stops_nothing(said):
    from smart_docgemma.agent.ward_requests import _low, stop_of
    assert stop_of(_low(said)) is None


# fourth walk: what is prescribed for her is her list with its review
@pytest.mark.parametrize("said", ["fijate si hay algo peligroso en lo que tiene indicado",
                                  "tem algo errado no que ele tem prescrito?"])
def test_what_is_prescribed_for_her_is_her_list(said):
    from smart_docgemma.tools.chart.answers import chart_focus
    assert chart_focus(said) == "medications"


@pytest.mark.parametrize("said", ["lo que tiene es una neumonia", "tiene indicado reposo absoluto"])
def test_what_she_has_is_no_list(said):
    from smart_docgemma.tools.chart.answers import chart_focus
    assert chart_focus(said) != "medications"


# fourth walk: Naprux (Argentina) is naproxen, not a person
def test_naprux_is_naproxen():
    assert [d.name for d in find_drugs("le iba a recetar Naprux")] == ["naproxen"]
    assert first_name_people("le iba a recetar Naprux") == []


# fourth walk: a relative of the one in a bed is that bed's patient; a count of children is no bed
@pytest.mark.parametrize(("said", "found"), [
    ("el marido de la 7 pregunta por su potasio", ["de la 7"]),
    ("o filho do 9 perguntou do INR", ["do 9"]),
    ("le mari du 14 demande sa kaliemie", ["du 14"]),
    ("el marido de la paciente pregunta por su potasio", []),
    ("la madre de 3 hijos", []),
    ("la paciente de 3 hijos", []),
    ("mere de 2 enfants", []),
    ("a filha de 2 anos", []),
])
def test_a_relative_of_a_bed_is_that_beds_patient(said, found):
    from smart_docgemma.reading.people import beside_people
    assert beside_people(said) == found


# fifth walk: a child in a bed is that bed's patient; the child in context stays hers
@pytest.mark.parametrize(("said", "found"), [
    ("a mama do miudo da 6 quer saber a glicemia dele", ["da 6"]),
    ("la nina de la 4 tiene fiebre", ["de la 4"]),
    ("le petit du 12 a de la fievre", ["du 12"]),
    ("el nino de 3 anos", []),
    ("un petit de 2 ans", []),
    ("o miudo ta com febre, posso dar ben-u-ron?", []),
])
def test_a_child_in_a_bed_is_that_beds_patient(said, found):
    from smart_docgemma.reading.people import beside_people
    assert beside_people(said) == found


# fifth walk: Flemoxin (Portugal) is amoxicillin, not a person
def test_flemoxin_is_amoxicillin():
    assert [d.name for d in find_drugs("vou iniciar Flemoxin nela")] == ["amoxicillin"]
    assert first_name_people("vou iniciar Flemoxin nela") == []


# fifth walk: the pressure as Portugal says it, "tensao", with its pair is a reading
def test_tensao_with_its_pair_is_a_pressure():
    from smart_docgemma.tools.words.ward_words import readings
    got = readings("tensao 14/8 as 10h, regista por favor")
    assert [(r.vital, r.values) for r in got] == [("blood pressure", (140.0, 80.0))]


@pytest.mark.parametrize("said", ["tensao alta ontem", "a tensao dela ta como?"])
def test_tensao_without_its_pair_is_no_reading(said):
    from smart_docgemma.tools.words.ward_words import readings
    assert readings(said) == []
