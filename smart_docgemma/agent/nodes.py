"""The agent's nodes (seed 004 §4): each ``node(state, deps) -> update``.

An update is a dict merged into the state; its ``outcome`` key picks the next
node through ``graph.TRANSITIONS``. Model calls go through ``deps.model``; any
``ModelError`` switches the turn to degraded mode (deterministic routing and
a templated summary) instead of failing it.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable

from pydantic import ValidationError

from ..errors import ModelError
from ..tools import catalog
from ..tools.args import TOOL_ARG_SCHEMAS
from ..tools.base import ToolResult

from . import planning, prompts
from .extraction import extract
from .model import CallStats, InvalidModelOutput
from .schemas import IntentClassification, ResultAssessment, RetryStrategy, tool_selection_for

RETRYABLE = {"unreachable", "timeout", "rate_limited", "exception"}


@dataclass
class Deps:
    """What nodes may use: model (or None), this session's tools, tool context."""

    model: Any
    tools: dict
    ctx: Any
    stats: CallStats
    emit: Callable[[dict], None] = lambda event: None
    pause_on_proposal: bool = False
    extra: dict = field(default_factory=dict)


def label(tool: str) -> str:
    try:
        return catalog.label(tool)
    except KeyError:
        return tool.replace("_", " ")


def _degrade(exc: ModelError) -> dict:
    return {"degraded": True, "degraded_reason": exc.description}


def _can_call(state: dict, deps: Deps) -> bool:
    return deps.model is not None and not state["degraded"]


def _context_lines(state: dict) -> str:
    """Compact recent history and chart summary for classification prompts."""
    lines = [f"{t['role']}: {str(t['content'])[:300]}" for t in state["history"][-4:]]
    text = "Recent conversation:\n" + "\n".join(lines) + "\n" if lines else ""
    if state.get("chart_summary"):
        text += f"Patient in context: {state['chart_summary'][:600]}\n"
    return text


# ---------------------------------------------------------------- ① input
def input_assembly(state: dict, deps: Deps) -> dict:
    """History, entities, unavailable tools; the fast path when code fixes the tool."""
    entities = extract(state["message"])
    entities["has_image"] = bool(state.get("image"))
    update = {"entities": entities,
              "history": state["history"][-2 * prompts.limit("history_turns"):]}
    probe = {**state, **update}
    missing = [t for t in planning.required_tools(probe) if t not in deps.tools]
    update["errors"] = [prompts.message("no_tool", label=label(t)) for t in missing]
    choice = planning.fast_choice(probe, deps.tools)
    if choice:
        tool, args = choice
        update.update(current={"tool": tool, "args": args}, fast_path=True, intent="TOOL_NEEDED",
                      task_summary=_fast_summary(tool, args), outcome="execute")
    elif not _can_call(state, deps):
        update["outcome"] = "synthesize"
    else:
        update["outcome"] = "classify"
    return update


def _fast_summary(tool: str, args: dict) -> str:
    values = ", ".join(v if isinstance(v, str) else ", ".join(v) for v in args.values())
    return f"Clinician request: {label(tool)} ({values})."


# ---------------------------------------------------------------- ② intent
def intent_classify(state: dict, deps: Deps) -> dict:
    user = _context_lines(state) + f"Query: {state['message']}"
    messages = [{"role": "system", "content": prompts.system("intent_classify")},
                {"role": "user", "content": user}]
    try:
        out = deps.model.structured("intent_classify", messages, IntentClassification, deps.stats)
    except InvalidModelOutput:  # issue 9: this node's deterministic fallback
        needs_tool = bool(planning.required_tools(state))
        return {"intent": "TOOL_NEEDED" if needs_tool else "DIRECT",
                "outcome": "select" if needs_tool else "direct"}
    except ModelError as exc:
        return {**_degrade(exc), "outcome": "synthesize"}
    # Routing is code (seed §9): a task pattern that requires a tool overrides a DIRECT
    # verdict, so "save a progress note: …" can never be answered without the tool.
    required = planning.missing_tools(state, deps.tools)
    outcome = "select" if out.intent != "DIRECT" or required else "direct"
    return {"intent": out.intent if outcome == "direct" or out.intent != "DIRECT" else "TOOL_NEEDED",
            "task_summary": out.task_summary,
            "suggested_tool": out.suggested_tool, "outcome": outcome}


# ---------------------------------------------------------------- ③ select
def tool_select(state: dict, deps: Deps) -> dict:
    """Deterministic choice when possible; else stage 1 (tool) and stage 2 (args)."""
    if state["retry_mode"] == "retry_different_args":
        return _select_args(state, deps, state["current"]["tool"], retry=True)
    choice = planning.fast_choice(state, deps.tools)
    if choice:
        return {"current": {"tool": choice[0], "args": choice[1]}, "outcome": "execute"}
    if not deps.tools or not _can_call(state, deps):
        return {"outcome": "synthesize"}
    missing = planning.missing_tools(state, deps.tools)
    if missing and state["tool_results"]:  # ROUTER: a task pattern is unmet, so the tool is code's choice
        return _select_args(state, deps, missing[0])
    try:
        tool = _select_tool(state, deps)
    except InvalidModelOutput:  # issue 9: the node's deterministic fallback
        fallback = [state["suggested_tool"]] + planning.missing_tools(state, deps.tools)
        tool = next((t for t in fallback if t in deps.tools), None)
        if tool is None:
            return {"clarification": prompts.message("ask_ambiguous"), "outcome": "ask"}
    except ModelError as exc:
        return {**_degrade(exc), "outcome": "synthesize"}
    return _select_args(state, deps, tool)


