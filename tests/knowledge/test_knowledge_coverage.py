"""The knowledge core's coverage of the WHO essential medicines (adult core list and the
children's list transcribed in ``knowledge/data/who_emlc_core.yaml``) must not drop: each figure
is at least what ``docs/knowledge-coverage.md`` reported when it was written."""

from __future__ import annotations

from smart_docgemma.knowledge import coverage

# measured 2026-12-04 (python -m smart_docgemma.knowledge.coverage)
ADULT = {
    "identity": 301,
    "class": 246,
    "interactions": 205,
    "adult dose": 10,
    "paediatric range": 55,
    "renal rule": 12,
}
CHILDREN = {
    "identity": 93,
    "class": 85,
    "interactions": 75,
    "adult dose": 4,
    "paediatric range": 52,
    "renal rule": 5,
}


def test_the_adult_list_coverage_does_not_drop():
    found = coverage.figures(coverage.EML)
    assert found["medicines"] == 317
    assert all(found[a] >= n for a, n in ADULT.items()), found


def test_the_childrens_list_coverage_does_not_drop_and_40_have_a_paediatric_range():
    found = coverage.figures(coverage.EMLC)
    assert all(found[a] >= n for a, n in CHILDREN.items()), found
    assert found["paediatric range"] >= 40


def test_the_report_in_docs_is_the_one_the_code_writes():
    from pathlib import Path

    doc = Path(coverage.__file__).parents[2] / "docs" / "knowledge-coverage.md"
    assert doc.read_text() == coverage.report()
