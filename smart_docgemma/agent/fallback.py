"""One degraded path, whatever the cause: a model that fails answers the turn as no-model mode.

A configured model that refuses connections, times out, answers 5xx, or answers output that
no node can use (``degraded`` set by a node) must not leave the clinician with less than no
model at all would have given. The turn is therefore answered again from its first node
with no model: the same code routing, arguments and templated answer as no-model mode,
labelled "Model unavailable". When the endpoint's circuit is already open the turn starts
that way, and no model call is made.

Nothing runs twice: a source already consulted with the same arguments in the failed
attempt is answered from that run (``_Remembered``), so a proposal it prepared is the same
proposal; one that the no-model answer does not reach is withdrawn, never left approvable
unseen. The failed attempt's steps stay in the trace (they were shown while the turn ran).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from pydantic import BaseModel

from .. import metrics
from ..tools.base import Tool, ToolContext, ToolResult
from . import prompts
from .state import Turn, merge

WITHDRAWN = "Withdrawn: the model failed while this turn ran; the answer was prepared without it."


@dataclass(frozen=True)
class _Remembered:
    """A tool's ``run`` that first looks for the same call in the failed attempt."""

    tool: Tool
    done: dict[str, ToolResult]  # json key of args -> the failed attempt's result

    def __call__(self, args: BaseModel, ctx: ToolContext) -> ToolResult:
        key = _key(args.model_dump(exclude_none=True))
        if key in self.done:
            return self.done.pop(key)
        result: ToolResult = self.tool.run(args, ctx)
        return result


def _key(args: dict[str, Any]) -> str:
    import json

    return json.dumps(args, sort_keys=True, default=str)


def remembered_tools(tools: dict[str, Tool], failed: Turn) -> dict[str, Tool]:
    """``tools`` with the results of ``failed``'s successful runs served again, not re-run."""
    runs: dict[str, dict[str, ToolResult]] = {}
    for run in failed.tool_runs:
        if run.result.status != "error":
            runs.setdefault(run.tool, {})[_key(run.args)] = run.result
    return {name: replace(tool, run=_Remembered(tool, runs[name])) if name in runs else tool
            for name, tool in tools.items()}


def notice(reason: str | None) -> dict[str, Any]:
    """The event that says, in the progress stream and the trace, that the model is not used."""
    return {"type": "model_fallback", "reason": reason or "the model did not answer"}


def stray_proposals(failed: Turn, final: Turn) -> list[str]:
    """Proposals the failed attempt prepared that the no-model answer does not show."""
    return [proposal_id for proposal_id in failed.proposals if proposal_id not in final.proposals]


def withdraw(ctx: ToolContext | None, proposal_ids: list[str]) -> None:
    store = getattr(ctx, "proposals", None)
    if store is not None and proposal_ids:
        store.withdraw_ids(proposal_ids, reason=WITHDRAWN)


def labelled(final: Turn, reason: str | None, cause: str) -> Turn:
    """The no-model answer as the model-failed turn: degraded, with its reason."""
    metrics.model_fallback(cause)
    return merge(final, {"degraded": True,
                         "degraded_reason": reason or prompts.message("model_failed_reason")})
