"""Approval cards over real HTTP, inside a real SMART session (sandbox + HAPI).

The write tool runs as the agent would run it (launch patient, granted scopes, the
launch token through the sandbox's FHIR proxy); the clinician then approves or
rejects through the card's own forms, with the CSRF token the card carries.
"""
from __future__ import annotations

import re
import threading

import requests
from smart_docgemma.fhir import FhirGateway
from smart_docgemma.proposals.store import proposal_store
from smart_docgemma.smart.scopes import GrantedScopes
from smart_docgemma.tools.args import PrescribeMedicationArgs
from smart_docgemma.tools.base import ToolContext
from smart_docgemma.tools.registry import tools_for

from tests.support.launch_context import clone_patient
from tests.support.postgres import BOTH_DATABASES
from tests.support.smart_browser import Browser, ehr_launch, finish

pytestmark = BOTH_DATABASES


SCRIPT = {"X-Requested-With": "fetch"}  # as the page's script posts a card's form: the card comes back


def session_and_proposal(app, sandbox, app_url, drug="lisinopril", patient=None):
    # A copy of a scenario patient: approving writes to the chart, the fixtures stay as documented.
    patient = patient or clone_patient(sandbox.app.extensions["sandbox"].config["FHIR_UPSTREAM"], "pt-warfarin")
    browser = Browser()
    _, hop3 = ehr_launch(browser, sandbox, app_url, patient=patient)
    finish(browser, hop3, app_url)
    from smart_docgemma.storage import app_sessions

    with app.extensions["docgemma.storage"].begin() as conn:
        row = conn.execute(app_sessions.select()).fetchall()[-1]
    tokens = app.extensions["docgemma.storage"].unseal(row.tokens)
    scopes = GrantedScopes.parse(tokens["scope"])
    ctx = ToolContext(patient_id=patient, scopes=scopes, fhir=FhirGateway(sandbox.fhir_url, tokens["access_token"]),
                      proposals=proposal_store(app), sid=row.sid, user="Practitioner/dr-okafor",
                      config=dict(app.config))
    tool = tools_for(scopes)["prescribe_medication"]
    result = tool.run(PrescribeMedicationArgs(patient_id=patient, medication_name=drug, dosage="10 mg",
                                              frequency="once daily"), ctx)
    assert result.status == "proposal", result.text
    return browser, result.proposal_id


def count_created(fhir_base: str, proposal_id: str) -> int:
    res = requests.get(f"{fhir_base}/MedicationRequest", timeout=30, headers={"Cache-Control": "no-cache"},
                       params={"identifier": f"urn:docgemma:proposal|{proposal_id}", "_summary": "count"})
    return res.json()["total"]


def csrf(card_html: str) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', card_html).group(1)


def test_card_approve_creates_exactly_one_resource_even_when_double_submitted(launched_app, sandbox, fhir_base):
    app, app_url = launched_app
    browser, pid = session_and_proposal(app, sandbox, app_url)
    card = browser.get(f"{app_url}/proposals/{pid}")
    assert card.status_code == 200 and "lisinopril" in card.text.lower() and "Approve" in card.text
    assert count_created(fhir_base, pid) == 0  # nothing is written before approval
    token = csrf(card.text)
    results = []

    def click():
        results.append(browser.http.post(f"{app_url}/proposals/{pid}/approve", data={"csrf_token": token,
                                                                                     "version": "1"},
                                         headers=SCRIPT, timeout=60))

    clicks = [threading.Thread(target=click) for _ in range(2)]
    for t in clicks:
        t.start()
    for t in clicks:
        t.join()
    assert all(r.status_code in (200, 409) for r in results), [r.status_code for r in results]
    assert any(r.status_code == 200 and "MedicationRequest/" in r.text for r in results)
    assert count_created(fhir_base, pid) == 1


def test_card_reject_records_the_reason_and_writes_nothing(launched_app, sandbox, fhir_base):
    app, app_url = launched_app
    browser, pid = session_and_proposal(app, sandbox, app_url, drug="metformin")
    token = csrf(browser.get(f"{app_url}/proposals/{pid}").text)
    rejected = browser.post(f"{app_url}/proposals/{pid}/reject", headers=SCRIPT,
                            data={"csrf_token": token, "reason": "Patient already on it"})
    assert rejected.status_code == 200 and "Patient already on it" in rejected.text
    assert count_created(fhir_base, pid) == 0
    again = browser.post(f"{app_url}/proposals/{pid}/approve", data={"csrf_token": token, "version": "1"})
    assert again.status_code in (403, 409) and count_created(fhir_base, pid) == 0


def test_approve_without_csrf_is_refused(launched_app, sandbox, fhir_base):
    app, app_url = launched_app
    browser, pid = session_and_proposal(app, sandbox, app_url)
    res = browser.post(f"{app_url}/proposals/{pid}/approve", data={})
    assert res.status_code == 403 and count_created(fhir_base, pid) == 0


def test_another_session_cannot_see_or_approve_the_card(launched_app, sandbox, fhir_base):
    app, app_url = launched_app
    _, pid = session_and_proposal(app, sandbox, app_url)
    other = Browser()
    _, hop3 = ehr_launch(other, sandbox, app_url, patient="pt-t2dm")
    finish(other, hop3, app_url)
    assert other.get(f"{app_url}/proposals/{pid}").status_code in (403, 404)
    assert count_created(fhir_base, pid) == 0
