"""The parts that hold the chart and the app's state, restarted while clinicians work.

- The EHR (the project's HAPI with its data on disk, ``HAPI_DATA_DIR``) killed with SIGKILL
  during an approval and started again: an order it wrote before dying is found and the card
  approved with its Provenance; an order it never wrote is written exactly once on retry.
- PostgreSQL restarted under the app with pending cards and a session: nothing is lost,
  and the app answers again once the database is back.
- PostgreSQL restarted while a clinician's question is being answered: the turn's end is
  stored as soon as the database is back (``turns.worker.Leases``), so the clinician can ask
  again then, not once the turn's lease has run out.

Slow: each HAPI start is a minute or more on a busy machine.
"""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest
import requests
from launch.upstream import start_local
from smart_docgemma import create_app, errors
from smart_docgemma.fhir import FhirGateway
from smart_docgemma.proposals import inflight
from smart_docgemma.proposals.store import proposal_store
from smart_docgemma.turns.store import turn_store

from tests.proposals.test_proposals import made
from tests.support.chat_session import open_session, scripted_app
from tests.support.fhir_proxy import FhirProxy
from tests.support.launch_context import count, launch, new_patient
from tests.support.model_server import ScriptedModelServer, reply
from tests.support.servers import free_port
from tests.web.test_chat import _wait_running, ask, events

pytestmark = pytest.mark.slow


class DiskHapi:
    """The project's HAPI on ``port`` with its H2 database in ``folder``; kill and start again."""

    def __init__(self, folder, monkeypatch):
        monkeypatch.setenv("HAPI_DATA_DIR", str(folder))
        monkeypatch.setenv(
            "HAPI_JAVA_OPTS", "-Xmx768m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xss1m"
        )
        self.port, self.folder = free_port(), folder
        self.upstream = start_local(self.port, folder / "logs")

    @property
    def base_url(self) -> str:
        return self.upstream.base_url

    def kill(self) -> None:
        os.kill(self.upstream.pid, signal.SIGKILL)
        self.upstream.stop()  # reaps the dead process

    def start(self) -> None:
        self.upstream = start_local(self.port, self.folder / "logs")


@pytest.fixture(scope="module")
def hapi(tmp_path_factory):
    mp = pytest.MonkeyPatch()
    server = DiskHapi(tmp_path_factory.mktemp("hapi-data"), mp)
    # the approver, whom each Provenance names (HAPI checks references on write)
    requests.put(
        f"{server.base_url}/Practitioner/dr-okafor",
        timeout=60,
        json={"resourceType": "Practitioner", "id": "dr-okafor", "name": [{"family": "Okafor"}]},
        headers={"Content-Type": "application/fhir+json"},
    ).raise_for_status()
    yield server
    server.upstream.stop()
    mp.undo()


@pytest.fixture
def proxy(hapi):
    p = FhirProxy(hapi.base_url, conditional_create=False).start()
    yield p
    p.stop()


def _allergy_card(store, lc) -> str:
    """A pending allergy card (no prescriber role needed: this HAPI holds no practitioners)."""
    resource = {
        "resourceType": "AllergyIntolerance",
        "patient": {"reference": f"Patient/{lc.patient_id}"},
        "code": {"text": "penicillin"},
        "clinicalStatus": {
            "coding": [
                {
                    "system": "http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical",
                    "code": "active",
                }
            ]
        },
    }
    return store.create(
        sid=lc.sid,
        patient_id=lc.patient_id,
        tool="add_allergy",
        resource=resource,
        summary={"title": "Allergy: penicillin"},
    )


def _via(proxy, lc):
    via = launch(proxy.url, lc.patient_id, sid=lc.sid)
    via.fhir = FhirGateway(proxy.url, None, timeout=2)
    return via


def test_ehr_killed_after_writing_is_found_on_restart_and_written_once(
    app, hapi, proxy, monkeypatch
):
    monkeypatch.setattr(inflight, "SETTLE_S", 1.0)
    store = proposal_store(app)
    lc = launch(hapi.base_url, new_patient(hapi.base_url))
    pid, via = _allergy_card(store, lc), _via(proxy, lc)
    proxy.hold_answers = 5.0  # HAPI writes the allergy; its answer never reaches the app
    with pytest.raises(errors.FHIRError):
        store.approve(pid, via)
    assert store.get(pid).status == "unconfirmed"
    hapi.kill()
    proxy.hold_answers = 0.0
    with pytest.raises(errors.FHIRError):  # the clinician re-clicks while the EHR is down
        store.approve(pid, via)
    assert store.get(pid).status == "unconfirmed"  # not failed: the EHR could not be asked
    hapi.start()  # the same data folder
    card = store.approve(pid, via)
    assert card.status == "approved" and made(hapi.base_url, pid, "AllergyIntolerance") == 1
    assert count(hapi.base_url, "Provenance", target=card.result_ref) == 1
    assert proxy.posted.count("AllergyIntolerance") == 1


