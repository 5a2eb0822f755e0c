"""The app as deployed: ``docgemma`` (gunicorn, 2 workers, gthread) on PostgreSQL.

Run: ``python -m tests.bench.workers [--turns 64] [--latency-ms 500] [--threads 64]
[--synthea] [--cold-chart]``.

- Concurrency: ``turns`` sessions each POST one streamed question (``/api/chat``, SSE read to
  its end) at the same moment; wall time against one such turn alone (the median of
  ``SINGLES`` turns asked one after another), model latency L per call (the oracle server in
  its own process, as vLLM would be). Lost = a stream that did not carry the model's answer
  and end with its ``done`` event.
  Measured in steady state: ``WARM_BURSTS`` bursts of as many turns warm the workers (imports,
  tables, database and model connection pools) and are not counted.
  Every session first opens the page (``GET /app``), as a clinician does, so a question reuses
  the page's chart read (``CHART_FRESH_S``); ``--cold-chart`` skips the page, so every turn
  reads the chart from HAPI itself.
  ``--synthea``: the sessions are on the Synthea population (``launch.population``, loaded
  into HAPI if missing; patients up to 1,500 resources), spread over its patients in turn,
  instead of all on the scenario patient pt-ckd-elder (a few dozen resources).
- Worker CPU per turn: user + system time of the worker processes during the burst ÷ turns.
- Database connections opened during the burst (``db_connections_opened``): a run that opens
  some pays for their backends' start-up.
- Idle worker RSS: ``VmRSS`` of each worker process after every worker has answered turns
  (so everything a turn loads is loaded) and the server is idle again.
HAPI comes from ``FHIR_UPSTREAM_URL`` or is started (tests.bench.stack).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import requests
from smart_docgemma import create_app

from tests.support.app_process import docgemma, json_lines
from tests.support.chat_session import session_cookie
from tests.support.postgres import Cluster
from tests.support.servers import free_port

from .oracle import oracle_process
from .stack import bench_stack

QUESTION = "What is the mechanism of action of metformin?"  # direct-01: 2 model calls
SINGLES = 5
# Bursts before the measured one. A worker's pools (database, model, FHIR) open connections as
# a burst needs them and keep them; after one burst they may still fall a few short of what the
# next one needs (how many threads wait on the database at once varies run to run), after two
# they seldom do: a server that has been up for a while.
WARM_BURSTS = 2


def run(stack, turns: int = 64, latency_ms: float = 500.0, threads: int = 64, workers: int = 2,
        patient: str | None | list[str] = "pt-ckd-elder", page: bool = True) -> dict:
    """``patient``: one id, None (no patient), or ids the sessions take in turn."""
    patients = patient if isinstance(patient, list) else [patient]
    cluster = Cluster().start()
    folder = Path(tempfile.mkdtemp(prefix="docgemma-bench-"))
    try:
        with oracle_process(latency_ms) as model_url:
            config = {"SECRET_KEY": "bench", "DATABASE_URL": cluster.new_database(), "ENDPOINT": model_url,
                      "SCHEMA_DIALECT": "json_schema", "CHAT_RATE_PER_MIN": 1000,
                      "CACHE_PATH": str(folder / "cache"), **stack.knowledge}
            env = {k: v for k, v in os.environ.items() if not k.startswith("DOCGEMMA_")}
            env.update({f"DOCGEMMA_{k}": v if isinstance(v, str) else json.dumps(v) for k, v in config.items()})
            env.update(DOCGEMMA_PORT=str(free_port()), DOCGEMMA_WORKERS=str(workers),
                       DOCGEMMA_THREADS=str(threads), PYTHONPATH=os.getcwd())
            command = [sys.executable, "-c", "from smart_docgemma.cli.server import main; main()"]
            with docgemma(command, env, folder) as (url, log):
                app = create_app(config)
                sessions = [session_cookie(app, stack.fhir_base, patients[i % len(patients)])
                            for i in range(2 * turns + SINGLES)]
                warm, singles = sessions[:turns], sessions[turns:turns + SINGLES]
                many_sessions = sessions[turns + SINGLES:]
                if page:
                    [_open(url, s) for s in warm]
                for _ in range(WARM_BURSTS):  # steady state: imports, knowledge tables, every pool
                    _burst(url, warm)
                one = statistics.median(_timed(url, [s], page) for s in singles)
                if page:
                    [_open(url, s) for s in many_sessions]
                pids = _worker_pids(log)
                cpu, connections = _cpu_seconds(pids), _connections(config["DATABASE_URL"])
                many, ended = _burst(url, many_sessions)
                cpu = _cpu_seconds(pids) - cpu
                connections = _connections(config["DATABASE_URL"]) - connections
                time.sleep(2)
                rss = _worker_rss(folder, log)
        return {"patient": patient, "page_first": page, "turns": turns, "workers": workers,
                "threads_per_worker": threads, "latency_ms_per_call": latency_ms,
                "one_turn_s": round(one, 3), f"{turns}_turns_s": round(many, 3), "ratio": round(many / one, 3),
                "lost": turns - ended, "worker_cpu_ms_per_turn": round(cpu * 1000 / turns, 1),
                "db_connections_opened": connections,
                "idle_worker_rss_mb": rss}
    finally:
        cluster.stop()


def _ask(url: str, session) -> bool:
    cookies, csrf = session
    res = requests.post(f"{url}/api/chat", data={"message": QUESTION}, cookies=cookies,
                        headers={"X-CSRF-Token": csrf}, timeout=300, stream=True)
    body = res.content.decode()
    # the oracle's answer streamed and the turn ended: a turn the model did not answer is lost
    return res.status_code == 200 and "Answer for:" in body and "event: done" in body


def _open(url: str, session) -> None:
    cookies, _ = session
    assert requests.get(f"{url}/app", cookies=cookies, timeout=60).status_code == 200


def _timed(url: str, sessions, page: bool) -> float:
    if page:
        [_open(url, s) for s in sessions]
    started = time.perf_counter()
    assert all(_ask(url, s) for s in sessions)
    return time.perf_counter() - started


def _burst(url: str, sessions) -> tuple[float, int]:
    gate, ended = threading.Barrier(len(sessions)), []

    def one(s):
        gate.wait()
        ended.append(_ask(url, s))
    threads = [threading.Thread(target=one, args=(s,)) for s in sessions]
    started = time.perf_counter()
    [t.start() for t in threads]
    [t.join() for t in threads]
    return time.perf_counter() - started, sum(ended)


def _connections(url: str) -> int:
    """The database's open connections (the workers' pools keep what they open: an increase
    over a burst is how many it opened, each a PostgreSQL backend started on the same cores)."""
    from sqlalchemy import create_engine, text

    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return conn.execute(text("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                                     "AND pid <> pg_backend_pid()")).scalar_one()
    finally:
        engine.dispose()


def _worker_pids(log: Path) -> list[int]:
    return sorted({int(r["message"].split()[-1]) for r in json_lines(log) if "Booting worker" in r.get("message", "")})


def _cpu_seconds(pids: list[int]) -> float:
    """User + system CPU of the worker processes so far (all their threads)."""
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except FileNotFoundError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def _worker_rss(folder: Path, log: Path) -> list[float]:
    out = []
    for pid in _worker_pids(log):
        try:
            text = Path(f"/proc/{pid}/status").read_text()
        except FileNotFoundError:
            continue
        kb = next(int(line.split()[1]) for line in text.splitlines() if line.startswith("VmRSS:"))
        out.append(round(kb / 1024, 1))
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--turns", type=int, default=64)
    p.add_argument("--latency-ms", type=float, default=500.0)
    p.add_argument("--threads", type=int, default=64)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--no-patient", action="store_true",
                   help="sessions without a launch patient: no chart prefetch on HAPI per turn")
    p.add_argument("--cold-chart", action="store_true",
                   help="no page before the question: every turn reads the chart from HAPI")
    p.add_argument("--synthea", action="store_true",
                   help="sessions on the Synthea population's patients (real-size charts)")
    args = p.parse_args(argv)
    with bench_stack() as stack:
        patient: str | None | list[str] = None if args.no_patient else "pt-ckd-elder"
        if args.synthea:
            from launch.population import load_population

            patient = [p.id for p in load_population(stack.fhir_base, max_resources=1500).patients]
        print(json.dumps(run(stack, args.turns, args.latency_ms, args.threads, args.workers,
                             patient, page=not args.cold_chart)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
