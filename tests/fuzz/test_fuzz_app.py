"""Fuzz the running app over real HTTP: requests built from its own /openapi.json (1,000 by
default, 10,000 in the full run: ``FUZZ_REQUESTS=10000``).

The app is served on a real port with real HAPI behind one session, a dead FHIR
server behind another, the EHR sandbox as its allow-listed SMART issuer, the CDS
client keys of an independent mini-EHR and the recorded knowledge sources. Every
request must be answered below 500, and nothing may be logged at ERROR (an
unhandled exception, a crashed turn) or escape a thread.

Seeded and reproducible: ``FUZZ_SEED`` (default below) and ``FUZZ_REQUESTS``
override the run; a failure names the request and the seed.
"""
from __future__ import annotations

import json
import logging
import os
import threading
import time

import pytest
import requests
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st
from smart_docgemma.fhir import FhirGateway
from smart_docgemma.proposals.store import proposal_store
from smart_docgemma.smart.scopes import GrantedScopes
from smart_docgemma.tools.args import PrescribeMedicationArgs
from smart_docgemma.tools.base import ToolContext
from smart_docgemma.tools.registry import tools_for

from tests.bench.knowledge import recorded_sources
from tests.cds.ehr_client import ISSUER, MiniEHR, allergy, bundle, condition, med_request
from tests.fuzz.operations import Credentials, Request, mutated, requests_for
from tests.support.chat_session import LAUNCH_SCOPES, session_cookie
from tests.support.launch_context import new_patient
from tests.support.servers import free_port, serve

SEED = int(os.environ.get("FUZZ_SEED", "13013"))
# A thousand by default (the test run); the full run sets FUZZ_REQUESTS=10000 (docs/security.md).
REQUESTS = int(os.environ.get("FUZZ_REQUESTS", "1000"))
BATCH = 10  # requests per Hypothesis example


class ErrorLog(logging.Handler):
    """Every record at ERROR or above, from any logger, while the fuzzer runs."""

    def __init__(self):
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record):
        self.records.append(record)


@pytest.fixture(scope="module")
def target(tmp_path_factory, fhir_base, sandbox):
    """The app on a real port with sessions, a turn, a proposal and a CDS client to fuzz with."""
    from smart_docgemma import create_app

    tmp = tmp_path_factory.mktemp("fuzz")
    ehr = MiniEHR("http://placeholder")
    with recorded_sources() as sources:
        app = create_app({"SECRET_KEY": "fuzz-secret", "DATABASE_URL": f"sqlite:///{tmp / 'app.sqlite'}",
                          "CACHE_PATH": str(tmp / "http-cache"), "ENDPOINT": None, "HTTP_TIMEOUT_S": 5,
                          "ISS_ALLOWLIST": [sandbox.fhir_url], "CDS_ISSUERS": {ISSUER: {"jwks": ehr.jwks()}},
                          "CHAT_RATE_PER_MIN": 3, **sources})
        with serve(app) as server:
            ehr.base_url = server.url
            yield _arm(app, server.url, fhir_base, sandbox, ehr)


def _arm(app, url: str, fhir_base: str, sandbox, ehr: MiniEHR):
    patient = new_patient(fhir_base, family="Fuzzcase")
    sessions = {"chart": session_cookie(app, fhir_base, patient),
                "no-fhir": session_cookie(app, f"http://127.0.0.1:{free_port()}/fhir", "pt-ckd-elder"),
                "no-patient": session_cookie(app, fhir_base, None),
                "forged": ({"session": "eyJzaWQiOiJ4In0.forged.signature"}, "forged")}
    sid = app.session_interface.get_signing_serializer(app).loads(sessions["chart"][0]["session"])["sid"]
    turn = _first_turn(url, *sessions["chart"])
    other_turn = _first_turn(url, *sessions["no-patient"])
    proposal = _proposal(app, fhir_base, patient, sid)
    known = {"turn_id": [turn, other_turn], "proposal_id": [proposal],
             "service_id": ["docgemma-patient-view", "docgemma-order-select", "docgemma-order-sign"],
             "filename": ["app.css", "app.js", "favicon.svg", "../templates/base.html"],
             "iss": [sandbox.fhir_url, "http://[::1/fhir", "http://127.0.0.1:99999/fhir", "javascript:alert(1)"],
             "launch": ["x" * 20], "error": ["access_denied", "invalid_scope", "invalid_client", "server_error"]}
    creds = Credentials(sessions=sessions, cds_token=lambda aud: ehr.token(aud), base_url=url)
    return url, known, creds


def _first_turn(url: str, cookies: dict, csrf: str) -> str:
    res = requests.post(f"{url}/api/chat", data={"message": "What is the boxed warning of lisdexamfetamine?"},
                        cookies=cookies, headers={"X-CSRF-Token": csrf}, timeout=60)
    assert res.status_code == 200, res.text
    return res.text.split('"id": "', 1)[1].split('"', 1)[0]


