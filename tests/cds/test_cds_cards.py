"""Cards a clinician acts on, over real HTTP with signed JWTs, on the scenario patients in real HAPI.

Each test reads the cards as a prescriber would: what to do (summary), why and
on what evidence (detail), one card per problem, suggestions an EHR can apply,
and a patient-view that stays quiet when nothing changed.
"""
from __future__ import annotations

import uuid
from pathlib import Path

import pytest
import yaml

from tests.cds.ehr_client import app_behind_mini_ehr, bundle, condition, med_request
from tests.support.postgres import BOTH_DATABASES

pytestmark = BOTH_DATABASES

PV, SIGN, SELECT = "docgemma-patient-view", "docgemma-order-sign", "docgemma-order-select"
LOINC = "http://loinc.org"


@pytest.fixture
def ehr(app_config):
    with app_behind_mini_ehr(app_config) as client:
        yield client


def hook(hook_name: str, patient: str, fhir_base: str | None, drafts=None, prefetch=None) -> dict:
    ctx = {"userId": "Practitioner/dr-okafor", "patientId": patient}
    if drafts is not None:
        ctx["draftOrders"] = {"resourceType": "Bundle", "entry": [{"resource": d} for d in drafts]}
        if hook_name == "order-select":
            ctx["selections"] = [f"MedicationRequest/{drafts[0]['id']}"]
    body = {"hook": hook_name, "hookInstance": str(uuid.uuid4()), "context": ctx}
    if fhir_base:
        body["fhirServer"] = fhir_base
    if prefetch is not None:
        body["prefetch"] = prefetch
    return body


def draft(patient: str, text: str, rxnorm: str, rid: str = "draft-1") -> dict:
    return med_request(rid, text, rxnorm, patient, status="draft")


def cards_of(res) -> list[dict]:
    assert res.status_code == 200, res.text
    cards = res.json()["cards"]
    for c in cards:
        assert len(c["summary"]) < 140 and "…" not in c["summary"] and "..." not in c["summary"]
        for key, value in c.items():
            assert value not in ("", [], {}, None), f"empty optional field {key}"
        if "suggestions" in c:
            assert c["selectionBehavior"] == "at-most-one"
            assert sum(bool(s.get("isRecommended")) for s in c["suggestions"]) <= 1
            for action in (a for s in c["suggestions"] for a in s["actions"]):
                assert action["description"]
                assert ("resourceId" in action and "resource" not in action) if action["type"] == "delete" \
                    else action["resource"]["resourceType"] == "MedicationRequest"
    return cards


def problem_cards(cards: list[dict]) -> list[dict]:
    return [c for c in cards if not any(link["type"] == "smart" for link in c.get("links", []))]


def obs(rid: str, loinc: str, value: float, when: str, unit: str = "") -> dict:
    return {"resourceType": "Observation", "id": rid, "status": "final", "effectiveDateTime": when,
            "code": {"coding": [{"system": LOINC, "code": loinc}]},
            "valueQuantity": {"value": value, **({"unit": unit} if unit else {})}}


def prefetch(patient: str, meds=(), conditions=(), labs=(), allergies=()) -> dict:
    return {"patient": {"resourceType": "Patient", "id": patient}, "medications": bundle(*meds),
            "allergies": bundle(*allergies), "conditions": bundle(*conditions), "hba1c": bundle(),
            "pregnancy": bundle(), "labs": bundle(*labs)}


