"""The EHR sandbox over real HTTP in front of the real HAPI FHIR server: discovery,
the launch contract, authorize/token per SMART App Launch 2.2, and the FHIR
proxy's token, scope and patient-compartment enforcement."""
from __future__ import annotations

import re
import time
from base64 import b64encode

import pytest
import requests
from joserfc import jwt
from joserfc.jwk import KeySet

from tests.launch.conftest import EHR_SCOPE, REDIRECT, query_of

pytestmark = pytest.mark.slow


def keyset(sandbox) -> KeySet:
    config = requests.get(f"{sandbox.fhir_url}/.well-known/smart-configuration").json()
    return KeySet.import_key_set(requests.get(config["jwks_uri"]).json())


def decode(sandbox, token: str) -> dict:
    return dict(jwt.decode(token, keyset(sandbox), algorithms=["RS256", "RS384"]).claims)


# -- discovery -------------------------------------------------------------------
def test_discovery_lists_every_required_field_and_only_s256(sandbox):
    res = requests.get(f"{sandbox.fhir_url}/.well-known/smart-configuration")
    assert res.status_code == 200 and res.headers["Content-Type"].startswith("application/json")
    doc = res.json()
    assert doc["issuer"] == sandbox.fhir_url
    assert doc["authorization_endpoint"] == f"{sandbox.url}/auth/authorize"
    assert doc["token_endpoint"] == f"{sandbox.url}/auth/token"
    assert doc["code_challenge_methods_supported"] == ["S256"]
    assert "client_secret_basic" in doc["token_endpoint_auth_methods_supported"]
    assert {"authorization_code", "refresh_token"} <= set(doc["grant_types_supported"])
    assert doc["response_types_supported"] == ["code"] and "launch" in doc["scopes_supported"]
    for capability in ("launch-ehr", "launch-standalone", "client-public", "client-confidential-symmetric",
                       "context-ehr-patient", "context-banner", "context-style", "permission-v1",
                       "permission-v2", "permission-online", "permission-offline", "sso-openid-connect"):
        assert capability in doc["capabilities"]
    assert requests.get(doc["jwks_uri"]).json()["keys"][0]["kty"] == "RSA"


def test_metadata_is_hapis_with_smart_oauth_uris_and_sandbox_urls(sandbox, fhir_base):
    res = requests.get(f"{sandbox.fhir_url}/metadata")
    assert res.status_code == 200
    statement = res.json()
    assert statement["resourceType"] == "CapabilityStatement"
    uris = statement["rest"][0]["security"]["extension"][-1]
    assert uris["url"].endswith("/oauth-uris")
    assert {e["url"]: e["valueUri"] for e in uris["extension"]}["token"] == f"{sandbox.url}/auth/token"
    assert fhir_base not in res.text


# -- launch contract -----------------------------------------------------------------
def test_launch_redirects_to_the_app_with_iss_and_an_opaque_launch(sandbox):
    res = requests.get(f"{sandbox.url}/launch", allow_redirects=False,
                       params={"patient": "pt-warfarin", "practitioner": "dr-okafor",
                               "launch_url": "http://127.0.0.1:8000/launch"})
    assert res.status_code == 302
    location = res.headers["Location"]
    assert location.startswith("http://127.0.0.1:8000/launch?")
    query = query_of(location)
    assert query["iss"] == sandbox.fhir_url
    assert len(query["launch"]) >= 32 and "pt-warfarin" not in location


def test_launch_with_an_unknown_patient_is_a_400_page(sandbox):
    res = requests.get(f"{sandbox.url}/launch", allow_redirects=False,
                       params={"patient": "nobody", "launch_url": "http://127.0.0.1:8000/launch"})
    assert res.status_code == 400 and "Unknown patient" in res.text and "Location" not in res.headers


def test_launcher_page_lists_patients_and_practitioners_from_hapi(sandbox):
    res = requests.get(f"{sandbox.url}/")
    assert res.status_code == 200
    assert 'value="pt-warfarin"' in res.text and 'value="dr-okafor"' in res.text
    assert "http://127.0.0.1:8000/launch" in res.text


