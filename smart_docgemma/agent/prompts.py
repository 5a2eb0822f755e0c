"""Prompts, generation settings and rule data, loaded once from ``agent/data/``.

Node code asks for text by key; nothing prompt-like is written inline, so the
prompts can be tuned against the evaluation without touching control flow.
"""
from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from ..datafiles import safe_yaml
from .languages import answer_text, merged

DATA = Path(__file__).with_name("data")


@cache
def load(name: str) -> Any:
    """``data/<name>.yaml`` parsed once per process."""
    return safe_yaml((DATA / f"{name}.yaml").read_text(encoding="utf-8"))


def generation(node: str) -> dict[str, Any]:
    """``{"temperature": …, "max_tokens": …}`` for ``node``."""
    return dict(load("prompts")["generation"][node])


def system(node: str) -> str:
    return str(load("prompts")["system"][node])


def template(key: str) -> str:
    return str(load("prompts")["templates"][key])


def request(node: str, turn: str, *, fixed: Sequence[str] = (),
            history: Sequence[dict[str, Any]] = ()) -> list[dict[str, Any]]:
    """The messages of one call of ``node``, ordered for the model server's prompt cache.

    First the part that is the same on every call of the node in a session, byte for byte:
    the node's system text, then ``fixed`` (tool definitions, the patient's chart in brief,
    the answer language). Then ``history`` (earlier turns, oldest first) and last this call's
    own part (question, tool results). A server that keeps the computed prompt (the embedded
    server's prompt cache, vLLM's prefix cache) then computes only what follows the first byte
    that differs; with Gemma's chat template the system text opens the first user turn, so this
    holds whatever role the fixed part is sent in.
    """
    head = "\n\n".join([system(node), *(block for block in fixed if block)])
    return [{"role": "system", "content": head}, *history, {"role": "user", "content": turn}]


def recent(history: Sequence[dict[str, Any]], turns: int) -> list[dict[str, Any]]:
    """The last ``turns`` exchanges (a question and its answer each), the oldest leaving half
    of them at a time: a window sliding one turn per question would change the start of every
    prompt's conversation each turn, and a server that keeps computed prompts would compute
    it again every turn; this one changes it every ``turns / 2`` questions."""
    done = len(history) // 2
    step = max(1, turns // 2)
    start = max(0, -(-(done - turns) // step) * step)  # ceil to a multiple of step
    return list(history[len(history) - 2 * (done - start) - len(history) % 2:])


def conversation(history: Sequence[dict[str, Any]], *, chars: int, asked: str = "{query}",
                 as_read: bool = False) -> list[dict[str, Any]]:
    """Earlier turns as chat messages for ``request``: each cut to ``chars``, the clinician's
    written as ``asked`` (this node's own wording of a question) or, with ``as_read``, as the
    model read that turn (``Turn.asked``, SYNTHESIZE's own part) where the history keeps it:
    either way an earlier call's prompt is the start of this one's. Gemma's template needs
    strict user/assistant alternation ending on an answer."""
    out: list[dict[str, Any]] = []
    for turn in history:
        role = "assistant" if turn.get("role") == "assistant" else "user"
        if (out and out[-1]["role"] == role) or (not out and role == "assistant"):
            continue
        read = turn.get("asked") if as_read and role == "user" else None
        if read:
            out.append({"role": role, "content": str(read)[:chars]})
            continue
        text = str(turn.get("content", ""))[:chars]
        out.append({"role": role, "content": asked.format(query=text) if role == "user" else text})
    if out and out[-1]["role"] == "user":
        out.pop()
    return out


def message(key: str, **fields: Any) -> str:
    """A templated answer in this turn's language (``agent/answers/``), else in English."""
    text = answer_text("messages", key) or load("prompts")["messages"][key]
    return str(text).format(**fields)


def error_text(kind: str | None, label: str, entity: str = "the request") -> str:
    known = kind if kind and kind in load("prompts")["errors"] else "generic"
    text = answer_text("errors", known) or load("prompts")["errors"][known]
    return str(text).format(label=label, entity=entity)


def example(tool: str) -> str:
    return str(load("prompts")["examples"].get(tool, ""))


def limit(key: str) -> int:
    return int(load("prompts")["limits"][key])


@lru_cache(maxsize=1)
def rules() -> dict[str, Any]:
    """``data/rules.yaml`` with the French, Portuguese and Spanish rules (``agent/rules/``)
    added."""
    return merged(load("rules"))
