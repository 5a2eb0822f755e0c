"""probe32_intl's rules, each with near words that must not trigger: a temperature dictated with
its tenths ("trente-huit cinq", "trinta e oito e meio", "treinta y ocho coma cinco") is one value
with its decimal, while a span after it or degrees no body has stay as written; a result told
alone with where it was taken ("au labo de 5h") or said to have come back ("le salió el potasio
en 3,1 esta mañana") asks its protocol, while a question, a drug or an interval does not; "corta
a metformina" cuts the drug from her list (a stop), while a halving or a question stops nothing."""
from __future__ import annotations

import pytest
from smart_docgemma.agent.ward_requests import actions, workflow_of
from smart_docgemma.tools.words.said_numbers import signs_in_digits
from smart_docgemma.tools.words.ward_words import readings


@pytest.mark.parametrize(("said", "read"), [
    ("température trente-huit cinq prise à 22h30", "température 38.5 prise à 22h30"),  # p32-fr-12
    ("temperatura trinta e oito e meio às 4 da manhã", "temperatura 38.5 às 4 da manhã"),  # p32-pt-13
    ("temp trente-huit virgule deux à 3h", "temp 38.2 à 3h"),
    ("temperatura treinta y ocho coma cinco", "temperatura 38.5"),
    ("fièvre à trente-neuf deux", "fièvre à 39.2"),
    ("temp trente-neuf et demi", "temp 39.5"),
])
def test_a_temperature_dictated_with_its_tenths_is_one_value(said, read):
    assert signs_in_digits(said) == read


@pytest.mark.parametrize(("said", "read"), [
    ("fièvre trente-huit cinq jours", "fièvre trente-huit cinq jours"),  # a span: no tenths
    ("température deux fois par jour", "température deux fois par jour"),
    ("temperatura trinta e oito", "temperatura 38"),                     # the degrees alone
    ("pouls nonante-six pris à 5h40", "pouls 96 pris à 5h40"),           # no temperature
    ("pouls quatre-vingt-dix cinq", "pouls quatre-vingt-dix cinq"),      # no tenths of a pulse
    ("temperatura 38,5", "temperatura 38,5"),
])
def test_near_words_a_span_a_count_or_another_sign_has_no_tenths(said, read):
    assert signs_in_digits(said) == read


def test_the_tenths_reach_the_vital_sign_reader():
    [found] = readings("température trente-huit cinq prise à 22h30, tu me la notes")
    assert found.values == (38.5,) or list(found.values) == [38.5]


@pytest.mark.parametrize("said", [
    "kaliémie à 3,1 au labo de 5h",                    # p32-fr-16
    "le salió el potasio en 3,1 esta mañana",          # p32-es-16
    "potasio en 3,1 esta mañana",
    "potasio 3,0 en el control de las 6",
    "kaliémie revenue à 3,1 ce matin",
])
def test_a_result_told_with_where_it_was_taken_asks_its_protocol(said):
    assert actions(said) == ["protocol"]
    assert workflow_of(said).stated_value in (3.0, 3.1)


@pytest.mark.parametrize("said", [
    "le salió el potasio en 3,1 esta mañana?",                    # asked
    "kaliémie à 3,1 au labo de 5h, on a commencé le furosémide",  # a story told with it
    "repetir potasio en 48 horas",                                # an interval, no value
])
def test_near_words_a_question_a_story_or_an_interval_is_no_result_told_alone(said):
    assert actions(said) != ["protocol"]


def test_near_words_en_before_a_whole_number_states_no_value():
    assert workflow_of("potasio en 48 horas").stated_value is None


@pytest.mark.parametrize(("said", "drug"), [
    ("corta a metformina dele", "metformin"),            # p32-pt-11
    ("cortá el enalapril", "enalapril"),
])
def test_cutting_a_drug_from_her_list_is_its_stop(said, drug):
    assert workflow_of(said).stop == drug


@pytest.mark.parametrize("said", [
    "corta a metformina pela metade",       # a halving
    "corta o comprimido ao meio",           # no drug
    "corta a metformina?",                  # asked
    "corta a metformina se a creatinina subir",  # on a condition
])
def test_near_words_a_halving_a_question_or_a_condition_stops_nothing(said):
    assert workflow_of(said).stop is None


# --- holdout (blind 19/24 with 4 unsafe): a potassium told in Brazilian words, the Portuguese
# "é" before an illness, a hold in Brazilian words or for one night, the lab beside a hold, a stop
# card taken back with a pause before it or its pronoun after "con", "quítale" a stop

