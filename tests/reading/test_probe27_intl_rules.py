"""The rules probe27_intl's blind run and the walks after it asked for, each beside the near words
it must not read: a relative followed by the patient ("a mãe da paciente", "la hija del
enfermo") is someone else; a relative asking whether they themself may take a drug in fr/pt/es is
the one asked about; a problem sought in the ward's words ("hay bronca", "dá ruim", "ça pose
souci") or an intention asked ("le quiero dejar …?") checks the drug; an opinion asked at the end
of an order line ("…, que te parece") is no order line; her tablets with a worry sought are her
list reviewed; "expediente 100587" and an accented "prontuário" are record numbers; the saturation
said as a verb ("saturando 90%") and a pressure said aloud ("13 por 8") are readings; Latin
America's thresholds and the pressure after a statistic are read. Pure: no HAPI."""
from __future__ import annotations

import pytest
from smart_docgemma.agent.extraction import find_patient_ids, read
from smart_docgemma.reading.people import beside_people
from smart_docgemma.tools.chart.answers import chart_focus
from smart_docgemma.tools.words.ward_words import readings
from smart_docgemma.tools.words.windows import asked


@pytest.mark.parametrize(("said", "relative"), [
    ("a mãe da paciente tá com infecção urinária, pode tomar amoxicilina?", "mae"),
    ("o filho do doente pode tomar dipirona?", "filho"),
    ("la hija del enfermo puede tomar amoxicilina?", "hija"),
    ("the mother of the patient has a UTI, can she take amoxicillin?", "mother"),
    ("prescreve ibuprofeno 400 de 8/8h pro marido da paciente", "marido"),
])
def test_a_relative_followed_by_the_patient_is_someone_else(said, relative):
    assert relative in beside_people(said)


@pytest.mark.parametrize("said", [
    # the relative reports for her, or is not there at all
    "a filha da paciente disse que ela pode tomar amoxicilina?",
    "a paciente pode tomar amoxicilina?", "o prontuário da paciente tem alergias?",
])
def test_a_relative_reporting_or_the_patient_alone_names_no_one_else(said):
    assert beside_people(said) == []


@pytest.mark.parametrize(("said", "relative"), [
    ("su hijo pregunta si él puede tomar ibuprofeno", "hijo"),
    ("a filha quer saber se ela pode tomar dipirona", "filha"),
    ("sa fille demande si elle peut prendre du paracétamol", "fille"),
])
def test_a_relative_asking_for_themself_is_the_one_asked_about(said, relative):
    assert relative in beside_people(said)


@pytest.mark.parametrize("said", [
    # the pronoun of the other sex, or none: the patient is asked about
    "sa fille demande si il peut prendre du paracétamol",
    "su hijo pregunta si puede tomar ibuprofeno",
])
def test_a_relative_asking_for_the_patient_names_no_one_else(said):
    assert beside_people(said) == []


@pytest.mark.parametrize("said", [
    "le quiero dejar propranolol, hay bronca?", "¿algún inconveniente con el naproxeno?",
    "passo naproxeno, dá ruim?", "ça pose souci si je lui prescris de l'augmentin ?",
    "quero passar propranolol pra ela?", "je veux lui mettre du propranolol ?",
    "starting propranolol 40 bd, any issues?", "si le receto naproxeno que onda",
])
def test_a_problem_sought_or_an_intention_asked_checks_the_drug(said):
    assert "give" in read(said).entities.actions


@pytest.mark.parametrize("said", [
    # no mark and no problem sought: an order, never asked
    "le quiero dejar propranolol 40 mg c/12h", "propranolol 40 mg 2x/dia",
])
def test_an_intention_without_the_mark_is_no_question(said):
    assert "give" not in read(said).entities.actions


@pytest.mark.parametrize("said", [
    "naproxeno 500 c/12h, que te parece", "passo naproxeno 500 de 12/12h, o que acha",
    "naproxène 500 x2/j, t'en penses quoi", "naproxen 500 bd what do you think",
])
def test_an_opinion_asked_at_the_end_is_no_order_line(said):
    assert "order_line" not in read(said).entities.actions