# -- authorize rejections ------------------------------------------------------------------
@pytest.mark.parametrize("override, message", [
    ({"code_challenge": None, "code_challenge_method": None}, "code_challenge"),
    ({"code_challenge_method": "plain"}, "S256"),
    ({"code_challenge_method": None}, "S256"),
    ({"aud": "http://127.0.0.1:1/fhir"}, "aud"),
    ({"launch": "forged-launch-handle"}, "launch"),
])
def test_authorize_errors_go_back_to_the_redirect_uri_with_state(smart, override, message):
    res = smart.authorize(smart.params(EHR_SCOPE, **{"launch": smart.launch(), **override}))
    assert res.status_code == 302
    location = res.headers["Location"]
    assert location.startswith(REDIRECT + "?")
    query = query_of(location)
    assert query["error"] == "invalid_request" and message in query["error_description"]
    assert query["state"] == smart.state and "code" not in query


def test_authorize_without_state_is_refused(smart):
    res = smart.authorize(smart.params(EHR_SCOPE, smart.launch(), state=None))
    query = query_of(res.headers["Location"])
    assert res.status_code == 302 and query["error"] == "invalid_request" and "code" not in query


@pytest.mark.parametrize("override", [
    {"redirect_uri": "https://attacker.example/callback"},
    {"redirect_uri": "http://127.0.0.1:8000/other"},
    {"client_id": "unknown-app"},
])
def test_unregistered_client_or_redirect_uri_gets_a_400_page_never_a_redirect(smart, override):
    res = smart.authorize(smart.params(EHR_SCOPE, smart.launch(), **override))
    assert res.status_code == 400
    assert "Location" not in res.headers and "refused" in res.text


def test_aud_with_trailing_slash_is_accepted(smart):
    code = smart.code(smart.authorize(smart.params(EHR_SCOPE, smart.launch(), aud=smart.sandbox.fhir_url + "/")))
    assert smart.exchange(code).status_code == 200


# -- happy EHR launch, token, refresh ----------------------------------------------------------
def test_ehr_launch_confidential_client_through_token_and_refresh(smart, sandbox):
    launch = smart.launch("pt-warfarin", "dr-otieno", encounter="pt-warfarin-enc1")
    res = smart.authorize(smart.params(EHR_SCOPE + " launch/encounter", launch, ), method="POST")
    token_res = smart.exchange(smart.code(res))
    assert token_res.status_code == 200, token_res.text
    assert token_res.headers["Cache-Control"] == "no-store" and token_res.headers["Pragma"] == "no-cache"
    token = token_res.json()
    assert token["token_type"] == "Bearer" and token["expires_in"] > 0
    assert token["patient"] == "pt-warfarin" and token["encounter"] == "pt-warfarin-enc1"
    assert token["need_patient_banner"] is True
    assert token["smart_style_url"] == f"{sandbox.url}/smart-style.json"
    assert set(token["scope"].split()) == set((EHR_SCOPE + " launch/encounter").split())
    assert requests.get(token["smart_style_url"]).json()["color_background"]

    access = decode(sandbox, token["access_token"])
    assert access["aud"] == sandbox.fhir_url and access["patient"] == "pt-warfarin"
    assert access["exp"] > time.time() and access["jti"] and access["fhirUser"].endswith("/Practitioner/dr-otieno")

    id_token = decode(sandbox, token["id_token"])
    issuer = requests.get(f"{sandbox.fhir_url}/.well-known/smart-configuration").json()["issuer"]
    assert id_token["iss"] == issuer and id_token["aud"] == "docgemma"
    assert id_token["nonce"] == smart.nonce and id_token["fhirUser"].endswith("Practitioner/dr-otieno")

    refreshed = smart.token({"grant_type": "refresh_token", "refresh_token": token["refresh_token"]})
    assert refreshed.status_code == 200, refreshed.text
    body = refreshed.json()
    assert body["access_token"] != token["access_token"] and body["patient"] == "pt-warfarin"
    assert body["refresh_token"] != token["refresh_token"]  # rotation
    again = smart.token({"grant_type": "refresh_token", "refresh_token": token["refresh_token"]})
    assert again.status_code == 400 and again.json()["error"] == "invalid_grant"
    assert smart.fhir("GET", "Patient/pt-warfarin", body["access_token"]).status_code == 200


def test_refresh_may_narrow_but_never_widen_scope(smart):
    token = smart.ehr_token()
    wider = smart.token({"grant_type": "refresh_token", "refresh_token": token["refresh_token"],
                         "scope": "patient/*.cruds online_access"})
    assert wider.status_code == 400 and wider.json()["error"] == "invalid_scope"
    narrow = smart.token({"grant_type": "refresh_token", "refresh_token": token["refresh_token"],
                          "scope": "patient/Patient.r online_access"})
    assert narrow.status_code == 200 and narrow.json()["scope"] == "patient/Patient.r online_access"
    assert smart.fhir("GET", "Observation?code=x", narrow.json()["access_token"]).status_code == 403


