"""An approval whose create has no known outcome, against real HAPI behind a real proxy that
stands for the EHR paused (SIGSTOP: the create is held and lands when it runs again), dying
while paused, or answering late. Every scenario ends with the order written exactly once with
its Provenance and the card approved, or nothing in the chart and the card retryable: never a
second order, never "failed" for an order that is in the chart. The proxy also drops
``If-None-Exist``, so the app's own search is all that stands between a retry and a duplicate.
"""

from __future__ import annotations

import threading
import time

import pytest
from smart_docgemma import errors
from smart_docgemma.checks import prescriber
from smart_docgemma.fhir import FhirGateway
from smart_docgemma.proposals import inflight
from smart_docgemma.proposals.store import proposal_store

from tests.proposals.test_proposals import made, propose
from tests.support.fhir_proxy import FhirProxy
from tests.support.launch_context import count, launch, new_patient

TIMEOUT_S = 1.0  # the app's FHIR timeout here; the pauses below are longer or shorter


@pytest.fixture
def proxy(fhir_base):
    p = FhirProxy(fhir_base, conditional_create=False).start()
    yield p
    p.stop()


@pytest.fixture(autouse=True)
def quick_settle(monkeypatch):
    monkeypatch.setattr(inflight, "SETTLE_S", 2.0)


def _through(proxy, lc):
    """The clinician's launch, its FHIR traffic through the proxy with a short timeout."""
    prescriber.verdict(lc)  # the card shown before the click read the prescriber's role
    via = launch(proxy.url, lc.patient_id, sid=lc.sid)
    via.fhir = FhirGateway(proxy.url, None, timeout=TIMEOUT_S)
    return via


def _setup(app, fhir_base, proxy):
    store = proposal_store(app)
    lc = launch(fhir_base, new_patient(fhir_base))
    return store, lc, propose(store, lc), _through(proxy, lc)


def _written_once(fhir_base, store, pid):
    card = store.get(pid)
    assert made(fhir_base, pid) == 1
    assert card.status == "approved" and card.result_ref
    assert card.summary["provenance"].startswith("Provenance/")
    assert count(fhir_base, "Provenance", target=card.result_ref) == 1
    return card


@pytest.mark.parametrize("pause_s", [0.3, 3.0])
def test_paused_ehr_then_reclicks_during_the_pause_write_once(app, fhir_base, proxy, pause_s):
    store, lc, pid, via = _setup(app, fhir_base, proxy)
    proxy.pause()
    threading.Timer(pause_s, proxy.resume).start()
    try:
        store.approve(pid, via)
    except errors.FHIRError as exc:  # the pause outlasted the timeout: unknown, not failed
        assert exc.may_have_landed and "never written twice" in exc.description
        assert store.get(pid).status == "unconfirmed"
        while proxy._running.is_set() is False:
            try:  # a re-click in the outage sends nothing (one may end just after the resume)
                store.approve(pid, via)
            except errors.FHIRError:
                assert store.get(pid).status == "unconfirmed"
        time.sleep(0.5)
        assert store.approve(pid, via).status == "approved"  # after the outage: it is found
    assert proxy.posted.count("MedicationRequest") == 1
    _written_once(fhir_base, store, pid)


def test_create_lands_after_the_first_empty_search(app, fhir_base, proxy):
    """The EHR answers again but writes the held create a moment later: the card is not
    declared failed on the first empty answer, and the re-click finds the order."""
    store, lc, pid, via = _setup(app, fhir_base, proxy)
    proxy.pause()
    with pytest.raises(errors.FHIRError):
        store.approve(pid, via)
    proxy.resume(late_by=1.0)
    shown = store.settle(store.get(pid), via)  # the card read right away: nothing there yet
    assert shown.status == "unconfirmed" and made(fhir_base, pid) == 0
    assert store.approve(pid, via).status == "approved"  # waits out the settling time, finds it
    assert proxy.posted.count("MedicationRequest") == 1
    _written_once(fhir_base, store, pid)


def test_card_read_after_a_late_landing_is_approved_with_provenance(app, fhir_base, proxy):
    store, lc, pid, via = _setup(app, fhir_base, proxy)
    proxy.pause()
    with pytest.raises(errors.FHIRError):
        store.approve(pid, via)
    proxy.resume()
    time.sleep(1.0)
    assert count(fhir_base, "Provenance", patient=lc.patient_id) == 0  # the click never got there
    assert store.settle(store.get(pid), via).status == "approved"  # what reading the card does
    _written_once(fhir_base, store, pid)


def test_ehr_died_while_paused_nothing_written_then_retry_writes_once(app, fhir_base, proxy):
    store, lc, pid, via = _setup(app, fhir_base, proxy)
    proxy.pause()
    with pytest.raises(errors.FHIRError):
        store.approve(pid, via)
    proxy.resume(lose_held=True)
    time.sleep(0.3)
    first = store.settle(store.get(pid), via)
    assert first.status == "unconfirmed"  # one empty answer: not yet proof
    time.sleep(inflight.SETTLE_S)
    second = store.settle(store.get(pid), via)
    assert second.status == "pending" and "confirms" in second.error and made(fhir_base, pid) == 0
    assert store.approve(pid, via, second.version).status == "approved"
    assert proxy.posted.count("MedicationRequest") == 1
    _written_once(fhir_base, store, pid)


def test_two_clicks_at_once_after_a_timeout_write_once(app, fhir_base, proxy):
    store, lc, pid, via = _setup(app, fhir_base, proxy)
    proxy.pause()
    with pytest.raises(errors.FHIRError):
        store.approve(pid, via)
    proxy.resume(late_by=0.5)
    outcomes, barrier = [], threading.Barrier(2)

    def click():
        mine = _through(proxy, lc)
        barrier.wait()
        try:
            outcomes.append(store.approve(pid, mine).status)
        except (errors.Conflict, errors.FHIRError) as exc:
            outcomes.append(type(exc).__name__)

    threads = [threading.Thread(target=click) for _ in range(2)]
    [t.start() for t in threads]
    [t.join(60) for t in threads]
    assert "approved" in outcomes, outcomes
    assert proxy.posted.count("MedicationRequest") == 1
    _written_once(fhir_base, store, pid)


def test_a_claim_left_by_a_dead_worker_is_settled_not_resent(app, fhir_base, proxy, monkeypatch):
    """A worker died after sending the create: its claim (executing) goes stale; the next
    reader finds the order instead of sending it again."""
    store, lc, pid, via = _setup(app, fhir_base, proxy)
    monkeypatch.setattr(inflight, "STALE_CLAIM_S", 0)
    assert store._claim(pid, lc.user)
    via.fhir.create(store.get(pid).resource)  # the create reached the EHR, then the worker died
    time.sleep(0.05)
    assert store.approve(pid, via).status == "approved"
    assert proxy.posted.count("MedicationRequest") == 1
    _written_once(fhir_base, store, pid)
