"""DocGemma's tools over MCP (Streamable HTTP at ``{app}/mcp``), authorised by the sandbox's
SMART authorization server, against real HAPI: the ``mcp`` SDK's own client doing the OAuth
flow (discovery, dynamic registration, PKCE, resource indicator), patient isolation, token
audiences kept apart (token exchange for FHIR), and a proposal made over MCP approved once by
a clinician on DocGemma's page, with Provenance naming the MCP client.
"""

from __future__ import annotations

import json
import logging
import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass

import httpx2
import pytest
import requests
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from smart_docgemma import create_app
from smart_docgemma.logs import JsonFormatter

from tests.support.launch_context import clone_patient
from tests.support.mcp_oauth import (
    SandboxUser,
    authorize_token,
    oauth_provider,
    register,
    run_async,
)
from tests.support.servers import free_port, serve
from tests.support.smart_browser import Browser, ehr_launch, finish

PATIENT_READS = "launch/patient openid fhirUser patient/*.rs"


@dataclass
class Stack:
    sandbox_url: str
    fhir_url: str  # the sandbox's FHIR API (the SMART iss)
    upstream: str  # HAPI itself
    app_url: str
    mcp_url: str
    sandbox_app: object
    app: object
    served_port: int = 0  # reserved for the ``docgemma`` command's MCP URL

    def sign(self, **claims) -> str:
        """A token signed with the sandbox's own key (for tokens the flow would never issue)."""
        now = int(time.time())
        base = {
            "iss": self.fhir_url,
            "aud": self.mcp_url,
            "sub": "dr-okafor",
            "client_id": "forger",
            "iat": now,
            "exp": now + 300,
            "scope": PATIENT_READS,
            "patient": "pt-warfarin",
            "fhirUser": f"{self.fhir_url}/Practitioner/dr-okafor",
        }
        return self.sandbox_app.extensions["sandbox"].key.sign({**base, **claims})


@pytest.fixture(scope="module")
def stack(fhir_base, sources, tmp_path_factory):
    from launch.sandbox import create_sandbox

    app_port, sandbox_port = free_port(), free_port()
    app_url, sandbox_url = f"http://127.0.0.1:{app_port}", f"http://127.0.0.1:{sandbox_port}"
    mcp_url = f"{app_url}/mcp"
    served_port = free_port()  # for the ``docgemma`` command (gunicorn) test
    sandbox_app = create_sandbox(
        {
            "FHIR_UPSTREAM": fhir_base,
            "HOST": "127.0.0.1",
            "PORT": sandbox_port,
            "PUBLIC_URL": sandbox_url,
            "PROTECTED_RESOURCES": {
                mcp_url: "docgemma",
                f"http://127.0.0.1:{served_port}/mcp": "docgemma",
            },
        }
    )
    folder = tmp_path_factory.mktemp("mcp")
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test-secret-key",
            "ENDPOINT": None,
            "DATABASE_URL": f"sqlite:///{folder / 'app.sqlite'}",
            "CACHE_PATH": str(folder / "cache"),
            "ISS_ALLOWLIST": [f"{sandbox_url}/fhir"],
            "MCP_URL": mcp_url,
            "MCP_AUTHORIZATION_SERVER": f"{sandbox_url}/fhir",
            **sources,
        }
    )
    with serve(sandbox_app, sandbox_port), serve(app, app_port):
        yield Stack(
            sandbox_url,
            f"{sandbox_url}/fhir",
            fhir_base,
            app_url,
            mcp_url,
            sandbox_app,
            app,
            served_port,
        )


def mcp_post(
    stack: Stack, token: str | None, method: str = "tools/list", params: dict | None = None
):
    """One raw Streamable HTTP request (JSON-RPC over POST)."""
    headers = {
        "Accept": "application/json, text/event-stream",
        "Content-Type": "application/json",
        "MCP-Protocol-Version": "2025-06-18",
    }
    if token:
        headers["Authorization"] = f"Bearer {token}"
    body = {"jsonrpc": "2.0", "id": 1, "method": method, "params": params or {}}
    return requests.post(stack.mcp_url, json=body, headers=headers, timeout=60)


async def _session(stack: Stack, user: SandboxUser, work, storage=None):
    auth = oauth_provider(stack.mcp_url, user, storage)
    async with (
        httpx2.AsyncClient(auth=auth, timeout=60) as http,
        Client(streamable_http_client(stack.mcp_url, http_client=http)) as client,
    ):
        return await work(client)


def with_sdk_client(stack: Stack, patient: str, work, storage=None):
    user = SandboxUser(patient)
    return run_async(_session, stack, user, work, storage), user


