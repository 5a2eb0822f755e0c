"""probe33_intl's rules, each with near words that must not trigger: the idiom of taking stock
("tu me fais le point sur ses médicaments") orders no test its verb also orders; a number dictated
with its decimal point in words ("três vírgula um") is one value; "tira o AAS" stops the drug;
"pico febril" asks the temperatures; "à 14h" is a clock, never a 14-hour window; readings told
with a plan asked are said back, not recorded; a stop said by a class is her member's; a capital
word after a class and a word of example ("un AINE tipo Naxen") is a drug, never a person; "qué
fármacos lleva" asks her list; "hemo" is the blood count; "às 7:" before a list times it; a result
told with its plan asked ("magnesio 0,5 mmol/L ..., ¿qué hacemos?") asks its protocol."""
from __future__ import annotations

from dataclasses import replace

import pytest
from smart_docgemma.agent import nodes
from smart_docgemma.agent.extraction import _class_stopped_as_hers, read
from smart_docgemma.agent.state import Turn
from smart_docgemma.agent.ward_requests import actions, workflow_of
from smart_docgemma.reading.numbers import in_digits
from smart_docgemma.reading.ward import read_ward
from smart_docgemma.tools.chart.answers import chart_focus
from smart_docgemma.tools.chart.in_context import ChartInContext, Medication
from smart_docgemma.tools.words import when
from smart_docgemma.tools.words.said_numbers import decimals_in_digits
from smart_docgemma.tools.words.ward_words import readings
from smart_docgemma.tools.words.windows import asked


@pytest.mark.parametrize("said", [
    "euh tu me fais le point sur ses medicaments ? ca colle avec son INR ?",  # p33-fr-1
    "fais-moi le point sur son INR",
    "faites le point sur la kaliémie",
    "faz um ponto da situação do INR dele",
])
def test_the_idiom_of_taking_stock_orders_no_test(said):
    assert read_ward(said).order_words is False


@pytest.mark.parametrize("said", [
    "fais-moi un INR demain matin",
    "tu me fais une NFS demain",
    "fazer um hemograma amanhã",
    "fais le bilan demain 7h",
])
def test_near_words_the_verb_with_a_test_still_orders(said):
    assert read_ward(said).order_words is True


@pytest.mark.parametrize(("said", "read_as"), [
    ("potássio três vírgula um no controle de hoje cedo", "potássio 3.1 no controle de hoje cedo"),
    ("magnésium zéro virgule cinq ce matin", "magnésium 0.5 ce matin"),
    ("Mg cero coma cuarenta y cinco", "Mg 0.45"),
    ("INR tres coma dos", "INR 3.2"),
    ("creat one point four", "creat 1.4"),
    ("cero coma cero cinco", "0.05"),
])
def test_a_number_dictated_with_its_decimal_point_is_one_value(said, read_as):
    assert decimals_in_digits(said) == read_as


@pytest.mark.parametrize("said", [
    "estuvo en coma",                # no number before the point's word
    "um ponto de sutura",            # a stitch
    "dois pontos",                   # plural, no number after
    "K três, vírgula",               # the comma typed stands between
    "trois virgule",                 # no number after
])
def test_near_words_a_coma_a_stitch_or_a_lone_point_stay_as_written(said):
    assert decimals_in_digits(said) == said


def test_the_decimal_reaches_the_turns_reading_as_a_result_told_alone():
    said = read("potássio três vírgula um no controle de hoje cedo")  # p33-pt-14
    assert "protocol" in said.entities.actions and "order_lab" not in said.entities.actions
    assert in_digits("temperatura treinta y ocho coma siete a las 2") == "temperatura 38.7 a las 2"


def test_a_glucose_dictated_with_its_decimal_reaches_the_vital_sign_reader():
    [found] = readings("glicemia zero vírgula cinco g/L às 4h, anota")
    assert found.values and found.said.startswith("0.5")


@pytest.mark.parametrize(("said", "drug"), [
    ("tira o AAS, o INR ta 3,4", "aspirin"),           # p33-pt-11
    ("tire a metformina dele", "metformin"),
])
def test_tira_takes_the_drug_off_her_list(said, drug):
    assert workflow_of(said).stop == drug


