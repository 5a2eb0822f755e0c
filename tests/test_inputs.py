"""Malformed input from browsers and EHRs is a clear 4xx, never a 500: JSON bodies,
form fields, headers, ``iss``, Host, and an allow-listed EHR's discovery document.

The views run in the Flask app against real HAPI (the session's FHIR server);
discovery documents come from a real HTTP server standing in for an EHR."""
from __future__ import annotations

import json

import pytest
from smart_docgemma.fhir import FhirGateway
from smart_docgemma.proposals.store import proposal_store
from smart_docgemma.smart.scopes import GrantedScopes
from smart_docgemma.tools.args import PrescribeMedicationArgs
from smart_docgemma.tools.base import ToolContext
from smart_docgemma.tools.registry import tools_for

from tests.support.chat_session import LAUNCH_SCOPES, open_session

DEEP = "[" * 50_000 + "]" * 50_000


@pytest.fixture
def logged_in(app, client, fhir_base):
    client.csrf = open_session(app, client, fhir_base, "pt-ckd-elder")
    return client


def post_json(client, path, raw: str, csrf: str | None = None):
    return client.post(path, data=raw, content_type="application/json", headers={"X-CSRF-Token": csrf or client.csrf})


def test_deeply_nested_or_mistyped_json_to_the_chat_is_400(logged_in):
    assert post_json(logged_in, "/api/chat", DEEP).status_code == 400
    assert post_json(logged_in, "/api/chat",
                     json.dumps({"message": json.loads("[" * 45 + "]" * 45)})).status_code == 400
    for body in ('{"message": 5}', '{"message": ["why"]}', "[1]", '"text"', "{", "\xff"):
        res = post_json(logged_in, "/api/chat", body)
        assert res.status_code == 400 and res.is_json, body


def test_a_non_ascii_csrf_header_is_403_not_500(logged_in):
    res = logged_in.post("/api/chat", data={"message": "hi"}, headers={"X-CSRF-Token": "é" * 10})
    assert res.status_code == 403
    res = logged_in.post("/api/chat", data={"message": "hi", "csrf_token": "\u2603"})
    assert res.status_code == 403


@pytest.mark.parametrize("iss", ["http://[::1/fhir", "http://127.0.0.1:99999/fhir", "http://[::1]:x/fhir", "\x00",
                                 "http://127.0.0.1:9000/fhir\n", "http://127.0.0.1:9000/" + "a" * 5000])
def test_a_malformed_iss_is_refused_like_an_unknown_one(client, iss):
    res = client.get("/launch", query_string={"iss": iss, "launch": "x"})
    assert res.status_code == 400 and b"not registered" in res.data


def test_a_reject_reason_that_is_not_text_is_400(app, logged_in, fhir_base):
    with logged_in.session_transaction() as s:
        sid = s["sid"]
    scopes = GrantedScopes.parse(LAUNCH_SCOPES)
    ctx = ToolContext(patient_id="pt-ckd-elder", scopes=scopes, fhir=FhirGateway(fhir_base, None),
                      proposals=proposal_store(app), sid=sid, user="Practitioner/dr-okafor",
                      config=dict(app.config))
    with app.app_context():
        result = tools_for(scopes)["prescribe_medication"].run(PrescribeMedicationArgs(
            patient_id="pt-ckd-elder", medication_name="amlodipine", dosage="5 mg", frequency="once daily"), ctx)
    assert result.status == "proposal", result.text
    path = f"/proposals/{result.proposal_id}/reject"
    for body in ('{"reason": 5}', '{"reason": {"a": 1}}', '{"reason": ["x"]}', DEEP):
        res = logged_in.post(path, data=body, content_type="application/json",
                             headers={"X-CSRF-Token": logged_in.csrf, "Accept": "application/json"})
        assert res.status_code == 400, body
    assert proposal_store(app).get(result.proposal_id).status == "pending"
    ok = logged_in.post(path, data=json.dumps({"reason": "dose too high"}), content_type="application/json",
                        headers={"X-CSRF-Token": logged_in.csrf, "Accept": "application/json"})
    assert ok.status_code == 200 and ok.json["status"] == "rejected"
    shown = logged_in.get(f"/proposals/{result.proposal_id}", headers={"Accept": "application/json"})
    assert shown.status_code == 200 and shown.headers["Cache-Control"] == "no-store"  # patient data


