"""MedAgentBench-style ward tasks as a second new Synthea seed (97) wrote them: a name typed in
lower case or in capitals before its birth date, a birth date whose day and month cannot be told
apart ("07/09/1986": both readings searched, never one guessed), her name without the digits a
generated chart adds, ward shorthand for her results ("mag", "BG (POC)", "age for id …"), a reorder
condition and a referral's text in French, Spanish and Portuguese. No model, no server: the agent
with recording tools."""
from __future__ import annotations

import pytest
from smart_docgemma.agent.extraction import extract, find_birth_dates
from smart_docgemma.agent.graph import Agent
from smart_docgemma.reading.ward import read_ward
from smart_docgemma.tools.base import ToolContext
from smart_docgemma.tools.chart.in_context import ChartInContext, InContext

from .conftest import FakeTool, ok
from .test_understanding import PATIENT_SCOPES, USER_SCOPES, _tools

ID = "9a45b7ec-0b16-dc01-2660-e8337c834e66"


def _search(message):
    tools = _tools()
    tools["search_patient"] = FakeTool("search_patient", ok("Beverley336 Mosciski958",
                                                            count=1, patients=[{"id": ID}]))
    ctx = ToolContext(patient_id=None, scopes=USER_SCOPES)
    Agent(None, {n: f.tool() for n, f in tools.items()}, ctx).run(message)
    return {n: f.calls for n, f in tools.items() if f.calls}


@pytest.mark.parametrize("said, readings", [
    ("dob 07/09/1986", ("1986-07-09", "1986-09-07")),  # English: month or day first, both
    ("born 12/21/1970", ("1970-12-21",)),  # a number over 12 is the day
    ("dob 21/12/1970", ("1970-12-21",)),
    ("née le 07/09/1986", ("1986-09-07",)),  # French, Portuguese, Spanish: the day first
    ("fecha de nacimiento 03/04/1961", ("1961-04-03",)),
    ("data de nascimento 05/05/1950", ("1950-05-05",)),
    ("DOB 21 Dec 1970", ("1970-12-21",)),
    ("dob 13/13/1970", ()),  # no date
])
def test_every_reading_of_a_birth_date_and_only_those(said, readings):
    assert find_birth_dates(said) == readings
    assert extract(said).birth_date == (readings[0] if len(readings) == 1 else None)


@pytest.mark.parametrize("message, name, born", [
    ("mrn for beverley mosciski dob 07/09/1986", "beverley mosciski", "1986-07-09,1986-09-07"),
    ("patient lookup: beverley mosciski, dob 1986-07-09", "beverley mosciski", "1986-07-09"),
    ("MRN for Beverley Mosciski DOB 9 Jul 1986", "Beverley Mosciski", "1986-07-09"),
])
def test_a_name_in_any_case_with_its_birth_date_is_searched_with_every_reading(message, name, born):
    calls = _search(message)
    assert list(calls) == ["search_patient"], calls
    assert calls["search_patient"][0] == {"name": name, "birth_date": born}


@pytest.mark.parametrize("message", [
    "please confirm identity dob 1980-01-01", "check his dob", "pt name and dob verified",
])
def test_words_about_identifying_someone_before_a_birth_date_name_no_one(message):
    assert extract(message).patient_names == ()


def test_a_name_in_capitals_surname_first_is_searched_never_read_as_an_id():
    found = extract("Need MRN: LIND531, NANCEE600 dob 1990-11-30")
    assert found.patient_names == ("NANCEE600 LIND531",) and found.patient_ids == ()
    assert extract("CBC, BMP DOB 1990-11-30").patient_names == ()  # the vocabulary is no name


OWN_ID = "3dd536ab-c76f-8315-b3ad-9aca00b12cdb"
OWN = (f"Monet875 Diann220 Wisoky380, 64 y female, born 1962-01-26, MRN {OWN_ID}; problems: none; "
       "meds: none; allergies: none recorded")
# the same chart typed, as the chart read gives it with its brief
OWN_CHART = ChartInContext(InContext("Monet875 Diann220 Wisoky380", OWN_ID, OWN_ID, "1962-01-26"),
                           sex="female", age=64)


def _chart(message):
    tools = _tools()
    tools["apply_protocol"] = FakeTool("apply_protocol", ok("The last HbA1c is …", count=1))
    ctx = ToolContext(patient_id=OWN_ID, scopes=PATIENT_SCOPES)
    turn = Agent(None, {n: f.tool() for n, f in tools.items()}, ctx).run(
        message, chart_summary=OWN, chart=OWN_CHART)
    return turn, {n: f.calls for n, f in tools.items() if f.calls}


