"""FHIR slow or down while a clinician approves a card: no partial write, the card says what
happened and can be approved again, and the retry still writes exactly once.

The worst case is the slow one: HAPI creates the resource but its answer arrives after the
app's timeout, so the app cannot know the write happened. A real HTTP proxy in front of the
real HAPI forwards every request and, while ``slow`` is set, holds the answer to a create
past the gateway's timeout."""
from __future__ import annotations

import threading
import time

import pytest
import requests
from smart_docgemma import errors
from smart_docgemma.proposals.store import proposal_store
from werkzeug import Request, Response

from tests.proposals.test_proposals import made, propose
from tests.support.launch_context import count, launch, new_patient
from tests.support.servers import LiveServer

HELD_S = 2.5  # longer than the gateway's 1 s timeout below


class SlowProxy:
    """Forwards to ``upstream``; holds POST answers for ``HELD_S`` while ``slow`` is set."""

    def __init__(self, upstream: str):
        self.upstream, self.slow, self.held = upstream.rstrip("/"), threading.Event(), 0
        self.server = LiveServer(self._wsgi)

    def _wsgi(self, environ, start_response):
        req = Request(environ)
        path = req.path.removeprefix("/fhir")
        res = requests.request(req.method, self.upstream + path, params=req.args, data=req.get_data(),
                               headers={k: v for k, v in req.headers if k.lower() != "host"}, timeout=60)
        if req.method == "POST" and self.slow.is_set():
            self.held += 1
            time.sleep(HELD_S)  # the write is done upstream; its answer comes too late
        out = Response(res.content, status=res.status_code,
                       content_type=res.headers.get("Content-Type"))
        return out(environ, start_response)

    @property
    def url(self) -> str:
        return self.server.url + "/fhir"


@pytest.fixture
def proxy(fhir_base):
    p = SlowProxy(fhir_base)
    p.server.start()
    yield p
    p.server.stop()


def test_a_write_whose_answer_is_lost_is_retried_exactly_once(app, fhir_base, proxy):
    store = proposal_store(app)
    lc = launch(fhir_base, new_patient(fhir_base))
    pid = propose(store, lc)
    slow = launch(proxy.url, lc.patient_id, sid=lc.sid)
    slow.fhir = type(slow.fhir)(proxy.url, None, timeout=1)
    proxy.slow.set()
    with pytest.raises(errors.FHIRError):
        store.approve(pid, slow)
    card = store.get(pid)
    # Not failed, not pending: the create may have landed (it did), so nothing is sent again
    # before the EHR has been searched for it.
    assert proxy.held == 1 and card.status == "unconfirmed" and card.attempts == 1
    assert "never written twice" in card.error  # what the card shows
    assert made(fhir_base, pid) == 1  # HAPI did write it: the answer was what was lost
    proxy.slow.clear()
    approved = store.approve(pid, launch(proxy.url, lc.patient_id, sid=lc.sid))
    assert approved.status == "approved" and made(fhir_base, pid) == 1  # not written twice
    assert count(fhir_base, "Provenance", target=approved.result_ref) == 1


def test_fhir_down_during_approval_writes_nothing_and_can_be_retried(app, fhir_base, proxy):
    store = proposal_store(app)
    lc = launch(fhir_base, new_patient(fhir_base))
    pid = propose(store, lc)
    down = launch(fhir_base, lc.patient_id, sid=lc.sid)
    down.fhir = type(down.fhir)("http://127.0.0.1:9/fhir", None, timeout=1)
    # The approver's role is read from FHIR before the write: with FHIR down, that read (or the
    # write, when no role check applies) fails, and the card stays pending either way.
    with pytest.raises((errors.FHIRError, errors.Forbidden)) as refused:
        store.approve(pid, down)
    assert "could not be" in refused.value.description or "unreachable" in refused.value.description
    card = store.get(pid)
    assert card.status == "pending"
    assert made(fhir_base, pid) == 0 and count(fhir_base, "Provenance", patient=lc.patient_id) == 0
    assert store.approve(pid, lc).status == "approved" and made(fhir_base, pid) == 1
