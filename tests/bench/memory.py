"""Resident memory of the agent process: idle and after 200 turns.

What is measured: a fresh Python process (this module run as ``python -m
tests.bench.memory``) that builds the app (``create_app``), the model client,
the tool registry and the drug dictionary exactly as a worker serving chat
does, then runs turns through the real agent. ``VmRSS`` from
``/proc/self/status`` is read (1) after imports + app creation, (2) idle and
ready (dictionary loaded, one warm-up turn), (3) after N turns; ``VmHWM`` is
the peak. The model server, HAPI and the knowledge server live in other
processes, so their memory is not counted. The chat HTTP layer is not in this
process (the Flask app is built, but turns are driven in-process).
"""
from __future__ import annotations

import argparse
import gc
import json
import subprocess
import sys

CYCLE = ("direct-01", "safety-01", "chart-01", "interact-01", "trials-01", "prescribe-01")


def status_mb(field: str = "VmRSS") -> float:
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith(field + ":"):
                return round(int(line.split()[1]) / 1024, 1)
    raise RuntimeError(f"{field} not in /proc/self/status")


def worker(argv: list[str] | None = None) -> dict:
    p = argparse.ArgumentParser()
    p.add_argument("--fhir", required=True)
    p.add_argument("--endpoint", required=True)
    p.add_argument("--knowledge", required=True, help="JSON app config for the knowledge sources")
    p.add_argument("--turns", type=int, default=200)
    args = p.parse_args(argv)
    from smart_docgemma.evaluation import load_cases
    from smart_docgemma.evaluation.harness import EvalRun
    from smart_docgemma.knowledge.mentions import written_names

    config = {**json.loads(args.knowledge), "SCHEMA_DIALECT": "json_schema"}
    out = {"imports_mb": status_mb()}
    written_names()  # the offline drug dictionary used by entity extraction
    out["drug_dictionary_mb"] = round(status_mb() - out["imports_mb"], 1)
    cases = {c.id: c for c in load_cases()}
    run = EvalRun(endpoint=args.endpoint, fhir_base=args.fhir, config=config)
    run.run(cases["direct-01"])
    gc.collect()
    out["idle_mb"] = status_mb()
    ok = 0
    for i in range(args.turns):
        ok += run.run(cases[CYCLE[i % len(CYCLE)]]).route_ok
    gc.collect()
    out.update(after_turns_mb=status_mb(), peak_mb=status_mb("VmHWM"), turns=args.turns, turns_right=ok,
               mix=list(CYCLE))
    out["growth_mb"] = round(out["after_turns_mb"] - out["idle_mb"], 1)
    return out


def rss(stack, turns: int = 200) -> dict:
    """Run the worker in a subprocess against the oracle server; its JSON report."""
    from smart_docgemma.evaluation import load_cases

    from .oracle import OracleModelServer

    with OracleModelServer(load_cases()) as srv:
        proc = subprocess.run([sys.executable, "-m", "tests.bench.memory", "--fhir", stack.fhir_base,
                               "--endpoint", srv.url, "--knowledge", json.dumps(stack.knowledge),
                               "--turns", str(turns)], capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        raise RuntimeError(f"memory worker failed: {proc.stderr[-2000:]}")
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    report["measured"] = "VmRSS of a separate agent worker process (python -m tests.bench.memory)"
    return report


def gunicorn_worker_rss(stack) -> dict:
    """Idle RSS of each ``docgemma`` gunicorn worker (2 workers on PostgreSQL) after every
    worker has answered streamed turns: what a deployment pays per worker before any load."""
    from .workers import run

    report = run(stack, turns=8, latency_ms=0.0)
    return {"idle_worker_rss_mb": report["idle_worker_rss_mb"], "workers": report["workers"],
            "measured": "VmRSS of docgemma's gunicorn workers after 10 streamed turns (tests.bench.workers)"}


if __name__ == "__main__":
    print(json.dumps(worker()))