@pytest.mark.parametrize("said", [
    "tira a pressão dela às 6h",      # measure her pressure: no drug
    "tira o AAS?",                    # asked
    "tira uma foto da ferida",
])
def test_near_words_tira_with_no_drug_or_asked_stops_nothing(said):
    assert workflow_of(said).stop is None


@pytest.mark.parametrize("said", [
    "pico febril nas últimas 24 horas?",     # p33-pt-16
    "pico febril desde ontem",
    "picos febriles en las últimas 48 horas",
])
def test_the_febrile_peak_asks_the_temperatures(said):
    assert chart_focus(said) == "lab:Temperature"


@pytest.mark.parametrize("said", [
    "está febril, posso dar dipirona?",      # no window, a drug asked
    "picos de glicemia nas últimas 24h",     # the glucose's peaks
])
def test_near_words_fever_with_no_series_or_another_peak_is_no_temperature_series(said):
    assert chart_focus(said) != "lab:Temperature"


@pytest.mark.parametrize("said", ["TA 9/5, FC 120 à 14h, que faire ?", "pouls 110 à 6h, que faire ?"])
def test_an_hour_after_the_french_a_is_a_clock_never_a_window(said):
    assert asked(said).window is None


@pytest.mark.parametrize(("said", "window"), [
    ("sa kaliémie d'il y a 6h ?", "6h"),   # six hours ago: a span
    ("K sur 24h ?", "24h"),
    ("kaliémie max à 48h ?", "48h"),      # no hour of the day: the span
])
def test_near_words_a_span_ago_or_over_stays_a_window(said, window):
    assert asked(said).window == window


def _turn(message: str) -> Turn:
    said = read(message)
    return Turn(message=message, entities=said.entities, request=said, patient_id="p1")


def test_readings_told_with_a_plan_asked_are_said_back_not_recorded():
    [line] = nodes._readings_told(_turn("TA 9/5, FC 120 à 14h, que faire ?"))  # p33-fr-13
    assert "90/50 mmHg (written 9/5 cmHg)" in line and "120" in line and "14:00" in line
    assert "Not recorded" in line
    [line] = nodes._readings_told(_turn("BP 90/50, HR 120 - what do I do?"))
    assert "90/50" in line and " at " not in line.split(":")[0]


@pytest.mark.parametrize("said", [
    "TA 9/5, FC 120 à 14h, note-les",        # recorded: the card says them
    "TA 9/5 FC 120",                         # bare readings: charted by a card
    "K 6.1 - what do I do?",                 # a result, no vital sign
])
def test_near_words_readings_recorded_or_a_result_are_not_said_back(said):
    assert nodes._readings_told(_turn(said)) == []


def _on(*drugs: str) -> ChartInContext:
    return ChartInContext(medications=tuple(Medication(text=d, names=(d,)) for d in drugs))


def test_a_class_stopped_is_her_one_member():
    flow = workflow_of("suspender o IECA, tá grávida de 20 semanas")  # p33-pt-12
    hers = _on("lisinopril")
    assert _class_stopped_as_hers(flow, hers).stop == "lisinopril"


def test_near_words_a_class_with_none_or_two_of_hers_or_a_drug_stays_as_said():
    flow = workflow_of("suspende el AINE")
    assert _class_stopped_as_hers(flow, _on("amlodipine")).stop == flow.stop
    two = _on("lisinopril", "enalapril")
    ace = workflow_of("suspender o IECA")
    assert _class_stopped_as_hers(ace, two).stop == ace.stop
    aspirin = workflow_of("arrête l'aspirine")
    assert _class_stopped_as_hers(aspirin, _on("aspirin")).stop == "aspirin"
    assert _class_stopped_as_hers(replace(aspirin, stop=None), two).stop is None


@pytest.mark.parametrize("said", [
    "para la ciática, ¿le puedo dar un AINE tipo Naxen?",   # p33-es-4
    "para la ciática, ¿le puedo dar un AINE tipo Zorbax?",  # a brand no vocabulary holds
    "un AINS genre Zorbax ?",
    "an NSAID like Zorbax?",
])
def test_a_capital_word_after_a_class_and_a_word_of_example_is_no_person(said):
    assert read(said).entities.patient_names == ()


