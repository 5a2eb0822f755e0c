"""The MedAgentBench-style ward set on a fourth Synthea seed no other set uses (seed 173, aged
30-90, four charts under the cap; smart_docgemma/evaluation/medagentbench_seed173.yaml), against
the real HAPI: the population generated once and cached, loaded with its own ids, results placed
relative to now, proposals approved as the clinician would, what reached FHIR read back.

Beyond the earlier sets: the id in a FHIR address and typed in part ("pt 8cd61d7a": hers only
when it is her id's first groups; another patient's part refused, never answered from her
chart), a name with an apostrophe in lower case, a real name with another patient's birth date;
"in the past day", "last 2 days", a count over a threshold, a trend, min and max; a protocol
with a window the clinician said (a low result older than it orders nothing); referrals whose
text is two plain sentences; readings as "BP 150/90 @ 2pm", "temp 38.4C at 0700", "spo2 93% RA
07:15"; and conversations that change a card, complete it (a reading asked for and then given, a
referral and then its note, a protocol's order and then its recheck: never drafted twice),
cancel it in other words ("scrap that", "deixa, não registar", "actually cancel the ortho
referral"), or ask about it ("what K was that based on?": the card stays). Approving every card
still pending after the conversation writes only what the clinician last asked for. The figures
per task must not drop below those reached when the set was fixed (``FLOOR``)."""
from __future__ import annotations

import pytest
from launch.synthea import PopulationSpec
from smart_docgemma.evaluation import load_cases
from smart_docgemma.evaluation.cases import CASES_FILE

CASES = CASES_FILE.with_name("medagentbench_seed173.yaml")
SEED173 = PopulationSpec(seed=173, size=6, ages="30-90")
# cases passed per task, code only, 2026-12-05 (docs/evaluation-and-performance.md)
FLOOR = {"01-mrn": 16, "02-age": 12, "03-record-bp": 17, "04-magnesium-24h": 10,
         "05-magnesium-replace": 10, "06-cbg-mean-24h": 10, "07-cbg-latest": 9,
         "08-ortho-referral": 10, "09-potassium-replace": 12, "10-hba1c": 12}


@pytest.fixture(scope="module")
def seed173(seed_population):
    return seed_population(SEED173)


def test_the_set_covers_the_ten_tasks_languages_and_conversations(seed173):
    cases = load_cases(CASES)
    assert len(cases) >= 80 and {c.task for c in cases} == set(FLOOR)
    for task in FLOOR:
        assert {c.split for c in cases if c.task == task} == {"tuned", "holdout"}, task
    assert sum(c.split == "holdout" for c in cases) >= 0.4 * len(cases)
    assert sum(c.language != "en" for c in cases) >= 20
    assert sum(bool(c.before) for c in cases) >= 10
    assert {c.patient for c in cases} - {None} <= {p.id for p in seed173.patients}
    assert any(c.writes == [] for c in cases)  # the no-order branches are in it


def test_code_only_figures_per_task_do_not_drop(ward_set_holds, seed173):
    ward_set_holds(CASES, FLOOR)
