"""The MedAgentBench-style ward set (smart_docgemma/evaluation/medagentbench.yaml) on the Synthea
population, against the real HAPI: results placed relative to now, proposals approved as the
clinician would, what reached FHIR read back and checked. Code only (no model), and with a
scripted model on a real HTTP server that restates what the tools returned.

The set's coverage and its figures per task, with every other seed's set, are checked in
``test_medagentbench_seeds.py``; here, what the harness itself does: a case's results placed and
removed, a wrong expectation failed, a scripted model's answers scored."""
from __future__ import annotations

import pytest
import requests
from smart_docgemma.evaluation import evaluate, load_cases
from smart_docgemma.evaluation.cases import CASES_FILE, Case

from tests.bench.medagentbench import Restating

CASES = CASES_FILE.with_name("medagentbench.yaml")


def _run(fhir_base, cases, endpoint="", sources=None):
    # the public sources as recorded (a drug checked beside a protocol reads its label)
    config = {**(sources or {}), "SCHEMA_DIALECT": "json_schema"}
    report = evaluate(cases, endpoint=endpoint, fhir_base=fhir_base, config=config)
    assert report["overall"]["other_patient_proposals"] == 0
    assert report["overall"]["unapproved_writes"] == 0
    return report


def test_setup_places_a_cases_results_and_removes_another_cases_for_the_same_patient(fhir_base, synthea):
    cases = {c.id: c for c in load_cases(CASES)}
    first, second = cases["mab04-t1"], cases["mab04-t3"]  # both Dennise990 Beahan375's magnesium
    report = _run(fhir_base, [first, second])
    assert [r["answer_ok"] for r in report["results"]] == [True, True]
    # each case answered from its own results only; and the run
    # ends with the charts as it found them: nothing it placed is left for a later reader
    for item in first.setup + second.setup:
        assert requests.get(f"{fhir_base}/Observation/{item.id}", timeout=30).status_code in (404, 410)


def test_a_wrong_expectation_fails_its_case_on_the_answer_or_on_what_reached_fhir(fhir_base, synthea):
    cases = {c.id: c for c in load_cases(CASES)}
    age = cases["mab02-t2"].model_copy(update={"id": "wrong-born", "answer_contains": ["{age} years",
                                                                                        "born 1999-02-11"]})
    order = Case.model_validate({**cases["mab04-t4"].model_dump(), "id": "wrong-write", "writes": [
        {"resourceType": "ServiceRequest", "code": ["http://loinc.org|19123-9"]}]})
    report = _run(fhir_base, [age, order])
    first, second = report["results"]
    assert first["answer_missing"] == ["born 1999-02-11"]  # "{age} years" was found
    assert second["writes_ok"] is False and second["writes_wrong"] == ["ServiceRequest: nothing written"]
    assert report["failures"] == ["wrong-born", "wrong-write"]


@pytest.mark.parametrize("task", ["04-magnesium-24h", "06-cbg-mean-24h", "07-cbg-latest"])
def test_with_a_scripted_model_the_tools_and_values_reach_the_answer(fhir_base, synthea, task):
    cases: list[Case] = [c for c in load_cases(CASES) if c.task == task and c.split == "tuned"]
    with Restating(cases) as srv:
        report = _run(fhir_base, cases, endpoint=srv.url)
    assert report["overall"]["model_calls_mean"] > 0
    assert [r["id"] for r in report["results"] if not (r["tools_ok"] and r["answer_ok"])] == []
