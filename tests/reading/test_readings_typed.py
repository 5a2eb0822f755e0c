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
