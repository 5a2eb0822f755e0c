"""⑦ SYNTHESIZE (seed 004 §4, §8): the clinician-facing answer.

The model sees clinical labels, never tool names, and pre-formatted error
messages, never raw errors (seed §10). Streamed at T=0.5 / 256 tokens with no
thinking prefix. A clarification question (ask-user) is answered by code. When
the model is absent or fails, or its answer is empty, the answer is a templated
summary of what the tools returned, labelled as such — never invented text.
"""
from __future__ import annotations

import re

from ..errors import ModelError
from ..tools.args import TOOL_ARG_SCHEMAS

from . import prompts
from .nodes import Deps, label

BRIEF_TOOLS = {"check_drug_safety", "check_drug_interactions", "search_medical_literature",
               "find_clinical_trials"}
_TOOL_NAME = re.compile(r"\[?\b(" + "|".join(TOOL_ARG_SCHEMAS) + r")\b\]?")


def synthesize(state: dict, deps: Deps) -> dict:
    if state["clarification"]:
        return _finish(state, state["clarification"])
    if deps.model is None or state["degraded"]:
        return _finish(state, templated_summary(state))
    parts: list[str] = []
    try:
        for text in deps.model.stream_text("synthesize", _messages(state), deps.stats):
            parts.append(text)
            deps.emit({"type": "token", "text": text})
    except ModelError as exc:
        fallback = {"degraded": True, "degraded_reason": exc.description}
        return {**fallback, **_finish({**state, **fallback}, templated_summary(state))}
    answer = sanitize("".join(parts)).strip()
    if not answer:
        return _finish(state, templated_summary(state))
    return _finish(state, _with_notes(state, answer))


def sanitize(text: str) -> str:
    """Replace any leaked tool name with its clinical label (seed §4 ④)."""
    return _TOOL_NAME.sub(lambda m: label(m.group(1)), text)


def _messages(state: dict) -> list[dict]:
    """Stable system text first, then recent turns, then this turn's data."""
    history = _alternating(state["history"][-2 * prompts.limit("history_turns"):])
    user = _user_message(state)
    ok = [r for r in state["tool_results"] if r["result"]["status"] in ("ok", "empty")]
    if len(ok) == 1 and ok[0]["tool"] in BRIEF_TOOLS:
        user = prompts.template("brief_prefix") + user
    return [{"role": "system", "content": prompts.system("synthesize")}, *history,
            {"role": "user", "content": user}]


def _alternating(history: list[dict]) -> list[dict]:
    """Gemma's template needs strict user/assistant alternation ending on assistant."""
    out: list[dict] = []
    for turn in history:
        role = "assistant" if turn.get("role") == "assistant" else "user"
        if (out and out[-1]["role"] == role) or (not out and role == "assistant"):
            continue
        out.append({"role": role, "content": str(turn.get("content", ""))[:1500]})
    if out and out[-1]["role"] == "user":
        out.pop()
    return out


def _user_message(state: dict) -> str:
    sections = [f"Clinician's question: {state['message']}"]
    if state["task_summary"]:
        sections.append(f"Clinical context: {state['task_summary']}")
    if state.get("chart_summary"):
        sections.append(f"Patient in context: {state['chart_summary'][:800]}")
    results = [r for r in state["tool_results"] if r["result"]["status"] != "error"]
    if results:
        sections.append("\n\n".join(f"[{r['label']}]\n{r['result']['text'][:1500]}" for r in results))
    errors = _error_notes(state)
    if errors:
        sections.append("Unavailable information:\n" + "\n".join(f"- {e}" for e in errors))
    return "\n\n".join(sections)


def _error_notes(state: dict) -> list[str]:
    notes = list(state["errors"])
    for r in state["tool_results"]:
        if r["result"]["status"] == "error" and r["tool"] not in state["skipped"]:
            notes.append(r["result"]["text"])
    return list(dict.fromkeys(n for n in notes if n))


def _proposal_notes(state: dict) -> list[str]:
    return [prompts.message("proposal", label=r["label"]) for r in state["tool_results"]
            if r["result"]["status"] == "proposal"]


def _with_notes(state: dict, answer: str) -> str:
    """Facts the clinician must see whatever the model wrote: failures, proposals, stops."""
    notes = [n for n in _error_notes(state) + _proposal_notes(state) if n not in answer]
    if state.get("notice"):
        notes.append(state["notice"])
    return answer + ("\n\n" + "\n".join(f"- {n}" for n in notes) if notes else "")


def templated_summary(state: dict) -> str:
    """What the tools returned, verbatim and labelled — no AI interpretation."""
    lines = [prompts.message("degraded_label")]
    for r in state["tool_results"]:
        if r["result"]["status"] != "error":
            lines.append(f"**{r['label']}** — {r['result']['text'].strip()}")
    lines += [f"- {n}" for n in _error_notes(state) + _proposal_notes(state)]
    if state.get("notice"):
        lines.append(f"- {state['notice']}")
    if len(lines) == 1:
        lines.append(prompts.message("degraded_nothing"))
    return "\n\n".join(lines)


def _finish(state: dict, answer: str) -> dict:
    answer = answer.strip() or prompts.message("empty_fallback")
    sources, seen = [], set()
    for r in state["tool_results"]:
        for s in r["result"].get("sources", []):
            if s["url"] not in seen:
                seen.add(s["url"])
                sources.append(s)
    return {"answer": answer, "sources": sources, "outcome": "done"}