def test_risky_order_summary_says_what_to_do_and_offers_the_safer_drug(ehr, fhir_base):
    order = draft("pt-warfarin", "ketorolac tromethamine 10 MG Oral Tablet", "834022")
    cards = cards_of(ehr.call(SIGN, hook("order-sign", "pt-warfarin", fhir_base, [order])))
    assert len(cards) == 1  # interaction and boxed warning about one draft: one card
    card = cards[0]
    assert card["indicator"] == "critical"
    assert card["summary"] == ("Avoid ketorolac with warfarin — major bleeding risk; "
                               "consider acetaminophen (paracetamol)")
    assert "**Mechanism:**" in card["detail"] and "**Management:**" in card["detail"]
    assert "boxed warning" in card["detail"].lower() and "at most 5 days" in card["detail"]
    assert {link["url"].split("query=")[-1] for link in card["links"]} >= {"warfarin", "ketorolac"}
    replace, remove = card["suggestions"]
    assert replace["isRecommended"] and "acetaminophen" in replace["label"]
    kinds = {a["type"]: a for a in replace["actions"]}
    assert kinds["delete"]["resourceId"] == "MedicationRequest/draft-1"
    created = kinds["create"]["resource"]
    assert created["medicationCodeableConcept"]["coding"][0]["code"] == "161"
    assert created["subject"] == {"reference": "Patient/pt-warfarin"} and created["status"] == "draft"
    # the replacement names the source that states it
    assert "FDA Drug Label — Warfarin" in kinds["create"]["description"]
    assert [a["type"] for a in remove["actions"]] == ["delete"]
    assert {r["display"] for r in card["overrideReasons"]}


def test_allergy_card_names_the_recorded_reaction_and_criticality(ehr, fhir_base):
    order = draft("pt-pen-allergy", "amoxicillin 500 MG Oral Capsule", "308191")
    [card] = cards_of(ehr.call(SIGN, hook("order-sign", "pt-pen-allergy", fhir_base, [order])))
    assert card["indicator"] == "critical"
    assert card["summary"].startswith("Do not give amoxicillin — Penicillin allergy (anaphylaxis")
    assert "high criticality" in card["summary"]
    assert "criticality high" in card["detail"] and "confirmed" in card["detail"]
    # no shipped source states a replacement in penicillin allergy: the card removes the draft
    # and drafts nothing in its place
    assert [s["label"] for s in card["suggestions"]] == [
        "Remove the amoxicillin 500 MG Oral Capsule draft"]


def test_rising_inr_is_flagged_with_its_date_and_trend(ehr, fhir_base):
    cards = problem_cards(cards_of(ehr.call(PV, hook("patient-view", "pt-warfarin", fhir_base))))
    inr = [c for c in cards if "INR" in c["summary"]]
    assert len(inr) == 1
    assert "INR 3.4 on 2026-10-05" in inr[0]["summary"] and "rising (2.4 → 2.9 → 3.4)" in inr[0]["summary"]
    assert inr[0]["summary"].startswith("Recheck INR")
    assert not any(c["summary"].lower().startswith("check the boxed warning") for c in cards)


def test_patient_view_is_quiet_on_the_second_open_and_after_an_override(ehr, fhir_base):
    first = problem_cards(cards_of(ehr.call(PV, hook("patient-view", "pt-warfarin", fhir_base))))
    assert sorted(c["indicator"] for c in first) == ["critical", "warning"]
    second = problem_cards(cards_of(ehr.call(PV, hook("patient-view", "pt-warfarin", fhir_base))))
    assert [c["indicator"] for c in second] == ["critical"]  # INR unchanged: not repeated; critical stays
    assert "aspirin with warfarin" in second[0]["summary"]
    res = ehr.feedback(PV, [{"card": second[0]["uuid"], "outcome": "overridden",
                             "outcomeTimestamp": "2026-11-23T10:00:00Z",
                             "overrideReason": {"reason": {"code": "benefit-outweighs-risk",
                                                           "system": "urn:docgemma:override-reason"}}}])
    assert res.status_code == 200, res.text
    third = cards_of(ehr.call(PV, hook("patient-view", "pt-warfarin", fhir_base)))
    assert problem_cards(third) == [] and len(third) == 1  # only the assistant link remains


