"""Per-node model latency and tokens on a real small model.

``measure_nodes(endpoint)`` drives a few whole agent turns against an
OpenAI-compatible llama.cpp server (the bench starts SmolLM2-135M through
``tests/support/llama_server.small_model``) with fixed in-process tools, so
only model time varies. A recording proxy attributes every HTTP call to its
node by the schema it asked for and keeps wall time and token counts. It also
measures raw prompt-eval and generation speed (tokens/s) without a grammar.
"""
from __future__ import annotations

import statistics
import time
import uuid

import requests
from smart_docgemma.agent.graph import Agent
from smart_docgemma.agent.model import ModelClient
from smart_docgemma.tools.base import Source, Tool, ToolContext, ToolResult
from smart_docgemma.tools.catalog import spec, specs

from tests.realmodel.recording import Exchange, RecordingProxy

TURNS = {
    "direct": "Hello, what is hypertension?",
    "single_tool": "What are the FDA label warnings for warfarin?",
    "multi_tool": "Review the chart and check interactions between warfarin and aspirin",
    "model_selected": "Check the FDA label warnings for warfarin and find studies on warfarin bleeding",
    "write": "Prescribe metformin 500 mg twice daily",
}
FIXED = {  # one plausible result per tool: text is what the model reads
    "get_patient_chart": "Patient 58 y F. Conditions: atrial fibrillation, hypertension. "
                         "Medications: warfarin 5 mg daily, lisinopril 10 mg daily. INR 2.4 (2026-11-01).",
    "check_drug_safety": "Boxed warning: bleeding risk. Contraindicated in pregnancy. Monitor INR.",
    "check_drug_interactions": "warfarin + aspirin: increased bleeding risk (major). Avoid or monitor closely.",
    "search_medical_literature": "3 articles: PMID 1 (bleeding on warfarin, 2021); PMID 2; PMID 3.",
}
NODE_OF = {"IntentClassification": "intent_classify", "ToolSelection": "tool_select",
           "ResultAssessment": "result_classify", "RetryStrategy": "retry_strategy",
           "ImageFindings": "vision"}


def _fixed_tool(name: str) -> Tool:
    def run(args, ctx):
        if name == "prescribe_medication":
            return ToolResult(status="proposal", text="Prescription prepared for approval.",
                              proposal_id=uuid.uuid4().hex)
        if name not in FIXED:
            return ToolResult(status="empty", text="Nothing found.", count=0)
        return ToolResult(status="ok", text=FIXED[name], sources=[Source("fixed", "https://example.org")])

    return Tool(spec(name), run=run)


def node_of(ex: Exchange) -> str:
    if ex.stream:
        return "synthesize"
    name = ex.schema_name
    return NODE_OF.get(name) or ("tool_args" if name.endswith("Args") else name or "text")


def measure_nodes(endpoint: str, repeats: int = 1) -> dict:
    """``{"nodes": {node: {calls, p50_ms, mean_ms, prompt_tokens, completion_tokens}},
    "turns": {name: {seconds, model_calls}}, "speed": {...}}``."""
    proxy = RecordingProxy(endpoint).start()
    try:
        model_name = requests.get(f"{endpoint.rstrip('/')}/models", timeout=10).json()["data"][0]["id"]
        client = ModelClient(proxy.url, model=model_name, dialect="auto", timeout=300, retries=1)
        client.dialect()  # the one-time probe, outside the per-node figures
        tools = {name: _fixed_tool(name) for name in specs() if name != "analyze_medical_image"}
        agent = Agent(client, tools, ToolContext(patient_id="pt-bench", scopes=None))
        mark, turns = proxy.mark(), {}
        for name, message in TURNS.items():
            for _ in range(repeats):
                started = time.monotonic()
                turn = agent.run(message)
                turns[name] = {"seconds": round(time.monotonic() - started, 2),
                               "model_calls": turn.model_calls, "nodes": turn.nodes}
        nodes = _by_node(proxy.since(mark))
    finally:
        proxy.stop()
    return {"model": model_name, "dialect": client.dialect(), "nodes": nodes, "turns": turns,
            "speed": speed(endpoint, model_name)}


def _by_node(exchanges: list[Exchange]) -> dict:
    groups: dict[str, list[Exchange]] = {}
    for ex in exchanges:
        groups.setdefault(node_of(ex), []).append(ex)
    out = {}
    for node, items in groups.items():
        ms = [e.seconds * 1000 for e in items]
        completion = [e.usage.get("completion_tokens", e.chunks) if e.usage else e.chunks for e in items]
        out[node] = {"calls": len(items), "p50_ms": round(statistics.median(ms), 1),
                     "mean_ms": round(statistics.mean(ms), 1),
                     "prompt_tokens_mean": round(statistics.mean(e.usage.get("prompt_tokens", 0)
                                                                 for e in items), 1),
                     "completion_tokens_mean": round(statistics.mean(completion), 1),
                     "truncated": sum(1 for e in items if e.finish_reason == "length")}
    return out


def speed(endpoint: str, model: str) -> dict:
    """Raw tokens/s, no grammar: prompt eval (a fresh ~400-token prompt, 1 output token)
    and generation (short prompt, 128 tokens)."""
    url = f"{endpoint.rstrip('/')}/chat/completions"
    filler = " ".join(f"item{i} is recorded." for i in range(130))
    prompt = {"model": model, "max_tokens": 1, "temperature": 0,
              "messages": [{"role": "user", "content": f"{uuid.uuid4().hex} {filler}"}]}
    t0 = time.monotonic()
    p = requests.post(url, json=prompt, timeout=300).json()["usage"]
    prompt_s = time.monotonic() - t0
    gen = {"model": model, "max_tokens": 128, "temperature": 0,
           "messages": [{"role": "user", "content": "Write a long story about a hospital."}]}
    t0 = time.monotonic()
    g = requests.post(url, json=gen, timeout=300).json()["usage"]
    gen_s = time.monotonic() - t0
    return {"prompt_tokens": p["prompt_tokens"], "prompt_tok_per_s": round(p["prompt_tokens"] / prompt_s, 1),
            "completion_tokens": g["completion_tokens"],
            "generation_tok_per_s": round(g["completion_tokens"] / gen_s, 1)}


if __name__ == "__main__":  # python -m tests.bench.realmodel
    import json

    from tests.support.llama_server import small_model

    with small_model(n_ctx=2048, threads=1) as m:
        print(json.dumps(measure_nodes(m.endpoint), indent=2))
