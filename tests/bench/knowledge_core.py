"""Knowledge core speed and memory: ``python -m tests.bench.knowledge_core``.

(1) Checking a 10-drug medication list against 2 allergies offline — every drug
identified from its RxNorm name, pairwise interactions and allergy conflicts — p50/p95
over repeated runs after one cold run (caches warm, as in a worker). Goal ≤ 5 ms p95.
(1b) The same 10 drugs as orders through ``order_findings`` (each against the other nine, with its
RxNorm-strength dose, an eGFR of 28 and age 78: reconciled interactions, three-drug rules, dose,
kidney and age limits), p50/p95 of the whole list after one cold run. Goal ≤ 5 ms p95.
(2) Resident memory of a fresh process that imports the app (``create_app``) and calls
``identify`` (the interaction data is SQLite opened read-only and paged in on demand).
Goal: the whole worker ≤ 200 MB idle.
"""
from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time

MEDS = ["warfarin sodium 5 MG Oral Tablet", "ketorolac tromethamine 10 MG Oral Tablet",
        "sulfamethoxazole 800 MG / trimethoprim 160 MG Oral Tablet", "lisinopril 10 MG Oral Tablet",
        "metformin hydrochloride 500 MG Oral Tablet", "atorvastatin calcium 40 MG Oral Tablet",
        "amoxicillin 875 MG / clavulanate potassium 125 MG Oral Tablet", "sertraline 50 MG Oral Tablet",
        "omeprazole 20 MG Delayed Release Oral Capsule", "amlodipine besylate 5 MG Oral Tablet"]
ALLERGIES = [("Penicillin", "high", "anaphylaxis"), ("Sulfa drugs", "low", "rash")]
RSS_SNIPPET = ("from smart_docgemma import create_app; create_app(); import smart_docgemma.knowledge as k; "
               "assert k.identify(text='warfarin sodium 5 MG Oral Tablet').identified; "
               "print([l.split()[1] for l in open('/proc/self/status') if l.startswith('VmRSS')][0])")


def check_once(k) -> int:
    drugs = [k.identify(text=m) for m in MEDS]
    names = [n for d in drugs for n in d.names]
    found = k.interactions(names)
    return len(found) + sum(len(k.allergy_conflicts(s, d, c, r)) for s, c, r in ALLERGIES for d in drugs)


def orders_once(k) -> int:
    from datetime import date

    generics = [k.generic(m) for m in MEDS]
    doses = {g: k.dose_of(text="1 tablet twice a day", product=m) for g, m in zip(generics, MEDS, strict=False)}
    renal = k.Renal(28, "eGFR", date(2026, 11, 1))
    return sum(len(k.order_findings(g, doses[g], [o for o in generics if o != g], renal, 78, doses))
               for g in generics)


def order_timing(runs: int = 200) -> dict:
    import smart_docgemma.knowledge as k

    started = time.perf_counter()
    found = orders_once(k)
    cold = (time.perf_counter() - started) * 1000
    times, cpu = [], []
    for _ in range(runs):
        started, started_cpu = time.perf_counter(), time.thread_time()
        orders_once(k)
        times.append((time.perf_counter() - started) * 1000)
        cpu.append((time.thread_time() - started_cpu) * 1000)  # this thread's CPU: without preemption
    times.sort()
    cpu.sort()
    return {"order_findings": found, "order_cold_ms": round(cold, 1),
            "order_p50_ms": round(statistics.median(times), 3), "order_p95_ms": round(times[int(0.95 * runs) - 1], 3),
            "order_cpu_p95_ms": round(cpu[int(0.95 * runs) - 1], 3)}


def timing(runs: int = 200) -> dict:
    import smart_docgemma.knowledge as k

    started = time.perf_counter()
    found = check_once(k)
    cold = (time.perf_counter() - started) * 1000
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        check_once(k)
        times.append((time.perf_counter() - started) * 1000)
    times.sort()
    return {"findings": found, "runs": runs, "cold_ms": round(cold, 1), "p50_ms": round(statistics.median(times), 3),
            "p95_ms": round(times[int(0.95 * runs) - 1], 3)}


def rss_mb() -> dict:
    kb = subprocess.run([sys.executable, "-c", RSS_SNIPPET], capture_output=True, text=True, check=True).stdout
    return {"rss_mb_app_plus_identify": round(int(kb.split()[-1]) / 1024, 1)}


def main() -> None:
    print(json.dumps({**timing(), **order_timing(), **rss_mb()}, indent=1))


if __name__ == "__main__":
    main()