# ------------------------------------------------------------------ the resource server
def test_unauthenticated_request_gets_401_pointing_at_protected_resource_metadata(stack):
    res = mcp_post(stack, None)
    assert res.status_code == 401
    challenge = res.headers["WWW-Authenticate"]
    metadata_url = f"{stack.app_url}/.well-known/oauth-protected-resource/mcp"
    assert challenge.startswith("Bearer ") and f'resource_metadata="{metadata_url}"' in challenge
    assert 'scope="launch/patient openid fhirUser patient/*.rs' in challenge
    metadata = requests.get(metadata_url, timeout=30).json()
    assert metadata["resource"] == stack.mcp_url
    assert metadata["authorization_servers"] == [stack.fhir_url]
    assert "patient/*.rs" in metadata["scopes_supported"]
    oauth = requests.get(
        f"{stack.sandbox_url}/.well-known/oauth-authorization-server/fhir", timeout=30
    ).json()
    assert oauth["issuer"] == stack.fhir_url and oauth["registration_endpoint"].endswith(
        "/auth/register"
    )
    assert "urn:ietf:params:oauth:grant-type:token-exchange" in oauth["grant_types_supported"]


@pytest.mark.parametrize("token", ["valid", None])
def test_get_is_405_with_allow_post_and_holds_nothing_open(stack, token):
    """The transport is stateless with JSON responses: there is never a server message to
    stream, so a standing GET would only hold a worker thread (Streamable HTTP lets the
    server answer 405 instead; clients then use POST alone)."""
    headers = {"Accept": "text/event-stream", "MCP-Protocol-Version": "2025-06-18"}
    if token:
        headers["Authorization"] = f"Bearer {stack.sign()}"
    started = time.monotonic()
    res = requests.get(stack.mcp_url, headers=headers, timeout=10, stream=True)
    body = res.raw.read(10_000, decode_content=True)  # the whole answer, at once
    assert time.monotonic() - started < 5
    assert res.status_code == 405 and res.headers["Allow"] == "POST"
    assert res.headers["Content-Type"] == "application/json"
    error = json.loads(body)["error"]
    assert error["code"] < 0 and "POST" in error["message"]
    for method in ("PUT", "DELETE", "PATCH"):
        assert requests.request(method, stack.mcp_url, headers=headers, timeout=10).status_code == 405
    metrics = requests.get(f"{stack.app_url}/metrics", timeout=10).text
    assert re.search(r'docgemma_mcp_refused_total\{reason="method"\} [1-9]', metrics)


@pytest.mark.parametrize(
    "claims, why",
    [
        ({"exp": int(time.time()) - 5}, "expired"),
        ({"aud": "http://127.0.0.1:1/mcp"}, "issued for another MCP server"),
        ({"aud": None}, "FHIR audience"),  # filled in below: a token for the FHIR API itself
        ({"iss": "http://127.0.0.1:1/fhir"}, "another issuer"),
    ],
)
def test_tokens_not_issued_for_this_endpoint_are_refused(stack, claims, why):
    if why == "FHIR audience":
        claims = {"aud": stack.fhir_url}
    res = mcp_post(stack, stack.sign(**claims))
    assert res.status_code == 401, why
    assert 'error="invalid_token"' in res.headers["WWW-Authenticate"]


def test_a_token_for_the_fhir_api_from_a_real_launch_is_refused(stack):
    client = register(stack.sandbox_url)
    fhir_token = authorize_token(
        stack.sandbox_url, client, PATIENT_READS, stack.fhir_url, "pt-warfarin"
    )
    assert mcp_post(stack, fhir_token["access_token"]).status_code == 401


def test_the_resource_at_the_token_endpoint_must_be_the_authorized_one(stack):
    client = register(stack.sandbox_url)
    refused = authorize_token(
        stack.sandbox_url,
        client,
        PATIENT_READS,
        stack.mcp_url,
        "pt-warfarin",
        token_resource=stack.fhir_url,
        expect=400,
    )
    assert refused["error"] == "invalid_target"


def test_the_fhir_api_refuses_an_mcp_token_and_only_the_mcp_server_may_exchange_it(stack):
    client = register(stack.sandbox_url)
    mcp_token = authorize_token(
        stack.sandbox_url, client, PATIENT_READS, stack.mcp_url, "pt-warfarin"
    )["access_token"]
    fhir = requests.get(
        f"{stack.fhir_url}/Patient/pt-warfarin",
        timeout=30,
        headers={"Authorization": f"Bearer {mcp_token}"},
    )
    assert fhir.status_code == 401  # the client's token never works at FHIR: audiences stay apart
    form = {
        "grant_type": "urn:ietf:params:oauth:grant-type:token-exchange",
        "subject_token": mcp_token,
        "subject_token_type": "urn:ietf:params:oauth:token-type:access_token",
        "resource": stack.fhir_url,
    }
    by_client = requests.post(
        f"{stack.sandbox_url}/auth/token", data={**form, "client_id": client}, timeout=30
    )
    assert by_client.status_code in (400, 401)  # a public client cannot exchange
    wider = requests.post(
        f"{stack.sandbox_url}/auth/token",
        auth=("docgemma", "docgemma-dev-secret"),
        timeout=30,
        data={**form, "scope": "patient/*.rs user/*.cruds"},
    )
    assert wider.status_code == 400 and wider.json()["error"] == "invalid_scope"
    ok = requests.post(
        f"{stack.sandbox_url}/auth/token",
        auth=("docgemma", "docgemma-dev-secret"),
        data=form,
        timeout=30,
    )
    assert ok.status_code == 200, ok.text
    claims = stack.sandbox_app.extensions["sandbox"].key.verify(ok.json()["access_token"])
    assert claims["aud"] == stack.fhir_url and claims["patient"] == "pt-warfarin"
    assert claims["act"] == {"sub": "docgemma"} and "refresh_token" not in ok.json()


