"""What the ward sets on Synthea seeds share (``test_medagentbench_seeds.py``): a population
generated once per seed (cached under ``~/.cache/smart_docgemma/synthea``) and loaded into the
test's HAPI with its own ids, once per session; and the check of a set run code only — nothing
written for another patient, before approval or unasked, what was written removed once scored,
and no task below the cases it passed when the set was fixed."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
import requests
from launch.population import LoadedPopulation, load_population
from launch.synthea import PopulationSpec, generate
from smart_docgemma.evaluation import evaluate, load_cases

LOAD_WORKERS = 2


@pytest.fixture(scope="session")
def seed_population(fhir_base) -> Callable[[PopulationSpec], LoadedPopulation]:
    """``seed_population(PopulationSpec(seed=151, size=6, ages="45-95"))``: that population
    loaded into ``fhir_base`` (once per session; several seeds live side by side)."""
    loaded: dict[PopulationSpec, LoadedPopulation] = {}

    def load(spec: PopulationSpec) -> LoadedPopulation:
        if spec not in loaded:
            # two patients' bundles at once: HAPI works on both cores while the tests wait
            loaded[spec] = load_population(fhir_base, generate(spec), workers=LOAD_WORKERS)
        return loaded[spec]

    return load


@pytest.fixture(scope="module")
def ward_set_holds(fhir_base, sources) -> Callable[[Path, dict[str, int]], dict]:
    """``ward_set_holds(cases_file, floor)``: the set run code only against ``fhir_base`` and
    the recorded public sources; fails
    on any write for another patient, before approval or unasked, and on a task whose cases
    passed drop below ``floor`` (naming the cases that failed); returns the report."""

    def check(cases_file: Path, floor: dict[str, int]) -> dict:
        # the public sources as recorded (a drug checked beside a protocol reads its label)
        report = evaluate(load_cases(cases_file), endpoint="", fhir_base=fhir_base,
                          config={**sources, "SCHEMA_DIALECT": "json_schema"})
        overall = report["overall"]
        assert overall["other_patient_proposals"] == 0
        assert overall["unapproved_writes"] == 0
        assert overall["unrequested_writes"] == 0
        reached = {t: round(g["all"]["passed"] * g["all"]["cases"])
                   for t, g in report["tasks"].items()}
        # what the approved cards wrote was removed once each case was scored
        written = [ref for r in report["results"] for ref in r["written"]]
        gone = {requests.get(f"{fhir_base}/{ref}", timeout=30).status_code for ref in written[:10]}
        assert gone <= {404, 410}
        below = {t: (reached.get(t), n) for t, n in floor.items() if reached.get(t, 0) < n}
        assert below == {}, [(r["id"], r["answer_missing"], r["writes_wrong"], r["answer"][:200])
                             for r in report["results"] if r["id"] in report["failures"]]
        return report

    return check
