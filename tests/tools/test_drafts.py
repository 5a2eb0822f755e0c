"""Documents drafted from the typed chart (tools/writes/drafts.py): the request understood in four
languages, every fact from the chart with its date and record, and what the chart lacks, holds
only in old results or contradicts said as such."""

from datetime import date

from smart_docgemma.tools.chart.chartdata import (
    ChartData,
    ChartMed,
    ChartPatient,
    ChartPoint,
    ChartProblem,
    ChartSeries,
)
from smart_docgemma.tools.writes import drafts
from smart_docgemma.tools.writes.drafts import DraftRequest, compose, request_kind, stated_values

TODAY = date(2026, 12, 4)


def _series(code: str, name: str, unit: str, points: list[tuple[str, float]]) -> ChartSeries:
    pts = tuple(ChartPoint(d, v, f"Observation/{code}-{i}") for i, (d, v) in enumerate(points))
    return ChartSeries(
        code, name, unit, len(pts), "↑" if pts[-1].value > pts[0].value else "↓", pts[-1], pts
    )


CHART = ChartData(
    patient=ChartPatient("p1", "Ada Obi", "female", "1950-01-02", 76, "MRN-1"),
    problems=(
        ChartProblem(
            "Chronic kidney disease stage 3", "disorder", "2021-03-10", "Condition/c1", "disorder"
        ),
    ),
    medications=(
        ChartMed(
            "amlodipine 5 MG Oral Tablet", "5 mg daily", "2023-01-15", {}, "MedicationRequest/m1"
        ),
    ),
    labs=(
        _series("2823-3", "Potassium", "mmol/L", [("2026-02-03", 4.6), ("2026-11-10", 5.6)]),
        _series("33914-3", "eGFR", "mL/min/{1.73_m2}", [("2026-02-03", 52), ("2026-11-10", 38)]),
        _series("4548-4", "HbA1c", "%", [("2025-06-10", 7.2)]),
    ),
)


def test_requests_are_understood_in_four_languages_and_shorthand():
    asked = {
        "draft a discharge summary": "discharge",
        "pls write up d/c summry": "discharge",
        "lettre de sortie svp": "discharge",
        "faça o resumo de alta": "discharge",
        "handoff for the night team": "handoff",
        "nota de traspaso": "handoff",
        "progress note from the chart": "progress",
        "nota de evolución de la historia clínica": "progress",
        "redacta una nota de evolución": None,
        "refer to nephrology with a letter": "referral",
        "encaminhar com uma carta": "referral",
        "what is her potassium?": None,
        "Save a progress note: stable, review in 6 weeks": None,
        "Write a progress note": None,
        "what did the last discharge summary say?": None,
        "show me the previous handoff": None,
        "write a letter to the family": None,
    }
    assert {m: request_kind(m) for m in asked} == asked


def test_a_summary_cites_each_fact_with_its_date():
    text = compose(DraftRequest("discharge", "draft a discharge summary"), CHART, TODAY).text()
    assert "Chronic kidney disease stage 3 (since 2021-03-10) [Condition/c1]" in text
    assert (
        "amlodipine 5 MG Oral Tablet, 5 mg daily — ordered 2023-01-15 [MedicationRequest/m1]"
        in text
    )
    assert "Potassium 5.6 mmol/L on 2026-11-10; trend 4.6 (2026-02-03) → 5.6 (2026-11-10)" in text
    assert "No allergies recorded" in text
    assert all(
        "[" in line
        for line in text.splitlines()
        if line.startswith("- ")
        and "none" not in line.lower()
        and "follow-up" not in line.lower()
        and "repeat" not in line.lower()
    )


def test_old_missing_and_contradicted_facts_are_said():
    draft = compose(
        DraftRequest("progress", "K is 3.1 - progress note", include=("INR",)), CHART, TODAY
    )
    text = draft.text()
    assert "HbA1c 7.2 % on 2025-06-10 — older than a year, not current" in text
    assert "No INR on file: every INR code" in text
    assert "Stated Potassium 3.1 differs from the chart's latest 5.6 mmol/L on 2026-11-10" in text
    assert "3.1" not in text.split("KEY RESULTS")[1]  # the stated value is not used as a result
    assert len(draft.notices) == 3


def test_a_referral_letter_holds_the_trend_asked_for_and_the_reason():
    draft = compose(
        DraftRequest(
            "referral", "refer with the eGFR trend", "nephrology", "urgent", include=("eGFR",)
        ),
        CHART,
        TODAY,
    )
    assert draft.reason == (
        "Chronic kidney disease stage 3; eGFR 52 → 38 mL/min/1.73 m2 (2026-02-03 → 2026-11-10)"
    )
    assert "To: nephrology; urgency: urgent" in draft.text()


def test_a_handoff_has_the_five_i_pass_parts_and_a_contingency():
    text = compose(DraftRequest("handoff", "handoff"), CHART, TODAY).text()
    for part in (
        "ILLNESS SEVERITY",
        "PATIENT SUMMARY",
        "ACTION LIST",
        "SITUATION AWARENESS AND CONTINGENCIES",
        "SYNTHESIS BY RECEIVER",
    ):
        assert part in text
    assert "Watcher" in text and "If K > 6.0 mmol/L" in text


def test_an_empty_chart_says_none_recorded_and_invents_nothing():
    text = compose(
        DraftRequest("discharge", "d/c summary"),
        ChartData(patient=ChartPatient("p2", "Fatima Diallo")),
        TODAY,
    ).text()
    assert "No active problems recorded" in text and "None recorded: no active medications" in text
    assert "mmol" not in text


def test_stated_values_are_read_only_after_an_analyte():
    assert [(s.analyte, s.value) for s in stated_values("K is 3.1 today, eGFR of 60")] == [
        ("Potassium", 3.1),
        ("eGFR", 60.0),
    ]
    assert stated_values("James Wilson born 1971-09-02, bed 12") == []


def test_a_sentence_to_add_is_kept_as_written_in_four_languages():
    assert drafts.additions("add that he should avoid NSAIDs") == ("He should avoid NSAIDs.",)
    assert drafts.additions("ajoute qu'il doit éviter les AINS") == ("Il doit éviter les AINS.",)
    assert drafts.additions("acrescenta que não deve tomar AINE") == (
        "Não deve tomar AINE.",)
    assert drafts.additions("añade que vuelva en 2 semanas") == ("Vuelva en 2 semanas.",)
    # near-words that add no sentence: an analyte to add, a bare "add that"
    assert drafts.additions("add the potassium to the letter") == ()
    assert drafts.additions("add that") == ()
    assert drafts.additions("additional notes that are long") == ()


def test_a_sentence_keeping_a_drug_from_her_is_not_a_drug_given():
    assert drafts.not_given("He should avoid NSAIDs.")
    assert drafts.not_given("Pas d'AINS.")
    assert not drafts.not_given("We started gliclazide 40mg od.")


def test_a_drafted_referral_is_the_referral_with_its_letter():
    assert drafts.request_kind("draft a referral to renal, eGFR trend included") == "referral"
    assert drafts.request_kind("refer to renal") is None  # the order alone, no letter asked