def test_an_override_without_a_reason_does_not_quiet_the_alert(ehr, fhir_base):
    first = problem_cards(cards_of(ehr.call(PV, hook("patient-view", "pt-warfarin", fhir_base))))
    critical = next(c for c in first if c["indicator"] == "critical")
    assert ehr.feedback(PV, [{"card": critical["uuid"], "outcome": "overridden",
                              "outcomeTimestamp": "2026-11-23T10:00:00Z"}]).status_code == 200
    again = problem_cards(cards_of(ehr.call(PV, hook("patient-view", "pt-warfarin", fhir_base))))
    assert [c["summary"] for c in again] == [critical["summary"]]


def test_a_new_result_brings_a_quieted_monitoring_card_back(ehr):
    meds = [med_request("m1", "warfarin 5 MG Oral Tablet", "855332", "pt-q")]
    labs = [obs("i1", "6301-6", 2.5, "2026-11-01"), obs("i2", "6301-6", 3.6, "2026-11-15")]
    first = problem_cards(cards_of(ehr.call(PV, hook("patient-view", "pt-q", None, prefetch=prefetch("pt-q", meds,
                                                                                                     labs=labs)))))
    assert [c["summary"][:12] for c in first] == ["Recheck INR "]
    same = problem_cards(cards_of(ehr.call(PV, hook("patient-view", "pt-q", None, prefetch=prefetch("pt-q", meds,
                                                                                                    labs=labs)))))
    assert same == []
    labs.append(obs("i3", "6301-6", 5.2, "2026-11-20"))
    new = problem_cards(cards_of(ehr.call(PV, hook("patient-view", "pt-q", None, prefetch=prefetch("pt-q", meds,
                                                                                                   labs=labs)))))
    assert [c["indicator"] for c in new] == ["critical"] and "INR 5.2 on 2026-11-20" in new[0]["summary"]


def test_pregnant_patient_on_lisinopril_gets_a_critical_card_on_patient_view_and_order(ehr, fhir_base):
    cards = problem_cards(cards_of(ehr.call(PV, hook("patient-view", "pt-pregnant", fhir_base))))
    assert cards[0]["indicator"] == "critical"
    assert cards[0]["summary"].startswith("Stop lisinopril in pregnancy")
    assert "Pregnancy status: pregnant on 2026-10-28" in cards[0]["detail"]
    [stop] = cards[0]["suggestions"]
    [update] = stop["actions"]
    # no shipped source states the replacement of an ACE inhibitor in pregnancy: stop, no draft
    assert stop["label"] == "Stop lisinopril 10 MG Oral Tablet"
    assert update["type"] == "update" and update["resource"]["id"] == "pt-pregnant-med1"
    assert update["resource"]["status"] == "stopped" and "meta" not in update["resource"]
    order = draft("pt-pregnant", "losartan potassium 50 MG Oral Tablet", "979485")
    [card] = cards_of(ehr.call(SELECT, hook("order-select", "pt-pregnant", fhir_base, [order])))
    assert card["indicator"] == "critical" and card["summary"].startswith("Avoid losartan in pregnancy")
    assert not any("labetalol" in s["label"] for s in card["suggestions"])


def test_lactation_and_a_high_lithium_level(ehr):
    nursing = condition("c1", "169750002", "Mother currently breast-feeding", "pt-l")
    meds = [med_request("m1", "lithium carbonate 300 MG Oral Capsule", "197889", "pt-l")]
    labs = [obs("l1", "14334-7", 0.8, "2026-09-01", "mmol/L"), obs("l2", "14334-7", 1.6, "2026-11-20", "mmol/L")]
    cards = problem_cards(cards_of(ehr.call(PV, hook("patient-view", "pt-l", None,
                                                     prefetch=prefetch("pt-l", meds, [nursing], labs)))))
    by_summary = {c["summary"].split(" — ")[0]: c for c in cards}
    assert by_summary["Hold lithium and repeat the level"]["indicator"] == "critical"
    assert "lithium level 1.6 mmol/L on 2026-11-20" in by_summary["Hold lithium and repeat the level"]["detail"]
    assert by_summary["Review lithium while breastfeeding"]["indicator"] == "warning"
    assert "LactMed" in by_summary["Review lithium while breastfeeding"]["detail"]


