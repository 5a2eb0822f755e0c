"""The MedAgentBench-style ward set on a Synthea seed no other set uses (seed 61, five living
patients aged 30-90; smart_docgemma/evaluation/medagentbench_seed61.yaml), against the real HAPI:
the population generated once and cached like seed 42, loaded with its own ids beside it, results
placed relative to now, proposals approved as the clinician would, what reached FHIR read back.

Two of its four patients have ids whose first group starts with a letter ("patient
c296800d-…"): the benchmark's own wording with such an id was read as another patient, cut at
the id's fourth group. The figures per task must not drop below those reached when the set was
fixed (``FLOOR``: cases passed per task, both splits); nothing may be written for another patient
or before approval."""
from __future__ import annotations

import pytest
from launch.synthea import PopulationSpec
from smart_docgemma.evaluation import load_cases
from smart_docgemma.evaluation.cases import CASES_FILE

CASES = CASES_FILE.with_name("medagentbench_seed61.yaml")
SEED61 = PopulationSpec(seed=61, size=5, ages="30-90")
# cases passed per task, code only, 2026-12-05 (docs/evaluation-and-performance.md)
FLOOR = {"01-mrn": 10, "02-age": 10, "03-record-bp": 9, "04-magnesium-24h": 9,
         "05-magnesium-replace": 9, "06-cbg-mean-24h": 8, "07-cbg-latest": 8,
         "08-ortho-referral": 8, "09-potassium-replace": 9, "10-hba1c": 9}


@pytest.fixture(scope="module")
def seed61(seed_population):
    return seed_population(SEED61)


def test_the_set_covers_the_ten_tasks_in_both_splits_on_loaded_patients(seed61):
    cases = load_cases(CASES)
    assert len(cases) >= 40 and {c.task for c in cases} == set(FLOOR)
    for task in FLOOR:
        assert {c.split for c in cases if c.task == task} == {"tuned", "holdout"}, task
    assert {c.patient for c in cases} - {None} <= {p.id for p in seed61.patients}
    assert any(c.writes == [] for c in cases)  # the no-order branches are in it


def test_code_only_figures_per_task_do_not_drop(ward_set_holds, seed61):
    ward_set_holds(CASES, FLOOR)
