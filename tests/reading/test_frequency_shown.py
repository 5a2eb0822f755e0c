"""The card's frequency in one wording whatever the language or shorthand: the clinician's words
with the timing they are coded as ("q8h (every 8 hours)"), never a timing the words do not give.
Pure: no HAPI."""
from __future__ import annotations

import pytest
from smart_docgemma.tools.writes.orders import frequency_shown, parse_timing


@pytest.mark.parametrize(("said", "shown"), [
    ("q8h", "q8h (every 8 hours, three times daily)"),
    ("toutes les 8 heures", "toutes les 8 heures (every 8 hours, three times daily)"),
    ("de 8 em 8 horas", "de 8 em 8 horas (every 8 hours, three times daily)"),
    ("c/12h", "c/12h (every 12 hours, twice daily)"), ("q5h", "q5h (every 5 hours)"),
    ("2 fois par jour", "2 fois par jour (twice daily)"), ("1x/j", "1x/j (once daily)"),
    ("twice daily", "twice daily"), ("every 6 hours", "every 6 hours (four times daily)"),
    # no count a day to say: as written
    ("weekly", "weekly"), ("at night", "at night"), ("as needed", "as needed"), ("stat", "stat"),
])
def test_the_frequency_is_shown_with_its_coded_timing(said, shown):
    assert frequency_shown(said) == shown


@pytest.mark.parametrize("said", ["de 12 em 12 horas", "de 6 em 6 h"])
def test_portuguese_every_n_hours(said):
    timing = parse_timing(said)
    assert timing and timing["periodUnit"] == "h" and timing["period"] in (12, 6)


def test_every_n_days_is_not_read_as_hours():
    assert parse_timing("de 7 em 7 dias") is None


def test_a_per_day_dose_without_doses_a_day_is_said_a_day_never_zero_a_dose():
    from smart_docgemma.checks.patient_rules import _amount
    from smart_docgemma.knowledge import weight_dose

    order = weight_dose.read("azithromycine 10 mg/kg/j pendant 3 jours")
    worked = weight_dose.work_out(order, weight_dose.Weight(20.1))
    assert _amount(worked) == "201 mg a day (doses a day not stated)"
