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
    ("sugars in mmol/l over 3 days", "72h"),
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
