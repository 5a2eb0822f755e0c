"""Kidney rules for drugs that accumulate, and what the check says of a drug its renal rules do
not hold: never "nothing found" for a check that had no rule to apply. Pure: no HAPI."""
from __future__ import annotations

import pytest
from smart_docgemma import knowledge
from smart_docgemma.checks.drug_safety import Report
from smart_docgemma.knowledge.disease import lab_rules


@pytest.mark.parametrize("drug, egfr, severity", [
    ("gentamicin", 38, "warning"), ("amikacin", 45, "warning"), ("trimethoprim", 20, "warning"),
    ("trimethoprim", 10, "critical"), ("ciprofloxacin", 25, "warning"), ("digoxin", 50, "warning"),
    ("acyclovir", 30, "warning"), ("amoxicillin", 20, "warning"), ("tenofovir", 40, "warning"),
])
def test_drugs_that_accumulate_are_flagged_below_their_threshold(drug, egfr, severity):
    flags = knowledge.renal_flags([drug], egfr)
    assert [f.severity for f in flags] == [severity]


@pytest.mark.parametrize("drug, egfr", [("trimethoprim", 38), ("amoxicillin", 38), ("digoxin", 75)])
def test_above_the_threshold_nothing_is_flagged(drug, egfr):
    assert knowledge.renal_flags([drug], egfr) == []


def test_trimethoprim_on_a_high_potassium_is_reviewed():
    rules = lab_rules(["trimethoprim"])
    assert [(r.test, r.above, r.severity) for r in rules] == [("potassium", 5.0, "warning")]
    assert lab_rules(["sulfamethoxazole", "trimethoprim"])  # co-trimoxazole holds it


def test_a_drug_the_renal_rules_lack_is_said_not_covered_beside_the_kidney_result():
    renal = knowledge.Renal(38.0)
    lines = Report(drugs=["amlodipine"], renal=renal, renal_uncovered=["amlodipine"]).lines()
    assert any(line.startswith("Not covered: the renal rules have no entry for amlodipine")
               for line in lines)
    quiet = Report(drugs=["metformin"], renal=renal).lines()
    assert not any("renal rules have no entry" in line for line in quiet)


def test_a_systemic_steroid_in_diabetes_is_reviewed_an_inhaled_one_is_not():
    from smart_docgemma.knowledge.disease import Problem, disease_flags

    diabetes = [Problem("Type 2 diabetes mellitus", frozenset({"44054006"}))]
    assert [f.severity for f in disease_flags(["prednisolone"], diabetes)] == ["warning"]
    assert disease_flags(["fluticasone"], diabetes) == []