def exchange(stack: Stack, subject: str, **form) -> requests.Response:
    data = {
        "grant_type": "urn:ietf:params:oauth:grant-type:token-exchange",
        "subject_token": subject,
        "subject_token_type": "urn:ietf:params:oauth:token-type:access_token",
        "resource": stack.fhir_url,
        **form,
    }
    return requests.post(
        f"{stack.sandbox_url}/auth/token",
        data=data,
        timeout=30,
        auth=("docgemma", "docgemma-dev-secret"),
    )


def test_token_exchange_refuses_what_it_must(stack):
    expired = exchange(stack, stack.sign(exp=int(time.time()) - 1))
    fhir_audience = exchange(
        stack, stack.sign(aud=stack.fhir_url)
    )  # not a resource docgemma serves
    elsewhere = exchange(stack, stack.sign(aud="http://127.0.0.1:1/mcp"))
    forged = exchange(stack, stack.sign()[:-4] + "AAAA")
    to_mcp = exchange(stack, stack.sign(), resource=stack.mcp_url)  # exchange for FHIR only
    assert [r.json()["error"] for r in (expired, fhir_audience, elsewhere, forged)] == [
        "invalid_grant"
    ] * 4
    assert to_mcp.status_code == 400 and to_mcp.json()["error"] == "invalid_target"
    narrowed = exchange(
        stack,
        stack.sign(scope="launch/patient patient/*.rs patient/MedicationRequest.c"),
        scope="launch/patient patient/*.rs",
    )
    assert narrowed.status_code == 200 and narrowed.json()["scope"] == "launch/patient patient/*.rs"


@pytest.mark.parametrize(
    "metadata, error",
    [
        ({"redirect_uris": ["http://example.org/callback"]}, "invalid_redirect_uri"),
        ({"redirect_uris": ["http://127.0.0.1:9/cb#frag"]}, "invalid_redirect_uri"),
        ({"redirect_uris": []}, "invalid_redirect_uri"),
        (
            {
                "redirect_uris": ["http://127.0.0.1:9/cb"],
                "token_endpoint_auth_method": "private_key_jwt",
            },
            "invalid_client_metadata",
        ),
        (
            {"redirect_uris": ["http://127.0.0.1:9/cb"], "grant_types": ["client_credentials"]},
            "invalid_client_metadata",
        ),
    ],
)
def test_dynamic_registration_refuses_unsafe_metadata(stack, metadata, error):
    res = requests.post(f"{stack.sandbox_url}/auth/register", json=metadata, timeout=30)
    assert res.status_code == 400 and res.json()["error"] == error


def test_dynamic_registration_of_a_confidential_client(stack):
    res = requests.post(
        f"{stack.sandbox_url}/auth/register",
        timeout=30,
        json={
            "redirect_uris": ["https://assistant.example.org/oauth/callback"],
            "client_name": "Copilot",
        },
    )
    body = res.json()
    assert res.status_code == 201 and body["client_id"].startswith("dyn-") and body["client_secret"]
    assert body["token_endpoint_auth_method"] == "client_secret_basic"
    assert "urn:ietf:params:oauth:grant-type:token-exchange" not in body["grant_types"]


# ------------------------------------------------------------------ the SDK's own client
def test_sdk_client_does_the_oauth_flow_and_reads_only_its_patients_chart(stack):
    async def work(client):
        listed = await client.list_tools()
        chart = await client.call_tool("get_patient_chart", {"patient_id": "pt-warfarin"})
        other = await client.call_tool("get_patient_chart", {"patient_id": "pt-ckd-elder"})
        search = await client.call_tool("search_patient", {"name": "Okonkwo"})
        return listed, chart, other, search

    (listed, chart, other, search), user = with_sdk_client(stack, "pt-warfarin", work)
    authorize = user.seen_authorize[0]
    assert "resource=" + requests.utils.quote(stack.mcp_url, safe="") in authorize
    assert "code_challenge_method=S256" in authorize and "patient%2F%2A.rs" in authorize
    names = {t.name for t in listed.tools}
    assert {
        "get_patient_chart",
        "check_drug_interactions",
        "prescribe_medication",
        "add_allergy",
        "save_clinical_note",
        "search_medical_literature",
        "find_clinical_trials",
    } <= names
    assert "analyze_medical_image" not in names
    spec = next(t for t in listed.tools if t.name == "get_patient_chart")
    assert spec.input_schema["properties"]["patient_id"] and spec.title == "Chart review"
    assert chart.is_error is False and chart.structured_content["status"] == "ok"
    assert any("/fhir/" in s["url"] for s in chart.structured_content["sources"])
    assert other.is_error and other.structured_content["error_kind"] == "forbidden"
    assert (
        search.structured_content["status"] == "error"
    )  # patient-level grant: no searching others


