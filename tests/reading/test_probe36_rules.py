"""Rules from the thirty-sixth and thirty-seventh unseen sets (probe36_en, probe37_mix): each a
pure reading of words, with the near words that must not trigger it."""
from __future__ import annotations

import pytest
from smart_docgemma.checks import drug_safety
from smart_docgemma.checks.hookdata import HookData
from smart_docgemma.tools.chart.answers import chart_focus


@pytest.mark.parametrize("said", [
    "discharge med rec - anything to flag?",  # probe37_mix's one unsafe miss
    "med rec - anything to flag?",
    "discharge med rec",
    "anything to flag in her meds before discharge?",
    "discharge meds - anything to flag?",
    "meds on discharge ok?",
    "admission med rec pls",
    "med rec ok?",
])
def test_her_list_asked_beside_her_discharge_is_the_list_with_its_review(said):
    assert chart_focus(said) == "medications"


@pytest.mark.parametrize("said", [
    "when was she discharged?",
    "last admission?",
    "how many admissions this year",
    "was he admitted on warfarin?",  # the stay asked, a drug said with it
])
def test_her_stays_asked_alone_stay_her_stays(said):
    assert chart_focus(said) == "encounters"


def test_a_record_is_not_a_reconciliation():
    assert chart_focus("medical records") is None


def test_a_renal_rule_that_could_not_run_is_not_said_to_have_found_nothing():
    # metformin for a man with no eGFR on file: its renal rule did not run, so the clean line
    # must not name the renal rules among those that found nothing
    data = HookData(resources={"medications": [], "conditions": [], "pregnancy": [],
                               "labs": [], "allergies": []})
    said = " ".join(drug_safety.check(["metformin"], data, None, True).lines())
    assert "no eGFR on file" in said
    assert "renal, drug–disease" not in said and "nothing found in the" not in said
    assert "no finding in the checks that ran" in said
