"""Chart reads and chart answers on Synthea charts: hundreds of observations, social findings
recorded as Conditions, ended medications, multi-ingredient products. Expected values come from
the raw bundles (``tests.support.synthea_truth``), not from the app's code."""

from __future__ import annotations

import re

import pytest
from smart_docgemma.tools.args import PatientChartArgs
from smart_docgemma.tools.chart.chart import SECTIONS, run_chart
from smart_docgemma.tools.chart.summary import TEXT_BUDGET, UNTRUSTED_HEAD

from tests.support.launch_context import PATIENT_SCOPES, launch, tool_context
from tests.support.synthea_truth import truth


@pytest.fixture(scope="module")
def elder(synthea):
    """The oldest loaded patient (the largest chart the tests load)."""
    return max(synthea.patients, key=lambda p: p.resources)


def ask(fhir_base, patient, focus=None):
    ctx = tool_context(launch(fhir_base, patient.id, PATIENT_SCOPES))
    return run_chart(PatientChartArgs(patient_id=patient.id, focus=focus), ctx)


def test_summary_puts_disorders_first_social_findings_apart_and_whole_medication_lines(
    fhir_base, elder
):
    result = ask(fhir_base, elder)
    facts = truth(elder.file)
    text = result.text.split(UNTRUSTED_HEAD)[0]  # the structured part; notes are quoted as written
    problems = text.split("Active problems")[1].split("Social and administrative")[0]
    lines = [line for line in problems.splitlines()[1:] if line.startswith("- ")]
    # by clinical weight: a chronic, organ-threatening disorder before a newer minor one
    serious = re.compile(r"heart|coronary|isch(a)?emic|kidney|renal|diabet|hypertens|neoplasm|cancer|carcinoma|"
                         r"obstructive|stroke|failure|anemia|anaemia|hyperlipid|obesity", re.I)
    assert serious.search(lines[0]), lines[:3]
    minor = [i for i, line in enumerate(lines) if re.search(r"gingivitis|pharyngitis|sinusitis|sprain", line, re.I)]
    assert all(i > 0 for i in minor) and facts.newest_disorder in problems
    assert "(finding)" not in text and "(disorder)" not in text  # SNOMED tags read, not shown
    assert "Social and administrative findings:" in text
    social = text.split("Social and administrative findings:")[1].splitlines()[1]
    assert not any(w in problems for w in ("criminal record", "employment", "high school"))
    assert any(
        w in social.lower() for w in ("criminal record", "employment", "high school", "stress")
    )
    for med in facts.active_meds:  # each active medication on one whole line with its dosage
        line = next(line for line in text.splitlines() if med in line)
        assert " — " in line
    assert not any(m in text for m in facts.stopped_only_meds)  # ended orders are not "active"
    assert len(result.text) <= TEXT_BUDGET and result.data.calls == 1 + len(SECTIONS)


def test_last_value_questions_read_two_requests_and_give_value_unit_and_date(fhir_base, synthea):
    for patient in synthea.patients:
        facts = truth(patient.file)
        for focus, key in (
            ("lab:eGFR", "egfr"),
            ("lab:HbA1c", "hba1c"),
            ("lab:Potassium", "potassium"),
        ):
            result = ask(fhir_base, patient, focus)
            assert result.data.calls == 2  # the Patient and one Observation search
            if key in facts.latest:
                value, day = facts.latest[key]
                assert f"{value} " in result.text and f"on {day}" in result.text
            else:
                assert "No " in result.text and "result in the chart" in result.text


def test_medication_allergy_and_interaction_answers(fhir_base, elder):
    facts = truth(elder.file)
    meds = ask(fhir_base, elder, "medications").text
    assert f"Active medications ({len(facts.active_meds)})" in meds
    assert all(m in meds for m in facts.active_meds) and not any(
        m in meds for m in facts.stopped_only_meds
    )
    assert (
        "insulin isophane, human 70 UNT/ML / insulin, regular, human 30 UNT/ML" in meds
    )  # two ingredients
    allergies = ask(fhir_base, elder, "allergies").text
    assert all(a in allergies for a in facts.allergies) or "none recorded" in allergies
    checked = ask(fhir_base, elder, "interactions").text
    header = checked.splitlines()[1]
    named = header.split("(")[1].split(")")[0].split(", ")
    pairs = len(named) * (len(named) - 1) // 2
    assert f"all {pairs} pairs checked" in header
    lines = checked.splitlines()
    review_at = next(i for i, line in enumerate(lines) if line.startswith("Medication review of"))
    for line in lines[3:review_at]:  # every finding is a pair of the drugs the header names
        a, b = line[2:].split(":")[0].split(" + ")
        assert a in named and b in named
    # the interactions of her list come with its whole-list review, every active order counted
    assert lines[review_at].startswith(f"Medication review of {len(facts.active_meds)} active")
    review = lines[review_at:]
    reviewed = review[-1].removeprefix("Reviewed: ").rstrip(".").split(", ")
    twice = {n for n in reviewed if reviewed.count(n) > 1}
    for drug in twice:  # two active orders of one drug: said once, as two active orders
        said = [r for r in review if r.startswith(f"WARNING — Remove duplicate {drug} —")]
        assert len(said) == 1 and "already active" in said[0]
    assert "already draft" not in checked


def test_bp_immunisations_and_admissions(fhir_base, elder):
    facts = truth(elder.file)
    bp = ask(fhir_base, elder, "vitals:bp").text
    assert facts.bp[0] in bp and facts.bp[1] in bp and "mm[Hg]" in bp
    shots = ask(fhir_base, elder, "immunizations").text
    assert facts.newest_vaccine[0] in shots and facts.newest_vaccine[1] in shots
    visits = ask(fhir_base, elder, "encounters").text
    assert facts.latest_encounter in visits and "Admissions and emergency visits" in visits