def test_writes_become_proposals_for_the_tokens_patient_only(stack):
    async def work(client):
        mine = await client.call_tool(
            "add_allergy", {"patient_id": "pt-warfarin", "substance": "latex", "reaction": "hives"}
        )
        theirs = await client.call_tool(
            "prescribe_medication",
            {
                "patient_id": "pt-ckd-elder",
                "medication_name": "lisinopril",
                "dosage": "10 mg",
                "frequency": "once daily",
            },
        )
        return mine, theirs

    (mine, theirs), _ = with_sdk_client(stack, "pt-warfarin", work)
    assert mine.structured_content["status"] == "proposal"
    assert (
        mine.structured_content["card_url"]
        == f"{stack.app_url}/proposals/{mine.structured_content['proposal_id']}"
    )
    assert theirs.is_error and theirs.structured_content["error_kind"] == "forbidden"
    assert count(stack.upstream, "AllergyIntolerance", mine.structured_content["proposal_id"]) == 0


def test_without_create_scopes_there_is_no_proposal(stack):
    token = stack.sign(scope=PATIENT_READS)
    listed = mcp_post(stack, token).json()["result"]["tools"]
    assert "prescribe_medication" not in {t["name"] for t in listed}
    called = mcp_post(
        stack,
        token,
        "tools/call",
        {
            "name": "prescribe_medication",
            "arguments": {
                "patient_id": "pt-warfarin",
                "medication_name": "lisinopril",
                "dosage": "10 mg",
                "frequency": "daily",
            },
        },
    )
    result = called.json()["result"]
    assert result["isError"] and result["structuredContent"]["error_kind"] == "forbidden"


def test_checks_that_did_not_run_are_said_never_empty(stack):
    token = stack.sign(scope="launch/patient patient/Patient.rs patient/Condition.rs")
    called = mcp_post(
        stack,
        token,
        "tools/call",
        {"name": "get_patient_chart", "arguments": {"patient_id": "pt-warfarin"}},
    )
    result = called.json()["result"]["structuredContent"]
    assert result["status"] == "ok" and result["sources"]
    unread = " ".join(result["could_not_check"])
    assert "could not be read (access not granted)" in unread
    assert "Labs" in unread or "labs" in unread
    assert (
        "NOT AVAILABLE (access not granted)" in result["text"]
    )  # the chart text says so, as in the app


@pytest.mark.parametrize(
    "patient, drug, expected",
    [
        ("pt-warfarin", "ibuprofen", "warfarin"),  # interaction with an active medication
        ("pt-pen-allergy", "amoxicillin", "penicillin"),  # allergy cross-reactivity
        ("pt-ckd-elder", "metformin", "egfr"),  # kidney function from the chart's results
        ("pt-warfarin", "apixaban", "two anticoagulants"),  # duplication by class, the one safety check
    ],
)
def test_knowledge_core_checks_a_drug_against_the_tokens_patient(stack, patient, drug, expected):
    token = stack.sign(patient=patient)
    listed = {t["name"] for t in mcp_post(stack, token).json()["result"]["tools"]}
    assert "check_medication_for_patient" in listed
    called = mcp_post(
        stack,
        token,
        "tools/call",
        {"name": "check_medication_for_patient", "arguments": {"medication_name": drug}},
    )
    result = called.json()["result"]["structuredContent"]
    assert result["status"] == "ok" and result["count"] >= 1, result["text"]
    assert expected in result["text"].lower() and result["could_not_check"] == []
    assert result["data"]["problems"][0]["severity"] in ("critical", "warning")


def test_chart_sections_are_tools_of_their_own(stack):
    # A copy of the scenario patient with an allergy of its own: the result does not depend on
    # which other test approved a write on pt-warfarin first.
    me = clone_patient(stack.upstream, "pt-warfarin")
    allergy = {
        "resourceType": "AllergyIntolerance", "patient": {"reference": f"Patient/{me}"},
        "code": {"text": "latex"}, "reaction": [{"manifestation": [{"text": "hives"}]}],
    }
    requests.post(f"{stack.upstream}/AllergyIntolerance", json=allergy, timeout=30).raise_for_status()
    token = stack.sign(patient=me)

    def call(name, patient=me):
        res = mcp_post(
            stack, token, "tools/call", {"name": name, "arguments": {"patient_id": patient}}
        )
        return res.json()["result"]["structuredContent"]

    labs, meds = call("get_patient_labs"), call("get_patient_medications")
    allergies, problems = call("get_patient_allergies"), call("get_patient_problems")
    assert "INR" in labs["text"] and "3.4 (2026-10-05) ↑" in labs["text"] and labs["data"]["labs"]
    assert all("/Observation/" in s["url"] or "/Patient/" in s["url"] for s in labs["sources"])
    assert "warfarin" in meds["text"] and "Allergies" not in meds["text"]
    assert "latex" in allergies["text"] and "Atrial fibrillation" in problems["text"]
    assert call("get_patient_labs", "pt-ckd-elder")["error_kind"] == "forbidden"
    narrow = stack.sign(scope="launch/patient patient/Patient.rs patient/MedicationRequest.rs")
    listed = {t["name"] for t in mcp_post(stack, narrow).json()["result"]["tools"]}
    assert "get_patient_medications" in listed and "get_patient_labs" not in listed


