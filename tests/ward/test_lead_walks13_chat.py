"""What the thirteenth stop's walks found, through the chat without a model in a real SMART
launch (sandbox + HAPI): a lab order for now is a stat order on its card and in the record; a
hypo and its recheck are two readings, each written at its own time; a handover naming an
allergy and another drug cards no allergy to that drug."""
from __future__ import annotations

from tests.ward.conftest import answer_text, cards, written


def test_a_lab_order_for_now_is_stat(doctor, fhir_base):
    html = doctor.ask("lactato agora")
    [card] = cards(html)
    assert "Priority: stat" in answer_text(html)
    assert doctor.approve(card).status_code == 200
    [sr] = written(fhir_base, "ServiceRequest", card)
    assert sr["priority"] == "stat"


def test_a_hypo_and_its_recheck_are_two_readings_at_their_times(doctor, fhir_base):
    html = doctor.ask("Pls chart: CBG 3.1 at 02:30, treated, repeat 6.4 at 02:50")
    first, second = cards(html)
    assert doctor.approve(first).status_code == 200
    assert doctor.approve(second).status_code == 200
    [low] = written(fhir_base, "Observation", first)
    [again] = written(fhir_base, "Observation", second)
    assert "T02:30" in low["effectiveDateTime"] and "T02:50" in again["effectiveDateTime"]
    assert low["valueQuantity"]["value"] < again["valueQuantity"]["value"]


def test_a_handover_cards_no_allergy_to_the_drug_it_names_beside(doctor):
    html = doctor.ask("Handover: asthma, pen allergy (anaphylaxis). Started on clarithromycin "
                      "500 bd by night team.")
    assert "Record allergy: clarithromycin" not in answer_text(html)
