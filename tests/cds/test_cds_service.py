"""CDS Hooks 2.0 service through real HTTP, driven by an independent mini-EHR client."""
from __future__ import annotations

import json
import time
import uuid

import pytest
import requests

from tests.cds.ehr_client import ISSUER, MiniEHR, allergy, bundle, condition, med_request
from tests.support.postgres import BOTH_DATABASES
from tests.support.servers import free_port, serve

pytestmark = BOTH_DATABASES

# The CDS Hooks 2.0 spec's own example (§JWT Signing Algorithm): its exp is in 2015.
SPEC_ISS = "https://fhir-ehr.example.com/"
SPEC_JWKS = {"keys": [{"kty": "EC", "use": "sig", "crv": "P-384", "kid": "example-kid", "alg": "ES384",
                       "x": "46SDH7Znh821wblCBglA61sNE9ZrHYKKt3qRtRTmSXyOI_FIGBLWrWa0GPUkDCEk",
                       "y": "XMcRuuoGW7CXjQdy-F5i3FeBE0x9hPLdeFdSoDd3ELmx404tLX0VRRcqzAsPhXcI"}]}
SPEC_TOKEN = (
    "eyJhbGciOiJFUzM4NCIsInR5cCI6IkpXVCIsImtpZCI6ImV4YW1wbGUta2lkIiwiamt1IjoiaHR0cHM6Ly9maGlyLWVoci5leGFtcGxlLmNvbS9qd2tfdXJpIn0"
    ".eyJpc3MiOiJodHRwczovL2ZoaXItZWhyLmV4YW1wbGUuY29tLyIsImF1ZCI6Imh0dHBzOi8vY2RzLmV4YW1wbGUub3JnL2Nkcy1zZXJ2aWNlcy9zb21lLXNlcnZpY2UiLCJleHAiOjE0MjI1Njg4NjAsImlhdCI6MTMxMTI4MDk3MCwianRpIjoiZWUyMmIwMjEtZTFiNy00NjExLWJhNWItOGVlYzZhMzNhYzFlIiwidGVuYW50IjoiMmRkZDZjM2EtOGU5YS00NGM2LWEzMDUtNTIxMTFhZDMwMmEyIn0"
    ".d1WfLjGRKlcWB94l9do4cM8REXeYJLL6SGUBO8VHZhfM8mwKYP70EMxJ67War4TQblEpaQrp11wx5p7oPFm2ETYgCicS84vXWEIYTdjooZdooCSDf2L8-i4awdoUwiEb"
)
PID = "cds-pt-1"


@pytest.fixture
def ehr_and_url(app_config):
    """The app on a real port, trusting the mini-EHR's JWKS and the spec's example key."""
    from smart_docgemma import create_app

    port = free_port()
    ehr = MiniEHR(f"http://127.0.0.1:{port}")
    app_config["CDS_ISSUERS"] = {ISSUER: {"jwks": ehr.jwks()}, SPEC_ISS: {"jwks": SPEC_JWKS}}
    with serve(create_app(app_config), port=port) as server:
        yield ehr, server.url


@pytest.fixture
def ehr(ehr_and_url):
    return ehr_and_url[0]


def hook_body(hook: str, prefetch: dict | None, drafts: list[dict] | None = None, **extra) -> dict:
    ctx = {"userId": "Practitioner/dr-okafor", "patientId": PID}
    if drafts is not None:
        ctx["draftOrders"] = bundle(*drafts, with_type=False)
        if hook == "order-select":
            ctx["selections"] = [f"MedicationRequest/{d['id']}" for d in drafts[:1]]
    body = {"hook": hook, "hookInstance": str(uuid.uuid4()), "context": ctx}
    if prefetch is not None:
        body["prefetch"] = prefetch
    body.update(extra)
    return body


def full_prefetch(meds=(), allergies=(), conditions=(), hba1c=None, pregnancy=None) -> dict:
    return {"patient": {"resourceType": "Patient", "id": PID, "name": [{"given": ["Ama"], "family": "Owusu"}]},
            "medications": bundle(*meds), "allergies": bundle(*allergies),
            "conditions": bundle(*conditions), "hba1c": bundle(*(hba1c or [])),
            "pregnancy": bundle(*(pregnancy or []))}


def assert_cards_follow_rules(cards: list[dict]) -> None:
    """CDS Hooks 2.0 card rules, checked on every response."""
    for card in cards:
        assert len(card["summary"]) < 140 and card["summary"].strip()
        assert card["indicator"] in ("info", "warning", "critical")
        assert card["source"]["label"]
        uuid.UUID(card["uuid"])
        for key, value in card.items():
            assert value not in ("", [], {}, None), f"empty optional field {key}"
        if "suggestions" in card:
            assert card["selectionBehavior"] in ("at-most-one", "any")
            for s in card["suggestions"]:
                uuid.UUID(s["uuid"])
                assert all(a["description"] for a in s["actions"])
        for reason in card.get("overrideReasons", []):
            assert reason["display"] and reason["code"] and reason["system"]


