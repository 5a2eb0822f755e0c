"""``python -m tests.bench [--out bench.json] [--latency-ms 250] [--quick]``

Starts HAPI FHIR (``launch.upstream``; ``FHIR_UPSTREAM_URL`` to reuse one),
loads the fixtures, serves the knowledge sources from recorded bodies, runs
the oracle model server with the given latency per call, and measures model
calls per turn (vs the reference design), agent overhead, HAPI's search floor, chart
prefetch parallel vs sequential, concurrency, CDS Hooks latency and process
memory (module docstrings say exactly what each measures). Prints a Markdown
table and writes the JSON report.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

from . import cds, fhir, memory, turns, workers
from .report import markdown, realmodel
from .stack import bench_stack


def parse_args(argv):
    p = argparse.ArgumentParser(prog="python -m tests.bench", description=__doc__.split("\n\n")[0])
    p.add_argument("--out", default="bench.json")
    p.add_argument("--latency-ms", type=float, default=500.0, help="model latency per call (concurrency)")
    p.add_argument("--turns", type=int, default=200, help="turns for the memory measurement")
    p.add_argument("--quick", action="store_true", help="fewer samples (a smoke run)")
    p.add_argument("--no-realmodel", action="store_true", help="skip the small real-model measurement")
    return p.parse_args(argv)


def run(args) -> dict:
    n = 8 if args.quick else 25
    started = time.perf_counter()
    with bench_stack() as stack:
        result = {"machine": _machine(), "fhir": {"kind": stack.fhir_kind, "start_s": stack.fhir_start_s}}
        steps = [
            ("llm_calls", lambda: turns.model_calls(stack)),
            ("overhead_ms", lambda: turns.overhead(stack, n=n)),
            ("hapi_search_ms", lambda: fhir.hapi_search(stack.fhir_base, n=n + 5)),
            ("prefetch", lambda: fhir.prefetch(stack.fhir_base, n=max(5, n // 2))),
            ("concurrency_ratio", lambda: turns.concurrency(stack, args.latency_ms)),
            ("cds_ms", lambda: cds.cds_latency(stack, n=n + 5)),
            ("rss_mb", lambda: memory.rss(stack, turns=args.turns)),
            ("gunicorn_rss_mb", lambda: memory.gunicorn_worker_rss(stack)),
            ("gunicorn_concurrency", lambda: workers.run(stack, turns=64, latency_ms=args.latency_ms)),
        ]
        for key, step in steps:
            t0 = time.perf_counter()
            value = step()
            print(f"[bench] {key}: {time.perf_counter() - t0:.1f} s", file=sys.stderr)
            if key == "llm_calls":
                result["llm_calls"], result["seed_llm_calls"] = value
            elif key == "prefetch":
                result["prefetch_parallel_ms"], result["prefetch_sequential_ms"] = value
            else:
                result[key] = value
        if not args.no_realmodel:
            found = realmodel()
            if found is not None:
                result["realmodel"] = found
    result["bench_seconds"] = round(time.perf_counter() - started, 1)
    return result


def _machine() -> dict:
    mem_kb = next(int(line.split()[1]) for line in open("/proc/meminfo") if line.startswith("MemTotal"))
    return {"cpus": os.cpu_count(), "memory_gb": round(mem_kb / 1024 / 1024, 1),
            "python": platform.python_version(), "platform": platform.platform()}


def main(argv=None) -> int:
    args = parse_args(argv)
    result = run(args)
    Path(args.out).write_text(json.dumps(result, indent=2))
    print(markdown(result))
    print(f"\nwritten to {args.out} in {result['bench_seconds']} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