def test_identify_drug_names_ingredients_codes_and_classes_or_says_why_not(stack):
    token = stack.sign()

    def identify(name):
        res = mcp_post(
            stack, token, "tools/call", {"name": "identify_drug", "arguments": {"drug_name": name}}
        )
        return res.json()["result"]["structuredContent"]

    augmentin, unknown = identify("Augmentin 625"), identify("xyzzy")
    assert augmentin["status"] == "ok" and "amoxicillin (RxNorm 723)" in augmentin["text"]
    assert "penicillin" in augmentin["text"].lower() and augmentin["sources"]
    assert "FDA pharmacologic class: Penicillin-class Antibacterial" in augmentin["text"]
    assert unknown["status"] == "empty" and "could not be identified" in unknown["text"]
    assert unknown["could_not_check"] == [unknown["text"]]
    check = mcp_post(
        stack,
        token,
        "tools/call",
        {"name": "check_medication_for_patient", "arguments": {"medication_name": "xyzzy"}},
    )
    unchecked = check.json()["result"]["structuredContent"]["could_not_check"]
    assert unchecked and "Could not check xyzzy" in unchecked[0]


def test_the_agent_is_not_offered_the_mcp_only_tool():
    from smart_docgemma.smart.scopes import GrantedScopes
    from smart_docgemma.tools import catalog
    from smart_docgemma.tools.registry import tools_for

    mcp_only = {
        "check_medication_for_patient",
        "get_patient_labs",
        "get_patient_medications",
        "get_patient_allergies",
        "get_patient_problems",
    }
    assert not mcp_only & set(catalog.specs()) and mcp_only <= set(catalog.specs("mcp"))
    assert "check_medication_for_patient" not in tools_for(GrantedScopes.parse("patient/*.rs"))


def test_patient_search_needs_user_scopes(stack):
    client = register(stack.sandbox_url)
    user_token = authorize_token(
        stack.sandbox_url, client, "openid fhirUser user/Patient.rs", stack.mcp_url, None
    )["access_token"]
    found = mcp_post(
        stack,
        user_token,
        "tools/call",
        {"name": "search_patient", "arguments": {"name": "Adeyemi"}},
    )
    assert found.json()["result"]["structuredContent"]["status"] in ("ok", "ambiguous")
    patient_token = authorize_token(
        stack.sandbox_url, client, PATIENT_READS, stack.mcp_url, "pt-warfarin"
    )
    refused = mcp_post(
        stack,
        patient_token["access_token"],
        "tools/call",
        {"name": "search_patient", "arguments": {"name": "Adeyemi"}},
    )
    assert refused.json()["result"]["structuredContent"]["error_kind"] == "forbidden"


# ------------------------------------------------------------------ approval on DocGemma's page
def test_a_proposal_made_over_mcp_is_approved_once_on_the_page_with_provenance(stack, caplog):
    caplog.set_level(logging.DEBUG)
    patient = clone_patient(stack.upstream, "pt-warfarin")

    async def work(client):
        return await client.call_tool(
            "prescribe_medication",
            {
                "patient_id": patient,
                "medication_name": "lisinopril",
                "dosage": "10 mg",
                "frequency": "once daily",
            },
        )

    from tests.support.mcp_oauth import MemoryStorage

    storage = MemoryStorage()
    made, _ = with_sdk_client(stack, patient, work, storage)
    pid, card_url = made.structured_content["proposal_id"], made.structured_content["card_url"]
    assert count(stack.upstream, "MedicationRequest", pid) == 0  # nothing written before approval

    class Sandbox:  # what ehr_launch needs of the sandbox fixture
        url = stack.sandbox_url

    browser = Browser()
    _, hop3 = ehr_launch(browser, Sandbox, stack.app_url, patient=patient)
    app_page = finish(browser, hop3, stack.app_url)  # the patient's page lists the request
    assert f'href="/proposals/{pid}"' in app_page.text and "Test MCP client" in app_page.text
    page = browser.get(card_url)
    assert (
        page.status_code == 200
        and "Test MCP client" in page.text
        and "lisinopril" in page.text.lower()
    )
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page.text).group(1)
    first = browser.post(f"{card_url}/approve", data={"csrf_token": csrf, "version": "1"})
    again = browser.post(f"{card_url}/approve", data={"csrf_token": csrf, "version": "1"})
    assert first.status_code == 303 and again.status_code in (303, 409)
    assert count(stack.upstream, "MedicationRequest", pid) == 1
    assert f'href="/proposals/{pid}"' not in browser.get(f"{stack.app_url}/app").text  # decided
    created = search(
        stack.upstream, "MedicationRequest", identifier=f"urn:docgemma:proposal|{pid}"
    )[0]
    provenance = search(stack.upstream, "Provenance", target=f"MedicationRequest/{created['id']}")
    assert len(provenance) == 1
    assembler = provenance[0]["agent"][1]["who"]["display"]
    assert "MCP client Test MCP client (dyn-" in assembler

    other = Browser()  # a launch for another patient cannot see it
    _, hop3 = ehr_launch(other, Sandbox, stack.app_url, patient="pt-ckd-elder")
    finish(other, hop3, stack.app_url)
    assert other.get(card_url).status_code in (403, 404)

    # Every log line as the commands write them (``logs.configure``'s JSON lines), from the
    # app, the sandbox and the libraries under them (authlib logs issued tokens at DEBUG).
    secrets = [storage.tokens.access_token, storage.tokens.refresh_token, *exchanged_tokens(stack)]
    lines = [JsonFormatter().format(r) for r in caplog.records]
    assert len(lines) > 50 and len([s for s in secrets if s]) >= 2
    assert not [line for line in lines for s in secrets if s and s in line]


