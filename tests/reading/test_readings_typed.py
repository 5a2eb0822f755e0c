"""Ward shorthand read in the four languages, as typed: readings with a decimal comma and every
language's temperature word, a line of readings alone charted (a card to approve), and near
words that must not be read as readings, a drug or an order. Pure: no HAPI."""
from __future__ import annotations

import pytest
from smart_docgemma.agent.ward_requests import actions
from smart_docgemma.knowledge.mentions import find_drugs
from smart_docgemma.tools.words.ward_words import readings


@pytest.mark.parametrize(("text", "vital", "value"), [
    ("température 37,9 à 14h", "body temperature", 37.9),
    ("temperatura 37,9 às 14h", "body temperature", 37.9),
    ("temp. 37,9 a las 14 h", "body temperature", 37.9),
    ("T° 38,5 FR 20 svp", "body temperature", 38.5),
    ("Tax 37,8", "body temperature", 37.8),
    ("temp 38.5 rr 20", "body temperature", 38.5),
    ("sat 94% em ar ambiente, FR 22", "oxygen saturation", 94.0),
    ("bp 150/95,hr 88", "heart rate", 88.0),
])
def test_a_reading_in_any_language_with_a_decimal_comma(text, vital, value):
    assert (vital, value) in {(r.vital, r.values[-1]) for r in readings(text)}


@pytest.mark.parametrize("text", [
    "bp 160/95 at 2200", "sats 94% on RA, rr 22", "T 37.9 at 14:00", "TA 160/95 à 22h",
    "sat 94 % en AA, FR 22", "PA 160/95 às 22h", "temp. 37,9 a las 14 h", "FC 52 hoy a las 8",
])
def test_a_line_of_readings_alone_is_charted(text):
    assert "record_vital" in actions(text)


@pytest.mark.parametrize("text", [
    "was her bp 160/95 at 2200?", "bp 160/95 - thinking of ramipril", "TA 160/95 ?",
    "hr 52 at 08:00, started on bisoprolol 2.5 mg yesterday after the echo showed reduced EF "
    "and the team agreed",
])
def test_a_reading_asked_about_or_beside_a_drug_is_not_charted_by_itself(text):
    assert "record_vital" not in actions(text)


@pytest.mark.parametrize("text", ["em ar ambiente", "en aire ambiente", "à l'air ambiant"])
def test_room_air_is_not_a_drug(text):
    assert find_drugs(text) == []


@pytest.mark.parametrize(("text", "tests"), [
    ("magnésio + potássio amanhã às 7h", ["serum magnesium", "serum potassium"]),
    ("magnesio y potasio mañana 7h", ["serum magnesium", "serum potassium"]),
    ("bilan : NFS, magnésium demain matin", ["complete blood count", "serum magnesium"]),
    ("hemograma, magnesio amanhã 7h", ["complete blood count", "serum magnesium"]),
    ("cbc and k tomorrow", ["complete blood count", "serum potassium"]),
    # a dose, no list or no time: the drug
    ("K 3.1 - start potassium 40 mmol and magnesium 2 g", []), ("magnesium 400 mg daily", []),
    ("potassium?", []), ("start magnesium and potassium", []),
])
def test_a_test_that_is_also_a_drug_is_a_test_in_a_timed_list_without_a_dose(text, tests):
    from smart_docgemma.tools.words.ward_words import lab_tests

    assert lab_tests(text) == tests


def test_a_reading_after_de():
    said = {(r.vital, r.values[0]) for r in readings(
        "Veuillez enregistrer une température de 38,2 et une FR de 18")}
    assert said == {("body temperature", 38.2), ("respiratory rate", 18.0)}


@pytest.mark.parametrize(("text", "drugs"), [
    ("kalium trend pls", []), ("kaliemie?", []), ("natremia", []),
    ("valium 5mg", ["diazepam"]), ("magnesium 2 g", ["magnesium"]),
])
def test_an_analytes_name_is_never_a_misspelt_drug(text, drugs):
    assert [d.name for d in find_drugs(text)] == drugs


@pytest.mark.parametrize(("text", "protocol"), [
    ("hba1c protcol?", True), ("hba1c protocl pls", True), ("protocolo hba1c", True),
    ("potassium protocols", True), ("hba1c prototype", False), ("hba1c protocolar", False),
])
def test_a_protocol_typed_with_a_slip(text, protocol):
    assert ("protocol" in actions(text)) is protocol


@pytest.mark.parametrize(("text", "priority"), [
    ("tropo en urgence", "urgent"), ("troponina urgente", "urgent"), ("NFS tout de suite", "stat"),
    ("hemograma imediatamente", "stat"),
])
def test_a_test_with_a_priority_in_any_language_is_an_order(text, priority):
    from smart_docgemma.tools.words.ward_words import priority as priority_of

    assert "order_lab" in actions(text) and priority_of(text) == priority


@pytest.mark.parametrize(("text", "value", "written"), [
    ("cbg 3.2 at 0600", 57.65, "3.2 mmol/L"), ("BM 6.2", 111.7, "6.2 mmol/L"),
    ("temp 101.3", 38.5, "101.3 °F"), ("glycémie capillaire 0,9 g/l", 90.0, "0.9 g/l"),
    ("cbg 110", 110.0, None), ("temp 38.5", 38.5, None),
])
def test_a_converted_reading_keeps_the_value_as_written(text, value, written):
    reading = readings(text)[0]
    assert reading.values == (value,) and reading.as_written() == written


@pytest.mark.parametrize("text", [
    "pipé-tazo 4 g IV toutes les 8 h", "pipe-tazo 4,5 g IV cada 8 h", "piptazo 4.5g",
    "piperacilina-tazobactam 4,5 g EV de 8/8h", "pipéracilline-tazobactam 4 g IV x3/j",
])
def test_piperacillin_tazobactam_as_typed_in_any_language_is_one_drug(text):
    from smart_docgemma.agent.extraction import extract

    assert extract(text).drugs == ("piperacillin and tazobactam",)


def test_pipeline_is_no_drug():
    assert find_drugs("the pipeline") == []
