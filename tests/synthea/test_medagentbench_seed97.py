"""The MedAgentBench-style ward set on a second Synthea seed no other set uses (seed 97, five
living patients aged 18-95; smart_docgemma/evaluation/medagentbench_seed97.yaml), against the real
HAPI: the population generated once and cached like seeds 42 and 61, loaded with its own ids,
results placed relative to now, proposals approved as the clinician would, what reached FHIR read
back.

Its wordings are the ones nurses and doctors type: a name in lower case or in capitals with a birth
date in another format ("07/09/1986", both readings searched), her name without the digits Synthea
adds, "mag", "BG (POC)", windows in other words, values in the unit asked, a protocol's value just
under or at its threshold, conditions and referrals in French, Portuguese and Spanish. The figures
per task must not drop below those reached when the set was fixed (``FLOOR``: cases passed per
task, both splits and the four sets); nothing may be written for another patient, before approval, or
unasked."""
from __future__ import annotations

import pytest
from launch.synthea import PopulationSpec
from smart_docgemma.evaluation import load_cases
from smart_docgemma.evaluation.cases import CASES_FILE

CASES = CASES_FILE.with_name("medagentbench_seed97.yaml")
SEED97 = PopulationSpec(seed=97, size=5, ages="18-95")
# cases passed per task, code only, 2026-12-05 (docs/evaluation-and-performance.md)
FLOOR = {"01-mrn": 27, "02-age": 19, "03-record-bp": 27, "04-magnesium-24h": 22,
         "05-magnesium-replace": 20, "06-cbg-mean-24h": 20, "07-cbg-latest": 15,
         "08-ortho-referral": 15, "09-potassium-replace": 19, "10-hba1c": 21}


@pytest.fixture(scope="module")
def seed97(seed_population):
    return seed_population(SEED97)


def test_the_set_covers_the_ten_tasks_in_both_splits_and_four_languages(seed97):
    cases = load_cases(CASES)
    assert len(cases) >= 60 and {c.task for c in cases} == set(FLOOR)
    for task in FLOOR:
        assert {c.split for c in cases if c.task == task} == {"tuned", "holdout"}, task
    assert sum(c.split == "holdout" for c in cases) >= 0.4 * len(cases)
    assert sum(c.language != "en" for c in cases) >= 8
    known = {p.id for p in seed97.patients}
    assert {c.patient for c in cases} - {None} <= known
    assert any(c.writes == [] for c in cases)  # the no-order branches are in it


def test_code_only_figures_per_task_do_not_drop(ward_set_holds, seed97):
    ward_set_holds(CASES, FLOOR)
