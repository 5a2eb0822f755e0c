"""The Synthea chart cases: answers scored, not only routes (degraded mode, code only)."""

from __future__ import annotations

from smart_docgemma.evaluation import evaluate, load_cases
from smart_docgemma.evaluation.cases import Case
from smart_docgemma.evaluation.harness import answer_check

from tests.support.synthea_truth import CASES_FILE

SYNTHEA_CASES = CASES_FILE


def test_case_set_is_large_split_and_names_loaded_patients(synthea):
    cases = load_cases(SYNTHEA_CASES)
    assert len(cases) >= 80 and sum(c.split == "holdout" for c in cases) >= 40
    assert {c.patient for c in cases} == {p.id for p in synthea.patients}
    assert all(c.answer_contains for c in cases)


def test_tuned_cases_of_one_patient_are_answered_from_the_chart_by_code(fhir_base, synthea):
    elder = max(synthea.patients, key=lambda p: p.resources)
    cases = [c for c in load_cases(SYNTHEA_CASES) if c.patient == elder.id and c.split == "tuned"]
    wrong = cases[0].model_copy(update={"id": "wrong-value", "answer_contains": ["9999.99"]})
    report = evaluate([*cases, wrong], endpoint="", fhir_base=fhir_base)
    results = {r["id"]: r for r in report["results"]}
    assert (
        results.pop("wrong-value")["answer_ok"] is False
    )  # a wrong expectation shows as that case failing
    assert all(r["answer_ok"] and r["tools_ok"] for r in results.values()), [
        (r["id"], r["answer_missing"]) for r in results.values() if not r["answer_ok"]
    ]
    assert (
        report["overall"]["answer_accuracy"] < 1 and "answer_accuracy" in report["splits"]["tuned"]
    )


def test_answer_check_contains_and_excludes_case_insensitively():
    case = Case(
        id="x",
        category="single_tool",
        route="tool",
        tools=["get_patient_chart"],
        query="meds?",
        answer_contains=["Lisinopril 10 MG"],
        answer_excludes=["simvastatin"],
    )
    assert answer_check(case, "Active: lisinopril 10 mg oral tablet") == (True, [])
    assert answer_check(case, "lisinopril 10 mg; Simvastatin 20 MG") == (
        False,
        ["not: simvastatin"],
    )
    plain = Case(id="y", category="direct", route="direct", query="hello")
    assert answer_check(plain, "anything") == (None, [])