def _select_tool(state: dict, deps: Deps) -> str:
    names = sorted(deps.tools, key=planning.ORDER.index)
    example_tool = state["suggested_tool"] if state["suggested_tool"] in deps.tools else names[0]
    user = prompts.template("tool_select_user").format(
        tool_list="\n".join(f"- {catalog.description(n)}" for n in names),
        example_query=prompts.example(example_tool), example_tool=example_tool,
        history=_context_lines(state) + _prior_results(state), task_summary=state["task_summary"],
        query=state["message"])
    messages = [{"role": "system", "content": prompts.system("tool_select")},
                {"role": "user", "content": user}]
    return deps.model.structured("tool_select", messages, tool_selection_for(names),
                                 deps.stats).tool_name


def _prior_results(state: dict) -> str:
    lines = [f"Already done — {r['label']}: {r['result']['text'][:200]}" for r in state["tool_results"]]
    return "\n".join(lines) + "\n" if lines else ""


def _hints(state: dict) -> str:
    ent, pid = state["entities"], planning.patient_id(state)
    hints = [f"Detected patient ID: {pid}"] if pid else []
    hints += [f"Detected drug name: {d}" for d in ent.get("drugs", [])]
    hints += [f"Detected patient name: {n}" for n in ent.get("patient_names", [])]
    for key, value in (ent.get("dose") or {}).items():
        if value:
            hints.append(f"Detected {key}: {value}")
    for key, value in (ent.get("allergy") or {}).items():
        if value:
            hints.append(f"Detected {key}: {value}")
    return "\n".join(hints) + "\n" if hints else ""


def _select_args(state: dict, deps: Deps, tool: str, retry: bool = False) -> dict:
    """Stage 2: arguments from code when extraction fixes them, else the model."""
    args = None if retry else planning.deterministic_args(tool, state)
    if args is None and _can_call(state, deps):
        prior = f"The previous attempt with {json.dumps(state['current']['args'])} failed.\n" if retry else ""
        user = prompts.template("tool_args_user").format(
            tool_name=tool, description=catalog.description(tool), query=state["message"],
            hints=_hints(state), prior=prior)
        messages = [{"role": "system", "content": prompts.system("tool_args")},
                    {"role": "user", "content": user}]
        try:
            out = deps.model.structured("tool_args", messages, TOOL_ARG_SCHEMAS[tool], deps.stats)
            args = out.model_dump(exclude_none=True)
        except InvalidModelOutput:
            fields = ", ".join(TOOL_ARG_SCHEMAS[tool].model_json_schema().get("required", []))
            return {"clarification": prompts.message("ask_missing", fields=fields), "outcome": "ask"}
        except ModelError as exc:
            return {**_degrade(exc), "outcome": "synthesize"}
    if args is None:
        return {"outcome": "synthesize"}
    return {"current": {"tool": tool, "args": args}, "retry_mode": None, "outcome": "execute"}


# ---------------------------------------------------------------- ④ execute
def tool_execute(state: dict, deps: Deps) -> dict:
    """Run the tool (never raising); writes come back as proposals, never writes."""
    tool, args = state["current"]["tool"], state["current"]["args"]
    is_retry = state["retry_mode"] == "retry_same"
    if not is_retry and any(r["tool"] == tool and r["args"] == args for r in state["tool_results"]):
        return {"notice": None, "outcome": "duplicate"}
    deps.emit({"type": "tool_call", "tool": label(tool), "args": args})
    result = _run(deps, tool, args)
    summary = result.text.splitlines()[0][:200] if result.text else result.status
    deps.emit({"type": "tool_result", "tool": label(tool), "status": result.status,
               "summary": summary, "count": result.count})
    entry = {"tool": tool, "label": label(tool), "args": args, "result": result.to_dict(),
             "quality": None, "summary": summary}
    update = {"tool_results": state["tool_results"] + [entry], "retry_mode": None,
              "step_count": state["step_count"] + 1, "outcome": "classify"}
    if result.status == "proposal" and result.proposal_id:
        update["proposals"] = [result.proposal_id]
    return update


def _run(deps: Deps, tool: str, args: dict) -> ToolResult:
    spec = deps.tools.get(tool)
    if spec is None:
        return ToolResult.failure("forbidden", prompts.message("no_tool", label=label(tool)))
    try:
        result = spec.run(spec.args_model(**args), deps.ctx)
    except ValidationError:
        return ToolResult.failure("invalid", prompts.error_text("invalid", label(tool)))
    except Exception:  # a tool bug must not end the turn (seed §10 layer 1)
        return ToolResult.failure("exception", prompts.error_text("exception", label(tool)))
    if result.status == "error" and not result.text:
        result.text = prompts.error_text(result.error_kind, label(tool))
    return result


