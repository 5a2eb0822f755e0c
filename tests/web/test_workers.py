"""Several gunicorn workers on one PostgreSQL keep every guarantee a single process keeps.

``docgemma`` runs as in production (gunicorn, 3 worker processes, gthread) on a PostgreSQL
database; concurrent requests go over real HTTP and the kernel spreads them over the
workers (the JSON request log names each worker's pid, and the test checks more than one
answered). One turn at a time and the rate limit per session, exactly-once approval and
CDS JWT replay refusal are checked on what the database and HAPI hold afterwards.
"""
from __future__ import annotations

import json
import os
import sys
import threading
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests
from smart_docgemma import create_app
from smart_docgemma.proposals.store import proposal_store
from smart_docgemma.storage import app_sessions, turns
from sqlalchemy import select

from tests.cds.ehr_client import ISSUER, MiniEHR
from tests.proposals.test_proposals import propose
from tests.support.app_process import docgemma, json_lines
from tests.support.chat_session import session_cookie
from tests.support.launch_context import clone_patient, count, launch
from tests.support.model_server import ScriptedModelServer
from tests.support.servers import free_port

WORKERS = 3


@pytest.fixture
def stack(postgres, fhir_base, tmp_path):
    """``(url, log, app)``: docgemma with 3 workers, and a checkout app on the same database
    (it stores sessions and proposals as a launch and the agent would)."""
    db = postgres.new_database()
    port = free_port()
    ehr = MiniEHR(f"http://127.0.0.1:{port}")
    config = {"SECRET_KEY": "workers-test", "DATABASE_URL": db, "CHAT_RATE_PER_MIN": 3,
              "CDS_ISSUERS": {ISSUER: {"jwks": ehr.jwks()}}, "CACHE_PATH": str(tmp_path / "cache")}
    with ScriptedModelServer(latency=0.3) as model:
        config.update(ENDPOINT=model.url, MODEL=model.model, SCHEMA_DIALECT="json_schema", MODEL_RETRIES=0)
        env = {k: v for k, v in os.environ.items() if not k.startswith("DOCGEMMA_")}
        env.update({f"DOCGEMMA_{k}": v if isinstance(v, str) else json.dumps(v) for k, v in config.items()})
        env.update(DOCGEMMA_PORT=str(port), DOCGEMMA_WORKERS=str(WORKERS), DOCGEMMA_THREADS="16",
                   PYTHONPATH=os.getcwd())
        command = [sys.executable, "-c", "from smart_docgemma.cli.server import main; main()"]
        with docgemma(command, env, tmp_path) as (url, log):
            yield url, log, create_app(config), ehr


def burst(n: int, call) -> list:
    """``n`` calls released together (a barrier), each on its own connection."""
    gate = threading.Barrier(n)

    def one(i):
        gate.wait()
        return call(i)
    with ThreadPoolExecutor(n) as pool:
        return list(pool.map(one, range(n)))


def answered_by(log, tag: str = "") -> set[int]:
    """Worker pids that logged a request line (only requests whose X-Request-ID starts with ``tag``)."""
    return {r["pid"] for r in json_lines(log)
            if r.get("logger") == "docgemma.request" and (r.get("request_id") or "").startswith(tag)}


def spread_rounds(log, round_once, rounds: int = 8) -> int:
    """Run ``round_once(tag)`` (a burst whose requests carry X-Request-ID ``tag-…``) until one
    round was answered by two workers or more; the kernel may hand a whole burst to one worker."""
    for n in range(rounds):
        tag = uuid.uuid4().hex[:8]
        round_once(tag)
        if len(answered_by(log, tag)) >= 2:
            return n + 1
    raise AssertionError(f"{rounds} bursts were each answered by one worker only")


def test_one_turn_at_a_time_and_the_rate_limit_hold_across_workers(stack, fhir_base):
    url, log, app, _ = stack
    cookies, csrf = session_cookie(app, fhir_base, "pt-ckd-elder")

    def ask(_):
        res = requests.post(f"{url}/api/chat", data={"message": "Hello"}, cookies=cookies,
                            headers={"X-CSRF-Token": csrf}, timeout=60)
        res.content  # the stream ends when the turn has ended
        return res.status_code
    rounds = [burst(8, ask) for _ in range(5)]  # each round waits until every answer has ended
    assert [r.count(200) for r in rounds] == [1, 1, 1, 0, 0]  # one turn at a time, then 3 a minute
    assert all(set(r) <= {200, 409, 429} for r in rounds)
    assert set(rounds[-1]) == {429}
    with app.extensions["docgemma.storage"].begin() as conn:
        rows = conn.execute(select(turns.c.created_at, turns.c.updated_at).order_by(turns.c.created_at)).all()
    # never overlapping
    assert len(rows) == 3 and all(a.updated_at <= b.created_at for a, b in zip(rows, rows[1:], strict=False))
    assert len(answered_by(log)) >= 2
    # one line per request, the app's: not gunicorn's access line, nor one per model call
    loggers = {r.get("logger") for r in json_lines(log)}
    assert "docgemma.request" in loggers and not loggers & {"gunicorn.access", "httpx", "httpx2"}


def test_a_proposal_is_approved_exactly_once_across_workers(stack, fhir_base):
    url, log, app, _ = stack
    patient = clone_patient(fhir_base, "pt-ckd-elder")
    cookies, csrf = session_cookie(app, fhir_base, patient)
    with app.extensions["docgemma.storage"].begin() as conn:
        sid = conn.execute(select(app_sessions.c.sid)).scalar_one()

    def round_once(tag):
        pid = propose(proposal_store(app), launch(fhir_base, patient, sid=sid))
        form = {"csrf_token": csrf, "version": proposal_store(app).get(pid).version}  # the version the card showed
        statuses = burst(12, lambda i: requests.post(
            f"{url}/proposals/{pid}/approve", data=form, cookies=cookies, timeout=60, allow_redirects=False,
            headers={"X-Request-ID": f"{tag}-{i}"}).status_code)
        assert all(s < 500 for s in statuses), statuses
        assert count(fhir_base, "MedicationRequest", identifier=f"urn:docgemma:proposal|{pid}") == 1, statuses
        assert proposal_store(app).get(pid).status == "approved", statuses
    spread_rounds(log, round_once)


def test_a_cds_jwt_is_accepted_once_across_workers(stack):
    url, log, _, ehr = stack

    def round_once(tag):
        token = ehr.token(ehr.url())
        statuses = burst(12, lambda i: requests.get(
            ehr.url(), timeout=10, headers={"Authorization": f"Bearer {token}", "X-Request-ID": f"{tag}-{i}"}
        ).status_code)
        assert sorted(statuses) == [200] + [401] * 11
    spread_rounds(log, round_once)
