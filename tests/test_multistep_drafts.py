"""Drafts a clinician signs, end to end without a model against HAPI (the multi-step task set's
runner, evaluation/multistep): the request routed by code, the draft built from the chart and
shown as a card, nothing written before Approve, exactly one resource after it (with the referral
letter contained in its order), a follow-up re-drafting the pending card, the wrong patient
refused with both birth dates, and the Synthea charts drafted with their own values."""

import pytest
from smart_docgemma.evaluation.multistep.run import evaluate
from smart_docgemma.evaluation.multistep.tasks import load_tasks

FIXTURE_TASKS = (
    "ds-ckd",
    "pn-conflict-k",
    "ho-warfarin",
    "rf-nephro-urgent",
    "rf-nephro-add-k",
    "ds-wrong-patient",
    "ds-demo-missing",
    "ds-allergy-drug",
    "ds-add-sentence",
    "ho-pregnant-review",
)
SYNTHEA_TASKS = ("rf-missing-egfr", "rf-stale-egfr", "ho-synthea-dennise")


def _run(fhir_base: str, ids: tuple[str, ...]) -> dict[str, list[str]]:
    tasks = [t for t in load_tasks() if t.id in ids]
    assert len(tasks) == len(ids)
    return {
        r.id: [f"{c.name}: {c.detail}" for c in r.checkpoints if not c.ok]
        + ([r.error] if r.error else [])
        for r in evaluate(tasks, fhir_base)
    }


@pytest.mark.slow
def test_drafts_on_the_fixtures_pass_every_checkpoint(fhir_base):
    assert _run(fhir_base, FIXTURE_TASKS) == {i: [] for i in FIXTURE_TASKS}


@pytest.mark.slow
def test_drafts_on_synthea_charts_pass_every_checkpoint(synthea, fhir_base):
    assert _run(fhir_base, SYNTHEA_TASKS) == {i: [] for i in SYNTHEA_TASKS}