def test_discovery_lists_four_services_with_valid_prefetch(ehr):
    res = ehr.discovery()
    assert res.status_code == 200
    services = {s["id"]: s for s in res.json()["services"]}
    assert {s: services[s]["hook"] for s in services} == {
        "docgemma-patient-view": "patient-view", "docgemma-order-select": "order-select",
        "docgemma-order-sign": "order-sign", "docgemma-care-gaps": "patient-view"}
    for s in services.values():
        assert s["id"] and s["description"]
        for template in s["prefetch"].values():
            assert "sort:desc" not in template and "{{context.patientId}}" in template
    assert "_sort=-date" in services["docgemma-patient-view"]["prefetch"]["hba1c"]


def test_preflight_needs_no_jwt_and_allows_authorization_header(ehr):
    res = requests.options(ehr.url("/docgemma-order-sign"), headers={
        "Origin": "https://ehr.example.test", "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization,content-type"}, timeout=5)
    assert res.status_code == 204
    assert "Authorization" in res.headers["Access-Control-Allow-Headers"]
    assert "POST" in res.headers["Access-Control-Allow-Methods"]


@pytest.mark.parametrize("case", ["missing", "hs256", "none-alg", "wrong-aud", "expired", "unknown-iss", "no-kid"])
def test_bad_jwts_are_rejected_with_401(ehr, case):
    url = ehr.url()
    make = {
        "missing": lambda: "",
        "hs256": lambda: __import__("jwt").encode({"iss": ISSUER, "aud": url, "exp": time.time() + 60,
                                                   "iat": time.time(),
                                            "jti": "x"}, "secret-secret-secret-secret-secret", algorithm="HS256",
                                           headers={"kid": "test-ehr-key-1"}),
        "none-alg": lambda: __import__("jwt").encode({"iss": ISSUER, "aud": url, "exp": time.time() + 60,
                                                      "iat": time.time(),
                                              "jti": "y"}, None, algorithm="none"),
        "wrong-aud": lambda: ehr.token(url + "/docgemma-order-sign"),
        "expired": lambda: ehr.token(url, claims={"exp": int(time.time()) - 600, "iat": int(time.time()) - 900}),
        "unknown-iss": lambda: ehr.token(url, claims={"iss": "https://evil.example"}),
        "no-kid": lambda: ehr.token(url, headers={"kid": ""}),
    }
    token = make[case]()
    res = requests.get(url, headers={"Authorization": f"Bearer {token}"} if token else {}, timeout=5)
    assert res.status_code == 401
    assert "Traceback" not in res.text


def test_the_spec_example_token_is_rejected_as_expired(ehr):
    res = requests.get(ehr.url(), headers={"Authorization": f"Bearer {SPEC_TOKEN}"}, timeout=5)
    assert res.status_code == 401


def test_a_replayed_jti_is_rejected(ehr):
    token = ehr.token(ehr.url())
    assert ehr.discovery(token).status_code == 200
    assert ehr.discovery(token).status_code == 401


def test_patient_view_flags_interaction_and_links_the_app(ehr):
    meds = [med_request("m1", "warfarin 5 MG Oral Tablet", "855332", PID),
            med_request("m2", "aspirin 81 MG Oral Tablet", "243670", PID)]
    res = ehr.call("docgemma-patient-view", hook_body("patient-view", full_prefetch(meds=meds)))
    assert res.status_code == 200, res.text
    cards = res.json()["cards"]
    assert_cards_follow_rules(cards)
    critical = [c for c in cards if c["indicator"] == "critical"]
    assert any("warfarin" in c["summary"].lower() and "aspirin" in c["summary"].lower() for c in critical)
    # a long-standing medication's boxed warning is not repeated on every chart open
    assert not any("boxed warning" in c["summary"].lower() for c in cards)
    link = [c for c in cards if any(x["type"] == "smart" for x in c.get("links", []))]
    assert link and link[0]["links"][0]["type"] == "smart"
    assert link[0]["links"][0]["url"].endswith("/launch")
    assert "Ama Owusu" in link[0]["summary"]


def test_patient_view_reports_overdue_hba1c_for_diabetes(ehr):
    dm = condition("c1", "44054006", "Type 2 diabetes mellitus", PID)
    old = {"resourceType": "Observation", "id": "o1", "status": "final", "effectiveDateTime": "2025-06-10",
           "code": {"coding": [{"system": "http://loinc.org", "code": "4548-4"}]}}
    res = ehr.call("docgemma-patient-view", hook_body("patient-view", full_prefetch(conditions=[dm], hba1c=[old])))
    summaries = [c["summary"] for c in res.json()["cards"]]
    assert any(s.startswith("Order an HbA1c") and "2025-06-10" in s for s in summaries)


