"""CDS Hooks latency over real HTTP to the app: patient-view and order-sign,
with prefetch (the EHR sent the data) and without (the service fetches from
``fhirServer``). The client is the tests' independent mini-EHR (ES384 JWT per
call, signed before the clock starts: EHR-side cost is not ours).

Prefetch is built by running the service's own templates (``services.yaml``)
against HAPI, so the service reads the real fixture data either way.
"""
from __future__ import annotations

import tempfile
import time
import uuid
from pathlib import Path

import requests
import smart_docgemma.cds as cds_pkg
import yaml
from smart_docgemma import create_app

from tests.cds.ehr_client import ISSUER, MiniEHR, med_request
from tests.support.servers import free_port, serve

from .stats import summary_ms

HOOKS = {  # hook -> (service id, patient, draft orders)
    "patient-view": ("docgemma-patient-view", "pt-warfarin", None),
    "order-sign": ("docgemma-order-sign", "pt-pen-allergy",
                   [med_request("draft-amox", "amoxicillin 500 MG Oral Capsule", "308191",
                                "pt-pen-allergy", intent=None, status="draft")]),
}


def prefetch_for(fhir_base: str, hook: str, patient: str) -> dict:
    """Fill the service's prefetch templates for ``patient`` from HAPI."""
    services = yaml.safe_load((Path(cds_pkg.__file__).with_name("services.yaml")).read_text())
    out = {}
    for key, template in services[hook]["prefetch"].items():
        url = f"{fhir_base}/{template.replace('{{context.patientId}}', patient)}"
        res = requests.get(url, headers={"Accept": "application/fhir+json"}, timeout=30)
        res.raise_for_status()
        out[key] = res.json()
    return out


def _body(hook: str, patient: str, fhir_base: str, prefetch: dict | None, drafts) -> dict:
    ctx = {"userId": "Practitioner/dr-okafor", "patientId": patient}
    if drafts:
        ctx["draftOrders"] = {"resourceType": "Bundle", "entry": [{"resource": d} for d in drafts]}
    body = {"hook": hook, "hookInstance": str(uuid.uuid4()), "context": ctx, "fhirServer": fhir_base}
    if prefetch is not None:
        body["prefetch"] = prefetch
    return body


def cds_latency(stack, n: int = 30) -> dict:
    port = free_port()
    ehr = MiniEHR(f"http://127.0.0.1:{port}")
    workdir = Path(tempfile.mkdtemp(prefix="docgemma-bench-cds-"))
    app = create_app({**stack.knowledge, "SECRET_KEY": "bench", "ENDPOINT": None,
                      "DATABASE_URL": f"sqlite:///{workdir / 'app.sqlite'}", "CACHE_PATH": str(workdir / "cache"),
                      "CDS_ISSUERS": {ISSUER: {"jwks": ehr.jwks()}}})
    out = {}
    with serve(app, port), requests.Session() as http:
        for hook, (service, patient, drafts) in HOOKS.items():
            prefetch = prefetch_for(stack.fhir_base, hook, patient)
            out[hook] = _measure(http, ehr, service, _body(hook, patient, stack.fhir_base, prefetch, drafts), n)
            out[f"{hook}_no_prefetch"] = _measure(http, ehr, service,
                                                  _body(hook, patient, stack.fhir_base, None, drafts), n // 2)
    return out


def _measure(http, ehr: MiniEHR, service: str, body: dict, n: int) -> dict:
    url = ehr.url(f"/{service}")
    samples, cards = [], 0
    for i in range(n + 2):
        token = ehr.token(url)
        body = {**body, "hookInstance": str(uuid.uuid4())}
        started = time.perf_counter()
        res = http.post(url, json=body, headers={"Authorization": f"Bearer {token}"}, timeout=30)
        elapsed = time.perf_counter() - started
        res.raise_for_status()
        cards = len(res.json()["cards"])
        if i >= 2:  # two warm-up calls
            samples.append(elapsed)
    return {**summary_ms(samples), "cards": cards}
