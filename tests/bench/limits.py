"""Clinicians keep their answers while MCP clients misbehave: ``docgemma`` (gunicorn, gthread) on
PostgreSQL, the sandbox as the EHR's authorization server and the oracle model server, each in
its own process.

Run: ``python -m tests.bench.limits [--seconds 60] [--clinicians 6] [--workers 2] [--threads 16]
[--latency-ms 500]``.

1. Unloaded: each clinician session asks one question alone, one after another (``/api/chat``,
   the stream read to its ``done``); the median is the unloaded turn.
2. Loaded, for ``--seconds``, all at once:
   - the clinicians ask question after question (a second apart), as before;
   - well-behaved MCP clients (real tokens from the sandbox) call ``get_patient_chart`` once a
     second each;
   - misbehaving clients: ``STANDING`` threads open ``GET /mcp`` event streams again and again; one
     client calls tools as fast as ``RAPID`` threads can; slow readers POST questions and MCP calls
     on raw sockets and never read the answer; stalled clients send half a body and stop;
   - ``/healthz`` is asked every half second (5 s timeout).
3. Reported: the clinicians' median and p95 turn while loaded and the ratio to the unloaded
   median; lost turns (a question that did not end with the model's answer and ``done``); every
   5xx any client saw; ``/healthz`` failures and its slowest answer; the well-behaved MCP
   clients' answers; what the misbehaving ones got (405, 429, 408, …); the refusal counters of
   ``/metrics``. The worker's limits keep the defaults' proportions for its thread count
   (``THREADS`` 16: streams 10, MCP calls 4, a client's calls 1; client I/O timeout 10 s), so the
   misbehaving clients could take every thread without them.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from contextlib import contextmanager
from pathlib import Path

import requests
from smart_docgemma import create_app

from tests.support.app_process import docgemma
from tests.support.chat_session import session_cookie
from tests.support.mcp_oauth import authorize_token, register
from tests.support.postgres import Cluster
from tests.support.servers import free_port

from .oracle import oracle_process
from .stack import bench_stack
from .workers import QUESTION

STANDING, RAPID, SLOW_READERS, STALLED, GOOD_MCP = 24, 12, 4, 2, 3
READS = "launch/patient openid fhirUser patient/*.rs"


class Seen:
    """Every answer every client got, thread-safe."""

    def __init__(self):
        self.lock = threading.Lock()
        self.statuses: dict[str, Counter] = {}
        self.times: dict[str, list[float]] = {}

    def add(self, who: str, status: int, seconds: float | None = None) -> None:
        with self.lock:
            self.statuses.setdefault(who, Counter())[status] += 1
            if seconds is not None:
                self.times.setdefault(who, []).append(seconds)

    def five_xx(self) -> dict:
        return {who: sum(n for s, n in c.items() if s >= 500) for who, c in self.statuses.items()
                if any(s >= 500 for s in c)}


def ask(url: str, session) -> tuple[int, bool, float]:
    cookies, csrf = session
    started = time.perf_counter()
    try:
        res = requests.post(f"{url}/api/chat", data={"message": QUESTION}, cookies=cookies,
                            headers={"X-CSRF-Token": csrf}, timeout=300)
    except requests.RequestException:
        return 0, False, time.perf_counter() - started
    body = res.text
    return res.status_code, res.status_code == 200 and "Answer for:" in body and "event: done" in body, \
        time.perf_counter() - started


def mcp_call(mcp_url: str, token: str, tool: str = "get_patient_chart") -> requests.Response:
    arguments = {"patient_id": "pt-warfarin"} if tool == "get_patient_chart" else {"drug_name": "warfarin"}
    return requests.post(mcp_url, timeout=120, json={"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                                                     "params": {"name": tool, "arguments": arguments}},
                         headers={"Authorization": f"Bearer {token}", "Accept": "application/json, text/event-stream"})


def raw(port: int, head: str, body: bytes, *, send_all: bool = True) -> socket.socket:
    """A request on a raw socket whose answer is never read (or whose body is never finished)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    sock.sendall(head.encode() + (body if send_all else body[: len(body) // 2]))
    return sock


def status_of(sock: socket.socket, wait_s: float) -> int:
    sock.settimeout(wait_s)
    try:
        line = sock.recv(64).split(b"\r\n", 1)[0].split()
        return int(line[1]) if len(line) > 1 else 0
    except (OSError, ValueError):
        return 0
    finally:
        sock.close()


class Load:
    """The loaded phase's clients (see module docstring); ``stop`` ends them all."""

    def __init__(self, url: str, port: int, mcp_url: str, clinicians, spare, good, rapid: str, slow: str):
        self.url, self.port, self.mcp_url = url, port, mcp_url
        self.clinicians, self.spare, self.good, self.rapid, self.slow = clinicians, spare, good, rapid, slow
        self.seen, self.stop, self.turns = Seen(), threading.Event(), []  # turns: (seconds, ended)

    def clinician(self, session) -> None:
        while not self.stop.is_set():
            status, ended, took = ask(self.url, session)
            self.seen.add("clinician", status)
            self.turns.append((took, ended))
            self.stop.wait(1)

    def good_mcp(self, token: str) -> None:
        while not self.stop.is_set():
            started = time.perf_counter()
            try:
                status = mcp_call(self.mcp_url, token).status_code
            except requests.RequestException:
                status = 0
            self.seen.add("mcp_good", status, time.perf_counter() - started)
            self.stop.wait(1)

    def standing(self) -> None:
        while not self.stop.is_set():
            try:
                with requests.get(self.mcp_url, stream=True, timeout=30, headers={
                        "Accept": "text/event-stream", "Authorization": f"Bearer {self.rapid}"}) as res:
                    self.seen.add("mcp_standing_get", res.status_code)
                    for _ in res.iter_content(1024):  # hold it open as long as the server lets it
                        pass
            except requests.RequestException:
                self.seen.add("mcp_standing_get", 0)

    def rapid_calls(self) -> None:
        while not self.stop.is_set():
            try:
                self.seen.add("mcp_rapid", mcp_call(self.mcp_url, self.rapid, "identify_drug").status_code)
            except requests.RequestException:
                self.seen.add("mcp_rapid", 0)

    def slow_reader(self, i: int) -> None:
        cookies, csrf = self.spare[i]
        cookie = "; ".join(f"{k}={v}" for k, v in cookies.items())
        form = f"message={QUESTION}".encode()
        rpc = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
            "name": "get_patient_chart", "arguments": {"patient_id": "pt-warfarin"}}}).encode()
        while not self.stop.is_set():
            chat = raw(self.port, f"POST /api/chat HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: {cookie}\r\n"
                                  f"X-CSRF-Token: {csrf}\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                                  f"Content-Length: {len(form)}\r\n\r\n", form)
            mcp = raw(self.port, f"POST /mcp HTTP/1.1\r\nHost: {self.mcp_url.split('/')[2]}\r\n"
                                 f"Authorization: Bearer {self.slow}\r\nContent-Type: application/json\r\n"
                                 f"Accept: application/json, text/event-stream\r\nContent-Length: {len(rpc)}\r\n\r\n",
                      rpc)
            self.stop.wait(15)  # never read meanwhile
            self.seen.add("slow_reader", status_of(chat, 1))
            self.seen.add("slow_reader", status_of(mcp, 1))

    def stalled(self) -> None:
        body = b'{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}'
        while not self.stop.is_set():
            sock = raw(self.port, f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                                  f"Content-Length: {len(body)}\r\n\r\n", body, send_all=False)
            self.seen.add("stalled_body", status_of(sock, 40))

    def health(self) -> None:
        while not self.stop.is_set():
            started = time.perf_counter()
            try:
                status = requests.get(f"{self.url}/healthz", timeout=5).status_code
            except requests.RequestException:
                status = 0
            self.seen.add("healthz", status, time.perf_counter() - started)
            self.stop.wait(0.5)

    def run(self, seconds: float) -> None:
        jobs = ([(self.clinician, (s,)) for s in self.clinicians] + [(self.good_mcp, (t,)) for t in self.good]
                + [(self.standing, ())] * STANDING + [(self.rapid_calls, ())] * RAPID
                + [(self.slow_reader, (i,)) for i in range(SLOW_READERS)] + [(self.stalled, ())] * STALLED
                + [(self.health, ())])
        threads = [threading.Thread(target=f, args=a, daemon=True) for f, a in jobs]
        [t.start() for t in threads]
        time.sleep(seconds)
        self.stop.set()
        [t.join(120) for t in threads]


def limits_for(threads: int) -> dict:
    """The defaults' proportions (64 threads: streams 40, MCP 16, a client 4, 8 spare) for ``threads``."""
    return {"STREAMS_PER_WORKER": threads * 5 // 8, "MCP_WORKER_CONCURRENCY": max(1, threads // 4),
            "MCP_CLIENT_CONCURRENCY": max(1, threads // 16), "CLIENT_IO_TIMEOUT_S": 10}


@contextmanager
def sandbox_process(fhir_base: str, mcp_url: str):
    """The EHR sandbox in its own process (its own GIL, as an EHR would be); yields its URL."""
    port = free_port()
    config = {"FHIR_UPSTREAM": fhir_base, "PORT": port, "PUBLIC_URL": f"http://127.0.0.1:{port}",
              "PROTECTED_RESOURCES": {mcp_url: "docgemma"}}
    code = ("import json, sys; from werkzeug.serving import run_simple; from launch.sandbox import create_sandbox; "
            f"run_simple('127.0.0.1', {port}, create_sandbox(json.loads(sys.argv[1])), threaded=True)")
    proc = subprocess.Popen([sys.executable, "-c", code, json.dumps(config)], stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                if requests.get(f"{url}/fhir/.well-known/smart-configuration", timeout=2).status_code == 200:
                    break
            except requests.RequestException:
                time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        proc.wait(10)


def run(stack, seconds: float, clinicians: int, workers: int, threads: int, latency_ms: float) -> dict:
    cluster, folder = Cluster().start(), Path(tempfile.mkdtemp(prefix="docgemma-limits-"))
    port = free_port()
    mcp_url = f"http://127.0.0.1:{port}/mcp"
    try:
        with oracle_process(latency_ms) as model_url, sandbox_process(stack.fhir_base, mcp_url) as sandbox_url:
            config = {"SECRET_KEY": "bench-limits", "DATABASE_URL": cluster.new_database(), "ENDPOINT": model_url,
                      "SCHEMA_DIALECT": "json_schema", "CHAT_RATE_PER_MIN": 1000, "CACHE_PATH": str(folder / "cache"),
                      "MCP_URL": mcp_url, "MCP_AUTHORIZATION_SERVER": f"{sandbox_url}/fhir",
                      "ISS_ALLOWLIST": [f"{sandbox_url}/fhir"], **limits_for(threads), **stack.knowledge}
            env = {k: v for k, v in os.environ.items() if not k.startswith("DOCGEMMA_")}
            env.update({f"DOCGEMMA_{k}": v if isinstance(v, str) else json.dumps(v) for k, v in config.items()})
            env.update(DOCGEMMA_PORT=str(port), DOCGEMMA_WORKERS=str(workers), DOCGEMMA_THREADS=str(threads),
                       PYTHONPATH=os.getcwd())
            command = [sys.executable, "-c", "from smart_docgemma.cli.server import main; main()"]
            with docgemma(command, env, folder) as (url, _log):
                app = create_app(config)
                sessions = [session_cookie(app, stack.fhir_base, "pt-ckd-elder") for _ in range(clinicians)]
                spare = [session_cookie(app, stack.fhir_base, "pt-ckd-elder") for _ in range(SLOW_READERS)]
                tokens = [authorize_token(sandbox_url, register(sandbox_url, f"Agent {i}"), READS, mcp_url,
                                          "pt-warfarin")["access_token"] for i in range(GOOD_MCP + 2)]
                for s in sessions:  # warm: imports, tables, pools, the token exchange
                    ask(url, s)
                [mcp_call(mcp_url, t) for t in tokens]
                alone = [ask(url, s) for s in sessions]
                assert all(ended for _, ended, _ in alone), alone
                unloaded = statistics.median(t for _, _, t in alone)
                load = Load(url, port, mcp_url, sessions, spare, tokens[:GOOD_MCP], *tokens[GOOD_MCP:])
                load.run(seconds)
                refused = _refusals(requests.get(f"{url}/metrics", timeout=30).text)
        return _report(load, unloaded, seconds, clinicians, workers, threads, latency_ms, refused)
    finally:
        cluster.stop()


def _refusals(metrics: str) -> dict:
    found = re.findall(r'^(docgemma_(?:mcp_refused|streams_refused|streams_detached)_total)(\{[^}]*\})? (\S+)$',
                       metrics, re.M)
    return {name + labels: float(value) for name, labels, value in found if float(value)}


def _report(load: Load, unloaded: float, seconds, clinicians, workers, threads, latency_ms, refused) -> dict:
    times = sorted(t for t, _ in load.turns)
    health = load.seen.times.get("healthz", [0])
    good = load.seen.times.get("mcp_good", [0])
    return {"seconds": seconds, "clinicians": clinicians, "workers": workers, "threads_per_worker": threads,
            "latency_ms_per_model_call": latency_ms, "unloaded_turn_s": round(unloaded, 3),
            "loaded_turns": len(times), "loaded_median_s": round(statistics.median(times), 3),
            "loaded_p95_s": round(times[max(0, round(0.95 * len(times)) - 1)], 3),
            "ratio_median": round(statistics.median(times) / unloaded, 2),
            "lost": sum(1 for _, ended in load.turns if not ended), "five_xx": load.seen.five_xx(),
            "healthz_failures": sum(n for s, n in load.seen.statuses.get("healthz", {}).items() if s != 200),
            "healthz_max_s": round(max(health), 3), "mcp_good_median_s": round(statistics.median(good), 3),
            "statuses": {who: dict(sorted(c.items())) for who, c in load.seen.statuses.items()},
            "metrics_refusals": refused}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.bench.limits")
    p.add_argument("--seconds", type=float, default=60)
    p.add_argument("--clinicians", type=int, default=6)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--threads", type=int, default=16)
    p.add_argument("--latency-ms", type=float, default=500.0)
    args = p.parse_args(argv)
    with bench_stack() as stack:
        print(json.dumps(run(stack, args.seconds, args.clinicians, args.workers, args.threads, args.latency_ms),
                         indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
