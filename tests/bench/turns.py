"""Agent-level measurements: model calls per route (vs the reference design), agent
overhead per turn, and concurrency of model calls.

Turns run through ``smart_docgemma.evaluation.harness.EvalRun`` — the real
agent, the real tool registry over real HAPI, write tools as proposals — with
the oracle model server (correct answers, configurable latency per call).
"""
from __future__ import annotations

import statistics
import threading
import time

from smart_docgemma.evaluation import evaluate, load_cases
from smart_docgemma.evaluation.harness import EvalRun

from .oracle import OracleModelServer, oracle_process
from .stats import summary_ms

OVERHEAD_TURNS = {"direct": "direct-01", "single_tool": "safety-01", "chart_review": "chart-01"}


def _config(stack) -> dict:
    return {**stack.knowledge, "SCHEMA_DIALECT": "json_schema"}


def model_calls(stack) -> tuple[dict, dict]:
    """Mean model calls per turn by category, ours and the reference design's budget for the same turns."""
    cases = load_cases()
    with OracleModelServer(cases) as srv:
        report = evaluate(cases, endpoint=srv.url, fhir_base=stack.fhir_base, config=_config(stack))
    ours, seed = {}, {}
    for name in report["categories"]:
        rows = [r for r in report["results"] if r["category"] == name]
        ours[name] = round(statistics.mean(r["model_calls"] for r in rows), 2)
        seed[name] = {"spec": round(statistics.mean(r["seed_budget"]["spec"] for r in rows), 2),
                      "headline": round(statistics.mean(r["seed_budget"]["headline"] for r in rows), 2)}
    ours["all"] = report["overall"]["model_calls_mean"]
    seed["all"] = {k: round(statistics.mean(r["seed_budget"][k] for r in report["results"]), 2)
                   for k in ("spec", "headline")}
    ours["cases"] = len(cases)
    ours["accuracy"] = report["overall"]["route_accuracy"]
    # The second look is promised only on write proposals and therapy-change answers: count it
    # per category and per route, so a plain question that pays for it shows up here.
    ours["second_look"] = {key: round(statistics.mean(r["calls_by_node"].get("second_look", 0) for r in rows), 2)
                           for key, rows in _groups(report["results"]).items()}
    return ours, seed


def _groups(results: list[dict]) -> dict:
    out: dict = {}
    for r in results:
        out.setdefault(f"category {r['category']}", []).append(r)
        out.setdefault(f"route {r['route']}", []).append(r)
    return out


def overhead(stack, n: int = 25) -> dict:
    """Wall − model − tool (external API) time per turn, p50/p95 ms, per kind of turn."""
    cases = {c.id: c for c in load_cases()}
    out = {}
    with OracleModelServer(list(cases.values())) as srv:
        run = EvalRun(endpoint=srv.url, fhir_base=stack.fhir_base, config=_config(stack))
        try:
            for kind, case_id in OVERHEAD_TURNS.items():
                run.run(cases[case_id])  # warm caches and connections
                rows = [run.run(cases[case_id]) for _ in range(n)]
                assert all(r.route_ok and r.tools_ok for r in rows), case_id
                over = [max(0.0, r.seconds - r.model_seconds - r.tool_seconds) for r in rows]
                out[kind] = {**summary_ms(over), "case": case_id,
                             "wall_p50": summary_ms([r.seconds for r in rows])["p50"],
                             "model_calls": rows[0].model_calls}
        finally:
            run.close()
    return out


def concurrency(stack, latency_ms: float, turns: int = 32) -> dict:
    """Wall time of ``turns`` simultaneous direct turns vs one, model latency L per call.

    The model server runs in its own process (as vLLM does), so its request
    handling does not compete with the agent for this process's GIL."""
    case = next(c for c in load_cases() if c.id == "direct-01")
    with oracle_process(latency_ms) as url:
        run = EvalRun(endpoint=url, fhir_base=stack.fhir_base, config=_config(stack))
        try:
            run.run(case)
            single = statistics.median(_wall(run, case, 1) for _ in range(3))
            many = _wall(run, case, turns)
        finally:
            run.close()
    return {"ratio": round(many / single, 3), "one_turn_s": round(single, 3),
            f"{turns}_turns_s": round(many, 3), "turns": turns, "latency_ms_per_call": latency_ms,
            "model_calls_per_turn": 2}


def _wall(run: EvalRun, case, count: int) -> float:
    results, barrier = [], threading.Barrier(count)

    def one():
        barrier.wait()
        results.append(run.run(case))

    threads = [threading.Thread(target=one) for _ in range(count)]
    started = time.perf_counter()
    [t.start() for t in threads]
    [t.join() for t in threads]
    wall = time.perf_counter() - started
    assert len(results) == count and all(r.route_ok for r in results), "a concurrent turn failed"
    return wall
