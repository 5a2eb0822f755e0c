"""The patient's chart as SYNTHESIZE reads it: once, in the fixed part of every call of a session.

A clinician asks several questions about one patient, and most answers come from the chart the
session read (the summary, the medications, a lab). Carried in the fixed part of the prompt
(``prompts.request``), that chart is computed once per session by a server that keeps computed
prompts (the embedded server's prompt cache, vLLM's prefix cache); each question then costs its
own words only. So a turn's chart read does not repeat what the fixed part already holds: a block
of the read that is, byte for byte, a block of the session's chart is replaced by one line naming
it. Anything else — a block the session's chart does not hold, or holds differently because the
chart changed since it was read — stays in the turn's part in full: the model always reads the
newer data.

The notes block stays out of the fixed part: it is quoted text written by people, screened as a
tool result each time a question reads it (``grounding.injection``), never standing context.

A model whose context cannot hold every part's budget reads the chart in brief instead
(``fits``).

A block is a line that does not start with a dash or a space (a heading, or a one-line section
such as "Allergies: none recorded") with the lines under it; the chart renderer
(``tools/chart/summary.py``) writes every section that way.
"""
from __future__ import annotations

from typing import Any

from ..tools.chart.summary import UNTRUSTED_HEAD
from . import prompts
from .window import context_size


def blocks(text: str) -> list[str]:
    """``text`` as blocks: each heading line with the lines under it."""
    out: list[str] = []
    for line in text.splitlines():
        if out and (not line or line[0] in "- \t"):
            out[-1] += "\n" + line
        else:
            out.append(line)
    return out


def session_chart(text: str | None) -> str:
    """The chart for the fixed part: the chart text of the session's read without its notes."""
    if not text:
        return ""
    return "\n".join(b for b in blocks(text) if not b.startswith(UNTRUSTED_HEAD)).strip()


def fits(model: Any) -> bool:
    """Whether ``model``'s context holds every part's budget (prompts.yaml ``context``), the
    whole chart's among them: a model with a smaller context (an operator's
    ``MODEL_CONTEXT_TOKENS``) reads the chart in brief, as the other nodes do, so that the
    window never has to cut the fixed part."""
    tokens = int(getattr(model, "context_tokens", 0) or 0)
    return not tokens or tokens >= context_size(None)


def chart_block(chart: str | None) -> str:
    """The fixed part's chart block for a ``session_chart`` ("" without one)."""
    return prompts.template("context_chart").format(chart=chart) if chart else ""


def unrepeated(result: str, chart: str) -> str:
    """``result`` with each block the session's ``chart`` already holds, byte for byte, replaced
    by one line naming those blocks (by their heading, as the chart above shows it)."""
    if not chart:
        return result
    held = set(blocks(chart))
    kept = [b for b in blocks(result) if b not in held]
    named = [_name(b) for b in blocks(result) if b in held]
    if not named:
        return result
    pointer = prompts.template("answer_in_chart").format(sections="; ".join(named))
    return "\n".join([pointer, *kept])


def _name(block: str) -> str:
    head = block.split("\n", 1)[0]
    return head.split(":", 1)[0].strip() if ":" in head else head[:60]
