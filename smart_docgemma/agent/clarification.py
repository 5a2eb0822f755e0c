"""A clarifying answer completes the pending request, in any language.

When a write lacks what only the clinician can say, the agent asks one question (``ask_fields``
of ``data/prompts.yaml`` and ``answers/<lang>.yaml``: "To prepare the medication order, what dose
should I use?"). The clinician's reply — "500 mg", "500", "azithromycin", "une fois" — means
nothing alone; read together with the request it answers, it completes it, and the turn goes on
to the card and its safety findings as if the request had been whole.

The turn's history holds the exchanges as text (``turns/store.py`` ``history``), so a question of
the agent is recognised by its templates, in every language it answers in; a reply that makes a
request of its own ("review her chart") is a new request, never glued to the pending one.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from ..languages import ANSWERED, answers
from ..reading.entities import Entities
from . import requests
from .extraction import extract  # extraction reads this module's sibling rules
from .prompts import load, rules


@lru_cache(maxsize=1)
def _questions() -> tuple[re.Pattern[str], ...]:
    """The clarifying question (``ask_fields``) of every language, its fields left open."""
    said = [load("prompts")["messages"]["ask_fields"]]
    said += [
        (answers(lang).get("messages") or {}).get("ask_fields") for lang in ANSWERED if lang != "en"
    ]
    return tuple(
        re.compile(
            re.escape(text)
            .replace(re.escape("{label}"), ".+?")
            .replace(re.escape("{fields}"), ".+?")
        )
        for text in said
        if text
    )


def asked_fields(text: str) -> bool:
    """The agent's message asked what a write still needs."""
    return any(q.search(text or "") for q in _questions())


def pending_request(history: list[dict[str, Any]]) -> list[str]:
    """The clinician's messages the agent's last questions answered, oldest first ([] when the
    last answer asked nothing): the request, then each earlier reply that still left a field
    open."""
    said: list[str] = []
    turns = history[-2 * rules()["clarification_turns"]:]
    while (
        len(turns) >= 2
        and turns[-1].get("role") == "assistant"
        and asked_fields(str(turns[-1].get("content")))
    ):
        said.insert(0, str(turns[-2].get("content") or ""))
        turns = turns[:-2]
    return said


def completed(
    message: str, history: list[dict[str, Any]] | None, own: Entities | None = None
) -> str:
    """``message`` with the request it answers in front ("rx azithro 500mg od x3d azithromycin"),
    or ``message`` alone when it answers no question or asks something of its own (``own``: what
    the message says by itself, when already read)."""
    pending = pending_request(history or [])
    if not pending:
        return message
    own = own if own is not None else extract(message)
    if own.actions or own.patient_names or own.patient_ids:
        return message  # a new request, not an answer
    reply = requests.reply_dose(message) or message  # "500" to "what dose?": 500 mg
    return " ".join([*pending, reply])
