"""CDS Hooks request handling under hostile input, over real HTTP with the mini-EHR:
token typing and lifetime, bare 401s, authentication before the service lookup,
typed hook bodies, feedback rules and caching headers. Every refusal is a 4xx."""
from __future__ import annotations

import base64
import json
import time
import uuid

import pytest
import requests

from tests.cds.ehr_client import ISSUER
from tests.cds.test_cds_service import PID, ehr, ehr_and_url, full_prefetch, hook_body, issued_cards  # noqa: F401


def unsigned(header: dict, claims: dict) -> str:
    def part(d: dict) -> str:
        return base64.urlsafe_b64encode(json.dumps(d).encode()).rstrip(b"=").decode()
    return f"{part(header)}.{part(claims)}.c2ln"


def get(url: str, token: str) -> requests.Response:
    return requests.get(url, headers={"Authorization": f"Bearer {token}"}, timeout=10)


def test_a_token_without_typ_is_refused(ehr):
    url = ehr.url()
    assert get(url, ehr.token(url, headers={"typ": None})).status_code == 401
    assert get(url, ehr.token(url, headers={"typ": "at+jwt"})).status_code == 401
    assert get(url, ehr.token(url)).status_code == 200


def test_a_token_living_longer_than_five_minutes_is_refused(ehr):
    url, now = ehr.url(), int(time.time())
    assert get(url, ehr.token(url, claims={"exp": now + 24 * 3600})).status_code == 401
    assert get(url, ehr.token(url, claims={"iat": now - 3600, "exp": now + 60})).status_code == 401
    assert get(url, ehr.token(url, claims={"iat": now + 3600, "exp": now + 3700})).status_code == 401
    assert get(url, ehr.token(url, claims={"exp": now + 300})).status_code == 200


@pytest.mark.parametrize("claims", [{"iss": ["a"]}, {"iss": 7}, {"jti": {"x": 1}}, {"exp": "soon"},
                                    {"aud": 5}, {"iat": True}])
def test_unsigned_tokens_with_claims_of_the_wrong_type_are_401(ehr, claims):
    url, now = ehr.url(), int(time.time())
    base = {"iss": ISSUER, "aud": url, "iat": now, "exp": now + 60, "jti": str(uuid.uuid4())}
    res = get(url, unsigned({"alg": "ES384", "kid": "test-ehr-key-1", "typ": "JWT"}, {**base, **claims}))
    assert res.status_code == 401
    for token in (unsigned([1], base), unsigned({"alg": "ES384", "kid": 5, "typ": "JWT"}, base), "a.b.c", "..."):
        assert get(url, token).status_code == 401


def test_a_401_says_nothing_about_why_and_asks_for_a_bearer_token(ehr):
    url, now = ehr.url(), int(time.time())
    for token in (ehr.token(url, claims={"exp": now - 600, "iat": now - 900}), ehr.token(url)[:-4] + "AAAA"):
        res = get(url, token)
        assert res.status_code == 401 and res.headers["WWW-Authenticate"].startswith("Bearer")
        text = res.text.lower()
        assert "expired" not in text and "signature" not in text
    assert requests.get(url, timeout=10).headers["WWW-Authenticate"].startswith("Bearer")


def test_unknown_service_ids_need_authentication_first(ehr):
    url = ehr.url("/no-such-service")
    assert requests.post(url, json={}, timeout=10).status_code == 401
    assert requests.post(url + "/feedback", json={}, timeout=10).status_code == 401
    assert requests.post(url, json={}, headers={"Authorization": f"Bearer {ehr.token(url)}"},
                         timeout=10).status_code == 404


def post(ehr, path: str, body, raw: bytes | None = None) -> requests.Response:
    url = ehr.url(path)
    headers = {"Authorization": f"Bearer {ehr.token(url)}", "Content-Type": "application/json"}
    return requests.post(url, data=raw if raw is not None else json.dumps(body), headers=headers, timeout=30)


def test_deeply_nested_and_mistyped_bodies_are_400(ehr):
    deep = b"[" * 100_000 + b"]" * 100_000
    assert post(ehr, "/docgemma-patient-view", None, raw=deep).status_code == 400
    assert post(ehr, "/docgemma-patient-view/feedback", None, raw=deep).status_code == 400
    nested = {"hook": "patient-view", "context": {"patientId": PID}, "prefetch": {"x": json.loads("[" * 60 + "]" * 60)}}
    assert post(ehr, "/docgemma-patient-view", nested).status_code == 400
    good = hook_body("patient-view", full_prefetch())
    for path, value in [(("hook",), 5), (("context",), [PID]), (("context", "patientId"), {"id": PID}),
                        (("prefetch",), "all"), (("fhirServer",), 1), (("fhirAuthorization",), "token"),
                        (("context", "selections"), [{"a": 1}]), (("context", "draftOrders"), [1]),
                        (("prefetch", "medications"), {"resourceType": "Bundle", "entry": 5})]:
        body = json.loads(json.dumps(good))
        target = body
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        res = post(ehr, "/docgemma-patient-view", body)
        assert 400 <= res.status_code < 500, (path, res.status_code, res.text)


def feedback(ehr, items) -> requests.Response:
    return post(ehr, "/docgemma-order-sign/feedback", {"feedback": items})


