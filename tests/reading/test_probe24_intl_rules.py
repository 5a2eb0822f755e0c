"""The rules probe24_intl's blind run asked for, each beside the near words it must not read: the
medication list taken stock of ("bilan des traitements", "avaliação dos remédios dele") is the
review, never the labs "bilan" alone asks; the French object pronoun before a verb of adding ("je
lui rajoute de l'ibuprofène ?") asks, as "je rajoute" did; the pressure after its article or
possessive ("média da PA na última semana") is her pressure, whatever word follows; the Mexican
ward's lab shorthand (BH, PFH, and in capitals QS, ES, EGO) names its tests, while "es" and "qs"
in lower case, or in a message written all in capitals, are the words they also are. Pure: no
HAPI."""
from __future__ import annotations

import pytest
from smart_docgemma.agent.extraction import read
from smart_docgemma.tools.chart.answers import chart_focus
from smart_docgemma.tools.words.ward_words import lab_tests


@pytest.mark.parametrize("said", [
    "bilan des traitements stp", "bilan de ses médicaments", "on fait le point sur ses traitements",
    "avaliação dos remédios dele", "balanço da medicação", "valoración de su medicación",
    "evaluación de los fármacos", "bilan du ttt",
])
def test_the_list_taken_stock_of_is_the_review(said):
    assert chart_focus(said) == "review"


@pytest.mark.parametrize("said", [
    "bilan sanguin avant le traitement", "bilan rénal", "balanço hídrico de hoje",
    "faire le point sur la douleur", "bilan",
])
def test_a_stock_word_without_the_list_is_no_review(said):
    assert chart_focus(said) != "review"


@pytest.mark.parametrize("said", [
    "je lui rajoute de l'ibuprofène ?", "on lui rajoute du naproxène ?", "je lui remets de l'amoxicilline ?",
    "j'introduis du tramadol ?", "acrescento ibuprofeno?", "¿le añado ibuprofeno?",
])
def test_a_verb_of_adding_asked_checks_the_drug(said):
    actions = read(said).entities.actions
    assert "give" in actions


@pytest.mark.parametrize("said", [
    # no question mark: an order or a statement, never asked
    "je lui rajoute de l'ibuprofène 400 mg 3x/j", "je lui passe le téléphone ?",
])
def test_without_the_mark_or_a_drug_nothing_is_asked(said):
    assert "give" not in read(said).entities.actions


@pytest.mark.parametrize("said", [
    "média da PA na última semana", "sa TA ce matin ?", "la TA en la última semana",
    "a sua PA no domingo",
])
def test_the_pressure_after_its_article(said):
    assert chart_focus(said) == "vitals:bp"


@pytest.mark.parametrize("said", ["ela ta na UTI", "ele ta no quarto 3", "la tarde"])
def test_being_and_near_words_are_no_pressure(said):
    assert chart_focus(said) != "vitals:bp"


@pytest.mark.parametrize(("said", "tests"), [
    ("BH, QS, ES y PFH mañana 8am", {"complete blood count", "basic metabolic panel",
                                      "electrolytes panel", "hepatic function panel"}),
    ("BH QS ES mañana 8am", {"complete blood count", "basic metabolic panel", "electrolytes panel"}),
    ("BH mañana 8am", {"complete blood count"}),
    ("EGO y urocultivo hoy", {"urinalysis"}),
    ("pfh y química sanguínea", {"hepatic function panel", "basic metabolic panel"}),
    ("bilan : NFS plaquettes TP demain 7h", {"complete blood count", "inr"}),
    ("TAP e hemograma amanhã", {"inr", "complete blood count"}),
])
def test_the_mexican_ward_shorthand(said, tests):
    assert set(lab_tests(said)) == tests


@pytest.mark.parametrize("said", [
    "es seguro darle ibuprofeno?", "la creatinina es alta y el potasio?", "ES SEGURO DAR IBUPROFENO",
    "paracetamol qs", "ego", "tp assim, ele ta melhor?",
])
def test_common_words_in_lower_case_or_shouted_name_no_test(said):
    assert not {"electrolytes panel", "basic metabolic panel", "urinalysis", "inr"} & set(lab_tests(said))