def exchanged_tokens(stack: Stack):
    from smart_docgemma.mcpserver.endpoint import McpDispatcher

    dispatcher = stack.app.wsgi_app
    assert isinstance(dispatcher, McpDispatcher)
    return [token for _, token in dispatcher.authority._exchanged.values()]


def search(fhir_base: str, rtype: str, **params) -> list[dict]:
    bundle = requests.get(
        f"{fhir_base}/{rtype}",
        params=params,
        timeout=30,
        headers={"Cache-Control": "no-cache", "Accept": "application/fhir+json"},
    ).json()
    return [e["resource"] for e in bundle.get("entry") or []]


def count(fhir_base: str, rtype: str, proposal_id: str) -> int:
    return len(search(fhir_base, rtype, identifier=f"urn:docgemma:proposal|{proposal_id}"))


# ------------------------------------------------------------------ other real clients
def test_mcp_inspector_cli_does_the_oauth_flow_lists_and_calls_tools(stack, tmp_path):
    from tests.support import inspector

    node_inspector = inspector.command()
    if node_inspector is None:
        pytest.fail("Node.js (npm) is not installed here, so the MCP Inspector cannot run "
                    "(.ci/run installs it: apt-get install npm)", pytrace=False)
    env = {
        **os.environ,
        "HOME": str(tmp_path),
        "MCP_AUTO_OPEN_ENABLED": "true",
        "MCP_INSPECTOR_SECRET_STORE": "memory",
        "BROWSER": str(inspector.browser_script(tmp_path, "pt-warfarin")),
    }
    base = [
        *node_inspector,
        "--cli",
        stack.mcp_url,
        "--transport",
        "http",
        "--callback-url",
        f"http://127.0.0.1:{free_port()}/oauth/callback",
    ]

    def run(*args, exit_code: int = 0):
        done = subprocess.run(
            [*base, *args], check=False, capture_output=True, text=True, timeout=180, env=env
        )
        assert done.returncode == exit_code, done.stderr[-2000:]
        return json.loads(done.stdout) if exit_code == 0 else done.stderr

    listed = run("--method", "tools/list")
    assert {"get_patient_chart", "prescribe_medication"} <= {t["name"] for t in listed["tools"]}
    chart = run(
        "--method",
        "tools/call",
        "--tool-name",
        "get_patient_chart",
        "--tool-arg",
        "patient_id=pt-warfarin",
    )
    assert (
        chart["structuredContent"]["status"] == "ok"
        and "Robert Mensah" in chart["content"][0]["text"]
    )
    other = run(
        "--method",
        "tools/call",
        "--tool-name",
        "get_patient_chart",
        "--tool-arg",
        "patient_id=pt-ckd-elder",
        exit_code=5,
    )  # the Inspector's exit status for a tool result with isError
    assert "returned isError:true" in other


def test_stdio_entry_point_serves_the_same_tools_with_a_token_from_the_environment(stack):
    from mcp import StdioServerParameters

    client = register(stack.sandbox_url)
    token = authorize_token(stack.sandbox_url, client, PATIENT_READS, stack.mcp_url, "pt-warfarin")[
        "access_token"
    ]
    env = {
        **os.environ,
        "DOCGEMMA_MCP_ACCESS_TOKEN": token,
        "DOCGEMMA_MCP_URL": stack.mcp_url,
        "DOCGEMMA_MCP_AUTHORIZATION_SERVER": stack.fhir_url,
        "DOCGEMMA_SECRET_KEY": "test-secret-key",
        "DOCGEMMA_DATABASE_URL": stack.app.config["DATABASE_URL"],
        "PYTHONPATH": os.getcwd(),
    }
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "smart_docgemma.cli.mcp"], env=env
    )

    async def work():
        async with Client(params) as session:
            listed = await session.list_tools()
            chart = await session.call_tool("get_patient_chart", {"patient_id": "pt-warfarin"})
            other = await session.call_tool("get_patient_chart", {"patient_id": "pt-ckd-elder"})
            return listed, chart, other

    listed, chart, other = run_async(work)
    assert "get_patient_chart" in {t.name for t in listed.tools}
    assert (
        chart.structured_content["status"] == "ok"
        and other.structured_content["error_kind"] == "forbidden"
    )
    refused = subprocess.run(
        [sys.executable, "-m", "smart_docgemma.cli.mcp"],
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
        env={**env, "DOCGEMMA_MCP_ACCESS_TOKEN": stack.sign(aud=stack.fhir_url)},
    )
    assert refused.returncode == 2 and "must hold a valid" in refused.stderr


