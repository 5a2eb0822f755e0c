"""Every MedAgentBench-style ward set on its Synthea population, one parametrised test per seed,
against the real HAPI: the population generated once and cached, loaded with its own ids,
results placed relative to now, proposals approved as the clinician would, what reached FHIR read
back (``conftest.ward_set_holds``).

Each set is the ten task types of ``medagentbench.yaml`` on a seed no other set uses, written
before any rule was changed for it (its file's header says what it holds and how it is split):
seed 42 (``medagentbench.yaml``), 61, 97, 151, 173, 211 (aged 25-95, a girl who died in 1959 on a
living woman's birth date), 257 (aged 1-95, the first with a child: her weight and its age,
weight-based doses, her growth), 311 (aged 1-95, two teenagers whose weights are months old;
one living man's chart is over the default cap and is not loaded), 367 (aged 1-95, typed
with typos, dictated and in shorthand; one living man over the cap) and 419 (aged 1-95, a girl
of 5 and a baby of 1, two dead women sharing living women's birth dates, times and windows said
as the ward says them; one living man over the cap), 443 (aged 1-95, three girls of 5 and 6,
typed fast and dictated, her past problems asked; two living men over the cap) and 487 (aged
1-95, no living child, three dead men sharing one birth date and a dead man sharing a living
man's; speech-to-text, shorthand, a recheck's own time, "in 2h", "over the weekend"; five
patients over the cap) and 521 (aged 1-95, a boy of 5, a dead man sharing a living man's birth
date and three dead women a living woman's, one of them a living man's surname; dictation,
shorthand, "no recheck needed", "make the recheck 6am instead", a last ED visit older than the
encounter window; six dead patients over the cap) and 563 (aged 1-95, four living children of 3,
5, 9 and 13, a girl with a boy's given name, a dead woman sharing a living woman's birth date;
"d o b" spelled out with the date said in words, shorthand ("last POC gluc?"), children's
weight-based orders, a recheck "in the morning at 8"; one dead woman over the cap) and 601
(aged 1-95, no living child under 16, a girl of 16 and a man of 20 without an HbA1c, given names
that are not clearly a man's or a woman's; a dead woman sharing a living woman's birth date and a
living woman, both over the cap and not loaded, the dead one looked up; the benchmark's own
wording, dictation, shorthand and typos, "since this time yesterday", a surname near a drug's
brand) and 647 (aged 1-95, all eight charts loaded: no living child under 16, a girl of 16 and a
man of 19 without an HbA1c, two living women sharing a surname, near given names (Daniele,
Danette), a dead woman loaded and sharing a living woman's birth date; "pmhx - any seizures?",
"mean BM", "dextros", a two-digit birth year, "hold off on that, don't send") and 691 (aged 1-95,
all seven charts loaded and living: a boy of 4 and a girl of 1 with epilepsy, given names that are
also words (Prince, Scarlet, Nana) named in other charts; the benchmark's own wording with the
patient's id for every task in both splits, "¿qué edad tiene?", "pmhx - any valve disease?",
"hold off on that, don't order", "nah don't send") and 733 (aged 1-95, no child, four of
seven living charts loaded and three over the cap, named in the loaded charts and one looked
up; given names that are also words: "Avril" (a month) and "Pinkie" (a finger: "jammed pinkie
finger" is no person); "push the recheck to 10am", "mean bs over the last day", "mrn for avril
bernier, dob 3/7/87", "refer Avril Bernier to ortho" in another chart) and 797 (aged 1-95, no
child, four living charts loaded and two dead ones on the birth dates of two living patients over
the cap, looked up by those living names ("Patient not found", never the dead one's id) and the
dead man by his own; a middle name that is a word ("mrn for evalyn in kohler, dob 5/29/85"),
accents dropped ("Olivia Pabon"), a woman named Freddie; "sorry, systolic was 126 not 162",
"actually do the recheck at 11 instead", a referral to "traumatología"). Per set: the
cases cover the ten tasks in both splits, the languages and the two-turn conversations it was written with, on
patients of its population; and, run code only, no task passes fewer cases than when the set was
fixed (``floor``), nothing is written for another patient, before approval or unasked. Run it
with ``FHIR_UPSTREAM_URL`` on a server of your own: the nineteen populations live side by side.
A plain run scores the first set and the five newest (``IN_EVERY_RUN``); ``WARD_SEEDS=all``
scores every one."""
from __future__ import annotations

