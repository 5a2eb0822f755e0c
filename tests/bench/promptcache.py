"""What the clinician waits with the embedded CPU model, per node: prompt tokens, tokens
computed (prompt-cache misses), time to first token, answer tokens per second — on a cold
server, a warm one, and one restarted on its saved cache.

    FHIR_UPSTREAM_URL=http://127.0.0.1:8080/fhir python -m tests.bench.promptcache \\
        [--gguf PATH] [--patients 2] [--turns 3] [--threads 2] [--cache-mb 1536] [--out FILE]

``--gguf`` defaults to ``DOCGEMMA_GGUF``, else the Gemma 3 270M test model (MedGemma's
stand-in: the same tokenizer and chat template), so a clinic measures its own machine with
``DOCGEMMA_GGUF=/models/medgemma-1.5-4b-it-Q4_K_M.gguf``.

A session is one Synthea patient of the evaluation set (``evaluation/synthea_cases.yaml``;
the population must be loaded in the FHIR server, ``docgemma-eval --synthea`` does it) with
its questions as turns, history carried as the chat carries it, through the real agent, the
real tools and the recorded knowledge sources (``EvalRun``). The server is the product's own
(``agent/embedded.py``), reached through a recording proxy that keeps each call's
``timings``. Phases, each on the same sessions:

- ``cold``: a new server with an empty prompt cache, first turn of each session;
- ``warm``: the same server, the later turns (what a clinician asking on waits);
- ``restart``: the server stopped and started on the cache it saved, the first turns again;
- ``nocache`` (``--compare``): the server without prompt cache, all turns, answers compared
  with the cached run's at temperature 0 (the cache must not change an answer).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

from smart_docgemma.agent import prompts
from smart_docgemma.agent.embedded import start_llama_server
from smart_docgemma.agent.graph import Agent
from smart_docgemma.evaluation.cases import load_cases
from smart_docgemma.evaluation.harness import EvalRun, chart_read
from tests.realmodel.recording import Exchange, RecordingProxy

from .knowledge import recorded_sources
from .realmodel import node_of

CASES = Path(__file__).resolve().parents[2] / "smart_docgemma" / "evaluation" / "synthea_cases.yaml"


def sessions(patients: int, turns: int) -> list[list]:
    """The evaluation's Synthea cases grouped by patient: ``patients`` sessions of ``turns``."""
    by_patient: dict[str, list] = defaultdict(list)
    for case in load_cases(CASES):
        if case.patient and not case.image and case.split == "tuned":
            by_patient[case.patient].append(case)
    chosen = sorted(by_patient.items())[:patients]
    return [cases[:turns] for _, cases in chosen]


def run_sessions(run: EvalRun, proxy: RecordingProxy, plan: list[list], first_only: bool = False,
                 later_only: bool = False) -> tuple[list[Exchange], list[str]]:
    """Every session's turns in order; the exchanges of the selected turns and all answers."""
    kept, answers = [], []
    for cases in plan:
        history: list[dict] = []
        ctx, tools = run.context(cases[0], run.http)
        chart = chart_read(ctx)
        for i, case in enumerate(cases):
            mark = proxy.mark()
            turn = Agent(run.model, tools, ctx).run(case.query, history=history, chart_summary=chart and chart.brief,
                                                    chart_text=chart and chart.text)
            answers.append(turn.answer or "")
            history += [{"role": "user", "content": case.query}, {"role": "assistant", "content": turn.answer}]
            if (i == 0 and not later_only) or (i > 0 and not first_only):
                kept += [e for e in proxy.since(mark) if e.timings]
            if first_only:
                break
    return kept, answers


