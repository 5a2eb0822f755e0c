"""The prompt cache on the real embedded server (Gemma 3 270M, MedGemma's tokenizer and chat
template): two calls of a node share their prompt's fixed part token for token; a warm server
computes only what follows it, also after a restart on its saved cache; a Synthea-size request
is cut to fit the context, says so, and is never refused.

Real agent turns, real tools over HAPI, the product's server (``modelserver/embedded.py`` starting
``modelserver/promptcache.py``) behind a recording proxy that keeps each answer's ``timings``."""
from __future__ import annotations

import pytest
import requests
from smart_docgemma.agent.graph import Agent
from smart_docgemma.agent.model import ModelClient
from smart_docgemma.agent.window import TokenCounter
from smart_docgemma.modelserver.livecontext import CHUNK
from smart_docgemma.tools.chart.chart import read_for_turn
from tests.bench.realmodel import node_of
from tests.realmodel.recording import Exchange, RecordingProxy
from tests.support.launch_context import PATIENT_SCOPES, launch, tool_context
from tests.support.llama_server import gemma3_gguf, gemma_model

QUESTIONS = ["Hello, what is hypertension?", "And what is atrial fibrillation?",
             "What are the FDA label warnings for warfarin?"]


def _session(server, ctx, tools, questions=QUESTIONS, events: list | None = None,
             first_token_s: float = 0) -> list[list[Exchange]]:
    """The questions as turns of one session; each turn's model exchanges (its events in ``events``)."""
    proxy = RecordingProxy(server.endpoint).start()
    try:
        model = ModelClient(proxy.url, model=server.model, dialect="json_object_schema", timeout=300,
                            retries=0, context_tokens=server.n_ctx, first_token_s=first_token_s)
        chart, history, turns = read_for_turn(ctx), [], []
        for question in questions:
            mark = proxy.mark()
            turn = Agent(model, tools, ctx).run(question, history=history, chart_summary=chart.brief,
                                                chart_text=chart.text, chart=chart.in_context,
                                                emit=(events if events is not None else []).append)
            assert not turn.degraded, turn.state.degraded_reason
            turns.append(proxy.since(mark))
            asked = {"asked": turn.state.asked} if turn.state.asked else {}  # as the chat's turn store keeps it
            history += [{"role": "user", "content": question, **asked}, {"role": "assistant", "content": turn.answer}]
        return turns
    finally:
        proxy.stop()


def _tokens(server, text: str) -> list[int]:
    root = server.endpoint.removesuffix("/v1")
    return requests.post(f"{root}/extras/tokenize", json={"input": text}, timeout=30).json()["tokens"]


def _rendered(messages: list[dict]) -> str:
    """The prompt the server builds from ``messages``: the GGUF's own chat template, or (this
    test model's GGUF has none; the server's log says which it used) llama-cpp-python's fallback,
    llama-2's format. MedGemma's GGUF carries Gemma 3's template."""
    from llama_cpp.llama_chat_format import Jinja2ChatFormatter, format_llama2

    vocab = _vocab()
    template = vocab.metadata.get("tokenizer.chat_template")
    if template is None:
        return format_llama2(messages).prompt
    bos, eos = (vocab._model.token_get_text(t) for t in (vocab.token_bos(), vocab.token_eos()))
    return Jinja2ChatFormatter(template, eos_token=eos, bos_token=bos)(messages=messages).prompt


_VOCAB: list = []


def _vocab():
    """The model's tokenizer and metadata only (no weights), loaded once."""
    from llama_cpp import Llama

    if not _VOCAB:
        _VOCAB.append(Llama(str(gemma3_gguf()), vocab_only=True, verbose=False))
    return _VOCAB[0]


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("prompt-cache")