# found by walks after the tuned rules (new wordings of the set's angles, none of its sentences)
@pytest.mark.parametrize(("said", "want"), [
    ("solicita PFH y ES urgentes", "urgent"), ("NFS et iono urgents", "urgent"),
    ("hemograma agora mesmo", "stat"), ("BH de inmediato", "stat"),
])
def test_the_plural_of_urgent_and_now_in_words(said, want):
    from smart_docgemma.tools.words.ward_words import priority
    assert priority(said) == want


@pytest.mark.parametrize("said", ["o paciente das urgências", "BH mañana 8am", "ahora lo veo"])
def test_no_priority_from_near_words(said):
    from smart_docgemma.tools.words.ward_words import priority
    assert priority(said) is None


@pytest.mark.parametrize(("said", "dose"), [
    ("bájale a 250", "250"), ("bájele a 250 por favor", "250"), ("que sean 875", "875"),
    ("súbele a 1000", "1000"),
])
def test_the_spanish_pronoun_joined_and_the_dose_wished_change_the_card(said, dose):
    from smart_docgemma.agent.amendments import _bare_dose
    from smart_docgemma.languages import fold
    assert _bare_dose(fold(said).lower()) == dose


@pytest.mark.parametrize("said", ["que sea lo que tenga que ser", "bajó a la cafetería"])
def test_no_dose_from_near_words(said):
    from smart_docgemma.agent.amendments import _bare_dose
    from smart_docgemma.languages import fold
    assert _bare_dose(fold(said).lower()) is None


@pytest.mark.parametrize("said", [
    "vale a pena passar naproxeno?", "le receto ibuprofeno o mejor no",
    "je lui donne de l'ibuprofène ou pas", "¿conviene darle naproxeno?",
])
def test_whether_it_is_worth_it_asks(said):
    # asked ("give"), or no order word read at all (the drug named is checked): never carded
    actions = read(said).entities.actions
    assert "give" in actions or not {"prescribe_drug", "order_line"} & set(actions)


@pytest.mark.parametrize("said", ["la paciente del cuarto 12 tiene K alto?", "y la de la pieza 3?"])
def test_a_latin_american_room_holds_another_patient(said):
    from smart_docgemma.reading.people import beside_people
    assert beside_people(said)


@pytest.mark.parametrize(("said", "want"), [
    ("amoxicilina 50 mg kg dia dividido en tres dosis", "50 mg/kg"),
    ("ibuprofeno 10 mg kg cada 8 horas", "10 mg/kg"), ("paracetamol 15 mg kilo c/6h", "15 mg/kg"),
])
def test_the_unit_against_the_kilo_is_per_kg(said, want):
    from smart_docgemma.reading.numbers import in_digits
    assert want in in_digits(said)


@pytest.mark.parametrize("said", ["peso 94 kg, registra", "20 kg, 500 mg c/8h", "pesa 20 kilos"])
def test_a_weight_is_never_per_kg(said):
    from smart_docgemma.reading.numbers import in_digits
    assert "/kg" not in in_digits(said)


@pytest.mark.parametrize(("said", "dose"), [
    ("passe de 500 à 1000", "1000"), ("sube de 500 a 875", "875"),
    ("aumenta a dose de 500 pra 850", "850"), ("go from 500 to 1000", "1000"),
])
def test_from_the_old_dose_to_the_new(said, dose):
    from smart_docgemma.agent.amendments import _bare_dose
    from smart_docgemma.languages import fold
    assert _bare_dose(fold(said).lower()) == dose


@pytest.mark.parametrize("said", ["de 8 a 10 dias", "paracetamol de 500 a 1000 mg"])
def test_a_range_without_a_verb_of_change_is_no_new_dose(said):
    from smart_docgemma.agent.amendments import _from_to
    assert _from_to().search(said) is None


@pytest.mark.parametrize("said", [
    "passe du tramadol 50 mg x3/j à son mari", "bota dipirona 1 g de 6/6h pro filho dela",
    "pásale paracetamol 500 c/8h a su hija",
])
def test_a_drug_passed_to_a_relative_is_for_the_relative(said):
    from smart_docgemma.reading.people import beside_people
    assert beside_people(said)


