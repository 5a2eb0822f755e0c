"""Real-world orders through the CDS order-sign endpoint over HTTP with signed JWTs (prefetch only)."""
from __future__ import annotations

from tests.cds.ehr_client import allergy, med_request
from tests.cds.test_cds_cards import SIGN, cards_of, draft, ehr, hook, prefetch  # noqa: F401 (fixture)

RXNORM = "http://www.nlm.nih.gov/research/umls/rxnorm"
AUGMENTIN = "amoxicillin 875 MG / clavulanate potassium 125 MG Oral Tablet"


def anaphylaxis(patient: str) -> dict:
    a = allergy("al-1", "Penicillin", patient)
    a["reaction"] = [{"manifestation": [{"text": "Anaphylaxis"}], "severity": "severe"}]
    return a


def coded_only(rid: str, code: str, patient: str) -> dict:
    return {"resourceType": "MedicationRequest", "id": rid, "status": "draft", "intent": "order",
            "subject": {"reference": f"Patient/{patient}"},
            "medicationCodeableConcept": {"coding": [{"system": RXNORM, "code": code}]}}


def sign(ehr, patient, order, meds=(), allergies=()):
    pre = prefetch(patient, list(meds), allergies=list(allergies))
    return cards_of(ehr.call(SIGN, hook("order-sign", patient, None, [order], prefetch=pre)))


def test_co_amoxiclav_in_penicillin_anaphylaxis_is_critical(ehr):
    [card] = sign(ehr, "pt-a1", draft("pt-a1", AUGMENTIN, "617993"), allergies=[anaphylaxis("pt-a1")])
    assert card["indicator"] == "critical"
    assert card["summary"].startswith("Do not give amoxicillin/clavulanate — Penicillin allergy (anaphylaxis")


def test_the_rxnorm_code_alone_is_enough(ehr):
    [card] = sign(ehr, "pt-a2", coded_only("d1", "617993", "pt-a2"), allergies=[anaphylaxis("pt-a2")])
    assert card["indicator"] == "critical" and "amoxicillin" in card["summary"]


def test_warfarin_with_ketorolac_or_cotrimoxazole_is_critical(ehr):
    warfarin = med_request("m1", "warfarin sodium 5 MG Oral Tablet", "855332", "pt-w")
    for text, code, words in (("ketorolac tromethamine 10 MG Oral Tablet", "834022", "ketorolac"),
                              ("sulfamethoxazole 800 MG / trimethoprim 160 MG Oral Tablet", "198335",
                               "sulfamethoxazole")):
        cards = sign(ehr, "pt-w", draft("pt-w", text, code), meds=[warfarin])
        assert cards and cards[0]["indicator"] == "critical", text
        assert words in cards[0]["summary"] and "warfarin" in cards[0]["summary"]


def test_a_contained_medication_is_checked(ehr):
    order = {"resourceType": "MedicationRequest", "id": "d1", "status": "draft", "intent": "order",
             "subject": {"reference": "Patient/pt-c"}, "medicationReference": {"reference": "#med"},
             "contained": [{"resourceType": "Medication", "id": "med",
                            "code": {"text": "Augmentin 625 mg tablets"}}]}
    [card] = sign(ehr, "pt-c", order, allergies=[anaphylaxis("pt-c")])
    assert card["indicator"] == "critical" and "amoxicillin" in card["summary"]


def test_an_order_that_cannot_be_identified_says_so(ehr):
    text_only = coded_only("d2", "1", "pt-u")
    text_only["medicationCodeableConcept"] = {"text": "Grandma's tonic 10 ML"}
    for order in (coded_only("d1", "999999999", "pt-u"), text_only):
        [card] = sign(ehr, "pt-u", order, allergies=[anaphylaxis("pt-u")])
        assert card["indicator"] == "info" and card["summary"].startswith("Could not check")