def test_no_refresh_token_without_online_or_offline_access(smart):
    token = smart.ehr_token(scope="launch openid fhirUser patient/Patient.r")
    assert "refresh_token" not in token and token["patient"] == "pt-warfarin"


def test_authorization_code_is_single_use(smart):
    code = smart.code(smart.authorize(smart.params(EHR_SCOPE, smart.launch())))
    assert smart.exchange(code).status_code == 200
    reuse = smart.exchange(code)
    assert reuse.status_code == 400 and reuse.json()["error"] == "invalid_grant"


def test_wrong_pkce_verifier_is_invalid_grant(smart):
    code = smart.code(smart.authorize(smart.params(EHR_SCOPE, smart.launch())))
    res = smart.exchange(code, verifier="x" * 50)
    assert res.status_code == 400 and res.json()["error"] == "invalid_grant"


def test_wrong_client_secret_is_401_invalid_client(smart):
    code = smart.code(smart.authorize(smart.params(EHR_SCOPE, smart.launch())))
    smart.secret = "not-the-secret"
    res = smart.exchange(code)
    assert res.status_code == 401 and res.json()["error"] == "invalid_client"
    assert "WWW-Authenticate" in res.headers


@pytest.mark.parametrize("header", [
    "Basic " + b64encode(b"\xff\xfe:\xff").decode(),  # neither part is UTF-8
    "Basic " + b64encode(b"docgemma:\xe9t\xe9").decode(),  # a Latin-1 secret
    "Basic " + b64encode("docgemma:docgemma-dev-secret".encode("utf-16")).decode(),
    "Basic !!!not-base64", "Basic", "Basic " + b64encode(b"docgemma").decode(), "Bearer abc", "basic  ",
])
@pytest.mark.parametrize("grant", ["authorization_code", "refresh_token",
                                   "urn:ietf:params:oauth:grant-type:token-exchange"])
def test_malformed_client_credentials_are_401_invalid_client_in_oauth_json(smart, header, grant):
    res = requests.post(f"{smart.sandbox.url}/auth/token", headers={"Authorization": header}, timeout=30,
                        data={"grant_type": grant, "code": "x", "refresh_token": "x", "subject_token": "x",
                              "subject_token_type": "urn:ietf:params:oauth:token-type:access_token"})
    assert res.status_code == 401, res.text
    assert res.headers["Content-Type"] == "application/json" and res.json()["error"] == "invalid_client"
    assert res.headers["WWW-Authenticate"].startswith("Basic ")


@pytest.mark.parametrize("method, path", [("GET", "/auth/token"), ("PUT", "/auth/token"), ("GET", "/auth/register"),
                                          ("GET", "/.well-known/oauth-authorization-server/other"),
                                          ("POST", "/.well-known/jwks.json"), ("DELETE", "/jwks")])
def test_oauth_endpoints_answer_http_errors_in_oauth_json_never_html(sandbox, method, path):
    res = requests.request(method, sandbox.url + path, timeout=30)
    assert res.status_code in (404, 405) and res.headers["Content-Type"] == "application/json"
    assert res.json()["error"] == "invalid_request" and "<" not in res.text
    if res.status_code == 405:
        assert "Allow" in res.headers


def test_public_client_on_any_loopback_port_uses_client_id_and_pkce(public_smart):
    token = public_smart.ehr_token("pt-t2dm")
    assert token["patient"] == "pt-t2dm" and "refresh_token" in token
    refreshed = public_smart.token({"grant_type": "refresh_token", "refresh_token": token["refresh_token"]})
    assert refreshed.status_code == 200


def test_public_client_cannot_redeem_a_code_without_verifier(public_smart):
    code = public_smart.code(public_smart.authorize(public_smart.params(EHR_SCOPE, public_smart.launch())))
    res = public_smart.token({"grant_type": "authorization_code", "code": code,
                              "redirect_uri": public_smart.redirect_uri})
    assert res.status_code == 400 and res.json()["error"] == "invalid_request"


def test_expired_code_is_refused(smart, sandbox):
    codes = sandbox.app.extensions["sandbox"].codes
    code = smart.code(smart.authorize(smart.params(EHR_SCOPE, smart.launch())))
    record = codes.pop(code)
    codes.put(record, key=code, ttl_s=-1)  # as if CODE_TTL_S had passed
    res = smart.exchange(code)
    assert res.status_code == 400 and res.json()["error"] == "invalid_grant"