def test_the_docgemma_command_serves_mcp_from_any_gunicorn_worker_without_logging_tokens(
    stack, tmp_path
):
    from tests.support.app_process import docgemma, json_lines

    url = f"http://127.0.0.1:{stack.served_port}/mcp"
    env = {
        **os.environ,
        "DOCGEMMA_PORT": str(stack.served_port),
        "DOCGEMMA_WORKERS": "2",
        "DOCGEMMA_THREADS": "4",
        "DOCGEMMA_SECRET_KEY": "test-secret-key",
        "DOCGEMMA_DATABASE_URL": stack.app.config["DATABASE_URL"],
        "DOCGEMMA_LOG_LEVEL": "DEBUG",
        "DOCGEMMA_MCP_AUTHORIZATION_SERVER": stack.fhir_url,
        "PYTHONPATH": os.getcwd(),
    }
    client = register(stack.sandbox_url)
    token = authorize_token(stack.sandbox_url, client, PATIENT_READS, url, "pt-warfarin")
    command = [sys.executable, "-c", "from smart_docgemma.cli.server import main; main()"]
    with docgemma(command, env, tmp_path) as (app_url, log):
        served = Stack(**{**stack.__dict__, "mcp_url": url, "app_url": app_url})
        assert mcp_post(served, None).status_code == 401
        for _ in range(6):  # stateless transport: whichever worker answers, the call completes
            called = mcp_post(
                served,
                token["access_token"],
                "tools/call",
                {"name": "get_patient_chart", "arguments": {"patient_id": "pt-warfarin"}},
            )
            assert called.json()["result"]["structuredContent"]["status"] == "ok"
        assert mcp_post(served, stack.sign()).status_code == 401  # audience: the other server
    lines = log.read_text()
    pids = {line.get("pid") for line in json_lines(log) if "MCP tool" in line.get("message", "")}
    assert len(json_lines(log)) > 10 and pids
    assert token["access_token"] not in lines and token["access_token"][:40] not in lines


def test_bad_calls_get_clear_refusals_not_server_errors(stack):
    token = stack.sign()
    missing = mcp_post(stack, token, "tools/call", {"name": "get_patient_chart", "arguments": {}})
    unknown = mcp_post(stack, token, "tools/call", {"name": "drop_tables", "arguments": {}})
    extra = mcp_post(
        stack,
        token,
        "tools/call",
        {"name": "check_drug_safety", "arguments": {"drug_name": "warfarin", "x": 1}},
    )
    garbage = requests.post(
        stack.mcp_url,
        data=b"{not json",
        timeout=30,
        headers={
            "Authorization": f"Bearer {token}",
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
        },
    )
    assert missing.json()["result"]["structuredContent"]["error_kind"] == "invalid"
    assert unknown.json()["result"]["structuredContent"]["error_kind"] == "forbidden"
    assert extra.json()["result"]["structuredContent"]["error_kind"] == "invalid"
    assert 400 <= garbage.status_code < 500


@pytest.mark.parametrize(
    "tool, arguments",
    [
        ("check_drug_safety", {"drug_name": "Vyvanse"}),  # the recorded openFDA label
        ("check_drug_interactions", {"drug_names": ["warfarin", "ibuprofen"]}),
        ("search_medical_literature", {"query": "metformin kidney function"}),
        ("find_clinical_trials", {"condition": "atrial fibrillation"}),
    ],
)
def test_knowledge_sources_answer_with_their_sources(stack, tool, arguments):
    called = mcp_post(stack, stack.sign(), "tools/call", {"name": tool, "arguments": arguments})
    result = called.json()["result"]["structuredContent"]
    assert result["status"] in ("ok", "empty") and result["text"], result
    assert result["sources"] and all(s["url"].startswith("http") for s in result["sources"])


