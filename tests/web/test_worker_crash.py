"""A gunicorn worker killed (``kill -9``) while it streams an answer: the page says the answer
was interrupted and offers to ask again, the turn is stored failed (its lease ran out), the
session's one-turn lock is released, the proposal it had prepared is withdrawn (never left
approvable unseen) and nothing reached the chart.

``docgemma`` runs as in production (gunicorn, 2 workers, gthread) on PostgreSQL; the model is
the scripted server, made to hang on the second look so the turn is mid-stream, with its
proposal stored, when its worker dies."""
from __future__ import annotations

import json
import os
import signal
import sys
import time
from pathlib import Path

import pytest
import requests
from smart_docgemma import create_app
from smart_docgemma.proposals.store import proposal_store
from smart_docgemma.storage import proposals, turns
from sqlalchemy import select

from tests.support.app_process import docgemma
from tests.support.chat_session import session_cookie
from tests.support.launch_context import clone_patient, count
from tests.support.model_server import ScriptedModelServer, reply
from tests.support.servers import free_port

LEASE_S = 3
# Code fixes the tool and its arguments: no model call before the proposal is stored.
ORDER = "Prescribe amlodipine 5 mg once daily"


def children(pid: int) -> list[int]:
    """Processes whose parent is ``pid`` (from /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


@pytest.fixture
def stack(postgres, fhir_base, tmp_path):
    config = {"SECRET_KEY": "crash-test", "DATABASE_URL": postgres.new_database(),
              "CACHE_PATH": str(tmp_path / "cache"), "TURN_LEASE_S": LEASE_S, "CHAT_RATE_PER_MIN": 20}
    with ScriptedModelServer() as model:
        # the second look hangs: the worker dies while it waits
        model.script("SecondLookReview", reply({"severity": "none"}, delay=60))
        config.update(ENDPOINT=model.url, MODEL=model.model, SCHEMA_DIALECT="json_schema",
                      MODEL_RETRIES=0, MODEL_TIMEOUT_S=90)
        env = {k: v for k, v in os.environ.items() if not k.startswith("DOCGEMMA_")}
        env.update({f"DOCGEMMA_{k}": v if isinstance(v, str) else json.dumps(v) for k, v in config.items()})
        env.update(DOCGEMMA_PORT=str(free_port()), DOCGEMMA_WORKERS="2", DOCGEMMA_THREADS="8",
                   PYTHONPATH=os.getcwd())
        command = [sys.executable, "-c", "from smart_docgemma.cli.server import main; main()"]
        with docgemma(command, env, tmp_path) as (url, _log):
            yield url, create_app(config)


def test_a_worker_killed_mid_stream_ends_the_turn_interrupted(stack, fhir_base):
    url, app = stack
    patient = clone_patient(fhir_base, "pt-ckd-elder")
    cookies, csrf = session_cookie(app, fhir_base, patient)
    res = requests.post(f"{url}/api/chat", data={"message": ORDER}, cookies=cookies,
                        headers={"X-CSRF-Token": csrf}, stream=True, timeout=120)
    lines = res.iter_lines(decode_unicode=True)
    turn_id = json.loads(next(line for line in lines if line.startswith("data: "))[6:])["id"]
    pid = _wait_for_proposal(app)
    [master] = [p for p in children(os.getpid()) if b"smart_docgemma.cli.server" in
                Path(f"/proc/{p}/cmdline").read_bytes()]
    for worker in children(master):
        os.kill(worker, signal.SIGKILL)
    with pytest.raises(requests.RequestException):  # the stream breaks without a "done" event
        for line in lines:
            assert not line.startswith("event: done")

    html = _turn_page_once_settled(url, turn_id, cookies)
    assert 'data-status="failed"' in html and "interrupted" in html and "Ask again" in html
    with app.extensions["docgemma.storage"].begin() as conn:
        status = conn.execute(select(turns.c.status).where(turns.c.id == turn_id)).scalar()
        card = conn.execute(select(proposals.c.status, proposals.c.reason)
                            .where(proposals.c.id == pid)).first()
    assert status == "failed"
    assert card.status == "rejected" and "interrupted" in card.reason  # withdrawn, not approvable
    assert count(fhir_base, "MedicationRequest", identifier=f"urn:docgemma:proposal|{pid}") == 0
    again = requests.post(f"{url}/api/chat", data={"message": "Hello"}, cookies=cookies,
                          headers={"X-CSRF-Token": csrf}, timeout=60)
    assert again.status_code == 200 and "event: done" in again.text  # the lock was released


def _wait_for_proposal(app, timeout: float = 60) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with app.extensions["docgemma.storage"].begin() as conn:
            pending = select(proposals.c.id).where(proposals.c.status == "pending")
            pid = conn.execute(pending).scalar()
        if pid:
            time.sleep(0.5)  # the turn goes on to the second look, which hangs
            assert proposal_store(app).get(pid).status == "pending"
            return pid
        time.sleep(0.2)
    raise AssertionError("no proposal was prepared")


def _turn_page_once_settled(url: str, turn_id: str, cookies: dict, timeout: float = 90) -> str:
    """The turn's HTML as the page's script polls it after a broken stream (gunicorn is
    starting new workers meanwhile: a poll may wait for one, as the browser's would)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            res = requests.get(f"{url}/app/turns/{turn_id}", cookies=cookies, timeout=30)
        except requests.RequestException:
            continue
        if res.status_code == 200 and 'data-status="running"' not in res.text:
            return res.text
        time.sleep(0.5)
    raise AssertionError("the turn still shows as running")
