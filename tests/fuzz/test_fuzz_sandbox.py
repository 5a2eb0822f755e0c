"""Fuzz the sandbox's FHIR proxy over real HTTP with a patient-level launch token.

The token comes from a real EHR launch (sandbox OAuth server) for a fresh patient,
so the proxy's writes land on that patient only. Requests mix FHIR paths (types,
ids of this and other patients, operations, history, dot segments and
percent-encoding), search parameter families (``_id`` modifiers, ``_include``/
``_revinclude`` with ``:iterate`` and ``*``, chains, ``_has``, paging), conditional
headers, bundles and arbitrary bodies, without a token or with a forged one.

Checked on every answer: no 500 (the proxy never fails on its own input; a 502 is
the proxy's documented refusal of an upstream answer it cannot screen), nothing
logged at ERROR, and no resource of another scenario patient in a successful
answer. Seeded (``FUZZ_SEED``) and reproducible.
"""
from __future__ import annotations

import json
import logging
import os
import re
import time

import requests
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

from tests.fuzz.test_fuzz_app import ErrorLog
from tests.support.launch_context import new_patient
from tests.support.smart_browser import Browser, ehr_launch, finish, stored_tokens

SEED = int(os.environ.get("FUZZ_SEED", "13013"))
# A thousand by default; the full run sets FUZZ_PROXY_REQUESTS=5000 (docs/security.md).
REQUESTS = int(os.environ.get("FUZZ_PROXY_REQUESTS", "1000"))
BATCH = 10
OTHERS = ["pt-warfarin", "pt-ckd-elder", "pt-child", "pt-pregnant", "pt-pen-allergy", "pt-t2dm", "pt-jw-1958",
          "pt-many-obs", "pt-injection"]
TYPES = ["Patient", "Observation", "Condition", "MedicationRequest", "AllergyIntolerance", "Encounter",
         "DocumentReference", "Practitioner", "Provenance", "Group", "Bundle", "metadata", "Binary"]
TEXT = st.text(st.characters(min_codepoint=33, max_codepoint=126), max_size=20)


def fhir_requests(patient: str) -> st.SearchStrategy:
    ids = st.one_of(st.just(patient), st.sampled_from(OTHERS), TEXT, st.sampled_from(["..", "%2E%2E", "x/../y", ""]))
    segment = st.one_of(st.sampled_from(TYPES), ids, st.sampled_from(["$everything", "_history", "_search",
                                                                      "$meta", "_graphql", "*"]))
    anything = st.lists(segment, min_size=0, max_size=4).map(lambda parts: "/".join(parts))
    grammatical = st.builds(lambda *parts: "/".join(p for p in parts if p), st.sampled_from(TYPES),
                            st.one_of(st.none(), ids), st.one_of(st.none(), st.sampled_from(["$everything",
                                                                                             "_history"])))
    path = st.one_of(grammatical, grammatical, grammatical, anything)
    names = st.one_of(st.sampled_from(["_id", "_id:not", "_id:missing", "patient", "subject", "subject:Patient",
                                       "_include", "_revinclude", "_include:iterate", "_has:Observation:patient:code",
                                       "patient.name", "subject:Patient.name", "_count", "_getpages", "_format",
                                       "_elements", "_summary", "_sort", "code", "general-practitioner"]), TEXT)
    values = st.one_of(ids.map(lambda i: f"Patient/{i}"), ids, st.sampled_from(
        ["*", "MedicationRequest:requester", "Encounter:participant", "Patient:general-practitioner",
         "true", "count", "json", "xml", "1000"]), TEXT)
    body = st.one_of(st.none(), st.builds(lambda t, i: json.dumps({"resourceType": t, "subject": {
        "reference": f"Patient/{i}"}, "status": "final", "code": {"text": "fuzz"}}),
        st.sampled_from(["Observation", "Condition", "Patient", "Bundle"]), ids),
        st.builds(lambda i: json.dumps({"resourceType": "Bundle", "type": "batch", "entry": [
            {"request": {"method": "GET", "url": f"Observation?patient={i}"}}]}), ids),
        st.text(max_size=50))
    headers = st.fixed_dictionaries({}, optional={
        "If-None-Exist": st.builds(lambda i: f"patient={i}", ids), "Prefer": st.just("return=representation"),
        "Content-Type": st.sampled_from(["application/fhir+json", "application/json", "text/plain"]),
        "Accept": st.sampled_from(["application/fhir+json", "application/fhir+xml", "*/*"])})
    method = st.sampled_from(["GET", "GET", "GET", "POST", "PUT", "DELETE", "PATCH", "HEAD"])
    token = st.sampled_from(["valid", "valid", "valid", "none", "forged"])
    return st.builds(dict, method=method, path=path, params=st.lists(st.tuples(names, values), max_size=4),
                     headers=headers, body=body, token=token)


def others_in(res: requests.Response, patient: str) -> list[str]:
    """Scenario patients other than ``patient`` that a successful JSON answer carries."""
    if res.status_code >= 300 or "json" not in res.headers.get("Content-Type", ""):
        return []
    try:
        data = res.json()
    except ValueError:
        return []
    resources = [data] if data.get("resourceType") != "Bundle" else [
        e.get("resource") or {} for e in data.get("entry") or []]
    text = json.dumps([r for r in resources if r.get("resourceType") != "OperationOutcome"])
    return sorted({m for m in re.findall(r"Patient/(pt-[a-z0-9-]+)", text) if m in OTHERS}
                  | {r.get("id") for r in resources if r.get("resourceType") == "Patient" and r.get("id") in OTHERS})


def test_the_proxy_answers_fuzzed_fhir_requests_without_500_or_leaks(launched_app, sandbox, fhir_base):
    app, app_url = launched_app
    patient = new_patient(fhir_base, family="Fuzzproxy")
    browser = Browser()
    _, hop3 = ehr_launch(browser, sandbox, app_url, patient=patient)
    assert finish(browser, hop3, app_url).status_code == 200
    token = stored_tokens(app)["access_token"]
    auth = {"valid": f"Bearer {token}", "none": None, "forged": f"Bearer {token[:-6]}AAAAAA"}
    errors, statuses, leaks = ErrorLog(), {}, []
    logging.getLogger().addHandler(errors)
    http = requests.Session()

    @settings(max_examples=REQUESTS // BATCH, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @seed(SEED)
    @given(st.lists(fhir_requests(patient), min_size=BATCH, max_size=BATCH))
    def run(batch):
        for r in batch:
            headers = {**r["headers"], **({"Authorization": auth[r["token"]]} if auth[r["token"]] else {})}
            res = http.request(r["method"], f"{sandbox.fhir_url}/{r['path']}", params=r["params"], headers=headers,
                               data=r["body"].encode() if r["body"] else None, timeout=60, allow_redirects=False)
            statuses[res.status_code] = statuses.get(res.status_code, 0) + 1
            assert res.status_code < 500 or res.status_code == 502, f"HTTP {res.status_code} for {r} (FUZZ_SEED={SEED})"
            if r["token"] == "valid" and (found := others_in(res, patient)):
                leaks.append((r, found))

    started = time.perf_counter()
    try:
        run()
    finally:
        logging.getLogger().removeHandler(errors)
    total = sum(statuses.values())
    print(f"\nproxy fuzz: {total} requests in {time.perf_counter() - started:.1f} s (seed {SEED}); "
          f"statuses {dict(sorted(statuses.items()))}")
    assert total >= REQUESTS
    assert not leaks, leaks[:3]
    assert not errors.records, [f"{r.name}: {r.getMessage()}" for r in errors.records[:5]]
