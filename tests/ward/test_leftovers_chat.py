"""The reading's leftovers through the chat without a model in a real SMART launch (sandbox +
HAPI): a number of results asked is answered with that many, newest first, and says how many
there were when fewer exist; a loading dose then maintenance is carded as the maintenance, the
loading dose said not on the card and kept in its notes, and the approved MedicationRequest read
back from FHIR carries exactly that."""
from __future__ import annotations

import json

from tests.ward.conftest import answer_text, cards, result, written

POTASSIUM = "2823-3"


def _said(html: str) -> str:
    return answer_text(html).split("Clinical trace")[0]


def test_the_number_of_results_asked_is_answered_with_that_many(doctor, fhir_base):
    for value, hours in ((5.9, 10), (5.4, 30), (4.8, 50), (4.1, 70)):
        result(fhir_base, doctor.patient, POTASSIUM, value, "mmol/L", hours)
    said = _said(doctor.ask("last 3 Ks"))
    assert "Last 3 results" in said and all(v in said for v in ("5.9", "5.4", "4.8"))
    assert "4.1" not in said  # the fourth was not asked
    fewer = _said(doctor.ask("k x6"))
    assert "6 asked: only 4 on file" in fewer and "4.1" in fewer


def test_a_loading_dose_is_said_not_on_the_card_that_carries_the_maintenance(doctor, fhir_base):
    html = doctor.ask("doxycycline 200mg stat then 100mg od")
    [card] = cards(html)
    assert "The loading dose (200 mg stat) is not on this card" in _said(html)
    assert doctor.approve(card).status_code == 200
    [mr] = written(fhir_base, "MedicationRequest", card)
    assert mr["dosageInstruction"][0]["doseAndRate"][0]["doseQuantity"]["value"] == 100
    assert "loading dose 200 mg stat not on this card" in json.dumps(mr)
