"""What the fifteenth blind French/Portuguese/Spanish set (probe15_intl) found read wrongly, read
rightly, each rule beside the near-words it must not catch: a verb the Spanish word list lacks
opening a clause ("Pensaba en ibuprofeno") is no person; the order verbs of the imperative, the
impersonal and the near future ("mets-lui …", "se inicia …", "vou prescrever …") order; a
colleague's wish reported ("el residente quiere iniciar …") asks; "1-0-1" is twice a day; a
result going past a number ("se a INR passar de 3") orders nothing; the report to the general
practitioner and the summary for the night team are drafts; a drug put in a pending draft without
a dose is the draft's; a plan asked for her problems as a whole plans the raised value her chart
holds."""
from __future__ import annotations

import pytest
from smart_docgemma.agent.extraction import read
from smart_docgemma.languages import frequency
from smart_docgemma.reading.request import Kind
from smart_docgemma.reading.unknown_words import verb_form
from smart_docgemma.tools.writes import drafts

from ..support.fixture_charts import chart

CKD = chart("01-ckd-elder.json")
PEN = chart("03-penicillin-allergy.json")


@pytest.mark.parametrize("message, names", [
    ("¿Algo para el dolor? Pensaba en ibuprofeno", ()),
    ("Creo que ibuprofeno", ()),
    ("Planeaba iniciar naproxeno", ()),
    ("Agregamos ibuprofeno?", ()),
    # near-words: a first name alone stays a person ("Amara" is "amar" + "a", "Ramos" too short)
    ("et Amara, elle prend quoi ?", ("Amara",)),
    ("e a Fatima, INR?", ("Fatima",)),
    ("y Ramos?", ("Ramos",)),
    ("Creo, potasio?", ("Creo",)),
])
def test_a_verb_the_word_lists_lack_is_no_person(message, names):
    assert read(message).entities.patient_names == names


def test_a_verb_form_needs_its_ending_and_a_stem_whose_infinitive_is_a_word():
    assert verb_form("Pensaba") and verb_form("Creo", "que")
    assert not verb_form("Creo") and not verb_form("Amara") and not verb_form("Marta")


@pytest.mark.parametrize("message", [
    "mets-lui du kétoprofène 100 mg matin et soir",
    "on va mettre de l'amoxicilline-acide clavulanique 1 g 3 fois par jour",
    "je vais rajouter de la spironolactone 25 mg/j",
    "Prescreve ibuprofeno 600 de 8/8h pra ele",
    "É iniciado losartana 50 mg 1x/dia",
    "Agrégale naproxeno 500 c/12h",
    "Se inicia amoxicilina 500 mg c/8h por 7 días",
    "voy a agregar ibuprofeno 400 c/8h",
    "co-amoxiclav 875 mg 1-0-1 pendant 5 jours",
    "dose única de ceftriaxona 1 g IM",
])
def test_the_imperative_impersonal_and_near_future_order(message):
    said = read(message)
    assert said.kind == Kind.ORDER and "give" not in said.entities.actions


@pytest.mark.parametrize("message", [
    "El residente quiere iniciar propranolol",
    "o residente quer iniciar diclofenaco na dona Margaret, pode?",
    "Doctora, ¿al niño se le puede indicar aspirina para la fiebre?",
    "l'interne veut mettre du kétoprofène",
    # near-words: the first person with a question mark asks as before
    "je mets du kétoprofène ?",
])
def test_a_wish_reported_asks_whether_she_may_have_it(message):
    assert "give" in read(message).entities.actions


@pytest.mark.parametrize("message", [
    "se a INR passar de 3 suspendo a varfarina sódica?",
    "si el potasio pasa de 5,5 ¿suspendemos el enalapril?",
])
def test_a_result_going_past_a_number_orders_nothing(message):
    said = read(message)
    assert said.kind != Kind.ORDER and "prescribe_drug" not in said.entities.actions


def test_a_switch_said_with_passing_still_orders():
    said = read("passar de amoxicilina para azitromicina 500 mg 1x/dia")
    assert said.kind == Kind.ORDER


@pytest.mark.parametrize("written, per_day", [
    ("1-0-1", 2.0), ("metformina 850 1-0-1", 2.0), ("1-1-1", 3.0), ("1-1-1-1", 4.0),
    ("0-0-1", 1.0), ("amlodipino 10 mg en la mañana", 1.0), ("todas las mañanas", 1.0),
    # near-words: a date and a number that is no schema
    ("2026-10-01", None), ("10-0-1", None),
])
def test_the_days_schema_is_a_count_a_day(written, per_day):
    assert frequency.per_day(written) == per_day


@pytest.mark.parametrize("message, kind", [
    ("relatório para o clínico geral, por favor", "discharge"),
    ("relatório de alta", "discharge"),
    ("resumen para la guardia", "handoff"),
    ("resumo para o plantão", "handoff"),
    # near-words: a report asked to be read, a summary of a result
    ("resumen del potasio", None),
])
def test_the_report_to_the_gp_and_the_summary_for_the_night_team_are_drafts(message, kind):
    assert drafts.request_kind(message) == kind


@pytest.mark.parametrize("message, problem", [
    ("liste des problèmes + conduite à tenir", "high_potassium"),
    ("problem list + plan", "high_potassium"),
    # near-words: a plan for a problem no plan covers, a plan asked with no problem list
    ("asthma plan", None),
    ("plan?", None),
])
def test_a_whole_plan_plans_the_raised_value_her_chart_holds(message, problem):
    said = read(message, chart=CKD.in_context)
    assert said.workflow.problem == problem


def test_no_raised_value_no_problem_planned():
    said = read("problem list + plan", chart=PEN.in_context)
    assert said.workflow.problem is None


@pytest.mark.parametrize("message, names", [
    ("Indícale ciprofloxacino 500 c/12h x 7 días", ()),
    ("Hazme la nota de traspaso para la noche", ()),
    ("Súbele la metformina", ()),
    # near-words: names of the same shape without the accent or without such a verb
    ("y Estela, toma warfarina?", ("Estela",)),
    ("y Ángela?", ("Angela",)),
])
def test_an_imperative_with_its_pronoun_is_no_person(message, names):
    assert read(message).entities.patient_names == names


@pytest.mark.parametrize("message, beside", [
    ("Paracetamol 1 g c/8h, igual que al de la cama 4", ()),
    ("comme pour le lit 6, amoxicilline 1 g x3/j", ()),
    ("sa fille prend de l'ibuprofène, elle peut en prendre aussi ?", ()),
    ("o marido dela toma losartana, ela pode tomar igual?", ()),
    # near-words: a bed asked about, a relative asked about
    ("y la de la cama 4, su potasio?", ("cama 4",)),
    ("sa fille prend de l'ibuprofène, elle a quel âge ?", ("fille",)),
])
def test_a_bed_compared_or_a_relatives_medicine_asked_for_her_is_hers(message, beside):
    from smart_docgemma.reading.people import beside_people

    assert tuple(beside_people(message)) == beside


@pytest.mark.parametrize("message, kind", [
    ("synthèse pour le collègue de nuit", "handoff"),
    ("Hazme la nota de traspaso para la noche", "handoff"),
])
def test_the_night_colleagues_summary_is_a_handoff(message, kind):
    assert drafts.request_kind(message) == kind