@pytest.mark.parametrize(("said", "name"), [
    ("y el paciente tipo Zorbax?", "Zorbax"),   # no drug before the word of example
    ("¿cuánto pesa Kofi?", "Kofi"),
])
def test_near_words_a_name_with_no_drug_before_the_example_is_still_a_person(said, name):
    assert name in read(said).entities.patient_names


def test_naxen_is_naproxen():
    assert read("¿y un Naxen para la ciática?").entities.drugs == ("naproxen",)


def test_what_drugs_she_is_on_in_spain_asks_her_list():
    said = read("¿qué fármacos lleva ahora?")  # p33-es-2
    assert said.focus == "medications" and "chart_question" in said.entities.actions


def test_near_words_lleva_of_days_asks_no_list():
    assert read("lleva 3 días con fiebre, ¿qué hago?").focus != "medications"


def test_hemo_is_the_blood_count_and_a_colon_after_the_hour_times_the_list():
    ward = read_ward("laboratório amanhã às 7: hemo, função renal e K")  # p33-pt-15
    assert ward.tests[0] == "complete blood count" and not ward.unread_tests
    said = when.parse("amanha as 7: hemo, funcao renal e k", "UTC")
    assert said.at is not None and (said.at.hour, said.at.minute) == (7, 0)


@pytest.mark.parametrize(("said", "minutes"), [
    ("at 7:30 tomorrow", 30),    # the minutes after the colon
    ("tomorrow at 7:", 0),
])
def test_near_words_a_clock_with_its_minutes_keeps_them(said, minutes):
    at = when.parse(said, "UTC").at
    assert at is not None and at.minute == minutes


@pytest.mark.parametrize("said", ["hemocultura amanhã", "hemoglobina amanhã"])
def test_near_words_hemo_inside_a_word_is_no_blood_count(said):
    assert "complete blood count" not in read_ward(said).tests


@pytest.mark.parametrize("said", [
    "magnesio 0,5 mmol/L en la analítica de hoy, ¿qué hacemos?",   # p33-es-16
    "Mg 0.5 - what to do?",
    "magnésium à 0,5 ce matin, que faire ?",
])
def test_a_result_told_with_its_plan_asked_asks_its_protocol(said):
    assert "protocol" in actions(said)


@pytest.mark.parametrize("said", [
    "Mg 0.5 in the last 24h?",              # a window asked, no value told
    "magnesio en las últimas 24 horas, ¿qué hacemos?",
])
def test_near_words_a_window_asked_is_no_result_told(said):
    assert workflow_of(said).protocol_value is None


# ---- from the walk after the set

def test_nimesulide_and_the_nsaids_no_us_class_holds_are_nsaids():
    from smart_docgemma.knowledge import classes

    for drug in ("nimesulide", "aceclofenac", "lornoxicam"):
        assert "nsaid" in classes.of(drug)
    assert "nsaid" not in classes.of("nitrofurantoin")  # a near name, no NSAID


@pytest.mark.parametrize(("said", "drug"), [
    ("retira o AAS dele", "aspirin"),
    ("retire l'aspirine", "aspirin"),
])
def test_the_verb_of_taking_back_names_a_stop_of_her_drug(said, drug):
    # with no card pending the stop is drafted (agent/nodes: the cancel refused only when a card
    # is pending); "cancela a furosemida" names no stop, so nothing pending is said instead
    assert workflow_of(said).stop == drug


def test_near_words_a_cancel_only_verb_names_no_stop():
    assert workflow_of("cancela a furosemida").stop is None
    assert workflow_of("retira o AAS?").stop is None


@pytest.mark.parametrize("said", [
    "potasio de tres coma dos en la analítica de las 6",
    "potássio 3,1 na coleta das 6h",
    "K 3,1 no exame das 5",
])
def test_a_result_told_with_the_clock_of_its_sample_asks_its_protocol(said):
    assert "protocol" in read(said).entities.actions


@pytest.mark.parametrize("said", [
    "potasio de 3,2 en la analítica de las 6?",   # asked
    "potasio en la analítica de las 6",           # no value told
])
def test_near_words_asked_or_no_value_is_no_result_told(said):
    assert "protocol" not in read(said).entities.actions


