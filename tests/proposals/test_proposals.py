"""The proposal lifecycle against real HAPI: approve exactly once (even concurrently),
Provenance, reject, restart, cross-patient and scope refusals, prompt injection."""
from __future__ import annotations

import threading

import pytest
import requests
from smart_docgemma import create_app, errors, get_storage
from smart_docgemma.checks import prescriber
from smart_docgemma.proposals.store import IDENTIFIER_SYSTEM, ProposalStore, proposal_store
from smart_docgemma.tools.args import PatientChartArgs, PrescribeMedicationArgs
from smart_docgemma.tools.chart.chart import UNTRUSTED_HEAD, run_chart
from smart_docgemma.tools.writes.orders import run_prescribe

from tests.support.launch_context import PATIENT_SCOPES, count, launch, new_patient, tool_context
from tests.support.postgres import BOTH_DATABASES

pytestmark = BOTH_DATABASES


@pytest.fixture
def store(app):
    return proposal_store(app)


def propose(store, lc, drug="metformin", dose="500 mg", freq="twice daily"):
    args = PrescribeMedicationArgs(patient_id=lc.patient_id, medication_name=drug, dosage=dose, frequency=freq)
    result = run_prescribe(args, tool_context(lc, store))
    assert result.status == "proposal", result.text
    return result.proposal_id


def made(fhir_base, proposal_id, rtype="MedicationRequest"):
    return count(fhir_base, rtype, identifier=f"{IDENTIFIER_SYSTEM}|{proposal_id}")


def test_approve_creates_one_resource_with_provenance(fhir_base, store):
    lc = launch(fhir_base, new_patient(fhir_base))
    pid = propose(store, lc)
    p = store.approve(pid, lc)
    assert p.status == "approved" and p.result_ref.startswith("MedicationRequest/")
    assert made(fhir_base, pid) == 1
    created = requests.get(f"{fhir_base}/{p.result_ref}", timeout=30).json()
    assert created["subject"]["reference"] == f"Patient/{lc.patient_id}"
    prov = requests.get(f"{fhir_base}/Provenance", params={"target": p.result_ref}, timeout=30,
                        headers={"Cache-Control": "no-cache"}).json()["entry"][0]["resource"]
    assert prov["agent"][0]["who"] == {"reference": "Practitioner/dr-okafor"}
    assert prov["agent"][1]["who"]["display"] == "DocGemma assistant"
    assert p.summary["provenance"].startswith("Provenance/")
    again = store.approve(pid, lc)  # a retried click shows the same result
    assert again.result_ref == p.result_ref and made(fhir_base, pid) == 1


def test_concurrent_double_approve_creates_exactly_one(fhir_base, store):
    lc = launch(fhir_base, new_patient(fhir_base))
    pid = propose(store, lc)
    outcomes, barrier = [], threading.Barrier(2)

    def click():
        barrier.wait()
        try:
            outcomes.append(store.approve(pid, lc).status)
        except errors.Conflict:
            outcomes.append("conflict")

    threads = [threading.Thread(target=click) for _ in range(2)]
    [t.start() for t in threads]
    [t.join(60) for t in threads]
    assert sorted(outcomes) in (["approved", "approved"], ["approved", "conflict"])
    assert made(fhir_base, pid) == 1
    assert store.get(pid).status == "approved"


def test_retry_after_crash_between_create_and_bookkeeping_makes_one_resource(fhir_base, store):
    lc = launch(fhir_base, new_patient(fhir_base))
    pid = propose(store, lc)
    lc.fhir.create(store.get(pid).resource)  # the create reached the EHR, then the app died
    p = store.approve(pid, lc)
    assert p.status == "approved" and made(fhir_base, pid) == 1


def test_reject_records_reason_and_creates_nothing(fhir_base, store):
    lc = launch(fhir_base, new_patient(fhir_base))
    pid = propose(store, lc)
    with pytest.raises(errors.BadRequest):
        store.reject(pid, lc, "   ")
    p = store.reject(pid, lc, "Patient prefers to wait")
    assert p.status == "rejected" and p.reason == "Patient prefers to wait" and p.decided_by == "Practitioner/dr-okafor"
    with pytest.raises(errors.Conflict):
        store.approve(pid, lc)
    assert made(fhir_base, pid) == 0


def test_restart_between_proposal_and_approval_loses_nothing(fhir_base, app_config):
    lc = launch(fhir_base, new_patient(fhir_base))
    pid = propose(proposal_store(create_app(app_config)), lc)
    restarted = create_app(app_config)  # a new process on the same DATABASE_URL
    p = proposal_store(restarted).approve(pid, lc)
    assert p.status == "approved" and made(fhir_base, pid) == 1


def test_cross_patient_and_other_session_are_refused(fhir_base, store):
    lc = launch(fhir_base, new_patient(fhir_base))
    pid = propose(store, lc)
    other_patient = launch(fhir_base, new_patient(fhir_base), sid=lc.sid)
    with pytest.raises(errors.Forbidden):
        store.approve(pid, other_patient)
    with pytest.raises(errors.NotFound):
        store.approve(pid, launch(fhir_base, lc.patient_id))  # same patient, another session
    assert made(fhir_base, pid) == 0 and store.get(pid).status == "pending"


def test_scope_not_granted_at_approval_is_refused(fhir_base, store):
    lc = launch(fhir_base, new_patient(fhir_base))
    pid = propose(store, lc)
    narrowed = launch(fhir_base, lc.patient_id, PATIENT_SCOPES.replace("MedicationRequest.crs", "MedicationRequest.rs"),
                      sid=lc.sid)
    with pytest.raises(errors.Forbidden, match="MedicationRequest"):
        store.approve(pid, narrowed)
    assert made(fhir_base, pid) == 0


