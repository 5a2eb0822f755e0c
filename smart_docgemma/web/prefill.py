"""The next prompts computed while the clinician reads: the page, then each answer.

Every answer of a session opens with the same fixed part: the system text and the chart the
page just read (``agent/chart_context.py``), ~1,500 tokens on a Synthea chart. On a clinic's
CPU a model computes tens of those a second, so the first question would wait for the chart
before its first word. Opening the assistant has the model server compute that part once, in
the background, with one answer token not kept (``ModelClient.prefill``); a server that keeps
computed prompts (the embedded server's prompt cache, vLLM's prefix cache) starts the first
question's answer from it. A question asked before it is done waits behind it on a one-slot
server — for work that question would have done anyway. Nothing depends on it: a failure is
logged, and the question computes the prompt itself.

After each answer the same is done for the next turn (``MODEL_PREFILL_NEXT_TURN``): its
classifier's and its answer's prompts up to the question not yet asked (``Agent.next_prompts``),
so the turn just finished — the question, its tool results, the answer — is computed while the
clinician reads the answer, and the next question computes only its own words.
"""
from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from flask import current_app

from ..agent.model import ModelClient
from ..agent.synthesis import opening_prompt
from .modelstatus import get_model


def prefill_answer_prompt(chart_text: str) -> threading.Thread | None:
    """Start computing the answer prompt's fixed part for ``chart_text`` (None: not started,
    for no model, no chart, a model that reads the chart in brief, or ``MODEL_PREFILL_ON_OPEN``
    off)."""
    # the thread outlives the request
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    model = get_model(app)
    if model is None or not chart_text or not app.config.get("MODEL_PREFILL_ON_OPEN"):
        return None
    messages = opening_prompt(chart_text, model)
    if messages is None:
        return None
    worker = threading.Thread(target=model.prefill, args=("synthesize", messages), daemon=True,
                              name="answer-prompt-prefill")
    worker.start()
    return worker


def prefill_next_turn(
    model: ModelClient, requests: Sequence[tuple[str, list[dict[str, Any]]]]
) -> threading.Thread:
    """Start computing ``requests`` (``Agent.next_prompts``), one after the other, in the
    background."""
    def run() -> None:
        for node, messages in requests:
            if not model.prefill(node, messages):
                return  # the server is not answering: the next question computes its prompt itself

    worker = threading.Thread(target=run, daemon=True, name="next-turn-prefill")
    worker.start()
    return worker
