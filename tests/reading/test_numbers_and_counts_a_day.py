"""A dose's number and a frequency's count as ward orders write them: a decimal comma is a
decimal ("bisoprolol 2,5 mg" is 2.5 mg, never 5 mg), three digits after a comma are thousands
("1,000 mg"), and a count a day in any shorthand is that count ("3x daily" is three times a day,
never once daily). Pure: the readers the card and the MedicationRequest are coded from."""
from __future__ import annotations

import pytest
from smart_docgemma.agent.extraction import extract
from smart_docgemma.languages.frequency import repeat
from smart_docgemma.tools.writes.orders import parse_dose


@pytest.mark.parametrize("order, dose", [
    ("bisoprolol 2,5 mg od", "2.5 mg"),
    ("bisoprolol 2,5mg od", "2.5 mg"),
    ("bisoprolol 2,5 od", "2.5 mg"),          # a bare number after the drug, in mg
    ("warfarine 7,5 mg le soir", "7.5 mg"),
    ("paracetamol 1,5 g", "1.5 g"),
    ("amoxicillin 1,000 mg tds", "1000 mg"),   # thousands, not one milligram
    ("bisoprolol 2.5 mg od", "2.5 mg"),
    ("metformin 500,bd", "500 mg"),
])
def test_a_doses_number_is_read_as_its_value(order, dose):
    assert extract(order).dose.written == dose


def test_the_coded_dose_keeps_the_decimal():
    assert parse_dose("2,5 mg")["value"] == 2.5 and parse_dose("1,000 mg")["value"] == 1000


@pytest.mark.parametrize("said, per_day", [
    ("3x daily", 3), ("3x/day", 3), ("x3/day", 3), ("3/day", 3), ("3 times a day", 3),
    ("2x a day", 2), ("t.d.s.", 3), ("b.d.", 2), ("q.i.d.", 4), ("5 times a day", 5),
    ("alternate days", 0.5), ("tds prn", 3), ("od", 1),
])
def test_a_count_a_day_is_that_count(said, per_day):
    freq = extract(f"amoxicillin 500 mg {said}").dose.frequency
    timing = repeat(freq)
    assert timing["frequency"] / (timing["period"] * (1 if timing["periodUnit"] == "d" else 0)) \
        == per_day


def test_a_count_a_week_is_not_guessed():
    assert extract("methotrexate 10 mg 3x/week").dose.frequency is None


@pytest.mark.parametrize("order, dose", [
    ("morphine 2.5-5 mg q4h prn", "2.5-5 mg"),
    ("oxycodone 5 to 10mg q4h prn", "5-10 mg"),
    ("paracetamol 1 à 2 cp si douleur", "1-2 cp"),
    ("lorazepam 1/2 tab nocte", "0.5 tab"),
    ("lorazepam ½ tab nocte", "0.5 tab"),
    ("paracetamol 2 x 500mg qds", "1000 mg (2 × 500 mg)"),
])
def test_a_range_a_fraction_and_a_count_of_a_strength_are_the_dose_written(order, dose):
    assert extract(order).dose.written == dose


def test_a_range_is_coded_as_a_range_never_one_of_its_ends():
    from smart_docgemma.tools.writes.orders import dosage_instruction

    inst = dosage_instruction("2.5-5 mg", "q4h", "as needed")
    [rate] = inst["doseAndRate"]
    assert "doseQuantity" not in rate
    assert (rate["doseRange"]["low"]["value"], rate["doseRange"]["high"]["value"]) == (2.5, 5)