@pytest.mark.parametrize("said", [
    "deu K de 3,2 hoje cedo",          # p32-pt-2
    "veio o potássio em 3,1",
])
def test_a_potassium_said_to_have_come_back_in_portuguese_asks_its_protocol(said):
    assert actions(said) == ["protocol"]


@pytest.mark.parametrize("said", [
    "deu K de 3,2 hoje cedo?",
    # a story told with it: not guessed (a drug told as started keeps the protocol: walk 68)
    "deu K de 3,2 hoje cedo depois dos vômitos",
])
def test_near_words_asked_or_told_with_a_drug_it_is_no_result_told_alone(said):
    assert actions(said) != ["protocol"]


@pytest.mark.parametrize("said", [
    "dá pra fazer uma Benzetacil nela? é amigdalite bacteriana",   # p32-pt-4
    "posso dar amoxicilina? é sinusite bacteriana",
    "dá pra fazer amoxicilina nela? e faringite bacteriana",       # "é" typed without accent
])
def test_an_illness_after_the_portuguese_is_is_no_one_addressed(said):
    from smart_docgemma.reading.people import lower_pair_people
    assert lower_pair_people(said) == []


@pytest.mark.parametrize(("said", "who"), [
    ("posso dar amoxicilina? e a grace adeyemi?", "grace adeyemi"),
    ("e a grace adeyemi, o que ela toma?", "grace adeyemi"),
    ("and samuel okoro?", "samuel okoro"),
])
def test_near_words_a_person_addressed_with_and_is_still_a_person(said, who):
    from smart_docgemma.reading.people import lower_pair_people
    assert lower_pair_people(said) == [who]


@pytest.mark.parametrize("said", [
    "segura a varfarina hoje à noite, o INR tá alto",   # p32-pt-12
    "suspends la warfarine ce soir, l'INR est haut",
    "hold warfarin tonight - INR 3.4",
    "suspende el enalapril por 48 horas",
    "stop the warfarin tonight",
    "suspende la warfarina por hoy",
    "suspends le Kardégic jusqu'à la chirurgie",
])
def test_a_hold_for_a_night_or_a_while_writes_nothing(said):
    assert workflow_of(said).stop is None
    assert actions(said) == []


@pytest.mark.parametrize(("said", "want"), [
    ("hold warfarin tonight, INR tomorrow am", ["order_lab"]),      # the INR's own time
    ("hold warfarin tonight, recheck INR tomorrow", ["order_lab"]),  # an order word
    ("stop aspirin, INR tomorrow", ["stop", "order_lab"]),            # a stop keeps its lab
    ("stop warfarin - INR 3.4, recheck in 2 days", ["stop", "order_lab"]),
    ("quítale la aspirina", ["stop"]),
    ("INR tonight", ["order_lab"]),
])
def test_near_words_a_lab_timed_on_its_own_or_beside_a_stop_is_still_ordered(said, want):
    assert actions(said) == want


@pytest.mark.parametrize("said", [
    "quítale la aspirina si sangra",   # a condition
    "quita la vía",                    # no drug
    "segura o paciente",               # no drug
])
def test_near_words_no_drug_or_a_condition_stops_nothing(said):
    assert workflow_of(said).stop is None


@pytest.mark.parametrize(("said", "kept"), [
    ("ah non attends, on la garde finalement", True),   # p32-fr-11
    ("mejor no, que siga con ella", True),              # p32-es-12
    ("pera, mantém", True),
    ("ah non attends", False),                          # no verb of keeping
    ("mejor no", False),
    ("que siga con ella la fisioterapia", False),       # something else kept
    ("keep an eye on his K", False),
])
def test_a_stop_card_taken_back_with_a_pause_or_its_pronoun(said, kept):
    from smart_docgemma.agent.amendments import keeps_the_drug
    assert keeps_the_drug(said) is kept


# --- the walk after the set: a tenth after "e"/"y", a result told with the day's analysis

@pytest.mark.parametrize(("said", "read"), [
    ("febre trinta e nove e dois às 18h, registra", "febre 39.2 às 18h, registra"),
    ("temperatura treinta y nueve y dos", "temperatura 39.2"),
    ("febre trinta e nove e dois dias", "febre trinta e nove e dois dias"),  # a span
])
def test_a_tenth_after_its_joiner_is_the_temperature_s(said, read):
    assert signs_in_digits(said) == read