def test_two_calls_of_a_node_share_the_fixed_part_token_for_token_and_a_warm_server_computes_the_rest(
        session_ctx, cache_dir):
    ctx, tools = session_ctx
    with gemma_model(n_ctx=4096, threads=1, cache_mb=512, cache_dir=str(cache_dir)) as server:
        first, *later = _session(server, ctx, tools, QUESTIONS[:2])
        used = "fallback chat format: llama-2" if "tokenizer.chat_template" not in _vocab().metadata else ""
        assert used in server.log_path.read_text()  # the template rendered here is the server's
        by_node = {node_of(e): e for e in first}
        for turn in later:
            for ex in turn:
                node = node_of(ex)
                fixed = ex.request["messages"][0]["content"]
                rendered = _rendered(ex.request["messages"])
                head = _tokens(server, rendered[:rendered.index(fixed) + len(fixed)])
                if node in by_node:  # the same node in an earlier turn: the same tokens first
                    before = _tokens(server, _rendered(by_node[node].request["messages"]))
                    now = _tokens(server, rendered)
                    assert before[:len(head) - 1] == now[:len(head) - 1], node
                    # ... so the warm server computed only what follows them, from the start of
                    # the chunk the fixed part ends in (livecontext.CHUNK)
                    reused = (len(head) - 1) // CHUNK * CHUNK
                    assert ex.timings["cache_n"] >= reused, (node, ex.timings, len(head))
                    assert ex.timings["prompt_n"] <= len(now) - reused, (node, ex.timings)
                by_node[node] = ex


def test_a_restarted_server_is_warm_from_its_saved_cache_and_the_wait_is_reported(session_ctx, cache_dir):
    ctx, tools = session_ctx
    with gemma_model(n_ctx=4096, threads=1, cache_mb=512, cache_dir=str(cache_dir)) as server:
        _session(server, ctx, tools, QUESTIONS[:1])
    saved = list(cache_dir.glob("*/*.kv"))
    assert saved, "the states were written to disk"
    before = _prefills("intent_classify")
    with gemma_model(n_ctx=4096, threads=1, cache_mb=512, cache_dir=str(cache_dir)) as server:
        info = requests.get(server.endpoint.removesuffix("/v1") + "/extras/prompt_cache", timeout=10).json()
        assert info["states"] >= 1 and info["bytes"] <= info["budget"]
        events: list[dict] = []
        (turn,) = _session(server, ctx, tools, QUESTIONS[:1], events, first_token_s=0.01)
    first = turn[0].timings  # the same question again, on a new process
    assert first["cache_n"] > 0.75 * (first["cache_n"] + first["prompt_n"]), first
    # the slow-first-token notice is followed by what the prompt cost; /metrics has it too
    kinds = [e["type"] for e in events]
    assert "model_slow" in kinds and "model_prefill" in kinds, kinds
    said = next(e for e in events if e["type"] == "model_prefill")
    assert said["computed"] == first["prompt_n"] and said["tokens"] == first["prompt_n"] + first["cache_n"]
    assert _prefills("intent_classify") == before + 1


def _prefills(node: str) -> float:
    from prometheus_client import REGISTRY

    return REGISTRY.get_sample_value("docgemma_model_prefill_seconds_count", {"node": node}) or 0.0


def test_a_synthea_size_request_is_cut_to_fit_the_context_and_the_cut_is_said(fhir_base, synthea,
                                                                                session_ctx):
    """The largest Synthea chart read in full, after six long turns, on a 2,048-token server:
    the oldest turns and the sections least related to the question go, the trace says so,
    every request fits (prompt + answer budget ≤ n_ctx) and the turn is answered by the model."""
    _, tools = session_ctx
    elder = max(synthea.patients, key=lambda p: p.resources)
    ctx = tool_context(launch(fhir_base, elder.id, PATIENT_SCOPES))
    history = []
    for i in range(6):
        history += [{"role": "user", "content": f"Question {i} about her kidney function and medicines? " * 6},
                    {"role": "assistant", "content": f"Answer {i}: eGFR has been stable; continue. " * 20}]
    with gemma_model(n_ctx=2048, threads=1, cache_mb=256) as server:
        proxy = RecordingProxy(server.endpoint).start()
        try:
            model = ModelClient(proxy.url, model=server.model, dialect="json_object_schema", timeout=300,
                                retries=0, context_tokens=server.n_ctx)
            model.count_tokens = TokenCounter(server.endpoint, server.model)  # the proxy relays /v1 only
            events: list[dict] = []
            read = read_for_turn(ctx)
            turn = Agent(model, tools, ctx).run("summarise this patient's chart", history=history,
                                                chart_summary=read.brief, chart=read.in_context,
                                                emit=events.append)
        finally:
            proxy.stop()
    assert not turn.degraded, turn.state.degraded_reason
    cuts = [e for e in events if e["type"] == "context_cut"]
    assert {c["part"] for c in cuts} >= {"history"}, cuts
    for ex in proxy.exchanges:
        assert ex.status == 200, ex.content  # never refused for its length
        used = ex.timings["prompt_n"] + ex.timings["cache_n"]
        assert used + ex.request["max_tokens"] <= 2048, (node_of(ex), used)