@pytest.mark.parametrize("said", [
    "naproxeno 500 c/12h", "paracetamol 1 g c/8h ok", "naproxeno 500 c/12h, que te parece bien VO",
])
def test_an_order_line_stays_one(said):
    assert "order_line" in read(said).entities.actions


@pytest.mark.parametrize("said", [
    "y de sus pastillas, ¿alguna que me deba preocupar?", "un risque dans ses comprimés ?",
    "algum perigo nos comprimidos dele?",
])
def test_her_tablets_with_a_worry_sought_are_her_list_reviewed(said):
    assert chart_focus(said) == "review"


@pytest.mark.parametrize("said", [
    "la pastilla de 500 mg es un problema?", "amoxicilina 500 mg comprimidos", "sus pastillas",
])
def test_tablets_without_a_possessive_or_a_worry_are_no_review(said):
    assert chart_focus(said) != "review"


@pytest.mark.parametrize(("said", "record"), [
    ("el paciente del expediente 100587 ¿cómo va su INR?", "100587"),
    ("o doente do prontuário 100845 tem glicemia?", "100845"),
    ("historia clínica 100845, glucosa?", "100845"),
])
def test_a_record_number_after_its_word_with_or_without_accents(said, record):
    assert record in find_patient_ids(said)


@pytest.mark.parametrize("said", ["revisa el expediente completo", "su expediente dice que toma X?"])
def test_the_record_named_without_a_number_is_no_id(said):
    assert find_patient_ids(said) == []


@pytest.mark.parametrize(("said", "vital", "values"), [
    ("saturando 90% em aa às 5h registra", "oxygen saturation", (90.0,)),
    ("il sature à 92% en AA, note-le", "oxygen saturation", (92.0,)),
    ("pressão 13 por 8 às 10h anota", "blood pressure", (130.0, 80.0)),
    ("BP 150 over 90 at 7am, chart it", "blood pressure", (150.0, 90.0)),
    ("TA 15 sur 9 à 8h à noter", "blood pressure", (150.0, 90.0)),
    ("bp 172/104 hr 96 - pls chart", "blood pressure", (172.0, 104.0)),
])
def test_readings_said_as_a_verb_or_aloud(said, vital, values):
    got = readings(said)
    assert got and got[0].vital == vital and got[0].values == values


@pytest.mark.parametrize("said", ["ela satura bem?", "PA 13 por 8 horas de jejum?"])
def test_no_reading_without_a_value_or_from_a_span(said):
    assert not [r for r in readings(said) if r.vital in ("oxygen saturation", "blood pressure")]


@pytest.mark.parametrize(("said", "comparator"), [
    ("potasio arriba de 5 en 48 h", "gt"), ("glucosas abajo de 70 en 24 h", "lt"),
    ("glucemia debajo de 4 en 24 h", "lt"), ("potasio encima de 5 en la última semana", "gt"),
])
def test_latin_american_thresholds(said, comparator):
    got = asked(said)
    assert got and got.thresholds and got.thresholds[0].comparator.value == comparator


@pytest.mark.parametrize("said", [
    "promedio de TA de la última semana", "moyenne de TA sur 7 jours",
    "tensions des 7 derniers jours", "le K a dépassé 5,5 ces 6 derniers mois ?",
])
def test_the_pressure_after_a_statistic_and_the_k_gone_past(said):
    want = "lab:Potassium" if " K " in f" {said} " else "vitals:bp"
    assert chart_focus(said) == want


@pytest.mark.parametrize("said", ["merci de ta réponse", "la moyenne de taille", "promedio de pacientes"])
def test_your_in_french_and_near_words_are_no_pressure(said):
    assert chart_focus(said) != "vitals:bp"