@pytest.mark.parametrize("message, focus", [
    ("how old is Monet Wisoky (dob 26 Jan 1962)?", "age"),  # her name without the digits
    (f"age for id {OWN_ID}", "age"),
    (f"latest mag since yesterday for pt {OWN_ID}", "lab:Magnesium"),
    ("average BG (POC) over the last 2 days", "lab:Capillary glucose"),
    ("last bsl?", "lab:Glucose"),
])
def test_her_chart_answers_shorthand_and_her_name_without_generated_digits(message, focus):
    turn, calls = _chart(message)
    assert set(calls) == {"get_patient_chart"}, calls
    assert calls["get_patient_chart"][0]["focus"] == focus
    assert "this chart only" not in turn.answer


def test_a_namesake_without_the_digits_but_another_birth_date_is_still_refused():
    turn, calls = _chart("how old is Monet Wisoky (dob 27 Jan 1962)?")
    assert calls == {} and "this chart only" in turn.answer


@pytest.mark.parametrize("message, days", [
    ("Dernière HbA1c et sa date ? Si elle date de plus d'un an, en redemander une", 365),
    ("última HbA1c? pedir una nueva si tiene más de un año", 365),
    ("HbA1c: pedir um novo se tiver mais de 6 meses", 180),
])
def test_a_reorder_condition_in_french_spanish_portuguese_applies_the_protocol(message, days):
    _, calls = _chart(message)
    assert list(calls) == ["apply_protocol"], calls  # never an unconditional lab order
    assert calls["apply_protocol"][0]["older_than_days"] == days


def test_a_spanish_referral_carries_its_sbar_text_verbatim():
    text = ("Situación: dolor de rodilla tras una caída. Recomendación: valoración por cirugía "
            "ortopédica.")
    found = read_ward(f"Derivación a cirugía ortopédica para esta paciente. Texto libre: {text}")
    assert found.specialties == ("orthopedic surgery",) and found.referral_note == text


@pytest.mark.parametrize("message, action", [
    ("Mg within 24 hrs for MRN 23cd81fe-3afd-d7d3-f22b-449d9e5fbe22", "chart_question"),
    ("serum Mg past 24h", "chart_question"),  # results already taken: asked, never ordered
    ("bmp + mg in am", "order_lab"),  # a time ahead: an order
    ("NFS + iono demain à 7h", "order_lab"),
    ("hemograma amanhã às 8h", "order_lab"),
])
def test_a_bare_test_with_a_past_window_is_asked_and_with_a_time_ahead_is_ordered(message, action):
    found = set(extract(message).actions) & {"chart_question", "order_lab"}
    assert found == {action}


@pytest.mark.parametrize("message, name, born", [
    ("Can u look up the MRN for katelynn stehr? DOB 16-Aug-1932", "katelynn stehr", "1932-08-16"),
    ("¿me das el número de historia de Beverley Mosciski? nacida el 9/7/1986", "Beverley Mosciski",
     "1986-07-09"),  # the record's number asked: the lookup alone, never her chart
])
def test_the_mrn_asked_after_a_question_mark_or_in_spanish_is_the_lookup_alone(message, name, born):
    calls = _search(message)
    assert list(calls) == ["search_patient"], calls
    assert calls["search_patient"][0] == {"name": name, "birth_date": born}


def test_her_id_as_patient_slash_id_then_age_asks_her_age():
    _, calls = _chart(f"Patient/{OWN_ID} age")
    assert calls == {"get_patient_chart": [{"patient_id": OWN_ID, "focus": "age"}]}


def test_orientar_refers_in_portuguese():
    found = read_ward("orientar para ortopedia - Situação: fratura do punho. Recomendação: cirurgia.")
    assert found.specialties == ("orthopedic surgery",) and found.referral_words
    assert found.referral_note == "Situação: fratura do punho. Recomendação: cirurgia."


def test_an_elision_is_no_quote_in_a_french_referral():
    text = ("Situation : douleur de l'épaule droite depuis 3 mois. Contexte : rupture de la coiffe à "
            "l'IRM. Recommandation : avis chirurgical orthopédique.")
    found = read_ward(f"Adresser en chirurgie orthopédique. {text}")
    assert found.specialties == ("orthopedic surgery",) and found.referral_note == text