@pytest.mark.parametrize("host", ["a" * 300, "x" * 64 + ".example", "bad host", "[::1"])
def test_an_invalid_host_header_gets_an_error_answer_not_a_500(client, host):
    for path in ("/nowhere", "/launch?iss=x", "/app"):
        res = client.get(path, headers={"Host": host})
        assert 400 <= res.status_code < 500, (host, path, res.status_code)


@pytest.mark.parametrize("document", [
    [1, 2], "text", {"authorization_endpoint": 5, "token_endpoint": "/t", "code_challenge_methods_supported": ["S256"]},
    {"authorization_endpoint": "/a", "token_endpoint": ["/t"], "code_challenge_methods_supported": ["S256"]},
    {"authorization_endpoint": "/a", "token_endpoint": "/t", "code_challenge_methods_supported": ["S256"],
     "jwks_uri": 7},
    {"authorization_endpoint": "/a", "token_endpoint": "/t", "code_challenge_methods_supported": ["S256"],
     "issuer": {"x": 1}},
    {"authorization_endpoint": "http://[::1/a", "token_endpoint": "/t", "code_challenge_methods_supported": ["S256"]},
])
def test_a_malformed_discovery_document_is_a_clear_502(app_config, httpserver, document):
    from smart_docgemma import create_app

    base = httpserver.url_for("/fhir")
    httpserver.expect_request("/fhir/.well-known/smart-configuration").respond_with_json(document)
    client = create_app({**app_config, "ISS_ALLOWLIST": [base]}).test_client()
    res = client.get("/launch", query_string={"iss": base, "launch": "x"})
    assert res.status_code == 502 and b"SMART configuration" in res.data


@pytest.mark.parametrize("endpoint", ["javascript:alert(1)", "http://ehr.example.org/authorize",
                                      "data:text/html,hi", "//evil.example/authorize", "ftp://127.0.0.1/a"])
def test_discovery_cannot_send_the_browser_to_a_script_or_plain_http_host(app_config, httpserver, endpoint):
    from smart_docgemma import create_app

    base = httpserver.url_for("/fhir")
    httpserver.expect_request("/fhir/.well-known/smart-configuration").respond_with_json({
        "authorization_endpoint": endpoint, "token_endpoint": "/auth/token",
        "code_challenge_methods_supported": ["S256"]})
    client = create_app({**app_config, "ISS_ALLOWLIST": [base]}).test_client()
    res = client.get("/launch", query_string={"iss": base, "launch": "x"})
    assert res.status_code == 502 and "Location" not in res.headers


def test_session_cookie_is_samesite_lax_over_http(app_config, httpserver):
    from smart_docgemma import create_app

    base = httpserver.url_for("/fhir")
    httpserver.expect_request("/fhir/.well-known/smart-configuration").respond_with_json({
        "authorization_endpoint": "/auth/authorize", "token_endpoint": "/auth/token",
        "code_challenge_methods_supported": ["S256"]})
    client = create_app({**app_config, "ISS_ALLOWLIST": [base]}).test_client()
    res = client.get("/launch", query_string={"iss": base, "launch": "x"})
    cookie = res.headers.get("Set-Cookie") or ""
    assert res.status_code == 302 and "SameSite=Lax" in cookie and "HttpOnly" in cookie


def test_a_deeply_nested_rating_is_400(logged_in):
    res = post_json(logged_in, "/app/turns/0123/rating", DEEP)
    assert res.status_code == 400
