"""The state of one agent turn: a plain JSON-serialisable dict.

Nodes never mutate it; each returns an update dict merged by ``merge`` (lists
named in ``APPEND`` accumulate, like LangGraph's ``operator.add``). Because it
is plain data (no bytes, no objects — the image is referenced by its meta) a
turn can be stored when it pauses on an approval and resumed later.
"""
from __future__ import annotations

import json

APPEND = ("events", "route", "errors", "proposals", "thinking", "sources", "skipped")


def new_state(message: str, *, history=None, chart_summary=None, image_meta=None,
              patient_id=None) -> dict:
    """A fresh turn state (seed 004 §5, plus what pausing and tracing need)."""
    return {
        "message": message,
        "history": list(history or []),
        "chart_summary": chart_summary,
        "patient_id": patient_id,
        "image": image_meta,          # {"mime", "kind", "bytes", "ref"} — never the bytes
        "entities": {},
        "intent": None,               # DIRECT | TOOL_NEEDED
        "task_summary": "",
        "suggested_tool": None,
        "fast_path": False,
        "current": None,              # {"tool", "args", "label"} about to run
        "tool_results": [],           # [{"tool", "label", "args", "result": ToolResult.to_dict(), "quality", "summary"}]
        "step_count": 0,
        "retries": {},                # tool -> retry count
        "total_retries": 0,
        "retry_mode": None,           # retry_same | retry_different_args
        "errors": [],                 # pre-formatted, clinician-readable
        "skipped": [],                # tools given up on (seed §9 skip rules)
        "clarification": None,        # ask-user question, answered without the model
        "notice": None,               # e.g. max steps reached
        "degraded": False,
        "degraded_reason": None,
        "proposals": [],              # proposal ids awaiting approval
        "approvals": [],              # decisions received on resume
        "answer": None,
        "sources": [],
        "route": [],                  # node names in order
        "events": [],
        "thinking": [],
        "model_calls": 0,
        "model_seconds": 0.0,
        "next_node": None,            # where a paused turn resumes
        "paused": False,
    }


def merge(state: dict, update: dict) -> dict:
    """A new state with ``update`` applied (lists in ``APPEND`` are extended)."""
    out = dict(state)
    for key, value in update.items():
        out[key] = out.get(key, []) + list(value) if key in APPEND else value
    return out


def dumps(state: dict) -> str:
    return json.dumps(state, sort_keys=True)


def loads(text: str) -> dict:
    return json.loads(text)
