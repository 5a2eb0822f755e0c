"""The knowledge leftovers through the chat without a model in a real SMART launch (sandbox +
HAPI): a release form written after the drug is kept on the card and in the approved
MedicationRequest read back from FHIR; bleeding said with a high INR gets the bleeding plan and
no card; a combination's card names each ingredient's RxNorm code."""
from __future__ import annotations

from tests.ward.conftest import answer_text, cards, written


def _said(html: str) -> str:
    return answer_text(html).split("Clinical trace")[0]


def test_a_release_form_is_kept_on_the_card_and_the_medication_request(doctor, fhir_base):
    html = doctor.ask("nifedipine MR 20 bd")
    [card] = cards(html)
    assert "nifedipine MR" in _said(html)
    assert doctor.approve(card).status_code == 200
    [mr] = written(fhir_base, "MedicationRequest", card)
    assert mr["medicationCodeableConcept"]["text"] == "nifedipine MR"
    assert mr["medicationCodeableConcept"]["coding"][0]["code"] == "7417"
    assert mr["dosageInstruction"][0]["text"].endswith(", MR")
    assert mr["dosageInstruction"][0]["doseAndRate"][0]["doseQuantity"]["value"] == 20


def test_bleeding_with_a_high_inr_gets_the_bleeding_plan_and_no_card(doctor):
    html = doctor.ask("INR 9 with melaena")
    said = _said(html)
    assert "prothrombin complex" in said and "vitamin K 5 to 10 mg" in said
    assert "No routine vitamin K" not in said and cards(html) == []


def test_a_combination_card_names_each_ingredient_code(doctor):
    said = _said(doctor.ask("piperacillin/tazobactam 4.5g tds iv"))
    assert "8339 (piperacillin)" in said and "37617 (tazobactam)" in said
    assert "none found" not in said


def test_nephrotoxic_drugs_are_named_from_her_own_list(doctor):
    [card] = cards(doctor.ask("ibuprofen 400mg tds"))
    assert doctor.approve(card).status_code == 200
    said = _said(doctor.ask("any nephrotoxics he's on?"))
    assert "ibuprofen: acute kidney injury" in said and "FDA NSAID labels" in said
