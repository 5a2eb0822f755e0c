"""Rules from probe_ctx17 (twenty-second stop): a staff role before a name and a verb of saying
is the colleague reporting; a relative who tells ("contou", "cuenta", "raconte", "mentioned")
reports for the patient; her surname typed one letter off beside her own full birth date is
her."""
import pytest
from smart_docgemma.agent.extraction import find_names
from smart_docgemma.reading.people import beside_people, colleagues_asking
from smart_docgemma.reading.subject import misspelt_hers, subject_of
from smart_docgemma.tools.chart.in_context import InContext

ROBERT = InContext(name="Robert Mensah", id="pt-warfarin", mrn="MRN-100587", born="1950-09-30")
MARGARET = InContext(name="Margaret Thompson", id="pt-ckd-elder", mrn="MRN-100231",
                     born="1943-05-12")


# ------------------------------------------------------------------ role, name, verb of saying
@pytest.mark.parametrize(("text", "who"), [
    ("el residente Juan pregunta si puede seguir con el lisinopril", "Juan"),
    ("l'interne Paul demande si on peut lui donner de l'ibuprofène", "Paul"),
    ("a enfermeira Graça disse que ela está com dor, pode dipirona?", "Graca"),
    ("the pharmacist Victoria says her lisinopril should stop?", "Victoria"),
    ("la enfermera Pilar, de guardia, dice que tiene fiebre", "Pilar"),
    ("o interno Félix perguntou se pode ibuprofeno", "Felix"),
])
def test_a_role_before_a_name_and_a_verb_of_saying_is_the_colleague(text, who):
    assert who in colleagues_asking(text)
    assert not [n for n in find_names(text, []) if who.lower() in n.lower()
                or who.lower() in n.lower().replace("ç", "c").replace("é", "e")]


@pytest.mark.parametrize("text", [
    "the nurse Joy has a headache - can she have ibuprofen?",  # no verb of saying: about Joy
    "a enfermeira Rosa do leito 3, qual o potássio dela?",  # a bed after the name
    "la enfermera pregunta si Amparo puede tomar ibuprofeno",  # the verb before the name
    "l'interne demande pour Mme Diallo",  # no name after the role
])
def test_near_a_role_the_name_is_not_read_as_a_colleague(text):
    assert colleagues_asking(text) == [] or "Rosa" not in colleagues_asking(text)
    assert not {"Joy", "Amparo", "Diallo"} & set(colleagues_asking(text))


# ------------------------------------------------------------------ a relative who tells
@pytest.mark.parametrize("text", [
    "o marido dela contou que ela anda tomando ibuprofeno pra dor nas costas, pode?",
    "a filha dela comentou que ela toma chá de boldo, tem interação?",
    "su hija cuenta que toma naproxeno a escondidas, ¿hay problema?",
    "son fils raconte qu'il prend de l'ibuprofène en cachette",
    "her son mentioned she's been taking nurofen, is that ok?",
    "sa femme a mentionné qu'il prend de l'aspirine",
])
def test_a_relative_who_tells_reports_for_her(text):
    assert beside_people(text) == []


@pytest.mark.parametrize("text", [
    "o marido dela também toma varfarina? qual o INR dele?",  # asked of the husband
    "su hija toma naproxeno, ¿le puedo dar a ella también?",  # the relative takes it
    "her son is on warfarin too - what's his inr?",
])
def test_a_relative_who_does_not_tell_is_the_one_asked(text):
    assert beside_people(text) != []


# ------------------------------------------------------------------ a slip beside her birth date
@pytest.mark.parametrize("name", ["Mensa R", "R. Mensa", "Robert Mensa", "Mensha", "Robert Menssah"])
def test_her_surname_one_letter_off_is_a_slip(name):
    assert misspelt_hers(name, ROBERT)


@pytest.mark.parametrize("name", [
    "Roberta Mensah",  # a given name one letter off: a twin shares surname and birth date
    "Ruth Mensa",  # another given name
    "Mens R",  # two letters off
    "Mensah",  # hers exactly: is_own_name's, not a slip
    "Rob Mensa",  # a short form with a slip: asked back
])
def test_not_a_slip_of_her_surname(name):
    assert not misspelt_hers(name, ROBERT)


def test_a_slip_of_her_surname_is_her_only_with_her_birth_date():
    assert subject_of(("Mensa R",), (), "1950-09-30", ROBERT).about == "patient"
    assert subject_of(("Tompson M",), (), "1943-05-12", MARGARET).about == "patient"
    # no birth date, a year only, another birth date: someone else (or asked back)
    assert subject_of(("Mensa R",), (), None, ROBERT).about == "other"
    assert subject_of(("Mensa R",), (), "1950", ROBERT).about == "other"
    assert subject_of(("Mensa R",), (), "1951-09-30", ROBERT).about == "other"
    assert subject_of(("Roberta Mensah",), (), "1950-09-30", ROBERT).about == "other"


# ------------------------------------------------------------------ God in an exclamation
@pytest.mark.parametrize("text", [
    "graças a Deus a pressão baixou. e o potássio, como ficou?",
    "se Deus quiser ela vai pra casa amanhã, como está o INR?",
    "gracias a Dios ya no tiene fiebre, ¿y el potasio?",
    "Dieu merci la TA a baissé, et le potassium ?",
    "thank God her BP is down - K?",
])
def test_god_in_an_exclamation_is_no_one(text):
    assert find_names(text, []) == []


@pytest.mark.parametrize(("text", "who"), [
    ("don Jesús de la cama 3, ¿potasio?", "Jesus"),  # a given name, not a deity's word
    ("a dona Socorro do 12 ta com o potassio alto?", "Socorro"),
    ("seu Deusdete do leito 4, INR?", "Deusdete"),  # a name that begins like one
])
def test_near_an_exclamation_a_person_stays_named(text, who):
    assert who in find_names(text, [])
