"""The rules the seed-173 ward set (``smart_docgemma/evaluation/medagentbench_seed173.yaml``)
found missing, without a server: an id typed in part ("pt 8cd61d7a") is an id — hers only when
it is the first groups of her own; a write taken back in other words ("deixa, não registar",
"scratch that", "on second thoughts, don't"); a vital sign asked to be recorded with no value
("I'd like to record a blood pressure") asks for its reading; a note given after a referral
("add a note: …") is that referral's text; a question about a result pointing back at what was
just said ("what K was that based on?") reads her chart. The whole loop against HAPI is
``tests/synthea/test_medagentbench_seeds.py``."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from smart_docgemma.agent import amendments
from smart_docgemma.agent.extraction import find_patient_ids, read
from smart_docgemma.reading.subject import is_own_id, subject_of, without_identifiers
from smart_docgemma.reading.ward import read_ward
from smart_docgemma.tools.chart.in_context import InContext

HERS = "330f6d34-ac8b-a574-65dc-58fd0bac3957"
HERE = InContext(id=HERS, mrn=HERS, name="Julieann172 Sadie426 Bednar518", born="1943-10-26")


@pytest.mark.parametrize(("said", "ids"), [
    ("how old is pt 8cd61d7a?", ["8cd61d7a"]),
    ("Mg past 24 h for pt 330f6d34-ac8b?", ["330f6d34-ac8b"]),
    ("last CBG paciente 59bca4a4", ["59bca4a4"]),
    ("K for 330f6d34-ac8b-a574?", ["330f6d34-ac8b-a574"]),
    ("age? patient 3ec5a571-b369-cb1e-00b7-11f1043c9f49", ["3ec5a571-b369-cb1e-00b7-11f1043c9f49"]),
    ("pt 8cd61d7a-ed20-aa96-0c80-77dac80fd528 K?", ["8cd61d7a-ed20-aa96-0c80-77dac80fd528"]),
    ("drawn 20261205-1430, K 3.4", []),  # a time stamp, no letter: not an id
    ("patient deadbeef", []),  # no digit: a word
])
def test_an_id_typed_in_part_is_an_id(said, ids):
    assert find_patient_ids(said) == ids


def test_her_own_id_in_part_is_her_and_any_other_part_is_someone_else():
    assert is_own_id("330f6d34", HERE) and is_own_id("330f6d34-ac8b", HERE)
    assert is_own_id("330F6D34-AC8B-A574", HERE)
    assert not is_own_id("330f6d", HERE)  # shorter than a group: would match many ids
    assert not is_own_id("ac8b-a574", HERE)  # not her id's first groups
    assert not is_own_id("8cd61d7a", HERE)
    assert subject_of((), ("8cd61d7a",), None, HERE).about == "other"
    assert subject_of((), ("330f6d34",), None, HERE).about == "patient"
    assert "330f" not in without_identifiers("pt 330f6d34 - how old?", HERE, "dob|born")


def test_another_patients_partial_id_is_refused_in_her_chart():
    said = read("how old is pt 8cd61d7a?")
    assert said.entities.patient_ids == ("8cd61d7a",)


@pytest.mark.parametrize("said", [
    "deixa, não registar", "scratch that", "on second thoughts, don't", "no, don't record it",
    "disregard that", "no hace falta", "olvida la reposición", "ne pas noter", "no need"])
def test_a_write_taken_back_in_other_words_cancels(said):
    assert amendments.cancels(said)


@pytest.mark.parametrize("said", [
    "don't give aspirin", "actually 10 mEq", "sorry, 158/94", "what K was that based on?",
    "no, c'était 37,6", "deixa eu ver o potássio"])
def test_a_change_a_question_or_a_request_of_its_own_is_no_cancel(said):
    assert not amendments.cancels(said)


@pytest.mark.parametrize(("said", "vital"), [
    ("I'd like to record a blood pressure", "blood pressure"),
    ("chart her temp please", "body temperature"),
    ("registar a pressão arterial", "blood pressure"),
])
def test_a_vital_sign_to_record_without_its_value_is_named(said, vital):
    ward = read_ward(said)
    assert ward.to_record == vital and not ward.readings
    assert "record_vital" in read(said).entities.actions


@pytest.mark.parametrize("said", [
    "record BP 150/90", "what was her last blood pressure?", "note: bp well controlled on ramipril",
    "review her blood pressure trend"])
def test_a_reading_a_question_or_a_note_is_no_reading_to_ask_for(said):
    assert read_ward(said).to_record is None


def test_a_reading_given_in_reply_completes_the_request_it_answers():
    history = [{"role": "user", "content": "I'd like to record a blood pressure"},
               {"role": "assistant",
                "content": "To prepare the vital sign, what reading should I use?"}]
    from smart_docgemma.agent.clarification import completed
    assert completed("118/72, sitting", history) == (
        "I'd like to record a blood pressure 118/72, sitting")


@pytest.mark.parametrize(("said", "note"), [
    ("add a note: Ankle still unstable after two sprains. Please assess for ligament repair.",
     "Ankle still unstable after two sprains. Please assess for ligament repair."),
    ('note: "Fell at home last night, left wrist deformed."',
     "Fell at home last night, left wrist deformed."),
    ("Ajoute la note : douleur de l'épaule depuis trois mois.",
     "douleur de l'épaule depuis trois mois."),
    ("con la nota: dolor de cadera tras una caída.", "dolor de cadera tras una caída."),
])
def test_a_note_given_after_a_referral_is_its_text(said, note):
    assert amendments.note_given(said) == note


@pytest.mark.parametrize("said", ["noted, thanks", "note bp stable", "save a progress note"])
def test_anything_else_gives_no_note(said):
    assert amendments.note_given(said) is None


@pytest.mark.parametrize(("said", "focus"), [
    ("what K was that based on?", "lab:Potassium"),
    ("what date was that A1c from?", "lab:HbA1c"),
])
def test_a_result_asked_about_what_was_just_said_reads_her_chart(said, focus):
    found = read(said)
    assert "chart_question" in found.entities.actions and found.focus == focus


# found by the set's holdout, read at the end (fixed after it was measured)
def test_a_card_named_in_words_of_its_own_is_cancelled_only_when_they_are_its_title():
    assert amendments.cancels("actually cancel the ortho referral", ["Refer to orthopedic surgery"])
    assert not amendments.cancels("cancel the warfarin order", ["Give potassium chloride 30 mEq"])
    # naming a card that is not pending still only cancels: never a request to draft one
    assert amendments.cancels_a_card("actually cancel the ortho referral")


def test_her_id_in_a_fhir_address_goes_with_its_address():
    here = InContext(id="8cd61d7a-ed20-aa96-0c80-77dac80fd528", name="Heath320 O'Connell601")
    said = f"age of https://ehr.example.org/fhir/Patient/{here.id} ?"
    assert without_identifiers(said, here, "dob|born").split() == ["age", "of", "?"]


def test_a_consultation_asked_for_is_a_referral():
    ward = read_ward("Pedido de consulta de ortopedia com a nota: Dor no joelho direito.")
    assert ward.specialties == ("orthopedic surgery",) and ward.referral_words
    assert "refer" in read("Pedido de consulta de ortopedia com a nota: Dor no joelho.")\
        .entities.actions


@pytest.mark.parametrize(("said", "hours"), [
    ("if K under 3.5 in the last 24h replace per protocol + am recheck", 24),
    ("Mg replacement per protocol if low in the last 2 days", 48),
    ("K low? replace per protocol and recheck tomorrow at 8am", None),
])
def test_a_window_said_with_a_protocol_is_its_window(said, hours):
    from smart_docgemma.agent.ward_requests import arguments
    args = arguments("apply_protocol", read(said), "p1")
    assert args is not None and args["within_hours"] == hours


@pytest.mark.parametrize(("said", "key"), [
    ("any magnesium since Monday?", "since-0"), ("highest BM since Monday?", "since-0"),
    ("glicemias desde segunda-feira?", "since-0"), ("K depuis jeudi ?", "since-3"),
    ("glucemia media desde el viernes", "since-4")])
def test_since_a_day_of_the_week_is_a_window_from_its_midnight(said, key):
    from smart_docgemma.tools.words.windows import asked, bounds
    assert asked(said).window == key
    saturday = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)
    window = bounds(key, saturday, UTC)
    assert window.start.weekday() == int(key[-1]) and window.start.hour == 0
    assert saturday - window.start < timedelta(days=7)


@pytest.mark.parametrize(("said", "name", "born"), [
    ("mrn lily dubuque 08/04/1978", "lily dubuque", ("1978-08-04", "1978-04-08")),
    ("MRN for heath o'connell 11/23/1943", "heath o'connell", ("1943-11-23",))])
def test_an_mrn_asked_of_a_typed_name_and_a_date_is_a_lookup(said, name, born):
    from smart_docgemma.agent.extraction import extract
    found = extract(said)
    assert found.patient_names == (name,) and found.birth_dates == born


def test_an_mrn_asked_of_a_word_of_the_assistant_names_no_one():
    from smart_docgemma.agent.extraction import extract
    found = extract("mrn for check 01/02/1970")
    assert found.patient_names == () and found.birth_dates == ()