def _proposal(app, fhir_base: str, patient: str, sid: str) -> str:
    scopes = GrantedScopes.parse(LAUNCH_SCOPES)
    ctx = ToolContext(patient_id=patient, scopes=scopes, fhir=FhirGateway(fhir_base, None),
                      proposals=proposal_store(app), sid=sid, user="Practitioner/dr-okafor",
                      config=dict(app.config))
    with app.app_context():
        result = tools_for(scopes)["prescribe_medication"].run(PrescribeMedicationArgs(
            patient_id=patient, medication_name="amlodipine", dosage="5 mg", frequency="once daily"), ctx)
    assert result.status == "proposal", result.text
    return result.proposal_id


def hook_calls_with_bad_fhir(creds: Credentials) -> st.SearchStrategy:
    """Hook calls whose prefetch or draft orders hold a FHIR resource with one member mangled."""
    pid = "pt-fuzz"
    resources = [med_request("m1", "warfarin 5 MG Oral Tablet", "855332", pid),
                 allergy("a1", "Penicillin", pid), condition("c1", "44054006", "Type 2 diabetes mellitus", pid),
                 {"resourceType": "Observation", "id": "o1", "status": "final", "effectiveDateTime": "2025-06-10",
                  "code": {"coding": [{"system": "http://loinc.org", "code": "4548-4"}]}},
                 {"resourceType": "Patient", "id": pid, "name": [{"given": ["Ama"], "family": "Owusu"}]}]
    keys = {"MedicationRequest": "medications", "AllergyIntolerance": "allergies", "Condition": "conditions",
            "Observation": "hba1c", "Patient": "patient"}

    def build(hook, resource, as_draft):
        prefetch = {key: bundle() for key in ("medications", "allergies", "conditions", "hba1c", "pregnancy")}
        prefetch["patient"] = {"resourceType": "Patient", "id": pid}
        ctx = {"patientId": pid, "userId": "Practitioner/dr-okafor"}
        if as_draft and hook != "patient-view":
            ctx["draftOrders"] = bundle(resource, with_type=False)
        else:
            kind = resource.get("resourceType")
            key = keys.get(kind, "medications") if isinstance(kind, str) else "medications"
            prefetch[key] = resource if key == "patient" else bundle(resource)
        path = f"/cds-services/docgemma-{hook}"
        body = {"hook": hook, "hookInstance": "fuzz", "context": ctx, "prefetch": prefetch}
        return Request("POST", path, headers={"Authorization": f"Bearer {creds.cds_token(creds.base_url + path)}",
                                              "Content-Type": "application/json"}, data=json.dumps(body))
    return st.builds(build, st.sampled_from(["patient-view", "order-select", "order-sign"]),
                     st.sampled_from(resources).flatmap(mutated), st.booleans())


def send(http: requests.Session, base: str, req: Request) -> requests.Response:
    data = req.data.encode() if isinstance(req.data, str) else req.data
    try:
        return http.request(req.method, base + req.path, params=req.params, headers=req.headers,
                            cookies=req.cookies, data=data, files=req.files, timeout=60, allow_redirects=False)
    except (ValueError, requests.exceptions.InvalidURL, requests.exceptions.InvalidHeader):
        # requests itself refused to build this request (e.g. its cookie policy parsing a
        # generated value): nothing reached the app, so it is counted as status 0, not sent.
        unsent = requests.Response()
        unsent.status_code = 0
        return unsent
    finally:
        http.cookies.clear()


def test_ten_thousand_requests_from_the_openapi_document_get_no_5xx(target):
    url, known, creds = target
    document = requests.get(f"{url}/openapi.json", timeout=10).json()
    described, mangled = requests_for(document, known, creds), hook_calls_with_bad_fhir(creds)
    one = st.integers(0, 4).flatmap(lambda n: mangled if n == 0 else described)  # a fifth: hook calls
    strategy = st.lists(one, min_size=BATCH, max_size=BATCH)
    errors, escaped = ErrorLog(), []
    logging.getLogger().addHandler(errors)
    previous_hook, threading.excepthook = threading.excepthook, lambda args: escaped.append(args)
    statuses: dict[int, int] = {}
    http = requests.Session()

    @settings(max_examples=REQUESTS // BATCH, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @seed(SEED)
    @given(strategy)
    def run(batch):
        for req in batch:
            res = send(http, url, req)
            statuses[res.status_code] = statuses.get(res.status_code, 0) + 1
            assert res.status_code < 500, f"HTTP {res.status_code} for {req.describe()} (FUZZ_SEED={SEED})"

    started = time.perf_counter()
    try:
        run()
    finally:
        logging.getLogger().removeHandler(errors)
        threading.excepthook = previous_hook
    elapsed = time.perf_counter() - started
    total = sum(statuses.values())
    print(f"\nfuzz: {total} requests in {elapsed:.1f} s (seed {SEED}); statuses {dict(sorted(statuses.items()))}")
    assert total >= REQUESTS
    assert not escaped, escaped[:3]
    assert not errors.records, [f"{r.name}: {r.getMessage()}" for r in errors.records[:5]]
    assert len([s for s in statuses if 200 <= s < 400]) >= 3  # the fuzzer got past the front door