def test_failed_create_returns_to_pending_with_the_error(fhir_base, store):
    lc = launch(fhir_base, new_patient(fhir_base))
    pid = propose(store, lc)
    prescriber.verdict(lc)  # the card shown before the click read the prescriber's role
    lc.fhir = type(lc.fhir)("http://127.0.0.1:9/fhir", None, timeout=2)  # EHR unreachable
    with pytest.raises(errors.FHIRError):
        store.approve(pid, lc)
    p = store.get(pid)
    assert p.status == "pending" and p.attempts == 1 and "unreachable" in p.error


def test_injection_note_never_yields_an_executed_write(fhir_base, store):
    lc = launch(fhir_base, "pt-injection")
    chart = run_chart(PatientChartArgs(patient_id="pt-injection"), tool_context(lc, store))
    assert chart.data.notes[0].instruction_like and UNTRUSTED_HEAD in chart.text
    # Even if a model obeyed the note, the write is only a pending proposal.
    pid = propose(store, lc, "oxycodone", "80 mg", "every 4 hours")
    assert store.get(pid).status == "pending"
    assert count(fhir_base, "MedicationRequest", patient="pt-injection") == 0


def test_proposals_are_sql_rows(app, fhir_base):
    lc = launch(fhir_base, "pt-demo-only")
    pid = propose(ProposalStore(get_storage(app)), lc)
    assert [p.id for p in proposal_store(app).for_session(lc.sid)] == [pid]


def test_card_shows_summary_flags_json_and_forms_then_the_outcome(app, fhir_base, store):
    from flask import render_template

    lc = launch(fhir_base, "pt-pen-allergy")
    pid = propose(store, lc, "amoxicillin", "500 mg", "three times daily")
    with app.test_request_context():
        pending = render_template("proposals/card.html", p=store.get(pid))
    for text in ("Awaiting your approval", "amoxicillin", "500 mg", "three times daily", "Critical:",
                 "Penicillin", "FHIR MedicationRequest to be created", 'name="csrf_token"',
                 f"/proposals/{pid}/approve", f"/proposals/{pid}/reject", 'name="reason" required'):
        assert text in pending, text
    store.reject(pid, lc, "Allergy: choose azithromycin")
    with app.test_request_context():
        rejected = render_template("proposals/card.html", p=store.get(pid))
    assert "Rejected by Practitioner/dr-okafor: Allergy: choose azithromycin" in rejected
    assert "/approve" not in rejected and "<form" not in rejected


def test_a_second_look_stored_in_the_old_json_shape_loads_typed_and_still_gates(app, fhir_base, store):
    """Rows written while the card's second look was a plain dict (some without ``reviewed_by``
    or ``acknowledged_by``) load as a typed ``SecondLook``: the card renders it, Approve stays
    blocked until it is acknowledged, and the JSON view keeps its old keys."""
    import json

    from flask import render_template
    from smart_docgemma.approval.types import SecondLook
    from smart_docgemma.storage import proposals as table
    from sqlalchemy import select, update

    lc = launch(fhir_base, new_patient(fhir_base))
    pid = propose(store, lc)
    with get_storage(app).begin() as conn:
        summary = json.loads(conn.execute(select(table.c.summary).where(table.c.id == pid)).scalar_one())
        summary["second_look"] = {"severity": "high", "findings": ["Contradicts the chart: eGFR 25"]}
        conn.execute(update(table).where(table.c.id == pid).values(summary=json.dumps(summary)))
    look = store.get(pid).summary["second_look"]
    assert look == SecondLook(severity="high", findings=("Contradicts the chart: eGFR 25",))
    with app.test_request_context():
        card = render_template("proposals/card.html", p=store.get(pid))
    assert "Contradicts the chart: eGFR 25" in card and "Acknowledge the second look first." in card
    with pytest.raises(errors.Conflict, match="acknowledge"):
        store.approve(pid, lc)
    acked = store.acknowledge(pid, lc)
    assert acked.summary["second_look"].acknowledged_by == lc.user
    assert acked.to_dict()["summary"]["second_look"] == {
        "severity": "high", "findings": ["Contradicts the chart: eGFR 25"], "reviewed_by": "deterministic",
        "note": "", "acknowledged_by": lc.user}
    assert store.approve(pid, lc).status == "approved" and made(fhir_base, pid) == 1


def test_the_card_a_redraft_replaced_is_found_while_its_replacement_waits(fhir_base, store):
    """"no, go back to the first one" after "doxycycline instead": the replaced card, and only
    while the card that replaced it is the newest and pending."""
    from smart_docgemma.approval.types import CANCELLED_IN_CONVERSATION, REPLACED_BY_REDRAFT

    lc = launch(fhir_base, new_patient(fhir_base, "Replaced"))
    first = propose(store, lc, drug="clarithromycin", dose="500 mg")
    second = propose(store, lc, drug="doxycycline", dose="100 mg")
    store.withdraw_ids([first], reason=REPLACED_BY_REDRAFT)
    back = store.last_replaced_order(lc.sid, lc.patient_id)
    assert back is not None and back.proposal_id == first and back.ingredient == "clarithromycin"
    store.withdraw_ids([second], reason=CANCELLED_IN_CONVERSATION)  # nothing pending since
    assert store.last_replaced_order(lc.sid, lc.patient_id) is None
