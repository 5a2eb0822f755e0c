"""A stop approved while the EHR is paused or dies paused, against real HAPI behind the proxy of
``test_approval_inflight``: the stop's one transaction (her order set ``stopped``, conditional on
the version read, and the stop order naming it) lands once or not at all. Never two stop orders,
never her order left active with a stop order written, never "failed" for a stop in the chart."""

from __future__ import annotations

import time

import pytest
import requests
from smart_docgemma import errors
from smart_docgemma.checks import prescriber
from smart_docgemma.fhir import FhirGateway
from smart_docgemma.proposals import inflight
from smart_docgemma.proposals.store import proposal_store
from smart_docgemma.tools.args import StopArgs
from smart_docgemma.tools.writes.stop import run_stop

from tests.proposals.test_approval_inflight import TIMEOUT_S, proxy, quick_settle  # noqa: F401
from tests.proposals.test_proposals import made
from tests.support.launch_context import PATIENT_SCOPES, launch, new_patient, tool_context
from tests.ward.test_stop_chat import _order

NO_CACHE = {"Cache-Control": "no-cache"}
# a stop updates her order: the launch is granted that as well as the create
SCOPES = PATIENT_SCOPES.replace("patient/MedicationRequest.crs", "patient/MedicationRequest.crus")


def _through(proxy, lc):  # noqa: F811 - the proxy fixture
    """The clinician's launch, its FHIR traffic through the proxy with a short timeout."""
    prescriber.verdict(lc)  # the card shown before the click read the prescriber's role
    via = launch(proxy.url, lc.patient_id, SCOPES, sid=lc.sid)
    via.fhir = FhirGateway(proxy.url, None, timeout=TIMEOUT_S)
    return via


def _setup(app, fhir_base, proxy):  # noqa: F811 - the proxy fixture
    """A fresh patient on omeprazole, its stop proposed (nothing written yet)."""
    store = proposal_store(app)
    patient = new_patient(fhir_base, family="Stopinflight")
    old = _order(fhir_base, patient)
    lc = launch(fhir_base, patient, SCOPES)
    done = run_stop(StopArgs(patient_id=patient, medication_name="omeprazole"),
                    tool_context(lc, store))
    assert done.status == "proposal", done.text
    return store, old, done.proposal_id, _through(proxy, lc)


def _status(fhir_base: str, old: str) -> str:
    res = requests.get(f"{fhir_base}/MedicationRequest/{old}", headers=NO_CACHE, timeout=30)
    return str(res.json()["status"])


def _stopped_once(fhir_base, store, pid, old):
    card = store.get(pid)
    assert card.status == "approved" and card.result_ref
    assert made(fhir_base, pid) == 1 and _status(fhir_base, old) == "stopped"
    return card


def test_a_stop_approved_while_the_ehr_is_paused_lands_once(app, fhir_base, proxy):  # noqa: F811
    store, old, pid, via = _setup(app, fhir_base, proxy)
    proxy.pause()
    with pytest.raises(errors.FHIRError) as raised:  # the pause outlasts the timeout: unknown
        store.approve(pid, via)
    assert raised.value.may_have_landed and store.get(pid).status == "unconfirmed"
    with pytest.raises(errors.FHIRError):  # a re-click in the outage sends nothing
        store.approve(pid, via)
    proxy.resume()
    time.sleep(0.5)
    assert store.approve(pid, via).status == "approved"  # after the outage: it is found
    assert proxy.posted.count("fhir") == 1  # one transaction sent, never a second
    _stopped_once(fhir_base, store, pid, old)


def test_a_stop_lost_with_the_paused_ehr_writes_nothing_then_once(app, fhir_base, proxy):  # noqa: F811
    store, old, pid, via = _setup(app, fhir_base, proxy)
    proxy.pause()
    with pytest.raises(errors.FHIRError):
        store.approve(pid, via)
    proxy.resume(lose_held=True)
    time.sleep(0.3)
    assert store.settle(store.get(pid), via).status == "unconfirmed"  # one empty answer: no proof
    time.sleep(inflight.SETTLE_S)
    second = store.settle(store.get(pid), via)
    assert second.status == "pending" and made(fhir_base, pid) == 0
    assert _status(fhir_base, old) == "active"  # nothing half-written: her order untouched
    assert store.approve(pid, via, second.version).status == "approved"
    _stopped_once(fhir_base, store, pid, old)