# -- consent page and standalone patient picker ---------------------------------------------
def _txn(page: str) -> str:
    return re.search(r'name="txn" value="([^"]+)"', page).group(1)


def test_consent_page_lets_the_user_narrow_the_grant(smart, sandbox):
    page = smart.authorize(smart.params(EHR_SCOPE, smart.launch(consent="1")))
    assert page.status_code == 200 and 'value="patient/Observation.rs"' in page.text
    kept = ["launch", "openid", "fhirUser", "patient/Patient.r"]
    res = smart.http.post(f"{sandbox.url}/auth/decide", allow_redirects=False,
                          data={"txn": _txn(page.text), "decision": "approve", "scope": kept})
    token = smart.exchange(smart.code(res)).json()
    assert sorted(token["scope"].split()) == sorted(kept) and "refresh_token" not in token
    assert smart.fhir("GET", "Patient/pt-warfarin", token["access_token"]).status_code == 200
    assert smart.fhir("GET", "Observation", token["access_token"]).status_code == 403


def test_consent_deny_returns_access_denied_and_the_page_is_single_use(smart, sandbox):
    page = smart.authorize(smart.params(EHR_SCOPE, smart.launch(consent="1")))
    res = smart.http.post(f"{sandbox.url}/auth/decide", allow_redirects=False,
                          data={"txn": _txn(page.text), "decision": "deny"})
    query = query_of(res.headers["Location"])
    assert query["error"] == "access_denied" and query["state"] == smart.state
    replay = smart.http.post(f"{sandbox.url}/auth/decide", data={"txn": _txn(page.text), "decision": "approve"})
    assert replay.status_code == 400


def test_standalone_launch_shows_a_patient_picker(smart, sandbox):
    scope = "launch/patient openid fhirUser patient/*.rs offline_access"
    page = smart.authorize(smart.params(scope))
    assert page.status_code == 200 and 'value="pt-child"' in page.text
    res = smart.http.post(f"{sandbox.url}/auth/decide", allow_redirects=False,
                          data={"txn": _txn(page.text), "decision": "approve", "patient": "pt-child"})
    token = smart.exchange(smart.code(res)).json()
    assert token["patient"] == "pt-child" and "refresh_token" in token
    practitioner = sandbox.app.extensions["sandbox"].config["DEFAULT_PRACTITIONER"]
    assert decode(sandbox, token["id_token"])["fhirUser"].endswith(f"Practitioner/{practitioner}")


# -- FHIR proxy -------------------------------------------------------------------------------
def test_fhir_without_or_with_a_bad_token_is_401_with_operation_outcome(smart, sandbox):
    for token in (None, "not-a-jwt"):
        res = smart.fhir("GET", "Patient/pt-warfarin", token)
        assert res.status_code == 401 and res.headers["WWW-Authenticate"].startswith("Bearer")
        assert res.json()["resourceType"] == "OperationOutcome"
    key = sandbox.app.extensions["sandbox"].key
    expired = key.sign({"iss": sandbox.fhir_url, "aud": sandbox.fhir_url, "exp": int(time.time()) - 5,
                        "scope": "user/*.cruds", "sub": "dr-okafor"})
    res = smart.fhir("GET", "Patient/pt-warfarin", expired)
    assert res.status_code == 401 and "expired" in res.json()["issue"][0]["diagnostics"]


def test_cross_patient_read_is_403_with_operation_outcome(smart):
    token = smart.ehr_token("pt-warfarin")["access_token"]
    assert smart.fhir("GET", "Patient/pt-warfarin", token).json()["id"] == "pt-warfarin"
    res = smart.fhir("GET", "Patient/pt-t2dm", token)
    assert res.status_code == 403 and res.json()["resourceType"] == "OperationOutcome"
    assert smart.fhir("GET", "Observation", token, params={"patient": "pt-t2dm"}).status_code == 403


def test_create_without_a_create_scope_is_403(smart):
    token = smart.ehr_token("pt-warfarin")["access_token"]
    condition = {"resourceType": "Condition", "subject": {"reference": "Patient/pt-warfarin"},
                 "code": {"text": "test"}}
    res = smart.fhir("POST", "Condition", token, json=condition)
    assert res.status_code == 403 and "needs 'c'" in res.json()["issue"][0]["diagnostics"]


