"""What the clinician waits with the embedded CPU model, per node: prompt tokens, tokens
computed (prompt-cache misses), time to first token, answer tokens per second — on a cold
server, a warm one, and one restarted on its saved cache.

    FHIR_UPSTREAM_URL=http://127.0.0.1:8080/fhir python -m tests.bench.promptcache \\
        [--gguf PATH] [--patients 2] [--turns 3] [--threads 2] [--cache-mb 1536] [--out FILE]
        [--split holdout] [--compare --temperature0] [--no-next-turn]

``--gguf`` defaults to ``DOCGEMMA_GGUF``, else the Gemma 3 270M test model (MedGemma's
stand-in: the same tokenizer and chat template), so a clinic measures its own machine with
``DOCGEMMA_GGUF=/models/medgemma-1.5-4b-it-Q4_K_M.gguf``.

A session is one Synthea patient of the evaluation set (``evaluation/synthea_cases.yaml``;
the population must be loaded in the FHIR server, ``docgemma-eval --synthea`` does it) with
its chart questions as turns and, with ``--direct N`` (default 1), N of the evaluation's
general questions (``cases.yaml``, route ``direct``) between them, which the model routes
(INTENT_CLASSIFY) — the chart questions are routed by code, so only SYNTHESIZE calls the model
for them. History is carried as the chat carries it, the chart read once per session as the
chat reads it, through the real agent, the real tools and the recorded knowledge sources
(``EvalRun``). The server is the product's own
(``modelserver/embedded.py``), reached through a recording proxy that keeps each call's
``timings``. Phases, each on the same sessions:

- ``cold``: a new server with an empty prompt cache, first turn of each session;
- ``warm``: the same server, the later turns of the same sessions, asked on (what a clinician
  asking on waits): each node's calls after its first in the session; a node's first call on
  a later turn (a general question after chart questions) is ``first_call``;
- ``restart``: the server stopped and started on the cache it saved, the first turns again;
- ``opened``: a new server with an empty cache, the first turns again, each after the answer
  prompt's fixed part was computed as opening the assistant does (``web/prefill.py``);
- ``nocache`` (``--compare``): the same server computing every prompt whole (nothing reused),
  all turns, answers compared with the cached run's at temperature 0 (the cache must not change
  an answer).
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
from smart_docgemma.agent.graph import Agent
from smart_docgemma.agent.synthesis import opening_prompt
from smart_docgemma.agent.window import context_size
from smart_docgemma.evaluation.cases import load_cases
from smart_docgemma.evaluation.harness import EvalRun, chart_read
from smart_docgemma.modelserver.embedded import start_llama_server

from tests.realmodel.recording import Exchange, RecordingProxy

from .knowledge import recorded_sources
from .realmodel import node_of

EVALUATION = Path(__file__).resolve().parents[2] / "smart_docgemma" / "evaluation"
CASES = EVALUATION / "synthea_cases.yaml"


def sessions(patients: int, turns: int, direct: int = 0, split: str = "tuned") -> list[list]:
    """The evaluation's Synthea cases grouped by patient: ``patients`` sessions of ``turns``
    chart questions, with ``direct`` general questions (a different few each session) after the
    first ones; ``split`` "holdout" takes the questions never tuned on (theirs and the general
    ones from the end of the set)."""
    by_patient: dict[str, list] = defaultdict(list)
    for case in load_cases(CASES):
        if case.patient and not case.image and case.split == split:
            by_patient[case.patient].append(case)
    general = [c for c in load_cases(EVALUATION / "cases.yaml") if c.route == "direct" and not c.image]
    if split == "holdout":
        general.reverse()
    plan = []
    for n, (_, cases) in enumerate(sorted(by_patient.items())[:patients]):
        asked = general[n * direct:(n + 1) * direct]
        chart = cases[:turns]
        plan.append(chart[:1] + [q for pair in zip(asked, chart[1:], strict=False) for q in pair]
                    + asked[len(chart) - 1:] + chart[1 + len(asked):])
    return plan


def run_sessions(run: EvalRun, proxy: RecordingProxy, plan: list[list], first_only: bool = False,
                 opened: bool = False, next_turn: bool = False) -> tuple[list[Exchange], ...]:
    """Every session's turns in order (``first_only``: the first turns only): the model calls of
    the first turns, the calls of a node it already made in the session (warm: its prompt
    continues that one), a node's first call on a later turn (nothing of the session before it),
    the prefills after each answer, and every answer. ``opened``: the answer prompt's fixed part
    computed first, as opening the assistant does; ``next_turn``: after each answer the next
    turn's prompts computed (``Agent.next_prompts``), as the chat does while the clinician reads
    (``web/prefill.py``)."""
    first, later, new_node, prefills, answers = [], [], [], [], []
    for cases in plan:
        history: list[dict] = []
        ctx, tools = run.context(cases[0], run.http)
        chart = chart_read(ctx)
        opening = opening_prompt(chart.text, run.model) if opened and chart is not None else None
        if opening is not None:
            run.model.prefill("synthesize", opening)
        called: set[str] = set()
        for i, case in enumerate(cases[:1] if first_only else cases):
            mark = proxy.mark()
            agent = Agent(run.model, tools, ctx)
            turn = agent.run(case.query, history=history, chart_summary=chart and chart.brief,
                             chart_text=chart and chart.text,
                             chart=chart.in_context if chart else None)
            answers.append(turn.answer or "")
            asked = {"asked": turn.state.asked} if turn.state.asked else {}  # as the chat's turn store keeps it
            history += [{"role": "user", "content": case.query, **asked}, {"role": "assistant", "content": turn.answer}]
            for e in (e for e in proxy.since(mark) if e.timings):
                (first if not i else later if node_of(e) in called else new_node).append(e)
                called.add(node_of(e))
            if next_turn:
                for node, messages in agent.next_prompts(history, chart_summary=chart and chart.brief,
                                                         chart_text=chart and chart.text,
                             chart=chart.in_context if chart else None):
                    mark = proxy.mark()
                    run.model.prefill(node, messages)
                    prefills += [(node, e) for e in proxy.since(mark) if e.timings]
    return first, later, new_node, prefills, answers


def per_node(exchanges: list[Exchange] | list[tuple[str, Exchange]]) -> dict:
    """Per node (``node_of``, or named with each exchange): calls, prompt tokens, tokens computed
    and their share, first-token seconds and answer tokens/s (medians, with the range)."""
    groups: dict[str, list[Exchange]] = defaultdict(list)
    for item in exchanges:
        node, ex = item if isinstance(item, tuple) else (node_of(item), item)
        groups[node].append(ex)
    out = {}
    for node, items in sorted(groups.items()):
        t = [e.timings for e in items]
        prompt = [x["prompt_n"] + x["cache_n"] for x in t]
        share = [x["prompt_n"] / max(1, x["prompt_n"] + x["cache_n"]) for x in t]
        first = [x["prompt_ms"] / 1000 for x in t]
        speed = [x["predicted_n"] / (x["predicted_ms"] / 1000) for x in t
                 if x["predicted_n"] > 1 and x["predicted_ms"] > 0]  # a prefill's one token says nothing
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
    plan = sessions(args.patients, args.turns, args.direct, args.split)
    cache_dir = Path(args.cache_dir or tempfile.mkdtemp(prefix="docgemma-prompt-cache-"))
    result: dict = {"model": Path(args.gguf).name, "sessions": [[c.id for c in s] for s in plan],
                    "uptime": _uptime()}
    if args.temperature0:
        prompts.load("prompts")["generation"]["synthesize"]["temperature"] = 0.0
    with recorded_sources() as urls:
        answers = {}
        for phase in ("cached", "restart", "opened") + (("nocache",) if args.compare else ()):
            folder = cache_dir / phase if phase in ("opened", "nocache") else cache_dir  # an empty cache
            server = start_llama_server(args.gguf, n_ctx=args.n_ctx, threads=args.threads, timeout=300,
                                        alias="bench", cache_mb=args.cache_mb, cache_dir=str(folder),
                                        whole=phase == "nocache")
            proxy = RecordingProxy(server.endpoint).start()
            try:
                run = EvalRun(endpoint=proxy.url, fhir_base=fhir, model="bench",
                              config={**urls, "MODEL_TIMEOUT_S": 600, "MODEL_RETRIES": 0,
                                      "MODEL_CONTEXT_TOKENS": args.n_ctx})
                run.model.dialect()  # the one-time probe, outside the figures
                if phase == "cached":
                    cold, warm, new_node, prefills, answers[phase] = run_sessions(run, proxy, plan,
                                                                                  next_turn=args.next_turn)
                    result["cold"], result["warm"] = per_node(cold), per_node(warm)
                    result["first_call"], result["next_turn"] = per_node(new_node), per_node(prefills)
                elif phase in ("restart", "opened"):
                    again, *_ = run_sessions(run, proxy, plan, first_only=True, opened=phase == "opened")
                    result[phase] = per_node(again)
                else:
                    first, later, new_node, _, answers[phase] = run_sessions(run, proxy, plan)
                    result[phase] = per_node(first + later + new_node)
                run.close()
            finally:
                proxy.stop()
                server.stop()
        if args.compare:
            pairs = list(zip(answers["cached"], answers["nocache"], strict=True))
            result["same_answers"] = f"{sum(a == b for a, b in pairs)}/{len(pairs)}"
            ids = [c.id for cases in plan for c in cases]
            result["different_answers"] = [i for i, (a, b) in zip(ids, pairs, strict=True) if a != b]
            result["answers"] = {i: {"cached": a[:400], "nocache": b[:400]}
                                 for i, (a, b) in zip(ids, pairs, strict=True)}
    result["uptime_end"] = _uptime()
    result["warm_vs_cold"] = {node: round(v["first_token_s"] / result["cold"][node]["first_token_s"], 3)
                              for node, v in result["warm"].items()
                              if result["cold"].get(node, {}).get("first_token_s")}
    return result


def table(result: dict) -> str:
    """The figures as docs/operations.md shows them."""
    rows = ["| node | phase | calls | prompt tokens | computed | computed share (max) | first token s | answer tok/s |",
            "|---|---|---|---|---|---|---|---|"]
    for phase in ("cold", "warm", "first_call", "next_turn", "restart", "opened", "nocache"):
        for node, v in (result.get(phase) or {}).items():
            low, high = v["first_token_s_range"]
            rows.append(f"| {node} | {phase} | {v['calls']} | {v['prompt_tokens']:.0f} | {v['computed_tokens']:.0f} "
                        f"| {v['computed_share']:.2f} ({v['computed_share_max']:.2f}) | {v['first_token_s']} "
                        f"[{low}–{high}] | {v['tokens_per_s']} |")
    ratios = ", ".join(f"{node} {r:.2f}×" for node, r in result.get("warm_vs_cold", {}).items())
    rows.append(f"\nWarm first token ÷ cold (medians): {ratios}.")
    if "same_answers" in result:
        different = ", ".join(result["different_answers"])
        rows.append(f"Same answers with and without the cache (temperature 0): {result['same_answers']}"
                    + (f"; different: {different}." if different else "."))
    return "\n".join(rows)


def _uptime() -> str:
    with open("/proc/loadavg") as fh:
        return "load average " + " ".join(fh.read().split()[:3])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.bench.promptcache", description=__doc__.split("\n\n")[0])
    p.add_argument("--gguf", default=os.environ.get("DOCGEMMA_GGUF"))
    p.add_argument("--fhir", default=os.environ.get("FHIR_UPSTREAM_URL"))
    p.add_argument("--patients", type=int, default=2)
    p.add_argument("--turns", type=int, default=3, help="chart questions per session")
    p.add_argument("--direct", type=int, default=1, help="general questions per session, between them")
    p.add_argument("--threads", type=int, default=None)
    p.add_argument("--n-ctx", type=int, default=context_size(None), help="default: the product's (prompts.yaml)")
    p.add_argument("--cache-mb", type=int, default=1536)
    p.add_argument("--cache-dir", default=None)
    p.add_argument("--split", default="tuned", choices=("tuned", "holdout"),
                   help="the Synthea questions: those tuned on, or those held out")
    p.add_argument("--compare", action="store_true", help="also run without the cache and compare answers")
    p.add_argument("--no-next-turn", dest="next_turn", action="store_false",
                   help="no prefill of the next turn's prompts after each answer (the chat does it)")
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
    print(table(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
