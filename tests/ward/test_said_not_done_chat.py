"""What a message asks that is not done is said, and only what was asked is carded, through the
chat without a model in a real SMART launch (sandbox + HAPI): a drug held in words is said not
held while the lab beside it is carded; a test of a list the lab table lacks is said not ordered
while the others are carded; the drug an order replaces ("instead of …") is never the one carded."""
from __future__ import annotations

from tests.ward.conftest import answer_text, cards, of_patient, written


def _said(html: str) -> str:
    return answer_text(html).split("Clinical trace")[0]


def test_a_drug_held_in_words_is_said_not_held_and_its_lab_is_carded(doctor, fhir_base):
    html = doctor.ask("hold warfarin tonight and recheck INR tomorrow am")
    [card] = cards(html)
    assert "Nothing was stopped or held: warfarin" in _said(html)
    assert doctor.approve(card).status_code == 200
    [order] = written(fhir_base, "ServiceRequest", card)
    assert order["code"]["coding"][0]["code"] == "6301-6"  # the INR, nothing else
    assert of_patient(fhir_base, "MedicationRequest", doctor.patient) == []


def test_a_test_the_table_lacks_is_said_and_the_others_carded(doctor, fhir_base):
    html = doctor.ask("fbc, ldh and inr tomorrow 8am")
    assert "Not ordered: ldh" in _said(html)
    ordered = cards(html)
    assert len(ordered) == 2
    for card in ordered:
        assert doctor.approve(card).status_code == 200
    codes = {written(fhir_base, "ServiceRequest", c)[0]["code"]["coding"][0]["code"] for c in ordered}
    assert codes == {"58410-2", "6301-6"}


def test_the_drug_an_order_replaces_is_never_carded(doctor):
    html = doctor.ask("start co-amoxiclav instead of amoxicillin 500 tds")
    assert "amoxicillin/clavulanate" in _said(html)  # the new drug is checked
    for card in cards(html):
        assert "amoxicillin 500" not in str(doctor.proposal(card)["summary"]).lower()


def test_another_drug_in_the_cards_place_asks_its_dose_never_carries_the_old_one(doctor, fhir_base):
    [first] = cards(doctor.ask("codeine 30 mg qds"))
    html = doctor.ask("actually use morphine instead")
    assert cards(html) == [] and "not carried over to morphine" in _said(html)
    assert doctor.proposal(first)["status"] == "rejected"  # replaced in words: withdrawn
    [second] = cards(doctor.ask("10 mg qds"))
    assert doctor.approve(second).status_code == 200
    [mr] = written(fhir_base, "MedicationRequest", second)
    assert "morphine" in mr["medicationCodeableConcept"]["text"].lower()
    assert mr["dosageInstruction"][0]["doseAndRate"][0]["doseQuantity"]["value"] == 10
    assert written(fhir_base, "MedicationRequest", first) == []