import os
from dataclasses import dataclass, field

import pytest
from launch.synthea import PopulationSpec
from smart_docgemma.evaluation import load_cases
from smart_docgemma.evaluation.cases import CASES_FILE

TASKS = ("01-mrn", "02-age", "03-record-bp", "04-magnesium-24h", "05-magnesium-replace",
         "06-cbg-mean-24h", "07-cbg-latest", "08-ortho-referral", "09-potassium-replace",
         "10-hba1c")


@dataclass(frozen=True)
class WardSet:
    """One seed's set: its cases file, its population, the cases passed per task when it was
    fixed (code only, docs/evaluation-and-performance.md), and what it was written to cover."""

    cases: str
    population: PopulationSpec
    floor: tuple[int, ...]  # in the order of TASKS
    least_cases: int
    holdout_share: float = 0.0
    other_languages: int = 0  # cases in French, Portuguese or Spanish
    conversations: int = 0  # two-turn cases (before:)
    whole: int | None = None  # the charts, all loaded under the default cap
    tasks: tuple[str, ...] = field(default=TASKS)

    def floors(self) -> dict[str, int]:
        return dict(zip(self.tasks, self.floor, strict=True))


SETS = {
    42: WardSet("medagentbench.yaml", PopulationSpec(seed=42, size=5),
                (7, 7, 7, 7, 7, 7, 7, 7, 7, 7), 70),
    61: WardSet("medagentbench_seed61.yaml", PopulationSpec(seed=61, size=5, ages="30-90"),
                (10, 10, 9, 9, 9, 8, 8, 8, 9, 9), 40),
    97: WardSet("medagentbench_seed97.yaml", PopulationSpec(seed=97, size=5, ages="18-95"),
                (27, 19, 27, 22, 20, 20, 15, 15, 19, 21), 60, 0.4, 8),
    151: WardSet("medagentbench_seed151.yaml", PopulationSpec(seed=151, size=6, ages="45-95"),
                 (22, 16, 23, 13, 15, 15, 12, 12, 15, 17), 150, 0.4, 50, 15),
    173: WardSet("medagentbench_seed173.yaml", PopulationSpec(seed=173, size=6, ages="30-90"),
                 (16, 12, 17, 10, 10, 10, 9, 10, 12, 12), 80, 0.4, 20, 10),
    211: WardSet("medagentbench_seed211.yaml", PopulationSpec(seed=211, size=6, ages="25-95"),
                 (16, 12, 16, 11, 12, 11, 9, 10, 13, 12), 80, 0.4, 20, 12, whole=7),
    257: WardSet("medagentbench_seed257.yaml", PopulationSpec(seed=257, size=7, ages="1-95"),
                 (12, 10, 15, 10, 13, 10, 10, 10, 9, 12), 80, 0.4, 20, 12, whole=7),
    311: WardSet("medagentbench_seed311.yaml", PopulationSpec(seed=311, size=8, ages="1-95"),
                 (9, 12, 13, 8, 13, 9, 9, 10, 9, 11), 100, 0.4, 20, 12),
    367: WardSet("medagentbench_seed367.yaml", PopulationSpec(seed=367, size=8, ages="1-95"),
                 (10, 12, 14, 9, 11, 10, 10, 10, 10, 11), 100, 0.4, 20, 12),
    419: WardSet("medagentbench_seed419.yaml", PopulationSpec(seed=419, size=8, ages="1-95"),
                 (11, 15, 14, 10, 12, 10, 10, 12, 10, 11), 110, 0.4, 20, 12),
    443: WardSet("medagentbench_seed443.yaml", PopulationSpec(seed=443, size=8, ages="1-95"),
                 (12, 18, 14, 10, 12, 11, 13, 12, 12, 11), 120, 0.4, 20, 12),
    487: WardSet("medagentbench_seed487.yaml", PopulationSpec(seed=487, size=8, ages="1-95"),
                 (11, 15, 14, 9, 10, 9, 11, 11, 11, 11), 110, 0.4, 20, 12),
    521: WardSet("medagentbench_seed521.yaml", PopulationSpec(seed=521, size=8, ages="1-95"),
                 (12, 14, 13, 11, 12, 11, 11, 11, 12, 11), 110, 0.4, 20, 12),
    563: WardSet("medagentbench_seed563.yaml", PopulationSpec(seed=563, size=7, ages="1-95"),
                 (11, 15, 13, 9, 13, 10, 10, 9, 10, 10), 110, 0.4, 20, 12),
    601: WardSet("medagentbench_seed601.yaml", PopulationSpec(seed=601, size=7, ages="1-95"),
                 (11, 16, 12, 11, 12, 11, 11, 10, 11, 11), 110, 0.4, 20, 12),
    647: WardSet("medagentbench_seed647.yaml", PopulationSpec(seed=647, size=7, ages="1-95"),
                 (11, 13, 11, 10, 11, 12, 11, 10, 11, 12), 110, 0.4, 20, 12, whole=8),
    691: WardSet("medagentbench_seed691.yaml", PopulationSpec(seed=691, size=7, ages="1-95"),
                 (8, 9, 9, 8, 8, 6, 6, 7, 9, 10), 80, 0.4, 20, 12, whole=7),
    733: WardSet("medagentbench_seed733.yaml", PopulationSpec(seed=733, size=7, ages="1-95"),
                 (8, 10, 8, 7, 7, 7, 7, 8, 9, 9), 80, 0.4, 20, 12),
    797: WardSet("medagentbench_seed797.yaml", PopulationSpec(seed=797, size=7, ages="1-95"),
                 (8, 10, 9, 6, 8, 7, 7, 8, 9, 8), 80, 0.4, 20, 12),
}