# after the holdout was read (its three misses, fixed as general rules)
@pytest.mark.parametrize(("said", "relative"), [
    ("el esposo de la paciente pregunta si él puede tomar enalapril para su presión", "esposo"),
    ("a filha da paciente quer saber se ela pode tomar dipirona", "filha"),
])
def test_a_relative_of_the_patient_asking_for_themself(said, relative):
    assert relative in beside_people(said)


def test_a_relative_of_the_patient_asking_for_her_names_no_one_else():
    assert beside_people("el esposo de la paciente pregunta si puede tomar ibuprofeno") == []


@pytest.mark.parametrize("said", [
    "combien de fois la systolique a dépassé 160 ces 3 derniers jours ?",
    "a sistólica passou de 150 na última semana?", "¿la diastólica más baja?",
])
def test_the_pressure_by_its_half(said):
    assert chart_focus(said) == "vitals:bp"


@pytest.mark.parametrize("said", [
    "insuffisance cardiaque systolique, bisoprolol ?", "souffle systolique au foyer aortique",
    "insuficiencia cardiaca sistólica", "dysfonction systolique du VG",
])
def test_the_heart_failure_or_murmur_so_named_is_no_pressure(said):
    assert chart_focus(said) != "vitals:bp"


def test_a_protocol_named_decides_over_the_care_programme():
    from smart_docgemma.agent.ward_requests import _any
    assert _any("protocol_named").search("¿le toca hba1c segun el protocolo?")
    assert not _any("protocol_named").search("¿le toca hba1c?")


# found by walks after the holdout read (new wordings, none of the set's)
@pytest.mark.parametrize(("said", "who"), [
    ("samuel okoro hba1c", "samuel okoro"), ("kofi asante spo2", "kofi asante"),
])
def test_a_lower_case_name_before_a_test_whose_name_holds_a_digit(said, who):
    from smart_docgemma.reading.people import leading_lower_people
    assert leading_lower_people(said) == [who]


@pytest.mark.parametrize("said", ["room air sats 94", "grace adeyemi weight 70"])
def test_a_value_said_after_two_words_names_no_one(said):
    from smart_docgemma.reading.people import leading_lower_people
    assert leading_lower_people(said) == []


@pytest.mark.parametrize("said", [
    "a vizinha de quarto pediu dipirona", "la compañera de cuarto pregunta si puede tomar ibuprofeno",
    "la voisine de chambre demande du paracétamol", "the roommate is asking for paracetamol",
])
def test_the_one_who_shares_her_room_asking_is_someone_else(said):
    assert beside_people(said)


@pytest.mark.parametrize("said", [
    "la acompañante está de acuerdo con el paracetamol", "el cuarto está frío, paracetamol?",
    "la compañera de cuarto está dormida, ¿le doy paracetamol?",
])
def test_the_room_and_its_sharer_beside_her_order_name_no_one(said):
    assert beside_people(said) == []


@pytest.mark.parametrize("said", [
    "non finalement on ne la met pas", "al final no se la ponemos", "finalmente não, não vamos passar",
    "we won't give it",
])
def test_the_we_declining_the_card_withdraws_it(said):
    from smart_docgemma.agent.amendments import cancels
    assert cancels(said)


@pytest.mark.parametrize("said", ["on ne la met pas à 1 g, mets 500", "al final no, mejor 500"])
def test_a_new_dose_beside_the_no_is_a_change(said):
    from smart_docgemma.agent.amendments import cancels
    assert not cancels(said)


@pytest.mark.parametrize("said", [
    "je lui donne un supplément de potassium ?", "suplemento de potasio, ¿se lo indico?",
    "suplemento de potássio pra ela?",
])
def test_a_potassium_supplement_in_fr_pt_es_is_the_drug(said):
    from smart_docgemma.knowledge.mentions import find_drugs
    assert "potassium chloride" in [d.name for d in find_drugs(said)]


@pytest.mark.parametrize("said", ["potasio 5,6 ayer", "le potassium est à 5,6"])
def test_the_potassium_result_is_no_supplement(said):
    from smart_docgemma.knowledge.mentions import find_drugs
    assert "potassium chloride" not in [d.name for d in find_drugs(said)]
