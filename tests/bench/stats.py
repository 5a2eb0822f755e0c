"""Small timing helpers shared by the benchmark modules."""
from __future__ import annotations

import time
from collections.abc import Callable

from smart_docgemma.evaluation.report import percentile


def summary_ms(samples_s: list[float]) -> dict:
    """p50/p95/mean/n of samples given in seconds, reported in milliseconds."""
    ms = [s * 1000 for s in samples_s]
    return {"p50": round(percentile(ms, 50), 2), "p95": round(percentile(ms, 95), 2),
            "mean": round(sum(ms) / len(ms), 2) if ms else 0.0, "n": len(ms)}


def timed(fn: Callable, n: int, warmup: int = 1) -> list[float]:
    """Seconds for ``n`` calls of ``fn`` after ``warmup`` untimed ones."""
    for _ in range(warmup):
        fn()
    out = []
    for _ in range(n):
        started = time.perf_counter()
        fn()
        out.append(time.perf_counter() - started)
    return out