def test_duplicate_order_and_two_nsaids_are_flagged(ehr, fhir_base):
    second_aspirin = draft("pt-warfarin", "aspirin 325 MG Oral Tablet", "198467")
    cards = cards_of(ehr.call(SIGN, hook("order-sign", "pt-warfarin", fhir_base, [second_aspirin])))
    assert len(cards) == 1
    assert "Remove duplicate aspirin — already active as aspirin 81 MG Oral Tablet" in cards[0]["detail"]
    ibuprofen = draft("pt-a", "ibuprofen 400 MG Oral Tablet", "197805")
    pre = prefetch("pt-a", [med_request("m1", "aspirin 81 MG Oral Tablet", "243670", "pt-a")])
    [card] = cards_of(ehr.call(SIGN, hook("order-sign", "pt-a", None, [ibuprofen], prefetch=pre)))
    # therapeutic duplication names the drug already ordered and says to switch, not add; the
    # interaction of ibuprofen with low-dose aspirin (second interaction source) leads the card
    said = card["summary"] + "\n" + card.get("detail", "")
    assert "Switch rather than add ibuprofen: aspirin is already ordered — two NSAIDs" in said, said
    # no shipped source states a replacement for a second NSAID: the draft is removed, none drafted
    assert [s["label"] for s in card["suggestions"]] == [
        "Remove the ibuprofen 400 MG Oral Tablet draft"]


def test_two_drafts_of_one_drug_in_the_same_session_are_duplicates(ehr):
    drafts = [draft("pt-d", "naproxen 250 MG Oral Tablet", "198013", "d1"),
              draft("pt-d", "naproxen 500 MG Oral Tablet", "198014", "d2")]
    cards = cards_of(ehr.call(SIGN, hook("order-sign", "pt-d", None, drafts, prefetch=prefetch("pt-d"))))
    assert len(cards) == 2 and all(c["summary"].startswith("Remove duplicate naproxen — already draft") for c in cards)


def test_monitoring_for_metformin_and_an_nsaid_in_ckd(ehr, fhir_base):
    cards = problem_cards(cards_of(ehr.call(PV, hook("patient-view", "pt-t2dm", fhir_base))))
    summaries = [c["summary"] for c in cards]
    assert "Order an eGFR — on metformin, no eGFR on file" in summaries
    assert any(s.startswith("Order an HbA1c") and "2025-06-10" in s for s in summaries)
    order = draft("pt-ckd-elder", "ibuprofen 400 MG Oral Tablet", "197805")
    [card] = cards_of(ehr.call(SIGN, hook("order-sign", "pt-ckd-elder", fhir_base, [order])))
    # the kidney rule's source (KDIGO) states no replacement, so none is drafted or named
    assert card["summary"] == "Review ibuprofen — eGFR 38 on 2026-11-10: NSAIDs worsen kidney function"
    assert "43 (2026-08-20) → 38 (2026-11-10)" in card["detail"] and "KDIGO" in card["detail"]
    low = prefetch("pt-m", labs=[obs("e1", "33914-3", 24, "2026-11-01")])
    metformin = draft("pt-m", "metformin hydrochloride 500 MG Oral Tablet", "861007")
    [card] = cards_of(ehr.call(SIGN, hook("order-sign", "pt-m", None, [metformin], prefetch=low)))
    assert card["indicator"] == "critical"
    assert card["summary"].startswith("Avoid metformin — eGFR 24 on 2026-11-01: contraindicated (lactic acidosis)")


def test_a_monitoring_check_that_could_not_run_claims_nothing(ehr):
    pre = prefetch("pt-n", [med_request("m1", "warfarin 5 MG Oral Tablet", "855332", "pt-n")])
    del pre["labs"]  # not sent and no fhirServer to fetch it from
    cards = cards_of(ehr.call(PV, hook("patient-view", "pt-n", None, prefetch=pre)))
    assert not any("INR" in c["summary"] for c in cards)