def test_create_with_scope_must_reference_the_launch_patient(smart, sandbox):
    token = smart.ehr_token("pt-warfarin")["access_token"]
    allergy = {"resourceType": "AllergyIntolerance", "patient": {"reference": "Patient/pt-t2dm"},
               "code": {"text": "latex"}}
    assert smart.fhir("POST", "AllergyIntolerance", token, json=allergy).status_code == 403
    allergy["patient"]["reference"] = "Patient/pt-warfarin"
    res = smart.fhir("POST", "AllergyIntolerance", token, json=allergy,
                     headers={"Content-Type": "application/fhir+json", "Prefer": "return=representation"})
    assert res.status_code == 201, res.text
    assert res.headers["Location"].startswith(f"{sandbox.fhir_url}/AllergyIntolerance/")


def test_own_patient_search_is_constrained_and_pages_through_the_sandbox(smart, sandbox, fhir_base):
    token = smart.ehr_token("pt-many-obs")["access_token"]
    first = smart.fhir("GET", "Observation", token, params={"_count": 50})  # names no patient
    assert first.status_code == 200, first.text
    bundle = first.json()
    assert bundle["total"] == 170 if "total" in bundle else len(bundle["entry"]) == 50
    assert all(e["resource"]["subject"]["reference"].endswith("Patient/pt-many-obs") for e in bundle["entry"])
    assert all(e["fullUrl"].startswith(sandbox.fhir_url + "/") for e in bundle["entry"])
    assert fhir_base not in first.text
    next_url = next(link["url"] for link in bundle["link"] if link["relation"] == "next")
    assert next_url.startswith(sandbox.fhir_url)
    page2 = smart.fhir("GET", next_url, token)
    assert page2.status_code == 200 and len(page2.json()["entry"]) == 50
    other = smart.ehr_token("pt-warfarin")["access_token"]
    assert smart.fhir("GET", next_url, other).status_code == 403


def test_a_one_page_search_reaches_hapi_as_not_to_be_stored(smart):
    """``Cache-Control: no-store`` (the app's one-page searches) is forwarded: HAPI answers the
    search without keeping it for paging, so the page has no next link."""
    token = smart.ehr_token("pt-many-obs")["access_token"]
    kept = smart.fhir("GET", "Observation", token, params={"_count": 50}).json()
    once = smart.fhir("GET", "Observation", token, params={"_count": 50},
                      headers={"Cache-Control": "no-store"}).json()
    assert len(kept["entry"]) == len(once["entry"]) == 50
    assert "next" in {link["relation"] for link in kept["link"]}
    assert "next" not in {link["relation"] for link in once.get("link", [])}


def test_user_level_scopes_reach_other_patients(smart, sandbox):
    token = smart.ehr_token("pt-warfarin", scope="launch openid fhirUser user/Patient.rs")["access_token"]
    assert smart.fhir("GET", "Patient/pt-t2dm", token).status_code == 200
    assert smart.fhir("GET", "Observation", token).status_code == 403  # no Observation scope


def dribbling_server(body: bytes, every_s: float):
    """A document server that sends its headers, then one byte of ``body`` every ``every_s``."""
    import socket
    import threading

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(4)

    def dribble(conn):
        try:
            conn.recv(4096)
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                         b"Content-Length: %d\r\n\r\n" % len(body))
            for byte in body:
                conn.sendall(bytes([byte]))
                time.sleep(every_s)
        except OSError:
            pass
        conn.close()

    def serve():
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            fetches.append(time.monotonic())
            threading.Thread(target=dribble, args=(conn,), daemon=True).start()
    fetches: list[float] = []
    threading.Thread(target=serve, daemon=True).start()
    return listener, f"http://127.0.0.1:{listener.getsockname()[1]}/client.json", fetches


def test_a_client_metadata_document_that_dribbles_in_is_given_up_within_its_deadline(sandbox):
    """A client_id URL whose server sends one byte a second: the authorization request is
    answered (unknown client, never a redirect) after the fetch's 5 s deadline, not held."""
    listener, url, fetches = dribbling_server(b'{"client_id": "' + b"x" * 100 + b'"}', 1.0)
    try:
        started = time.monotonic()
        res = requests.get(f"{sandbox.url}/auth/authorize", allow_redirects=False, timeout=60, params={
            "response_type": "code", "client_id": url, "redirect_uri": "http://127.0.0.1:9/cb", "state": "s",
            "scope": "launch/patient openid", "aud": sandbox.fhir_url, "code_challenge": "x" * 43,
            "code_challenge_method": "S256"})
        took = time.monotonic() - started
    finally:
        listener.close()
    assert res.status_code == 400 and "Location" not in res.headers
    assert took < 8 and len(fetches) == 1, (took, len(fetches))