def per_node(exchanges: list[Exchange]) -> dict:
    """Per node: calls, prompt tokens, tokens computed and their share, first-token seconds and
    answer tokens/s (medians, with the range)."""
    groups: dict[str, list[Exchange]] = defaultdict(list)
    for ex in exchanges:
        groups[node_of(ex)].append(ex)
    out = {}
    for node, items in sorted(groups.items()):
        t = [e.timings for e in items]
        prompt = [x["prompt_n"] + x["cache_n"] for x in t]
        share = [x["prompt_n"] / max(1, x["prompt_n"] + x["cache_n"]) for x in t]
        first = [x["prompt_ms"] / 1000 for x in t]
        speed = [x["predicted_n"] / (x["predicted_ms"] / 1000) for x in t if x["predicted_ms"] > 0]
        out[node] = {"calls": len(items), "prompt_tokens": _med(prompt),
                     "computed_tokens": _med([x["prompt_n"] for x in t]),
                     "computed_share": _med(share, 3), "computed_share_max": round(max(share), 3),
                     "first_token_s": _med(first, 2),
                     "first_token_s_range": [round(min(first), 2), round(max(first), 2)],
                     "tokens_per_s": _med(speed, 1) if speed else None}
    return out


def _med(values: list, digits: int = 0) -> float:
    return round(statistics.median(values), digits) if values else 0.0


def bench(args: argparse.Namespace, fhir: str) -> dict:
    plan = sessions(args.patients, args.turns)
    cache_dir = Path(args.cache_dir or tempfile.mkdtemp(prefix="docgemma-prompt-cache-"))
    result: dict = {"model": Path(args.gguf).name, "sessions": [[c.id for c in s] for s in plan],
                    "uptime": _uptime()}
    if args.temperature0:
        prompts.load("prompts")["generation"]["synthesize"]["temperature"] = 0.0
    with recorded_sources() as urls:
        answers = {}
        for phase, cache_mb in (("cached", args.cache_mb), ("restart", args.cache_mb)) + (
                (("nocache", 0),) if args.compare else ()):
            server = start_llama_server(args.gguf, n_ctx=args.n_ctx, threads=args.threads, timeout=300,
                                        alias="bench", cache_mb=cache_mb, cache_dir=str(cache_dir))
            proxy = RecordingProxy(server.endpoint).start()
            try:
                run = EvalRun(endpoint=proxy.url, fhir_base=fhir, model="bench",
                              config={**urls, "MODEL_TIMEOUT_S": 600, "MODEL_RETRIES": 0})
                run.model.dialect()  # the one-time probe, outside the figures
                if phase == "cached":
                    cold, _ = run_sessions(run, proxy, plan, first_only=True)
                    warm, answers[phase] = run_sessions(run, proxy, plan, later_only=True)
                    result["cold"], result["warm"] = per_node(cold), per_node(warm)
                elif phase == "restart":
                    again, _ = run_sessions(run, proxy, plan, first_only=True)
                    result["restart"] = per_node(again)
                else:
                    everything, answers[phase] = run_sessions(run, proxy, plan)
                    result["nocache"] = per_node(everything)
                run.close()
            finally:
                proxy.stop()
                server.stop()
        if args.compare:
            pairs = list(zip(answers["cached"], answers["nocache"], strict=True))
            result["same_answers"] = f"{sum(a == b for a, b in pairs)}/{len(pairs)}"
    result["uptime_end"] = _uptime()
    return result


def _uptime() -> str:
    with open("/proc/loadavg") as fh:
        return "load average " + " ".join(fh.read().split()[:3])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.bench.promptcache", description=__doc__.split("\n\n")[0])
    p.add_argument("--gguf", default=os.environ.get("DOCGEMMA_GGUF"))
    p.add_argument("--fhir", default=os.environ.get("FHIR_UPSTREAM_URL"))
    p.add_argument("--patients", type=int, default=2)
    p.add_argument("--turns", type=int, default=3)
    p.add_argument("--threads", type=int, default=None)
    p.add_argument("--n-ctx", type=int, default=4096)
    p.add_argument("--cache-mb", type=int, default=1536)
    p.add_argument("--cache-dir", default=None)
    p.add_argument("--compare", action="store_true", help="also run without the cache and compare answers")
    p.add_argument("--temperature0", action="store_true", help="synthesis at temperature 0 (for --compare)")
    p.add_argument("--out", default=None)
    args = p.parse_args(argv)
    if not args.fhir:
        p.error("--fhir or FHIR_UPSTREAM_URL is required (with the Synthea population loaded)")
    if not args.gguf:
        from tests.support.llama_server import gemma3_gguf

        args.gguf = str(gemma3_gguf())
    result = bench(args, args.fhir)
    text = json.dumps(result, indent=2)
    if args.out:
        Path(args.out).write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