def test_discovery_prefetches_every_monitored_lab_and_creatinine_clearance(ehr):
    rules = yaml.safe_load((Path(__file__).parents[2] / "smart_docgemma/checks/knowledge.yaml").read_text())
    codes = {c for rule in rules["monitoring"] for c in rule["loinc"]} | set(rules["crcl_loinc"]) | \
        set(rules["creatinine_loinc"])
    checks = ("docgemma-patient-view", "docgemma-order-select", "docgemma-order-sign")
    services = [s for s in ehr.discovery().json()["services"] if s["id"] in checks]
    assert len(services) == 3  # the care-gaps service reads its programmes' own codes
    for service in services:
        labs = service["prefetch"]["labs"]
        assert labs.startswith("Observation?patient={{context.patientId}}&code=") and "_sort=-date" in labs
        assert {part.split("|")[1] for part in labs.split("code=")[1].split("&")[0].split(",")} == codes


def test_the_same_patient_id_at_another_ehr_is_another_chart(ehr):
    meds = [med_request("m1", "warfarin 5 MG Oral Tablet", "855332", "pt-x")]
    pre = prefetch("pt-x", meds, labs=[obs("i1", "6301-6", 3.6, "2026-11-15")])
    assert problem_cards(cards_of(ehr.call(PV, hook("patient-view", "pt-x", None, prefetch=pre))))
    assert problem_cards(cards_of(ehr.call(PV, hook("patient-view", "pt-x", None, prefetch=pre)))) == []
    other = problem_cards(cards_of(ehr.call(PV, hook("patient-view", "pt-x", "https://other-ehr.example/fhir",
                                                     prefetch=pre))))
    assert [c["summary"][:11] for c in other] == ["Recheck INR"]


def metric(ehr, name: str, **labels) -> float:
    import re

    import requests

    text = requests.get(f"{ehr.base_url}/metrics", timeout=10).text
    want = ",".join(f'{k}="{v}"' for k, v in labels.items())
    found = re.search(rf"^{name}\{{{want}\}} (\S+)$", text, re.M)
    return float(found.group(1)) if found else 0.0


def test_metrics_count_cards_per_call_and_quieted_alerts(ehr):
    meds = [med_request("m1", "warfarin 5 MG Oral Tablet", "855332", "pt-mx")]
    pre = prefetch("pt-mx", meds, labs=[obs("i1", "6301-6", 3.6, "2026-11-15")])
    calls = metric(ehr, "docgemma_cds_cards_per_call_count", service=PV)
    quiet = metric(ehr, "docgemma_cds_quieted_total", reason="unchanged")
    two_cards = metric(ehr, "docgemma_cds_cards_per_call_bucket", le="2.0", service=PV)
    for _ in range(2):
        cards_of(ehr.call(PV, hook("patient-view", "pt-mx", None, prefetch=pre)))
    assert metric(ehr, "docgemma_cds_cards_per_call_count", service=PV) == calls + 2
    assert metric(ehr, "docgemma_cds_quieted_total", reason="unchanged") == quiet + 1
    assert metric(ehr, "docgemma_cds_cards_per_call_bucket", le="2.0", service=PV) == two_cards + 2


def test_an_active_medication_that_cannot_be_identified_is_said_once(ehr):
    meds = [med_request("m1", "zzfakeamab 10 MG Injection", "0000000", "pt-u")]
    pre = prefetch("pt-u", meds)
    first = problem_cards(cards_of(ehr.call(PV, hook("patient-view", "pt-u", None, prefetch=pre))))
    assert [c["indicator"] for c in first] == ["info"]
    assert first[0]["summary"].startswith("Could not check zzfakeamab")
    assert problem_cards(cards_of(ehr.call(PV, hook("patient-view", "pt-u", None, prefetch=pre)))) == []
