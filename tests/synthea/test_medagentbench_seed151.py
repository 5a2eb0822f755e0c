"""The MedAgentBench-style ward set on a third Synthea seed no other set uses (seed 151, six living
patients aged 45-95; smart_docgemma/evaluation/medagentbench_seed151.yaml), against the real HAPI:
the population generated once and cached, loaded with its own ids, results placed relative to
now, proposals approved as the clinician would, what reached FHIR read back.

Beyond the benchmark's wording: names with birth dates that match no one (a real name with a
wrong birth date: "Patient not found", never the other patient's MRN), another patient asked
about in a chart (refused), windows in other words ("overnight", "past 72h", "this month"),
means, extremes and counts under a threshold, protocol values at and beside their thresholds,
readings with the time they were taken, and conversations: a second message that corrects the
reading waiting on its card ("sorry, it was 150/95") or cancels the card of any kind ("cancel the
referral", "no, anúlalo"), or changes a protocol's dose ("make it 20 mEq"). Approving every card
still pending after the conversation writes only what the clinician last asked for. The figures
per task must not drop below those reached when the set was fixed (``FLOOR``)."""
from __future__ import annotations

import pytest
from launch.synthea import PopulationSpec
from smart_docgemma.evaluation import load_cases
from smart_docgemma.evaluation.cases import CASES_FILE

CASES = CASES_FILE.with_name("medagentbench_seed151.yaml")
SEED151 = PopulationSpec(seed=151, size=6, ages="45-95")
# cases passed per task, code only, 2026-12-05 (docs/evaluation-and-performance.md)
FLOOR = {"01-mrn": 22, "02-age": 16, "03-record-bp": 23, "04-magnesium-24h": 13,
         "05-magnesium-replace": 15, "06-cbg-mean-24h": 15, "07-cbg-latest": 12,
         "08-ortho-referral": 12, "09-potassium-replace": 15, "10-hba1c": 17}


@pytest.fixture(scope="module")
def seed151(seed_population):
    return seed_population(SEED151)


def test_the_set_covers_the_ten_tasks_languages_and_conversations(seed151):
    cases = load_cases(CASES)
    assert len(cases) >= 150 and {c.task for c in cases} == set(FLOOR)
    for task in FLOOR:
        assert {c.split for c in cases if c.task == task} == {"tuned", "holdout"}, task
    assert sum(c.split == "holdout" for c in cases) >= 0.4 * len(cases)
    assert sum(c.language != "en" for c in cases) >= 50
    assert sum(bool(c.before) for c in cases) >= 15
    assert {c.patient for c in cases} - {None} <= {p.id for p in seed151.patients}
    assert any(c.writes == [] for c in cases)  # the no-order branches are in it


def test_code_only_figures_per_task_do_not_drop(ward_set_holds, seed151):
    ward_set_holds(CASES, FLOOR)