# Each seed's full run takes two to four minutes, most of CI's time: the README's test command
# runs the first set and the five newest (each newer set was written against every rule before
# it, and every seed's wordings stay pinned by their pure tests in tests/agent); WARD_SEEDS=all,
# or a list ("97,151"), runs the others, as a change to the reading's rules should before it lands.
IN_EVERY_RUN = (42, 601, 647, 691, 733, 797)


def chosen_seeds(said: str | None = None) -> list[int]:
    """The seeds this run loads and scores: ``WARD_SEEDS`` ("all", or seeds by comma), else
    ``IN_EVERY_RUN``."""
    said = os.environ.get("WARD_SEEDS", "") if said is None else said
    if said.strip() == "all":
        return sorted(SETS)
    picked = [int(s) for s in said.replace(" ", "").split(",") if s]
    unknown = set(picked) - set(SETS)
    if unknown:
        raise ValueError(f"WARD_SEEDS names no set for {sorted(unknown)}; sets: {sorted(SETS)}")
    return sorted(picked) if picked else sorted(IN_EVERY_RUN)


def test_every_run_scores_the_first_and_the_newest_sets_and_all_can_be_asked():
    newest = sorted(SETS)[-5:]
    assert set(IN_EVERY_RUN) == {42, *newest}
    assert chosen_seeds("all") == sorted(SETS) and chosen_seeds("97, 151") == [97, 151]
    with pytest.raises(ValueError):
        chosen_seeds("98")


@pytest.fixture(params=chosen_seeds(), ids=lambda seed: f"seed{seed}")
def ward_set(request, seed_population):
    """(the set, its population loaded into the test's HAPI)."""
    chosen = SETS[request.param]
    return chosen, seed_population(chosen.population)


def test_the_set_covers_the_ten_tasks_languages_and_conversations(ward_set):
    chosen, population = ward_set
    cases = load_cases(CASES_FILE.with_name(chosen.cases))
    assert len(cases) >= chosen.least_cases and {c.task for c in cases} == set(chosen.tasks)
    for task in chosen.tasks:
        assert {c.split for c in cases if c.task == task} == {"tuned", "holdout"}, task
    assert sum(c.split == "holdout" for c in cases) >= chosen.holdout_share * len(cases)
    assert sum(c.language != "en" for c in cases) >= chosen.other_languages
    assert sum(bool(c.before) for c in cases) >= chosen.conversations
    assert {c.patient for c in cases} - {None} <= {p.id for p in population.patients}
    assert any(c.writes == [] for c in cases)  # the no-order branches are in it
    if chosen.whole is not None:
        assert len(population.patients) == chosen.whole and population.skipped == []


def test_code_only_figures_per_task_do_not_drop(ward_set, ward_set_holds):
    chosen, _ = ward_set
    ward_set_holds(CASES_FILE.with_name(chosen.cases), chosen.floors())
