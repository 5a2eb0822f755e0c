"""The MedAgentBench-style ward set on a fifth Synthea seed no other set uses (seed 211, aged
25-95, all seven charts under the cap, one of them a girl who died in 1959 on the birth date of
a living woman; smart_docgemma/evaluation/medagentbench_seed211.yaml), against the real HAPI: the
population generated once and cached, loaded with its own ids, results placed relative to now,
proposals approved as the clinician would, what reached FHIR read back.

Beyond the earlier sets: handover lines pasted whole ("Bed 3 — Mrs Bayer, 81, CAP day 2, K 3.2
this am, needs replacing, recheck tmrw 8am": the bed is hers, her surname no drug); the id in the
middle of a clause; names with month names in four languages and two-digit years; two patients
born the same day, each found by her own name; another patient of the population named in a
chart (refused); "in the past 36 hours", "since yesterday evening", "this admission"; counts,
trends, min, max, means; protocols at and beside their thresholds and with a result outside the
window; orders with a route and a duration, and an order line with its recheck in one message;
readings at "3:45pm", "0545", "22h", "às 7h30"; and conversations that change, complete, cancel
("forget the order", "cancela eso", "não, cancela") or ask about ("qual era o potássio?") the
first message's card. The figures per task must not drop below those reached when the set was
fixed (``FLOOR``)."""
from __future__ import annotations

import pytest
from launch.synthea import PopulationSpec
from smart_docgemma.evaluation import load_cases
from smart_docgemma.evaluation.cases import CASES_FILE

CASES = CASES_FILE.with_name("medagentbench_seed211.yaml")
SEED211 = PopulationSpec(seed=211, size=6, ages="25-95")
# cases passed per task, code only, 2026-12-05 (docs/evaluation-and-performance.md)
FLOOR = {"01-mrn": 16, "02-age": 12, "03-record-bp": 16, "04-magnesium-24h": 11,
         "05-magnesium-replace": 12, "06-cbg-mean-24h": 11, "07-cbg-latest": 9,
         "08-ortho-referral": 10, "09-potassium-replace": 13, "10-hba1c": 12}


@pytest.fixture(scope="module")
def seed211(seed_population):
    return seed_population(SEED211)


def test_the_whole_population_loads_under_the_default_cap(seed211):
    assert len(seed211.patients) == 7 and seed211.skipped == []


def test_the_set_covers_the_ten_tasks_languages_and_conversations(seed211):
    cases = load_cases(CASES)
    assert len(cases) >= 80 and {c.task for c in cases} == set(FLOOR)
    for task in FLOOR:
        assert {c.split for c in cases if c.task == task} == {"tuned", "holdout"}, task
    assert sum(c.split == "holdout" for c in cases) >= 0.4 * len(cases)
    assert sum(c.language != "en" for c in cases) >= 20
    assert sum(bool(c.before) for c in cases) >= 12
    assert {c.patient for c in cases} - {None} <= {p.id for p in seed211.patients}
    assert any(c.writes == [] for c in cases)  # the no-order branches are in it


def test_code_only_figures_per_task_do_not_drop(ward_set_holds, seed211):
    ward_set_holds(CASES, FLOOR)
