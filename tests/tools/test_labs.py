"""Results read by analyte, across codes and units, and answered with their time window:
"latest finger-prick glucose?" finds a glucometer result (41653-7), "Mg in the last 24h?" says
the window, its values with their times, or that there is none and the last one before it;
"mean CBG over the past 24h" is the mean of the window's results. Real HAPI: each test writes
its own patient and results (PUT, stable ids, times relative to now)."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import requests
from smart_docgemma.agent.extraction import read
from smart_docgemma.agent.planning import chart_args
from smart_docgemma.fhir import FhirGateway
from smart_docgemma.knowledge import analytes
from smart_docgemma.tools.args import PatientChartArgs
from smart_docgemma.tools.base import ToolContext
from smart_docgemma.tools.chart import labs
from smart_docgemma.tools.chart.answers import chart_focus
from smart_docgemma.tools.chart.chart import run_chart
from smart_docgemma.tools.words.windows import asked

PATIENT = "wardread-labs-1"
NOW = datetime.now(UTC)


@pytest.mark.parametrize("question, focus", [
    ("latest finger-prick glucose?", "lab:Capillary glucose"),
    ("What is the most recent CBG of the patient?", "lab:Capillary glucose"),
    ("last BM reading", "lab:Capillary glucose"),
    ("her blood sugar", "lab:Glucose"),
    ("Mg in the last 24h?", "lab:Magnesium"),
    ("last K?", "lab:Potassium"),
    ("what's her K", "lab:Potassium"),
    ("kaliémie du jour", "lab:Potassium"),
    ("glucemia capilar", "lab:Capillary glucose"),
    ("last A1c", "lab:HbA1c"),
    ("What's the last HbA1C (hemoglobin A1C) value in the chart?", "lab:HbA1c"),
    ("latest Hgb", "lab:Hemoglobin"),
    ("latest mag since yesterday", "lab:Magnesium"),
    ("average BG (POC) over the last 2 days", "lab:Capillary glucose"),
    ("give mag sulfate 2 g IV", None),
    ("give 40 mg?", None),
    ("how many mg of aspirin?", None),
    ("vitamin K?", None),
])
def test_an_analyte_is_named_by_any_of_its_words(question, focus):
    assert chart_focus(question) == focus


@pytest.mark.parametrize("question, window, statistic", [
    ("What's the most recent magnesium level of the patient within last 24 hours?", "24h", None),
    ("What is the average CBG of the patient over the last 24 hours?", "24h", "mean"),
    ("mean fingerstick glucose over the past 24h?", "24h", "mean"),
    ("K+ since yesterday", "yesterday", None),
    ("Mg today?", "today", None),
    ("potassium over the past 3 days", "3d", None),
    ("glycémie des dernières 48 heures", "48h", None),
    ("What does a low magnesium mean?", None, None),
    ("last potassium", None, None),
])
def test_a_window_and_a_mean_are_read_from_the_question(question, window, statistic):
    found = asked(question)
    assert (found.window, found.statistic) == (window, statistic)


def test_units_convert_to_the_analytes_unit_and_an_unknown_unit_is_not_guessed():
    mg, glucose = analytes.analyte("Magnesium"), analytes.analyte("Glucose")
    assert analytes.convert(0.7, "mmol/L", mg) == pytest.approx(1.70, abs=0.01)
    assert analytes.convert(5.5, "mmol/L", glucose) == pytest.approx(99.1, abs=0.1)
    assert analytes.convert(53, "mmol/mol", analytes.analyte("HbA1c")) == pytest.approx(7.0, abs=0.05)
    assert analytes.convert(1.9, "mg/dL", mg) == 1.9
    assert analytes.convert(3, "furlongs", mg) is None


def _result(fhir_base, rid, code, value, unit, hours_ago):
    resource = {"resourceType": "Observation", "id": rid, "status": "final",
                "category": [{"coding": [{"system": "http://terminology.hl7.org/CodeSystem/observation-category",
                                          "code": "laboratory"}]}],
                "code": {"coding": [{"system": "http://loinc.org", "code": code}]},
                "subject": {"reference": f"Patient/{PATIENT}"},
                "effectiveDateTime": (NOW - timedelta(hours=hours_ago)).isoformat(timespec="seconds"),
                "valueQuantity": {"value": value, "unit": unit, "system": "http://unitsofmeasure.org", "code": unit}}
    requests.put(f"{fhir_base}/Observation/{rid}", json=resource, timeout=30).raise_for_status()


@pytest.fixture(scope="module")
def chart(fhir_base):
    requests.put(f"{fhir_base}/Patient/{PATIENT}", json={
        "resourceType": "Patient", "id": PATIENT, "name": [{"given": ["Ines"], "family": "Labtest"}],
        "gender": "female", "birthDate": "1950-06-01"}, timeout=30).raise_for_status()
    for args in [("wr-labs-cbg1", "41653-7", 152, "mg/dL", 2), ("wr-labs-cbg2", "41653-7", 118, "mg/dL", 9),
                 ("wr-labs-cbg3", "14743-9", 7.3, "mmol/L", 20), ("wr-labs-cbg4", "41653-7", 240, "mg/dL", 30),
                 ("wr-labs-glu1", "2345-7", 101, "mg/dL", 400),
                 ("wr-labs-mg1", "2601-3", 0.7, "mmol/L", 40), ("wr-labs-k1", "2823-3", 3.1, "mmol/L", 3)]:
        _result(fhir_base, *args)
    return ToolContext(patient_id=PATIENT, scopes=None, fhir=FhirGateway(fhir_base, None))


def _ask(ctx, question):
    return run_chart(PatientChartArgs(**chart_args(read(question), PATIENT)), ctx).text


def test_the_latest_finger_prick_glucose_is_the_glucometer_result(chart):
    text = _ask(chart, "latest finger-prick glucose?")
    assert "Latest Capillary glucose: 152 mg/dL" in text and "No Glucose result" not in text


def test_the_latest_value_is_also_given_in_the_unit_asked(chart):
    text = _ask(chart, "most recent CBG in mmol/L?")
    assert "Latest Capillary glucose: 152 mg/dL (8.4 mmol/L)" in text


def test_a_window_mean_is_the_mean_of_the_windows_results_in_one_unit(chart):
    text = _ask(chart, "mean fingerstick glucose over the past 24h?")
    # 152, 118 and 7.3 mmol/L (131.5 mg/dL) are in the window; 240 (30 h ago) is not
    assert "Mean capillary glucose in the last 24 hours" in text and "133.8 mg/dL (mean of 3 results)" in text
    assert "131.52 mg/dL (reported 7.3 mmol/L)" in text and "240" not in text


def test_nothing_in_the_window_says_so_and_gives_the_last_value_before_it(chart):
    text = _ask(chart, "What's the most recent magnesium level within last 24 hours?")
    assert "No magnesium result in the last 24 hours" in text
    assert "The last one before it: 1.7 mg/dL (reported 0.7 mmol/L)" in text and "LOINC 2601-3" in text


def test_a_value_in_the_window_is_given_with_its_time_and_unit(chart):
    text = _ask(chart, "potassium since yesterday?")
    stamp = (NOW - timedelta(hours=3)).strftime("%Y-%m-%d %H:%M")
    assert f"the latest 3.1 mmol/L at {stamp} UTC" in text


def test_a_protocol_reads_the_latest_value_in_its_unit_within_a_window(chart):
    gateway = chart.gateway()
    inside = labs.latest(gateway, PATIENT, "Magnesium", within=timedelta(hours=48))
    assert inside.result is not None and inside.result.value == pytest.approx(1.70, abs=0.01)
    assert inside.result.unit == "mg/dL"
    outside = labs.latest(gateway, PATIENT, "Magnesium", within=timedelta(hours=24))
    assert outside.result is None and outside.before is not None and outside.before.ref == "Observation/wr-labs-mg1"
    assert labs.latest(gateway, PATIENT, "Capillary glucose").result.value == 152


def test_a_result_older_than_a_year_says_so(chart):
    text = _ask(chart, "last serum glucose")
    assert "Latest Capillary glucose: 152" in text  # the newest glucose of any specimen
    from smart_docgemma.tools.chart.labanswers import age_said
    assert age_said("2024-04-17", NOW.date()).endswith("older than a year.")
    assert age_said(NOW.date().isoformat(), NOW.date()) == ""


def test_a_result_dated_to_the_day_month_or_year_is_that_days_midnight():
    for raw, day in (("2024-03-14", "2024-03-14"), ("2024-03", "2024-03-01"), ("2024", "2024-01-01")):
        assert labs.taken({"effectiveDateTime": raw}).isoformat() == f"{day}T00:00:00+00:00"


def test_every_analyte_code_is_a_loinc_code():
    """A specimen label with a comma once split a flow mapping and left "mmol/mol)" standing as
    a code: every key of the table must be a LOINC code (digits, a dash, one check digit)."""
    import re

    for a in analytes.table().values():
        for code in a.codes:
            assert re.fullmatch(r"\d{1,7}-\d", code), (a.name, code)
    assert analytes.of_code("59261-8").name == "HbA1c"
