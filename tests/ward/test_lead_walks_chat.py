"""What the lead's walks found about the pending card and held drugs, through the chat without
a model in a real SMART launch (sandbox + HAPI): a switch away from the pending card's drug, on
no active order, re-drafts the card rather than adding a second; a drug held beside a new order
proposes no stop; an allergy denied in words records nothing and the order is carded."""
from __future__ import annotations

from tests.ward.conftest import answer_text, cards, written


def test_a_switch_away_from_the_pending_cards_drug_redrafts_the_card(doctor, fhir_base):
    [first] = cards(doctor.ask("azithromycin 500mg od 3 days"))
    html = doctor.ask("change the azithro to clarithro 500 bd")
    [second] = cards(html)
    assert doctor.proposal(first)["status"] == "rejected"
    assert "The earlier card was withdrawn" in answer_text(html)
    assert doctor.approve(second).status_code == 200
    [mr] = written(fhir_base, "MedicationRequest", second)
    assert "clarithromycin" in mr["medicationCodeableConcept"]["text"].lower()
    assert written(fhir_base, "MedicationRequest", first) == []


def test_a_drug_held_beside_an_order_is_no_switch(doctor):
    html = doctor.ask("give vit K 1mg po and hold warfarin")
    assert "Stop warfarin" not in answer_text(html) and "Switch to" not in answer_text(html)


def test_an_allergy_denied_in_words_records_none_and_the_order_is_carded(doctor, fhir_base):
    html = doctor.ask("amoxil 500 tds - she's not really allergic, just a rash as a kid")
    [card] = cards(html)
    assert "Prescribe amoxicillin 500 mg" in answer_text(html)
    assert "Record allergy" not in answer_text(html)
    assert doctor.approve(card).status_code == 200
    [mr] = written(fhir_base, "MedicationRequest", card)
    assert "amoxicillin" in mr["medicationCodeableConcept"]["text"].lower()


def test_a_converted_reading_corrected_is_redrafted_in_its_own_unit(doctor, fhir_base):
    [first] = cards(doctor.ask("cbg 3.9 at 0600 - pls record"))
    html = doctor.ask("sorry 2.9 not 3.9")
    [second] = cards(html)
    assert doctor.proposal(first)["status"] == "rejected"
    assert doctor.approve(second).status_code == 200
    [obs] = written(fhir_base, "Observation", second)
    assert obs["valueQuantity"]["value"] == 52.25


def test_another_drug_without_its_dose_is_checked_when_its_dose_is_asked(doctor):
    [first] = cards(doctor.ask("azithromycin 500mg od 3 days"))
    html = doctor.ask("use warfarin instead")
    assert cards(html) == [] and doctor.proposal(first)["status"] == "rejected"
    assert "what dose" in answer_text(html).lower() and "warfarin" in answer_text(html).lower()
    # the drug's check ran with the question (its source is cited; before, nothing was checked)
    assert "FDA drug label" in answer_text(html)


def test_an_allergy_said_without_its_reaction_asks_it_and_the_reply_completes_the_card(
        doctor, fhir_base):
    asked = doctor.ask("elle est allergique à l'aspirine aussi")
    assert cards(asked) == [] and "what reaction" in answer_text(asked).lower()
    html = doctor.ask("urticaire")
    [card] = cards(html)
    assert doctor.approve(card).status_code == 200
    [allergy] = written(fhir_base, "AllergyIntolerance", card)
    assert "aspirin" in allergy["code"]["text"].lower()
    assert allergy["reaction"][0]["manifestation"][0]["text"].lower() == "urticaire"


def test_doing_a_test_again_after_its_result_was_asked_orders_that_test(doctor, fhir_base):
    doctor.ask("her K?")
    html = doctor.ask("recheck it tomorrow am")
    [card] = cards(html)
    assert "Order serum potassium" in answer_text(html)
    assert doctor.approve(card).status_code == 200
    [order] = written(fhir_base, "ServiceRequest", card)
    assert order["code"]["coding"][0]["code"] == "2823-3"