def test_feedback_needs_a_timestamp_a_real_override_reason_and_an_issued_card(ehr):
    card = issued_cards(ehr)[0]
    stamp = "2026-11-22T10:00:00Z"
    reason = {"reason": {"code": "benefit-outweighs-risk", "system": "urn:docgemma:override-reason"}}
    assert feedback(ehr, [{"card": card, "outcome": "overridden", "overrideReason": reason}]).status_code == 400
    assert feedback(ehr, [{"card": card, "outcome": "overridden", "outcomeTimestamp": "yesterday"}]).status_code == 400
    for empty in ({}, {"reason": {}}, {"userComment": "  "}, {"reason": {"code": "", "system": "x"}}):
        res = feedback(ehr, [{"card": card, "outcome": "overridden", "outcomeTimestamp": stamp,
                              "overrideReason": empty}])
        assert res.status_code == 400, empty
    never = feedback(ehr, [{"card": str(uuid.uuid4()), "outcome": "overridden", "outcomeTimestamp": stamp}])
    assert never.status_code == 400 and "did not issue" in never.json()["error_description"]
    elsewhere = post(ehr, "/docgemma-patient-view/feedback",
                     {"feedback": [{"card": card, "outcome": "overridden", "outcomeTimestamp": stamp}]})
    assert elsewhere.status_code == 400
    for bad in ([{"card": card, "outcome": "accepted", "outcomeTimestamp": stamp, "acceptedSuggestions": [1]}],
                [{"card": 5, "outcome": "accepted"}], "all", [[]]):
        assert feedback(ehr, bad).status_code == 400
    ok = feedback(ehr, [{"card": card, "outcome": "overridden", "outcomeTimestamp": stamp, "overrideReason": reason}])
    assert ok.status_code == 200 and ok.json() == {"stored": 1}


def test_cds_responses_are_not_cached(ehr):
    res = post(ehr, "/docgemma-patient-view", hook_body("patient-view", full_prefetch()))
    assert res.status_code == 200 and res.headers["Cache-Control"] == "no-store"
    assert get(ehr.url(), ehr.token(ehr.url())).headers["Cache-Control"] == "no-store"


def test_fhir_resources_of_the_wrong_shape_are_refused_not_a_500(ehr):
    from tests.cds.ehr_client import allergy, bundle, med_request

    bad_med = {**med_request("m9", "warfarin 5 MG Oral Tablet", "855332", PID), "medicationCodeableConcept": "warfarin"}
    bad_allergy = {**allergy("a9", "Penicillin", PID), "code": {"coding": [5], "text": ["Penicillin"]}}
    prefetch = full_prefetch()
    prefetch["medications"], prefetch["allergies"] = bundle(bad_med), bundle(bad_allergy)
    res = post(ehr, "/docgemma-patient-view", hook_body("patient-view", prefetch))
    assert res.status_code == 412 and "medications" in res.json()["error_description"]  # unusable, not "none"
    draft = hook_body("order-sign", full_prefetch(), drafts=[bad_med])
    res = post(ehr, "/docgemma-order-sign", draft)
    assert res.status_code == 400 and "draftOrders" in res.json()["error_description"]


def test_a_patient_name_with_null_parts_is_not_a_500(ehr):
    body = hook_body("patient-view", full_prefetch())
    body["prefetch"]["patient"]["name"] = [{"given": [None], "family": None}, {"given": ["Ama", None]}]
    res = post(ehr, "/docgemma-patient-view", body)
    assert res.status_code < 500, res.text


def test_a_hook_or_feedback_call_that_is_not_json_is_415(ehr):
    body = json.dumps(hook_body("patient-view", full_prefetch()))
    for path in ("/docgemma-patient-view", "/docgemma-order-sign/feedback"):
        url = ehr.url(path)
        for kind in ("text/plain", "application/x-www-form-urlencoded", None):
            headers = {"Authorization": f"Bearer {ehr.token(url)}", **({"Content-Type": kind} if kind else {})}
            res = requests.post(url, data=body.encode(), headers=headers, timeout=30)
            assert res.status_code == 415 and "cards" not in res.text, (path, kind, res.status_code)
    res = post(ehr, "/docgemma-patient-view", hook_body("patient-view", full_prefetch()))
    assert res.status_code == 200 and "cards" in res.json()


def test_feedback_accepts_aud_of_the_service_or_of_the_feedback_url(ehr):
    card = issued_cards(ehr)[0]
    stamp = "2026-11-25T10:00:00+00:00"
    item = {"feedback": [{"card": card, "outcome": "overridden", "outcomeTimestamp": stamp}]}
    feedback_url = ehr.url("/docgemma-order-sign/feedback")
    for aud in (ehr.url("/docgemma-order-sign"), feedback_url):
        res = requests.post(feedback_url, json=item, headers={"Authorization": f"Bearer {ehr.token(aud)}"},
                            timeout=10)
        assert res.status_code == 200, (aud, res.status_code)
    for aud in (ehr.url("/docgemma-patient-view"), ehr.url()):  # another service, or the discovery URL
        res = requests.post(feedback_url, json=item, headers={"Authorization": f"Bearer {ehr.token(aud)}"},
                            timeout=10)
        assert res.status_code == 401, aud
