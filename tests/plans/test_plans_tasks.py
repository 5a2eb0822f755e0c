"""Care gaps, problem plans and reconciliation as a clinician asks them, without a model, against
the real HAPI server: each task of ``evaluation/multistep/plans.yaml`` is run through the app,
its cards approved, and every checkpoint scored against FHIR (values with their dates, absent
only after every code, stale and contradicted values never acted on, nothing written before
Approve, exactly once after)."""
from __future__ import annotations

import pytest
from smart_docgemma.evaluation.multistep.run import evaluate
from smart_docgemma.evaluation.multistep.tasks import FOLDER, load_tasks

pytestmark = pytest.mark.slow

TASKS = load_tasks([FOLDER / "plans.yaml"])


@pytest.fixture(scope="module")
def results(fhir_base):
    return {r.id: r for r in evaluate(TASKS, fhir_base)}


@pytest.mark.parametrize("task", [t.id for t in TASKS])
def test_every_checkpoint_of_the_task_holds(results, task):
    result = results[task]
    failed = [f"{c.name}: {c.detail}" for c in result.checkpoints if not c.ok]
    assert result.error is None and not failed, (failed, result.answer[:1500])


def test_the_set_has_every_perturbation_and_a_holdout():
    assert {t.perturbation for t in TASKS} >= {"missing", "stale", "conflicting", "wrong_patient"}
    assert sum(t.split == "holdout" for t in TASKS) >= 4
    assert all(len(t.checkpoints) >= 5 for t in TASKS)