@pytest.mark.parametrize("said", ["passe du paracétamol 1 g x3/j, j'ai prévenu son mari"])
def test_the_relative_in_another_clause_is_not_the_one_it_is_for(said):
    from smart_docgemma.reading.people import beside_people
    assert not beside_people(said)


@pytest.mark.parametrize("said", ["passe-lui du paracétamol 1 g x3/j", "passe du tramadol 50 mg x3/j"])
def test_the_french_verb_of_passing_orders(said):
    assert {"prescribe_drug", "order_line"} & set(read(said).entities.actions)


@pytest.mark.parametrize("said", [
    "revisa las indicaciones medicas", "hay algo que cambiar en sus indicaciones?",
    "valoración farmacológica", "¿le quitarías algo?", "lhe tiraria alguma coisa?",
    "tu lui enlèverais quelque chose ?", "bilan médicamenteux",
])
def test_the_order_sheet_and_anything_to_stop_are_the_review(said):
    assert chart_focus(said) in ("review", "medications")


@pytest.mark.parametrize("said", ["la indicación de anticoagular", "le quitarías el ibuprofeno?"])
def test_one_indication_or_one_drug_is_no_whole_list_review(said):
    assert chart_focus(said) != "review"


@pytest.mark.parametrize("said", [
    "paciente robert mensah nacido en 1950, ultimo inr", "nee en mai 1943, kaliemie ?",
    "born in 1950, latest inr", "nascida em 1985, alergias?",
])
def test_a_birth_year_is_no_window(said):
    from smart_docgemma.tools.words.windows import _month, _year
    assert _year(said) is None and _month(said) is None


@pytest.mark.parametrize(("said", "key"), [
    ("quantas hba1c em 2025?", "y2025"), ("born in 1950, inr in 2025?", "y2025"),
    ("combien d hba1c en 2024 ?", "y2024"),
])
def test_a_year_asked_is_still_its_window(said, key):
    from smart_docgemma.tools.words.windows import _year
    assert _year(said) == key


@pytest.mark.parametrize(("said", "year"), [
    ("paciente Robert Mensah nacido en 1951, ultimo INR", "1951"),
    ("Grace Adeyemi nascida em 1990, alergias?", "1990"), ("Mme Thompson née en 1950", "1950"),
    ("born in 1960", "1960"),
])
def test_a_birth_year_after_en_or_em_names_who_was_born(said, year):
    from smart_docgemma.agent.extraction import born_words
    from smart_docgemma.reading.subject import said_birth_year
    assert said_birth_year(said, born_words()) == year


@pytest.mark.parametrize("said", ["HbA1c en 2025 ?", "nacido hace 80 años"])
def test_no_birth_year_without_a_word_of_birth(said):
    from smart_docgemma.agent.extraction import born_words
    from smart_docgemma.reading.subject import said_birth_year
    assert said_birth_year(said, born_words()) is None


@pytest.mark.parametrize("said", [
    "mejor no le pongas nada", "suspende esa orden", "suspéndelo", "non, ne lui donne rien",
    "não, não dá nada",
])
def test_nothing_given_or_the_order_suspended_withdraws_the_card(said):
    from smart_docgemma.agent.amendments import cancels
    assert cancels(said)


@pytest.mark.parametrize("said", ["suspende la aspirina", "no le pongas la de 500, ponle 1 g",
                                  "ne lui donne pas plus de 3 g par jour"])
def test_a_drug_of_her_list_or_a_limit_is_no_cancel(said):
    from smart_docgemma.agent.amendments import cancels
    assert not cancels(said)


@pytest.mark.parametrize(("said", "vital", "value"), [
    ("destro 45 a las 3 am, registrar", "capillary glucose", 45),
    ("temp axilar 38.5 a las 4pm, anótala", "body temperature", 38.5),
    ("température axillaire 38,2 ce matin, note-la", "body temperature", 38.2),
])
def test_more_ward_words_of_readings(said, vital, value):
    from smart_docgemma.tools.words.ward_words import readings
    got = readings(said)
    assert got and got[0].vital == vital and got[0].values == (value,)