@pytest.mark.parametrize("said", [
    "HGT 38 agora, tô fazendo glicose, o que mais?",
    "glucemia 40, ya le di glucosa, ¿qué más?",
    "dextro 0,4 g/L, resucré, quoi d'autre ?",
])
def test_what_else_to_do_after_a_reading_told_asks_a_plan_and_says_it_back(said):
    turn = _turn(said)
    assert read(said).workflow.plan_asked
    [line] = nodes._readings_told(turn)
    assert "capillary glucose" in line and "Not recorded" in line


@pytest.mark.parametrize("said", [
    "o que mais ela toma?",                          # what else she takes: her list
    "elle prend quoi d autre comme traitement ?",
    "¿qué más medicamentos toma?",
])
def test_near_words_what_else_she_takes_asks_no_plan(said):
    assert not read(said).workflow.plan_asked


@pytest.mark.parametrize("said", [
    "FC 48 a las 7, la registras?",
    "TA 18/10 à 8h, tu la notes ?",
    "TA 18/10 et FC 90, tu les notes ?",
])
def test_a_reading_asked_to_be_recorded_in_the_second_person_is_recorded(said):
    assert "record_vital" in read(said).entities.actions


@pytest.mark.parametrize("said", [
    "voir les notes du soir, TA 18/10 ?",     # the notes, a noun
    "TA 18/10 à 8h, elle est haute ?",        # asked of the value
])
def test_near_words_notes_as_a_noun_or_a_question_records_nothing(said):
    assert "record_vital" not in read(said).entities.actions


@pytest.mark.parametrize(("said", "drug"), [
    ("Oracilline pour son angine, ok ?", "penicillin v"),   # never oxacillin
    ("Extencilline pour la syphilis ?", "penicillin g"),
    ("oxacilline ?", "oxacillin"),
])
def test_french_penicillin_brands_are_their_penicillin(said, drug):
    assert read(said).entities.drugs == (drug,)


@pytest.mark.parametrize(("said", "named"), [
    ("deixa, mantém o AAS", ("AAS",)),              # the pending stop's drug by name
    ("melhor não, deixa ele com o AAS", ("AAS",)),
    ("non finalement on la laisse", ()),
    ("mejor déjasela", ()),
    ("deixa", ()),
])
def test_keeping_the_drug_a_pending_stop_stops_takes_the_stop_back(said, named):
    from smart_docgemma.agent.amendments import keeps_the_drug

    assert keeps_the_drug(said, named)


@pytest.mark.parametrize(("said", "named"), [
    ("mantém a varfarina", ()),                     # another drug, not the stop's
    ("deixa ele sem o AAS", ("AAS",)),              # left without it: the stop confirmed
    ("deixa, mantém o AAS", ()),                    # the drug named is not the card's
])
def test_near_words_another_drug_or_without_it_keeps_the_stop(said, named):
    from smart_docgemma.agent.amendments import keeps_the_drug

    assert not keeps_the_drug(said, named)


@pytest.mark.parametrize(("said", "name"), [
    ("et Jean-Pierre, son INR ?", "Jean-Pierre"),     # a hyphenated first name, a comma
    ("et Jean-Pierre son INR ?", "Jean-Pierre"),
    ("y Samuel, su glucosa", "Samuel"),
])
def test_a_first_name_after_and_before_a_possessive_is_a_person_with_a_comma_between(said, name):
    assert name in read(said).entities.patient_names


@pytest.mark.parametrize("said", [
    "et Kardégic, son dosage ?",                       # a drug, no person
    "je peux lui mettre du Bi-Profénid pour son arthrose ?",   # a brand with its hyphen
])
def test_near_words_a_drug_in_the_names_place_is_no_person(said):
    assert read(said).entities.patient_names == ()


def test_a_brand_written_with_its_hyphen_is_its_drug():
    assert read("je peux lui mettre du Bi-Profénid pour son arthrose ?").entities.drugs == (
        "ketoprofen",)