@pytest.mark.parametrize(("said", "want"), [
    ("potasio de 3,0 en la analítica de hoy", ["protocol"]),
    ("potássio 3,1 na gasometria", ["protocol"]),
    ("potasio de 3,0 en la analítica de hoy?", []),
])
def test_a_result_told_with_the_day_s_analysis(said, want):
    assert actions(said) == want


@pytest.mark.parametrize(("said", "drug"), [
    ("para o AAS dele", "aspirin"),
    ("para a metformina, tá com TFG baixa", "metformin"),
    ("para o lisinopril dela, tá grávida", "lisinopril"),
])
def test_the_brazilian_imperative_para_opening_the_clause_stops_its_drug(said, drug):
    assert workflow_of(said).stop == drug


@pytest.mark.parametrize("said", [
    "para o AAS dele?",                     # asked
    "para o potássio baixo, KCl xarope",    # "for": a word after the drug
    "amoxicilina para a otite",             # "for", inside the clause
    "para a dor, dipirona",                 # no drug after it
    "para o AAS dele se sangrar",           # a condition
    "para a varfarina hoje à noite",        # a hold
])
def test_near_words_para_as_for_asked_or_held_stops_nothing(said):
    assert workflow_of(said).stop is None


@pytest.mark.parametrize("said", [
    "on zappe la warfarine ce soir, INR à 3,4",   # a hold, the INR told: nothing written
    "on zappe la warfarine",
])
def test_a_dose_skipped_and_a_result_told_beside_it_write_nothing(said):
    assert workflow_of(said).stop is None
    assert actions(said) == []


@pytest.mark.parametrize(("said", "want"), [
    ("INR tonight", ["order_lab"]),                    # a test and its time: ordered
    ("K 3.2 - repeat K tonight", ["order_lab"]),       # an order word
    ("INR demain matin, cible 2-3", ["order_lab"]),    # a target is no value told
])
def test_near_words_a_test_with_its_time_and_no_value_told_is_still_ordered(said, want):
    assert actions(said) == want


@pytest.mark.parametrize(("said", "who"), [
    ("e o rapaz da maca 3, já medicou?", "maca 3"),
    ("la señora de la camilla 2 tiene alergias?", "camilla 2"),
    ("le patient du brancard 4, son INR ?", "brancard 4"),
])
def test_a_numbered_stretcher_or_chair_holds_another_patient(said, who):
    from smart_docgemma.agent.extraction import read
    said_ = read(said)
    assert said_.subject.about == "other" and who in said_.entities.patient_names


@pytest.mark.parametrize("said", [
    "precisa de maca para o transporte", "pode sentar na poltrona", "la camilla está sucia",
])
def test_near_words_a_stretcher_or_chair_with_no_number_is_no_one(said):
    from smart_docgemma.agent.extraction import read
    assert read(said).subject.about == "patient"


@pytest.mark.parametrize(("said", "drug"), [
    ("arrête le Kardégic pour l'instant", "aspirin"),   # for now: a stop, as "stop it for now"
    ("arrête-moi le Kardégic, il saigne des gencives", "aspirin"),
    ("stop the aspirin", "aspirin"),
])
def test_near_words_a_stop_for_now_or_with_its_reason_is_still_a_stop(said, drug):
    assert workflow_of(said).stop == drug


# --- others described: by a state or role before a bed's number, or seen at a place

def _about(said: str, file: str = "04-t2dm-overdue-hba1c.json") -> str:
    from smart_docgemma.agent.extraction import read

    from ..support.fixture_charts import chart
    return read(said, chart=chart(file).in_context).subject.about


@pytest.mark.parametrize("said", [
    "et le diabétique de la 9, son hba1c ?",
    "e o diabético do 9?",
    "et celui de la 9, son hba1c ?",
    "y el diabético de la 9?",
    "le patient qu'on a vu aux urgences, sa créat ?",
    "o doente que atendi no pronto-socorro, a creatinina?",
    "el paciente que vimos en urgencias, su potasio?",
])
def test_someone_by_a_state_before_a_bed_or_seen_at_a_place_is_another(said):
    assert _about(said) == "other"


@pytest.mark.parametrize("said", [
    "le diabétique de longue date, son hba1c ?",            # no bed's number
    "la patiente a été vue en consultation, créat ?",       # she was seen there
    "elle a été vue aux urgences, sa créat ?",
])
def test_near_words_no_bed_number_or_she_was_seen_there_is_her(said):
    assert _about(said) == "patient"
