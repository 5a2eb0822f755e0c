"""get_patient_chart / chart_summary / fetch_chart against real HAPI with the scenario patients."""
from __future__ import annotations

from dataclasses import replace

from smart_docgemma.fhir import FhirGateway
from smart_docgemma.tools.args import PatientChartArgs
from smart_docgemma.tools.chart.chart import (
    OBS_WINDOW,
    SECTIONS,
    TEXT_BUDGET,
    UNTRUSTED_HEAD,
    chart_summary,
    chart_text,
    fetch_chart,
    run_chart,
)
from smart_docgemma.tools.chart.chartdata import ChartPoint

from tests.support.launch_context import PATIENT_SCOPES, USER_SCOPES, launch, tool_context


def chart(fhir_base, patient_id, scopes=PATIENT_SCOPES, asked=None):
    ctx = tool_context(launch(fhir_base, patient_id, scopes))
    return run_chart(PatientChartArgs(patient_id=asked or patient_id), ctx)


def test_many_observations_read_newest_first_in_one_page_and_text_stays_bounded(fhir_base):
    result = chart(fhir_base, "pt-many-obs")
    glucose = next(s for s in result.data.labs if s.code == "2339-0")
    assert glucose.count == OBS_WINDOW < 170  # the newest window, one request, not every page
    assert [p.date for p in glucose.series][-1] == "2026-10-17"  # newest last, for plots
    assert len(glucose.series) == 20 and len(result.text) <= TEXT_BUDGET
    assert "Glucose (mg/dL)" in result.text and f"{OBS_WINDOW} results" in result.text
    assert result.data.calls == 1 + len(SECTIONS)  # the Patient and one search per section


def test_allergy_patient_shows_the_allergy_with_reaction_and_severity(fhir_base):
    result = chart(fhir_base, "pt-pen-allergy")
    assert result.status == "ok"
    assert "Penicillin (Anaphylaxis, severe, criticality high)" in result.text
    assert result.data.allergies[0].ref == "AllergyIntolerance/pt-pen-allergy-alg1"
    assert any(s.url == f"{fhir_base}/AllergyIntolerance/pt-pen-allergy-alg1" for s in result.sources)


def test_trends_have_direction_and_dates(fhir_base):
    data = chart(fhir_base, "pt-ckd-elder").data
    labs = {s.name: s for s in data.labs}
    assert labs["Potassium"].direction == "↑" and labs["eGFR"].direction == "↓"
    assert [p.value for p in labs["Potassium"].series] == [4.6, 4.9, 5.2, 5.6]
    assert labs["Potassium"].latest == ChartPoint("2026-11-10", 5.6, "Observation/pt-ckd-elder-obs4")
    text = chart(fhir_base, "pt-ckd-elder").text
    assert "Potassium (mmol/L): 4.9 (2026-05-12) → 5.2 (2026-08-20) → 5.6 (2026-11-10) ↑" in text
    assert "amlodipine 5 MG Oral Tablet" in text and "Chronic kidney disease stage 3" in text


def test_note_text_is_quoted_and_marked_untrusted(fhir_base):
    result = chart(fhir_base, "pt-injection")
    note = result.data.notes[0]
    assert note.untrusted and note.instruction_like
    head, _, rest = result.text.partition(UNTRUSTED_HEAD)
    assert rest, "notes must sit under the untrusted-content heading"
    assert "IGNORE PREVIOUS INSTRUCTIONS" not in head  # never outside the quoted block
    assert "⚠ contains instruction-like text" in rest and "«Patient seen for chronic low back pain" in rest


def test_another_patient_is_refused_with_patient_scopes_and_allowed_with_user_scopes(fhir_base):
    refused = chart(fhir_base, "pt-pen-allergy", asked="pt-warfarin")
    assert refused.error_kind == "forbidden" and "limited to the patient in context" in refused.text
    assert "Mensah" not in refused.text
    allowed = chart(fhir_base, "pt-pen-allergy", scopes=USER_SCOPES, asked="pt-warfarin")
    assert allowed.status == "ok" and "Robert Mensah" in allowed.text and "warfarin" in allowed.text


def test_unknown_patient_is_not_found(fhir_base):
    result = chart(fhir_base, "pt-nobody-here", scopes=USER_SCOPES, asked="pt-nobody-here")
    assert result.error_kind == "not_found" and "pt-nobody-here" in result.text


def test_section_without_scope_says_not_available_not_none(fhir_base):
    scopes = PATIENT_SCOPES.replace("patient/AllergyIntolerance.crs ", "")
    result = chart(fhir_base, "pt-pen-allergy", scopes=scopes)
    assert "Penicillin" not in result.text
    assert "NOT AVAILABLE (access not granted) — do not assume there are none" in result.text


def test_budget_keeps_patient_and_allergies_and_cuts_notes_first(fhir_base):
    data = chart_summary(FhirGateway(fhir_base, None), "pt-ckd-elder").data
    data = replace(data, labs=data.labs * 30, notes=data.notes * 5)
    text = chart_text(data, budget=1200)
    assert len(text) <= 1200 and text.startswith("Patient: Margaret Thompson")
    assert "Allergies: none recorded" in text and "(… more in the chart view)" in text
    assert "CKD 3 follow-up" not in text  # the notes went first


def test_parallel_and_sequential_fetch_return_the_same_chart(fhir_base):
    """Same sections either way (speed is measured in tests/bench, not asserted here)."""
    fhir = FhirGateway(fhir_base, None)
    for parallel in (True, False):
        fetched = fetch_chart(fhir, "pt-ckd-elder", parallel=parallel)
        assert {k: len(v) for k, v in fetched.sections.items()} == {
            "conditions": 2, "medications": 1, "allergies": 0, "observations": 16, "notes": 1, "encounters": 1,
            "immunizations": 0}


def test_the_typed_chart_survives_a_stored_turn_and_mcp_clients_read_the_same_keys(fhir_base):
    """The chart tool's ``ChartData`` is stored with the turn and read back equal (a reloaded page
    grounds against the same chart), and its JSON keeps the keys the chart's sections always had."""
    from smart_docgemma.agent.state import ToolRun, dumps, loads, new_turn

    result = chart(fhir_base, "pt-ckd-elder")
    turn = replace(new_turn("her chart?"), tool_runs=[ToolRun(tool="get_patient_chart", label="Chart", args={},
                                                              result=result, summary="read")])
    assert loads(dumps(turn)).tool_runs[0].result.data == result.data
    plain = result.to_dict()["data"]
    assert plain["labs"][0].keys() == {"code", "name", "unit", "count", "direction", "latest", "series"}
    assert {"date", "class", "admission", "ref"} <= plain["encounters"][0].keys()
    assert plain["patient"]["id"] == "pt-ckd-elder" and "safety_findings" not in plain


def test_a_window_of_a_year_reads_every_page_of_its_results(fhir_base):
    """170 daily glucoses in 2026 (HAPI pages at 100): all of them are counted, and no "only the
    newest were read" is said of a window read whole."""
    ctx = tool_context(launch(fhir_base, "pt-many-obs", PATIENT_SCOPES))
    said = run_chart(PatientChartArgs(patient_id="pt-many-obs", focus="lab:Glucose",
                                      window="y2026", threshold="gt:180"), ctx).text
    assert "36 values over 180 mg/dL in 2026 (of 170 read)" in said
    assert "Only the newest" not in said
