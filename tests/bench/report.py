"""The Markdown table of a benchmark run, and the optional real-model step.

``realmodel`` runs only when ``tests/bench/realmodel.py`` exists:
it starts the small llama.cpp model (``tests.support.llama_server``) and calls
that module's ``measure_nodes(endpoint)``; any failure is reported in the JSON
instead of stopping the benchmark.
"""
from __future__ import annotations

import importlib.util
import sys


def realmodel() -> dict | None:
    if importlib.util.find_spec("tests.bench.realmodel") is None:
        return None
    try:
        from tests.support.llama_server import small_model

        from .realmodel import measure_nodes

        with small_model(n_ctx=2048, threads=1) as model:
            return measure_nodes(model.endpoint)
    except Exception as exc:  # an optional measurement: say why it is missing
        print(f"[bench] realmodel skipped: {exc}", file=sys.stderr)
        return {"error": f"{type(exc).__name__}: {exc}"[:400]}


def _ms(d: dict) -> str:
    return f"{d['p50']:.1f} / {d['p95']:.1f}"


def markdown(r: dict) -> str:
    calls, seed = r["llm_calls"], r["seed_llm_calls"]
    rows = [("| measurement | result | reference design / baseline |"), "|---|---|---|"]
    for cat in [k for k in calls if k not in ("cases", "accuracy", "second_look")]:
        rows.append(f"| model calls per turn — {cat} | {calls[cat]:.2f} | "
                    f"{seed[cat]['spec']:.2f} (as specified) / {seed[cat]['headline']:.2f} (headline count) |")
    looks = calls.get("second_look", {})
    if looks:
        rows.append("| second-look calls per turn | " + ", ".join(
            f"{k} {v:.2f}" for k, v in sorted(looks.items())) + " | only proposals and therapy changes |")
    for kind, d in r["overhead_ms"].items():
        rows.append(f"| agent overhead per turn — {kind}, p50 / p95 ms | {_ms(d)} | wall p50 {d['wall_p50']:.1f} ms |")
    rows.append(f"| HAPI one search (the floor), p50 / p95 ms | {_ms(r['hapi_search_ms'])} | |")
    for patient, par in r["prefetch_parallel_ms"]["by_patient"].items():
        seq = r["prefetch_sequential_ms"]["by_patient"][patient]
        rows.append(f"| chart prefetch {patient}, p50 / p95 ms | parallel {_ms(par)} | sequential {_ms(seq)} |")
    c = r["concurrency_ratio"]
    rows.append(f"| {c['turns']} simultaneous turns / one turn (L = {c['latency_ms_per_call']:.0f} ms per call) | "
                f"{c['ratio']:.2f} ({c[str(c['turns']) + '_turns_s']:.2f} s vs {c['one_turn_s']:.2f} s) "
                "| 32 if serialised |")
    for hook, d in r["cds_ms"].items():
        rows.append(f"| CDS Hooks {hook}, p50 / p95 ms | {_ms(d)} | {d['cards']} cards |")
    m = r["rss_mb"]
    rows.append(f"| agent process RSS idle → after {m['turns']} turns (peak) | "
                f"{m['idle_mb']:.0f} → {m['after_turns_mb']:.0f} MB ({m['peak_mb']:.0f} MB) "
                f"| imports {m['imports_mb']:.0f} MB; drug dictionary +{m['drug_dictionary_mb']:.0f} MB |")
    rows += _realmodel_rows(r.get("realmodel"))
    return "\n".join(rows)


def _realmodel_rows(rm: dict | None) -> list[str]:
    """Per-node latency of the small real model, when it ran."""
    if not rm:
        return []
    if "nodes" not in rm:
        return [f"| small real model | not measured: {rm.get('error', 'no data')[:80]} | |"]
    rows = [f"| real model {rm.get('model', '?')} — {node}, p50 ms | {d['p50_ms']:.0f} | "
            f"{d['calls']} calls, {d['completion_tokens_mean']:.0f} completion tokens |"
            for node, d in rm["nodes"].items()]
    speed = rm.get("speed") or {}
    if speed:
        rows.append(f"| real model tokens/s (prompt / generation) | {speed['prompt_tok_per_s']:.1f} / "
                    f"{speed['generation_tok_per_s']:.1f} | |")
    return rows