@pytest.mark.parametrize(("said", "who"), [
    ("su hermanito tiene otitis también, ¿le doy amoxicilina?", "hermanito"),
    ("o irmãozinho dele tá com febre, posso dar dipirona?", "irmaozinho"),
])
def test_a_relative_said_with_a_diminutive_is_another_person(said, who):
    subject = read(said).subject
    assert subject.about == "other" and who in subject.others


@pytest.mark.parametrize("said", [
    "amoxicilina para el niño, ¿cuánto le doy?",      # the child in context
    "hermano, ¿le doy amoxicilina?",                   # a colleague addressed, no possessive
])
def test_near_words_the_child_in_context_or_a_word_of_address_is_her(said):
    assert read(said).subject.about == "patient"


@pytest.mark.parametrize("said", [
    "la créatinine est à un virgule huit ce matin",
    "la créatinine est à 1,8 ce matin",
    "hb 9,2 ce matin",
    "creatinina em 1,9 hoje",
])
def test_a_test_told_with_its_value_is_a_result_never_an_order(said):
    assert "order_lab" not in actions(in_digits(said))


@pytest.mark.parametrize("said", [
    "NFS + iono demain à 7h",               # the hour, no value
    "iono, créat demain 6h30",
    "INR demain matin, cible 2-3",          # a target after another word
    "hemograma amanhã às 6, 2 tubos",
    "bilan demain 7h : NFS, iono, urée-créat",
    "U&E at 0600 tomorrow",                 # a four-figure clock
    "lfts, inr and crp at 0700 tomorrow",
    "NFS à 7 demain",                       # a whole hour after its word
])
def test_near_words_a_time_or_a_target_after_a_test_still_orders(said):
    assert "order_lab" in actions(in_digits(said))


@pytest.mark.parametrize(("said", "value"), [
    ("glucemia de uno coma dos gramos a las 7", 120.0),   # grams a litre, never mmol/L
    ("glycémie 1,2 g à 7h", 120.0),
    ("glycémie 0,55 g/l à 3h", 55.0),
    ("BM 6.2", 111.7),                                    # mmol/L, as before
])
def test_a_glucose_in_grams_is_grams_a_litre(said, value):
    [found] = readings(in_digits(said))
    assert found.values == (value,)


@pytest.mark.parametrize(("said", "value"), [
    ("o INR veio 4,2, e agora?", 4.2),
    ("INR deu 3,8", 3.8),
    ("o INR veio em 2 dias", None),          # a time ahead, no value
])
def test_a_value_said_to_have_come_back_is_stated(said, value):
    assert workflow_of(said).stated_value == value


@pytest.mark.parametrize(("said", "frequency", "duration"), [
    ("metformina 1 g de 12/12", "de 12/12", None),         # every 12 hours, never 12 months
    ("amox 500 de 12/12 por 7 dias", "de 12/12", "7 days"),
    ("amoxicilina 500 mg de 8/8", "de 8/8", None),
])
def test_the_brazilian_interval_with_a_slash_and_no_unit_is_every_n_hours(said, frequency, duration):
    dose = read(said).entities.dose
    assert dose is not None and dose.frequency == frequency and dose.duration == duration


@pytest.mark.parametrize(("said", "duration"), [
    ("metformin 500 bd for 12/12", "12 months"),    # the ward's months after "for"
    ("nocte 6/12", "6 months"),
    ("bd 3/7", "3 days"),
])
def test_near_words_the_wards_fraction_of_a_year_stays_a_duration(said, duration):
    dose = read(said).entities.dose
    assert dose is not None and dose.duration == duration


@pytest.mark.parametrize("said", ["anule tudo", "anule isso", "cancele todo"])
def test_the_polite_imperative_cancels_the_pending_card(said):
    from smart_docgemma.agent.amendments import cancels

    assert cancels(said)


def test_near_words_a_polite_cancel_naming_a_drug_is_no_bare_cancel():
    from smart_docgemma.agent.amendments import cancels

    assert not cancels("anule o AAS")


@pytest.mark.parametrize("said", ["o RNI dele?", "¿el RIN de hoy?"])
def test_the_inr_by_its_portuguese_and_spanish_initials(said):
    assert read(said).focus == "lab:INR"
