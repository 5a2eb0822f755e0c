"""The unseen population: Synthea patients of another seed than the one the chart rules were
tuned on (seed 8, three living patients aged 65-95; generated once, ~20 s, and cached like
seed 42). Chart answers, drug answers with age and kidney context, and CDS patient-view are
checked against values computed from the raw bundles (``tests.support.synthea_truth``)."""

from __future__ import annotations

import json

import pytest
from launch.population import load_population
from launch.synthea import generate
from smart_docgemma.cli.evaluation import main as eval_main
from smart_docgemma.evaluation import evaluate, load_cases
from smart_docgemma.evaluation.cases import Case

from tests.support.synthea_truth import (
    ELDERLY_UNSEEN,
    UNSEEN_CASES_FILE,
    cases,
    spec_of,
    truth,
)
from tests.synthea.test_cds import patient_view


@pytest.fixture(scope="module")
def unseen(fhir_base):
    """Seed 8 aged 65-95, loaded with its own ids beside seed 42 (ids do not collide)."""
    return load_population(fhir_base, generate(spec_of(ELDERLY_UNSEEN)))


@pytest.fixture(scope="module")
def living(unseen):
    return [p for p in unseen.patients if not p.deceased]


def test_unseen_population_is_cached_keyed_by_seed_and_ages_and_elderly(unseen, living):
    again = generate(unseen.spec)
    assert again.seconds == 0.0 and "-s8-p3-a65-95-" in str(again.directory)
    assert len(living) >= 2 and all(p.age() >= 65 for p in living)


def test_case_file_holds_what_the_bundles_say_now(unseen):
    """The committed unseen cases are the bundles' values: regenerated, they are the same."""
    filed = {c.id: c for c in load_cases(UNSEEN_CASES_FILE)}
    fresh = cases([truth(p.file) for p in unseen.patients], unseen=True)
    assert fresh and all(
        filed[c["id"]].answer_contains == c["answer_contains"] and filed[c["id"]].query == c["query"]
        for c in fresh
    )


def test_chart_questions_on_unseen_patients_are_answered_by_code(fhir_base, unseen, tmp_path):
    """Through ``docgemma-eval --synthea SEED:SIZE:AGES`` (it loads the population itself)."""
    ids = {p.id for p in unseen.patients}
    chosen = [
        c.id
        for c in load_cases(UNSEEN_CASES_FILE)
        if c.patient in ids and c.id.startswith(("syn-h3-", "syn-h4-"))
    ]
    out = tmp_path / "unseen.json"
    argv = ["--code-only", "--fhir", fhir_base, "--no-fixtures", "--synthea", ELDERLY_UNSEEN]
    argv += ["--cases", str(UNSEEN_CASES_FILE), "--out", str(out), "--only", *chosen]
    assert eval_main(argv) == 0
    results = json.loads(out.read_text())["results"]
    wrong = [(r["id"], r["tools"], r["answer_missing"]) for r in results
             if not (r["tools_ok"] and r["answer_ok"])]
    assert len(results) == len(chosen) >= 80 and not wrong


def test_drug_answers_carry_age_and_kidney_context(fhir_base, living):
    asked = []
    for p in living:
        facts = truth(p.file)
        she = "she" if p.gender == "female" else "he"
        her = "her" if p.gender == "female" else "his"
        kidney = [f"eGFR {facts.latest['egfr'][0]}"] if "egfr" in facts.latest else []
        for n, query in enumerate(
            (
                "can I give diphenhydramine?",  # on the age list: a warning that names the age
                f"can {she} have metformin 500 MG Oral Tablet with {her} kidneys?",
            )
        ):
            beers = [f"at age {p.age()}"] if n == 0 else []
            asked.append(
                Case(
                    id=f"drug-{n}-{p.id[:8]}",
                    category="single_tool",
                    route="tool",
                    tools=["check_drug_interactions" if n == 0 else "check_drug_safety"],
                    query=query,
                    patient=p.id,
                    answer_contains=[f"age {p.age()}", "Beers", *beers, *kidney],
                )
            )
    report = evaluate(asked, endpoint="", fhir_base=fhir_base)
    wrong = [
        (r["id"], r["tools"], r["answer_missing"])
        for r in report["results"]
        if not (r["tools_ok"] and r["answer_ok"])
    ]
    assert not wrong


@pytest.fixture
def ehr(app_config):
    from tests.cds.ehr_client import app_behind_mini_ehr

    with app_behind_mini_ehr(app_config) as client:
        yield client


def test_patient_view_on_unseen_patients_no_repeat_and_quiet_on_second_open(
    ehr, fhir_base, unseen
):
    for patient in unseen.patients:
        first = patient_view(ehr, patient.id, fhir_base)
        summaries = [c["summary"] for c in first]
        assert len(summaries) == len(set(summaries)), summaries
        assert patient.name.split()[0] in " ".join(summaries)
        again = patient_view(ehr, patient.id, fhir_base)  # nothing changed on the chart
        shown_again = [c for c in again if c["indicator"] != "info" and c not in first]
        repeated = [
            c["summary"] for c in again if c["indicator"] == "warning" and c["summary"] in summaries
        ]
        assert not shown_again and not repeated, (summaries, [c["summary"] for c in again])
        print(patient.name, patient.age(), summaries)  # the cards per patient, with -s