def test_order_sign_catches_penicillin_class_allergy_with_remove_suggestion(ehr):
    draft = med_request("draft-amox", "amoxicillin 500 MG Oral Capsule", "308191", PID, intent=None, status="draft")
    prefetch = full_prefetch(allergies=[allergy("a1", "Penicillin", PID)])
    res = ehr.call("docgemma-order-sign", hook_body("order-sign", prefetch, drafts=[draft]))
    assert res.status_code == 200, res.text
    cards = res.json()["cards"]
    assert_cards_follow_rules(cards)
    allergy_cards = [c for c in cards if "allergy" in c["summary"].lower()]
    assert allergy_cards and allergy_cards[0]["indicator"] == "critical"
    action = allergy_cards[0]["suggestions"][0]["actions"][0]
    assert action["type"] == "delete" and "draft-amox" in json.dumps(action)
    assert allergy_cards[0]["overrideReasons"]


def test_order_select_flags_teratogen_in_pregnancy_and_interaction_with_active_med(ehr):
    drafts = [med_request("d1", "lisinopril 10 MG Oral Tablet", "314076", PID, status="draft"),
              med_request("d2", "ibuprofen 400 MG Oral Tablet", "197805", PID, status="draft")]
    prefetch = full_prefetch(meds=[med_request("m1", "warfarin 5 MG Oral Tablet", "855332", PID)],
                             conditions=[condition("c2", "77386006", "Pregnancy", PID)])
    res = ehr.call("docgemma-order-select", hook_body("order-select", prefetch, drafts=drafts))
    cards = res.json()["cards"]
    assert_cards_follow_rules(cards)
    assert any("pregnan" in c["summary"].lower() and c["indicator"] == "critical" for c in cards)
    # order-select focuses on the selection (lisinopril), not the unselected ibuprofen draft
    assert not any("ibuprofen" in c["summary"].lower() for c in cards)


def test_null_prefetch_means_no_data_not_a_failure(ehr):
    prefetch = full_prefetch()
    prefetch["medications"] = None
    prefetch["allergies"] = None
    res = ehr.call("docgemma-patient-view", hook_body("patient-view", prefetch))
    assert res.status_code == 200
    assert [c["indicator"] for c in res.json()["cards"]] == ["info"]  # just the app link


def test_missing_prefetch_without_a_fhir_server_is_412(ehr):
    res = ehr.call("docgemma-order-sign", hook_body("order-sign", None, drafts=[]))
    assert res.status_code == 412


def test_missing_prefetch_with_unreachable_fhir_server_is_412(ehr):
    body = hook_body("patient-view", {"patient": None}, fhirServer=f"http://127.0.0.1:{free_port()}/fhir",
                     fhirAuthorization={"access_token": "opaque-token", "token_type": "Bearer",
                                        "expires_in": 300, "scope": "patient/*.read", "subject": "docgemma"})
    res = ehr.call("docgemma-patient-view", body)
    assert res.status_code == 412
    assert "opaque-token" not in res.text


def test_wrong_hook_for_service_is_400(ehr):
    res = ehr.call("docgemma-order-sign", hook_body("patient-view", full_prefetch()))
    assert res.status_code == 400


def test_feedback_accepted_and_overridden_are_stored(ehr, app_config):
    from sqlalchemy import create_engine, text

    first, second = issued_cards(ehr)[:2]
    ok = ehr.feedback("docgemma-order-sign", [
        {"card": first, "outcome": "accepted", "acceptedSuggestions": [{"id": str(uuid.uuid4())}],
         "outcomeTimestamp": "2026-11-22T10:00:00Z"},
        {"card": second, "outcome": "overridden", "outcomeTimestamp": "2026-11-22T10:01:00Z",
         "overrideReason": {"reason": {"code": "benefit-outweighs-risk", "system": "urn:docgemma:override-reason"},
                            "userComment": "discussed with cardiology"}}])
    assert ok.status_code == 200 and ok.json() == {"stored": 2}
    engine = create_engine(app_config["DATABASE_URL"])
    with engine.connect() as conn:
        rows = conn.execute(text("select outcome, detail from cds_feedback order by id")).all()
    assert [r[0] for r in rows] == ["accepted", "overridden"]
    assert "cardiology" in rows[1][1]
    bad = ehr.feedback("docgemma-order-sign", [{"card": "x", "outcome": "accepted"}])
    assert bad.status_code == 400


def issued_cards(ehr) -> list[str]:
    """The uuids of the cards an order-sign call issues (penicillin allergy + amoxicillin draft)."""
    draft = med_request("draft-amox", "amoxicillin 500 MG Oral Capsule", "308191", PID, intent=None, status="draft")
    prefetch = full_prefetch(allergies=[allergy("a1", "Penicillin", PID)])
    uuids = []
    for _ in range(2):
        res = ehr.call("docgemma-order-sign", hook_body("order-sign", prefetch, drafts=[draft]))
        assert res.status_code == 200, res.text
        uuids += [c["uuid"] for c in res.json()["cards"]]
    assert len(set(uuids)) >= 2
    return uuids