@pytest.mark.parametrize("said", [
    "20 SDG, ¿le doy ibuprofeno?", "primigesta de 30 semanas, AINE?",
    "28 semaines d'aménorrhée, kétoprofène ?", "idade gestacional 30 semanas, diclofenaco?",
])
def test_weeks_of_gestation_in_the_ward_words_say_pregnant(said):
    from smart_docgemma.reading.states import said_in
    assert said_in(said).get("pregnant")


@pytest.mark.parametrize("said", ["aménorrhée depuis 2 mois", "sa kaliémie ?", "SA 2 de la ward"])
def test_near_words_of_gestation_say_nothing(said):
    from smart_docgemma.reading.states import said_in
    assert not said_in(said).get("pregnant")


@pytest.mark.parametrize("said", [
    "su mamá tiene alergia a la penicilina?", "prescreve amoxicilina 500 de 8/8h pra acompanhante",
    "receta paracetamol 500 c/8h para la acompañante", "l'accompagnant a mal à la tête, paracétamol ?",
])
def test_her_mother_and_her_companion_are_someone_else(said):
    from smart_docgemma.reading.people import beside_people
    assert beside_people(said)


@pytest.mark.parametrize("said", [
    "paracetamol 500 c/8h, la acompañante está de acuerdo", "ibuprofeno 400 c/8h",
    "l'accompagnant dit qu'elle a mal, paracétamol ?",
])
def test_a_companion_beside_her_order_names_no_one_else(said):
    from smart_docgemma.reading.people import beside_people
    assert not beside_people(said)


@pytest.mark.parametrize("said", [
    "tgo tgp e coagulograma amanha 7h", "hemograma amanha 7h", "nfs iono demain 7h", "k as 7h",
    "hgt at 6h",
])
def test_a_clock_time_ahead_or_at_is_no_window_of_the_past(said):
    from smart_docgemma.tools.words.windows import _window
    assert _window(said) is None


@pytest.mark.parametrize(("said", "key"), [
    ("glicemias 24h", "24h"), ("media de glucemias 48h", "48h"), ("k 24h mean", "24h"),
    ("glucose chart 24h", "24h"),
])
def test_a_span_said_alone_is_still_the_window(said, key):
    from smart_docgemma.tools.words.windows import _window
    assert _window(said) == key


@pytest.mark.parametrize(("said", "tests"), [
    # "coagulograma": the INR and the aPTT (``lab_groups``)
    ("TGO TGP e coagulograma amanhã 7h", {"aspartate aminotransferase", "alanine aminotransferase",
                                          "inr", "aptt"}),
    ("ASAT ALAT demain matin", {"aspartate aminotransferase", "alanine aminotransferase"}),
    ("QS de 6 elementos y perfil de lípidos mañana 7am", {"basic metabolic panel", "lipid panel"}),
])
def test_the_liver_enzymes_one_by_one_and_the_lipid_profile(said, tests):
    assert set(lab_tests(said)) == tests


@pytest.mark.parametrize("said", ["I got the results tomorrow 7h", "what have we got tomorrow"])
def test_got_is_english(said):
    assert not {"alanine aminotransferase", "aspartate aminotransferase"} & set(lab_tests(said))


@pytest.mark.parametrize(("said", "per_day"), [
    ("x2 al dia", 2), ("2x al dia", 2), ("2 x al día", 2), ("x3 por dia", 3), ("x2 ao dia", 2),
    ("x2 par jour", 2), ("2x par jour", 2), ("1 vez al dia", 1), ("al dia", 1), ("par jour", 1),
])
def test_a_count_with_x_a_day_is_that_many_a_day(said, per_day):
    from smart_docgemma.tools.writes.orders import parse_timing
    assert parse_timing(said)["frequency"] == per_day


@pytest.mark.parametrize("said", ["metformina 850 mg x2 al día", "metformine 850 mg x2 par jour"])
def test_the_count_a_day_is_no_count_of_tablets(said):
    dose = read(said).entities.dose
    assert dose is not None and dose.written == "850 mg"


@pytest.mark.parametrize("said", ["mejor x3", "plutôt x2"])
def test_a_count_after_x_is_no_new_dose(said):
    from smart_docgemma.agent.amendments import _bare_dose
    from smart_docgemma.languages import fold
    assert _bare_dose(fold(said).lower()) is None
