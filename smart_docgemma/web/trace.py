"""The clinical trace: what the assistant did in a turn, step by step, in clinical words.

Built from the events the agent emits (``node_start``/``node_end``,
``tool_call``/``tool_result``, ``retry_decision``, ``done``) and the agent's
final state (the full text each source returned). Each step has a label a
clinician understands, its duration, the model calls it made, and for a
source: the arguments it was called with, its status and a summary. The
same labels drive the live progress list while a turn streams.
"""
from __future__ import annotations

from flask import has_request_context

from ..agent.state import ToolRun
from ..languages import N_, answer_language, message, say
from .language import page_language
from .language import page_text as answer_text

NODE_LABELS = {
    "INPUT_ASSEMBLY": "Reading the question",
    "INTENT_CLASSIFY": "Understanding the request",
    "TOOL_SELECT": "Choosing what to consult",
    "TOOL_EXECUTE": "Consulting a source",  # replaced by the source's name once known
    "RESULT_CLASSIFY": "Checking the result",
    "ROUTER": "Deciding the next step",
    "ERROR_HANDLER": "Handling a failed source",
    "SYNTHESIZE": "Writing the answer",
}
STATUS_LABELS = {"ok": "found", "empty": "nothing found", "error": "failed",
                 "proposal": "proposal awaiting your approval", "ambiguous": "several matches"}
DETAIL_MAX = 1500


def node_label(node: str, tool: str | None = None) -> str:
    """What the progress list says for a node (``tool`` names the source being consulted), in
    the turn's or the page's language (``agent/answers/<lang>.yaml`` ``steps``)."""
    if node == "TOOL_EXECUTE" and tool:
        return (answer_text("steps", "consulting") or "Consulting: {tool}").format(tool=tool)
    return answer_text("steps", node) or NODE_LABELS.get(node, node.replace("_", " ").capitalize())


def status_label(status: str | None) -> str | None:
    return answer_text("statuses", status or "") or STATUS_LABELS.get(status or "", status)


def progress_event(event: dict) -> dict | None:
    """An agent event as the browser's progress stream sees it (None: not shown)."""
    kind = event.get("type")
    if kind == "node_start":
        return {
            "kind": "step",
            "node": event["node"],
            "label": node_label(event["node"]),
            "phase": "start",
        }
    if kind == "node_end":
        return {
            "kind": "step",
            "node": event["node"],
            "label": node_label(event["node"]),
            "phase": "end",
            "duration_ms": event.get("duration_ms"),
        }
    if kind == "tool_call":
        return {
            "kind": "tool",
            "phase": "call",
            "label": event["tool"],
            "args": _args_text(event.get("args")),
        }
    if kind == "tool_result":
        return {"kind": "tool", "phase": "result", "label": event["tool"],
                "status": status_label(event.get("status")),
                "summary": event.get("summary") or ""}
    if kind == "model_fallback":
        return {"kind": "notice", "label": "Model unavailable — answering without it "
                f"({event.get('reason') or 'no answer'})"}
    if kind == "model_slow":
        return {"kind": "notice", "label": f"The model has not started answering after "
                f"{event.get('seconds', 0):g} s; still waiting (you can cancel)"}
    if kind == "model_prefill":  # after a slow start: what the model was doing
        return {
            "kind": "notice",
            "label": f"The model read its prompt in {event.get('seconds', 0):.1f} s "
            f"({event.get('computed', 0)} of its {event.get('tokens', 0)} tokens computed, "
            "the rest reused)",
        }
    return None


def trace_steps(events: list[dict], tool_runs: list[ToolRun] | None = None) -> dict:
    """``{"steps": [...], "total_ms", "model_calls", "sources_consulted"}`` for the trace panel."""
    steps, current, calls_before = [], None, 0
    details = iter(tool_runs or [])
    for event in events:
        kind = event.get("type")
        if kind == "node_start":
            current = {
                "node": event["node"],
                "label": node_label(event["node"]),
                "tools": [],
                "notes": [],
            }
        elif kind == "tool_call" and current is not None:
            entry = next(details, None)
            current["label"] = node_label("TOOL_EXECUTE", event["tool"])
            current["tools"].append({"label": event["tool"], "args": _args_text(event.get("args")),
                                     "detail": _detail(entry)})
        elif kind == "tool_result" and current is not None and current["tools"]:
            current["tools"][-1].update(
                status=event.get("status"),
                summary=event.get("summary") or "",
                status_label=status_label(event.get("status")),
            )
        elif kind == "retry_decision" and current is not None:
            current["notes"].append(
                f"Retry decision for {event.get('tool')}: {event.get('strategy')}"
            )
        elif kind == "node_end" and current is not None:
            calls = int(event.get("model_calls") or 0)
            current.update(duration_ms=event.get("duration_ms") or 0, outcome=event.get("outcome"),
                           model_calls=max(0, calls - calls_before))
            calls_before = calls
            steps.append(current)
            current = None
    return {"steps": steps, "total_ms": round(sum(s["duration_ms"] for s in steps), 1),
            "model_calls": calls_before, "sources_consulted": sum(len(s["tools"]) for s in steps)}


_ARGS = {  # the tools' argument names as the trace shows them (translated on the page)
    "birth_date": N_("birth date"),
    "condition": N_("condition"),
    "criticality": N_("criticality"),
    "dosage": N_("dosage"),
    "dose": N_("dose"),
    "drug_name": N_("drug name"),
    "drug_names": N_("drug names"),
    "focus": N_("focus"),
    "frequency": N_("frequency"),
    "medication_name": N_("medication name"),
    "name": N_("name"),
    "note_text": N_("note text"),
    "note_type": N_("note type"),
    "notes": N_("notes"),
    "patient_id": N_("patient id"),
    "query": N_("query"),
    "reaction": N_("reaction"),
    "severity": N_("severity"),
    "status": N_("status"),
    "substance": N_("substance"),
    "verification": N_("verification"),
}


def _language() -> str:
    """The page's language; in a turn's worker (progress events), the turn's."""
    return page_language() if has_request_context() else answer_language()


def _args_text(args: dict | None) -> str:
    parts = []
    for key, value in (args or {}).items():
        if value in (None, "", []):
            continue
        shown = ", ".join(map(str, value)) if isinstance(value, list) else str(value)
        name = say(message(_ARGS[key]), _language()) if key in _ARGS else key.replace("_", " ")
        parts.append(f"{name}: {shown[:200]}")
    return "; ".join(parts)


def _detail(entry: ToolRun | None) -> str:
    if entry is None:
        return ""
    text = entry.result.text or ""
    return text if len(text) <= DETAIL_MAX else text[:DETAIL_MAX] + " …"
