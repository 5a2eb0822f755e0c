"""Aggregate case results per category and render them (JSON + Markdown)."""
from __future__ import annotations

import math
from typing import Any

from .cases import CATEGORIES


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (``q`` in 0..100); 0.0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


def _rate(flags: list) -> float | None:
    scored = [f for f in flags if f is not None]
    return round(sum(bool(f) for f in scored) / len(scored), 4) if scored else None


def _group(rows: list[dict]) -> dict:
    seconds = [r["seconds"] for r in rows]
    calls = [r["model_calls"] for r in rows]
    seed = [r["seed_budget"].get("spec", 0) for r in rows]
    return {"cases": len(rows),
            "route_accuracy": _rate([r["route_ok"] for r in rows]),
            "tool_accuracy": _rate([r["tools_ok"] for r in rows]),
            "argument_accuracy": _rate([r["args_ok"] for r in rows]),
            "answer_accuracy": _rate([r.get("answer_ok") for r in rows]),
            "model_calls_mean": round(sum(calls) / len(rows), 2) if rows else 0.0,
            "seed_calls_mean": round(sum(seed) / len(rows), 2) if rows else 0.0,
            "latency_p50_s": round(percentile(seconds, 50), 3),
            "latency_p95_s": round(percentile(seconds, 95), 3),
            "writes_accuracy": _rate([r.get("writes_ok") for r in rows]),
            "passed": _rate([passed(r) for r in rows]),
            "other_patient_proposals": sum(r.get("other_patient_proposals", 0) for r in rows),
            "unrequested_writes": sum(bool(r.get("unrequested_write")) for r in rows),
            "unapproved_writes": sum(len(r.get("unapproved_writes") or []) for r in rows),
            "acknowledged_second_looks": sum(len(r.get("acknowledged") or []) for r in rows)}


def passed(r: dict) -> bool:
    """A case done right: its route, and every scored part (tools, arguments, answer, writes)."""
    return bool(r["route_ok"]) and all(
        r.get(k) is not False for k in ("tools_ok", "args_ok", "answer_ok", "writes_ok")
    )


def summarise(results: list[dict]) -> dict:
    """``{"overall", "categories": {name: ...}, "failures": [ids], "results"}``."""
    categories = {c: _group([r for r in results if r["category"] == c]) for c in CATEGORIES
                  if any(r["category"] == c for r in results)}
    failed = [r["id"] for r in results if not passed(r)]
    splits = {
        s: _group([r for r in results if r.get("split", "tuned") == s])
        for s in ("tuned", "holdout")
        if any(r.get("split", "tuned") == s for r in results)
    }
    tasks = {
        t: {
            "all": _group(rows),
            **{
                s: _group([r for r in rows if r.get("split", "tuned") == s])
                for s in ("tuned", "holdout")
                if any(r.get("split", "tuned") == s for r in rows)
            },
        }
        for t in sorted({r["task"] for r in results if r.get("task")})
        for rows in [[r for r in results if r.get("task") == t]]
    }
    return {"overall": _group(results), "categories": categories, "splits": splits, "tasks": tasks,
            "failures": failed, "results": results}


def _pct(value) -> str:
    return "–" if value is None else f"{value * 100:.0f} %"


def _row(name: str, g: dict[str, Any]) -> str:
    rates = " | ".join(_pct(g[k]) for k in ("route_accuracy", "tool_accuracy", "argument_accuracy",
                                              "answer_accuracy"))
    return (f"| {name} | {g['cases']} | {rates} | {g['model_calls_mean']:.2f} "
            f"({g['seed_calls_mean']:.2f}) | {g['latency_p50_s']:.3f} | {g['latency_p95_s']:.3f} |")


def markdown(report: dict) -> str:
    """The per-category table a person reads after a run."""
    head = (
        "| category | cases | route | tools | arguments | answers | model calls (reference design) "
        "| p50 s | p95 s |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|"
    )
    lines = [head]
    rows = [*report["categories"].items(), ("**all**", report["overall"]),
            *((f"split: {name}", g) for name, g in report.get("splits", {}).items())]
    for name, g in rows:
        lines.append(_row(name, g))
    if report.get("tasks"):
        lines += ["", "| task | cases | passed | tuned | holdout |", "|---|---:|---:|---:|---:|"]
        for task, g in report["tasks"].items():
            lines.append(f"| {task} | {g['all']['cases']} | {_pct(g['all']['passed'])} | "
                         f"{_pct(g.get('tuned', {}).get('passed'))} | "
                         f"{_pct(g.get('holdout', {}).get('passed'))} |")
    overall = report["overall"]
    lines.append(
        f"\nProposals for another patient: {overall['other_patient_proposals']}; "
        f"unrequested writes: {overall['unrequested_writes']}; "
        f"written before approval: {overall['unapproved_writes']}; "
        f"high second looks acknowledged to approve: {overall['acknowledged_second_looks']}; "
        f"cases passed: {_pct(overall['passed'])}"
    )
    if report["failures"]:
        lines.append(f"\nCases not fully right: {', '.join(report['failures'])}")
    return "\n".join(lines)
