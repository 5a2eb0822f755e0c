"""probe48_en (twenty-first stop, second round): "fine to give ibuprofen 400?" was read as an
order and its frequency asked, where "ok to give …?" checks the drug; and "glucose in mg/dL over
2 days" listed every glucose in the chart, since "over N days" made a window only beside a
statistic or a threshold. "fine to" / "alright to" ask like "ok to"; a unit asked makes the span
the window just passed. Near words must not trigger."""
from __future__ import annotations

import pytest
from smart_docgemma.agent.extraction import extract
from smart_docgemma.agent.order_lines import asks_about_drug
from smart_docgemma.languages import fold
from smart_docgemma.tools.words.windows import asked


@pytest.mark.parametrize("said", [
    "fine to give ibuprofen 400?",
    "mensah r dob 30/09/50 - fine to give ibuprofen 400?",
    "alright to start naproxen 250?",
    "all right to give him tramadol 50?",
])
def test_fine_to_give_asks(said):
    ent = extract(said)
    assert "give" in ent.actions
    assert asks_about_drug(fold(said).lower(), list(ent.actions), list(ent.drugs), True)


@pytest.mark.parametrize("said", [
    "fine. give ibuprofen 400 tds",
    "bp fine, start amlodipine 5 od",
    "alright, start naproxen 250 bd",
])
def test_fine_beside_an_order_orders(said):
    assert "give" not in extract(said).actions


@pytest.mark.parametrize(("said", "window"), [
    ("glucose in mg/dL over 2 days", "48h"),
    ("sugars in mmol/l over 3 days", "3d"),
])
def test_a_unit_asked_makes_the_span_a_window(said, window):
    assert asked(said).window == window


@pytest.mark.parametrize("said", [
    "repeat u&e in 2 days",
    "ceftriaxone 2g iv over 30 minutes",
    "glucose in mg/dl",
    "amoxicillin 500 tds over 5 days",
])
def test_no_unit_no_window_from_a_span(said):
    assert asked(said).window is None


# ---- after the blind holdout run

@pytest.mark.parametrize(("said", "unit"), [
    ("What was his highest temperature in Fahrenheit over the past 24 hours?", "[degF]"),
    ("temp in °F last 24h", "[degF]"),
    ("max temp in celsius today", "Cel"),
])
def test_a_temperature_asked_in_its_unit(said, unit):
    assert asked(said).unit == unit


@pytest.mark.parametrize("said", ["any f1 fans in f ward", "temp 38.2 at 3pm", "in f"])
def test_no_temperature_unit_from_a_letter(said):
    assert asked(said).unit is None


@pytest.mark.parametrize("said", [
    "Would you mind going through everything he is currently prescribed and telling me if any "
    "of it worries you?",
    "go over all she has been prescribed",
    "everything he's been written up for ok?",
])
def test_everything_prescribed_is_the_review(said):
    from smart_docgemma.tools.chart.answers import chart_focus
    assert chart_focus(said) == "review"


@pytest.mark.parametrize("said", ["he is prescribed amoxicillin", "was it prescribed"])
def test_a_prescription_alone_is_no_review(said):
    from smart_docgemma.tools.chart.answers import chart_focus
    assert chart_focus(said) != "review"


@pytest.mark.parametrize("said", [
    "sister wanjiru on ward 4 wants her latest egfr",
    "Dr Chen in bay 2 asks for her K",
    "charge nurse ali from ward 7 wants her inr",
])
def test_a_colleague_placed_on_a_ward_is_no_patient(said):
    from smart_docgemma.reading.people import beside_people
    assert beside_people(said) == []


@pytest.mark.parametrize("said", [
    "nurse says the man in bed 3 needs paracetamol",
    "the lady on ward 4 - whats her k",
    "ask sister about bed 4",
])
def test_a_bed_without_a_colleague_before_it_is_another_patient(said):
    from smart_docgemma.reading.people import beside_people
    assert beside_people(said)
