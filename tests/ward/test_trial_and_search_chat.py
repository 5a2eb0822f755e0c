"""A therapeutic trial of a drug told from a search for studies of it, follow-ups of follow-ups,
and a dose change right after an approval, through the chat without a model in a real SMART
launch (sandbox + HAPI)."""
from __future__ import annotations

import pytest

from tests.ward.conftest import Clinician, answer_text, cards, written


def _said(html: str) -> str:
    return answer_text(html).split("Clinical trace")[0]


@pytest.fixture
def at(ward_app, sandbox, fhir_base):
    """A clinician in a scenario chart (questions only: nothing is approved there)."""
    return lambda patient: Clinician(ward_app[1], fhir_base, sandbox, patient)


def test_a_trial_of_a_drug_for_her_is_its_safety_check_not_a_trials_search(at):
    amara = at("pt-pregnant")  # pregnant, on lisinopril
    said = _said(amara.ask("trial of losartan?"))
    assert "CRITICAL" in said and "fetal renal toxicity" in said
    assert "Clinical trials search" not in said
    essai = _said(amara.ask("on tente un essai thérapeutique de losartan ?"))
    assert "fetal renal toxicity" in essai and "Clinical trials search" not in essai


def test_a_search_for_studies_of_her_drug_searches_and_carries_its_finding(at):
    amara = at("pt-pregnant")
    # ClinicalTrials.gov is not reachable from this app: the search is said to have failed,
    # and the finding still comes with it, none of its lines marked as unfound
    said = _said(amara.ask("trials of losartan in pregnancy"))
    assert "ClinicalTrials.gov" in said
    assert "checked against this patient's chart as well" in said
    assert "CRITICAL" in said and "fetal renal toxicity" in said
    assert "could not be found in the record" not in said
    plain = _said(at("pt-warfarin").ask("any recruiting trials for atrial fibrillation?"))
    assert "ClinicalTrials.gov" in plain and "checked against this patient" not in plain


def test_a_follow_up_of_a_follow_up_keeps_the_drug(at):
    robert = at("pt-warfarin")
    robert.ask("ibuprofen for his knee pain?")
    robert.ask("max per day?")
    said = _said(robert.ask("what would you use instead?"))
    assert "prefer acetaminophen" in said.lower() and "Which drug do you mean" not in said
    assert "CRITICAL — Avoid ibuprofen with warfarin" in said


def test_a_dose_change_right_after_an_approval_finds_the_new_order(doctor, fhir_base):
    [pid] = cards(doctor.ask("start amlodipine 5mg od"))
    assert doctor.approve(pid).status_code == 200
    [order] = written(fhir_base, "MedicationRequest", pid)
    # at once, inside the server's 60 s search cache: the list is read with no-cache
    html = doctor.ask("increase amlodipine to 10mg od")
    [change] = cards(html)
    card = str(doctor.proposal(change))
    assert "change_dose" in card and f"MedicationRequest/{order['id']}" in card, card[:600]