def test_ehr_killed_before_writing_then_the_retry_writes_once(app, hapi, proxy, monkeypatch):
    monkeypatch.setattr(inflight, "SETTLE_S", 1.0)
    store = proposal_store(app)
    lc = launch(hapi.base_url, new_patient(hapi.base_url))
    pid, via = _allergy_card(store, lc), _via(proxy, lc)
    proxy.pause()  # the create waits in the stopped server's queue...
    with pytest.raises(errors.FHIRError):
        store.approve(pid, via)
    hapi.kill()  # ...and dies with it
    proxy.resume(lose_held=True)
    hapi.start()
    shown = store.settle(store.get(pid), via)
    assert shown.status == "unconfirmed" and made(hapi.base_url, pid, "AllergyIntolerance") == 0
    card = store.approve(pid, via)  # waits out the settling time, then writes once
    assert card.status == "approved" and made(hapi.base_url, pid, "AllergyIntolerance") == 1
    assert count(hapi.base_url, "Provenance", target=card.result_ref) == 1


def test_postgres_restarted_with_pending_cards_loses_nothing(postgres, tmp_path, fhir_base):
    config = {
        "TESTING": True,
        "SECRET_KEY": "k",
        "DATABASE_URL": postgres.new_database(),
        "CACHE_PATH": str(tmp_path / "cache"),
        "ENDPOINT": None,
        "MODEL_PREFILL_NEXT_TURN": False,
        "ISS_ALLOWLIST": [fhir_base],
    }
    app = create_app(config)
    store = proposal_store(app)
    lc = launch(fhir_base, new_patient(fhir_base))
    pending = [_allergy_card(store, lc) for _ in range(3)]
    with app.app_context():
        app.extensions["docgemma.storage"].engine.connect().close()
    postgres.restart("fast")
    started = time.monotonic()
    client = app.test_client()
    assert client.get("/healthz").status_code == 200
    cards = [store.get(p) for p in pending]  # the first use after the restart
    assert [c.status for c in cards] == ["pending"] * 3
    assert time.monotonic() - started < 10
    card = store.approve(pending[0], lc)
    assert card.status == "approved" and made(fhir_base, pending[0], "AllergyIntolerance") == 1


BACK_S = 5  # the session is free again this soon after the database is (Leases retries each 1 s)


def test_a_turn_running_when_postgres_restarts_frees_the_session_when_it_is_back(
    postgres, tmp_path, fhir_base, sources
):
    config = {
        "TESTING": True,
        "SECRET_KEY": "k",
        "DATABASE_URL": postgres.new_database(),
        "CACHE_PATH": str(tmp_path / "cache"),
        "MODEL_PREFILL_NEXT_TURN": False,
    }
    with ScriptedModelServer() as srv:
        app = scripted_app(config, sources, srv)
        client = app.test_client()
        client.csrf = open_session(app, client, fhir_base, "pt-ckd-elder")
        # the model answers while the database is down: the turn ends then
        srv.script("IntentClassification",
                   reply({"intent": "DIRECT", "task_summary": "greeting"}, delay=2.5))
        srv.say("Hello, doctor.", "Still here.")
        first: dict = {}
        asking = threading.Thread(target=lambda: first.update(res=ask(client, "Hello")))
        asking.start()
        _wait_running(client)
        _wait_asked(srv, "IntentClassification")
        postgres.restart("fast", down_s=5)
        back = time.monotonic()
        asking.join(60)
        shown = [d for e, d in events(first["res"]) if e == "done"][0]
        assert shown["status"] in ("done", "failed")  # streamed to its end, not left hanging
        while True:  # the clinician asks again
            again = ask(client, "Are you there?")
            if again.status_code == 200 or time.monotonic() - back > BACK_S:
                break
            time.sleep(0.5)
        waited = time.monotonic() - back
        assert again.status_code == 200, again.get_json()
        assert "Still here." in [d for e, d in events(again) if e == "done"][0]["html"]
        assert waited < BACK_S
        stored = turn_store(app).get(shown["id"])
        assert stored.status == shown["status"]  # stored as the clinician saw it end
        if stored.status == "failed":  # its answer could not be audited while the database was down
            assert "Please ask again." in (stored.turn.error or "")


def _wait_asked(srv, schema: str, timeout: float = 30) -> None:
    """Until the turn's worker has sent the model its ``schema`` request."""
    deadline = time.monotonic() + timeout
    while not srv.requests_for(schema):
        assert time.monotonic() < deadline, f"the model was never asked for {schema}"
        time.sleep(0.05)
