"""The reading matrix on real HAPI without a model (slow: it uses the sandbox's FHIR server):
each split passes at least the figure reached (docs/reading.md), and the tuned split has no unsafe
case — no other patient answered from this chart, no finding missing, no write nobody asked for."""
from __future__ import annotations

import pytest
from smart_docgemma.evaluation import evaluate, load_cases

from tests.reading.run_matrix import MATRIX, passed, unsafe

# reached on 2026-12-05 (docs/reading.md); the holdout's misses were read once, for the
# medication words and drug starts
FLOORS = {"tuned": (158, 0), "holdout": (69, 0)}


@pytest.mark.parametrize("split", sorted(FLOORS))
def test_the_matrix_passes_at_least_the_reached_figure(split, fhir_base, sources):
    cases = [c for c in load_cases(MATRIX) if c.split == split]
    by_id = {c.id: c for c in cases}
    report = evaluate(cases, endpoint="", fhir_base=fhir_base, config=sources)
    rows = [(r, by_id[r["id"]]) for r in report["results"]]
    good = sum(passed(r, c) for r, c in rows)
    bad = [c.id for r, c in rows if unsafe(r, c)]
    least, most_unsafe = FLOORS[split]
    assert good >= least and len(bad) <= most_unsafe, (good, bad)
    assert report["overall"]["other_patient_proposals"] == 0