def test_a_client_known_by_its_metadata_document(stack, httpserver):
    from tests.support.mcp_oauth import REDIRECT

    url, forged = httpserver.url_for("/client.json"), httpserver.url_for("/forged.json")
    document = {
        "client_id": url,
        "client_name": "Metadata client",
        "redirect_uris": [REDIRECT],
        "grant_types": ["authorization_code"],
        "response_types": ["code"],
        "token_endpoint_auth_method": "none",
    }
    httpserver.expect_request("/client.json").respond_with_json(document)
    httpserver.expect_request("/forged.json").respond_with_json(document)  # names another URL
    discovery = f"{stack.sandbox_url}/.well-known/oauth-authorization-server/fhir"
    assert requests.get(discovery, timeout=30).json()["client_id_metadata_document_supported"]
    token = authorize_token(stack.sandbox_url, url, PATIENT_READS, stack.mcp_url, "pt-warfarin")
    claims = stack.sandbox_app.extensions["sandbox"].key.verify(token["access_token"])
    assert claims["client_id"] == url and claims["client_name"] == "Metadata client"
    assert mcp_post(stack, token["access_token"]).status_code == 200
    refused = requests.get(
        f"{stack.sandbox_url}/auth/authorize",
        timeout=30,
        params={
            "response_type": "code",
            "client_id": forged,
            "redirect_uri": REDIRECT,
            "state": "s",
            "scope": PATIENT_READS,
            "resource": stack.mcp_url,
            "code_challenge": "x" * 43,
            "code_challenge_method": "S256",
        },
        allow_redirects=False,
    )
    assert refused.status_code == 400  # unknown client: an error page, never a redirect


def test_mcp_calls_that_read_a_chart_or_make_a_proposal_are_audited_and_listed(stack, capsys):
    """Over HTTP with the SDK client: the chart read, the proposal and a refused call for
    another patient each leave AuditEvents naming the practitioner and the MCP client, and
    ``docgemma-audit`` lists them."""
    from smart_docgemma.audit import audit_store
    from smart_docgemma.cli.audit import main as audit_cli

    patient = clone_patient(stack.upstream, "pt-warfarin")

    async def work(client):
        chart = await client.call_tool("get_patient_chart", {"patient_id": patient})
        made = await client.call_tool(
            "add_allergy", {"patient_id": patient, "substance": "latex", "reaction": "hives"}
        )
        other = await client.call_tool("get_patient_chart", {"patient_id": "pt-ckd-elder"})
        return chart, made, other

    (chart, made, other), _ = with_sdk_client(stack, patient, work)
    pid = made.structured_content["proposal_id"]
    assert chart.structured_content["status"] == "ok" and other.is_error
    with stack.app.app_context():
        rows = audit_store(stack.app).accesses(patient)
    assert rows and all(r.client.startswith("mcp:") for r in rows)
    assert all(r.who == "Practitioner/dr-okafor" for r in rows), {r.who for r in rows}
    reads = [r for r in rows if r.kind in ("read", "search-type")]
    assert f"Patient/{patient}" in {ref for r in reads for ref in r.resources}
    calls = {(r.detail()["tool"], r.detail()["status"], r.outcome)
             for r in rows if r.kind == "mcp-tool-call"}
    assert {("get_patient_chart", "ok", "0"), ("add_allergy", "proposal", "0"),
            ("get_patient_chart", "error", "4")} <= calls
    created = [r for r in rows if r.kind == "proposal-created"]
    assert [r.detail()["proposal"] for r in created] == [pid]
    assert f"urn:docgemma:proposal:{pid}" in json.dumps(created[0].event)
    config = {"DATABASE_URL": stack.app.config["DATABASE_URL"], "SECRET_KEY": "test-secret-key"}
    assert audit_cli([patient, "--kind", "mcp-tool-call", "--kind", "proposal-created"],
                     config) == 0
    out = capsys.readouterr().out
    assert "mcp-tool-call" in out and "proposal-created" in out and f"proposal={pid}" in out
    assert "via mcp:" in out


def test_an_mcp_proposal_whose_audit_record_cannot_be_stored_is_an_error_and_stays_pending(stack):
    """Under ``refuse``: the audit database refuses every insert while an MCP client proposes an
    allergy. The client gets an error, not the proposal; the proposal waits on the patient's page,
    unrecorded and unwritten, until a clinician decides on its card; nothing reached the chart."""
    from smart_docgemma.proposals.store import proposal_store
    from smart_docgemma.storage import audit_events
    from sqlalchemy import text

    from tests.support.launch_context import count

    patient = clone_patient(stack.upstream, "pt-warfarin")
    before = count(stack.upstream, "AllergyIntolerance", patient=patient)
    storage = stack.app.extensions["docgemma.storage"]
    with storage.begin() as conn:
        conn.execute(text("DROP TABLE audit_events"))
    try:
        async def work(client):
            return await client.call_tool(
                "add_allergy", {"patient_id": patient, "substance": "latex", "reaction": "hives"})

        made, _ = with_sdk_client(stack, patient, work)
    finally:
        with storage.begin() as conn:
            audit_events.create(conn)
    said = " ".join(getattr(c, "text", "") for c in made.content)
    assert made.is_error and "audit" in said.lower() and "not returned" in said
    with stack.app.app_context():
        waiting = proposal_store(stack.app).from_mcp(patient)
    assert [p.tool for p in waiting] == ["add_allergy"] and waiting[0].status == "pending"
    assert count(stack.upstream, "AllergyIntolerance", patient=patient) == before