# ---------------------------------------------------------------- ⑤ classify
def result_classify(state: dict, deps: Deps) -> dict:
    """Code classifies structurally clear results; the model only plain 'ok' text."""
    entry = dict(state["tool_results"][-1])
    quality = _structural_quality(entry)
    update: dict = {}
    if quality is None and _can_call(state, deps):
        try:
            out = _assess(state, deps, entry)
            quality, entry["summary"] = out.quality, out.brief_summary
        except ModelError as exc:
            update = _degrade(exc)
    entry["quality"] = quality or "success_rich"
    update.update(tool_results=state["tool_results"][:-1] + [entry], outcome="route")
    return update


def _structural_quality(entry: dict) -> str | None:
    res = entry["result"]
    status, count = res["status"], res.get("count")
    if status == "error":
        return "error_retryable" if res.get("error_kind") in RETRYABLE else "error_fatal"
    if status in ("empty", "proposal", "ambiguous"):
        return {"empty": "no_results", "proposal": "proposal", "ambiguous": "ambiguous"}[status]
    if count is not None:
        if entry["tool"] == "search_patient" and count > 1:
            return "ambiguous"
        return "success_rich" if count > 0 else "no_results"
    return None


def _assess(state: dict, deps: Deps, entry: dict) -> ResultAssessment:
    user = prompts.template("result_classify_user").format(
        query=state["message"], task_summary=state["task_summary"], label=entry["label"],
        result=entry["result"]["text"][:2000])
    messages = [{"role": "system", "content": prompts.system("result_classify")},
                {"role": "user", "content": user}]
    return deps.model.structured("result_classify", messages, ResultAssessment, deps.stats)


# ---------------------------------------------------------------- ⑥ router
def router(state: dict, deps: Deps) -> dict:
    """All 'what next' decisions, in code (seed §9, §11)."""
    last = state["tool_results"][-1] if state["tool_results"] else None
    if last and last["quality"] == "ambiguous":
        return {"clarification": _ask_patient(last), "outcome": "ask"}
    if last and last["quality"].startswith("error") and last["tool"] not in state["skipped"]:
        return {"outcome": "error"}
    if last and last["quality"] == "proposal" and deps.pause_on_proposal:
        return {"outcome": "pause"}
    if state["step_count"] >= prompts.limit("max_steps"):
        return {"notice": prompts.message("max_steps", n=state["step_count"]), "outcome": "synthesize"}
    if planning.missing_tools(state, deps.tools):
        return {"outcome": "select"}
    return {"outcome": "synthesize"}


def _ask_patient(entry: dict) -> str:
    res = entry["result"]
    name = entry["args"].get("name", "that name")
    head = prompts.message("ask_patient", n=res.get("count") or "several", name=name)
    return f"{head}\n\n{res['text']}".strip()


# ---------------------------------------------------------------- ⑤a errors
def error_handler(state: dict, deps: Deps) -> dict:
    """Ask-user and skip are code; the model only picks retry-same vs different."""
    last = state["tool_results"][-1]
    kind, tool = last["result"].get("error_kind"), last["tool"]
    tries = state["retries"].get(tool, 0)
    if kind in ("invalid", "ambiguous"):  # the tool's own message says what is missing
        fields = ", ".join(TOOL_ARG_SCHEMAS[tool].model_json_schema().get("required", []))
        question = last["result"]["text"] or prompts.message("ask_missing", fields=fields)
        return {"clarification": question, "outcome": "ask"}
    skip = (kind in ("not_found", "forbidden", "unsupported") or tries >= prompts.limit("max_retries")
            or state["total_retries"] >= prompts.limit("max_total_retries")
            or (kind == "unreachable" and tries >= 1))
    if skip:
        note = last["result"]["text"]
        if tries >= prompts.limit("max_retries"):
            note = prompts.message("skip_retries", label=last["label"]) + " " + note
        return {"skipped": [tool], "errors": [note], "outcome": "skip"}
    strategy, update = _retry_strategy(state, deps, last, tries)
    update.update(retries={**state["retries"], tool: tries + 1}, retry_mode=strategy,
                  total_retries=state["total_retries"] + 1, outcome=strategy)
    return update


def _retry_strategy(state: dict, deps: Deps, last: dict, tries: int) -> tuple[str, dict]:
    if not _can_call(state, deps):
        return "retry_same", {}
    user = prompts.template("retry_user").format(
        label=last["label"], args=json.dumps(last["args"]), error=last["result"]["text"],
        attempts=tries + 1)
    messages = [{"role": "system", "content": prompts.system("retry_strategy")},
                {"role": "user", "content": user}]
    try:
        out = deps.model.structured("retry_strategy", messages, RetryStrategy, deps.stats)
    except ModelError as exc:
        return "retry_same", _degrade(exc)
    event = {"type": "retry_decision", "strategy": out.strategy, "tool": last["label"]}
    deps.emit(event)
    return out.strategy, {"events": [event]}
