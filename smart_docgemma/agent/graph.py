"""The agent graph: one transition table, one loop, and the ``Agent`` facade.

``TRANSITIONS`` is the whole control flow (docs/agent-design.md), visible in one
place: ``(node, outcome) -> next node``, written per node in ``BY_NODE`` whose type
(``Table``) keys each node's row by that node's own outcome ``Literal`` (agent/state.py).
``run_turn`` applies nodes until ``END`` or a pause, with a hard iteration cap. Every node is
wrapped with ``node_start`` / ``node_end`` events (duration, model calls so far).
"""
from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any, TypedDict, cast

from ..errors import UnknownTransition
from ..proposals.followup import followup
from ..reading import states
from ..tools.base import Tool, ToolContext
from ..tools.chart.in_context import ChartInContext
from ..tools.sources.imaging import ImageMeta
from . import chart_context, fallback, languages, nodes, planning, prompts, synthesis
from .lesson_search import Lesson
from .model import CallStats, ModelClient
from .second_look import second_look
from .state import (
    Approval,
    ErrorHandlerOutcome,
    InputAssemblyOutcome,
    IntentClassifyOutcome,
    ResultClassifyOutcome,
    RouterOutcome,
    SecondLookOutcome,
    SynthesizeOutcome,
    ToolExecuteOutcome,
    ToolSelectOutcome,
    Turn,
    Update,
    merge,
    new_turn,
    route_of,
)
from .synthesis import synthesize

END = "END"
PAUSE = "PAUSE"

NODES: dict[str, Callable[[Turn, nodes.Deps], Update[Any]]] = {
    "INPUT_ASSEMBLY": nodes.input_assembly,
    "INTENT_CLASSIFY": nodes.intent_classify,
    "TOOL_SELECT": nodes.tool_select,
    "TOOL_EXECUTE": nodes.tool_execute,
    "RESULT_CLASSIFY": nodes.result_classify,
    "ROUTER": nodes.router,
    "ERROR_HANDLER": nodes.error_handler,
    "SYNTHESIZE": synthesize,
    "SECOND_LOOK": second_look,
}

class Table(TypedDict):
    """Each node's transitions, keyed by that node's own outcomes (mypy rejects another's)."""

    INPUT_ASSEMBLY: dict[InputAssemblyOutcome, str]
    INTENT_CLASSIFY: dict[IntentClassifyOutcome, str]
    TOOL_SELECT: dict[ToolSelectOutcome, str]
    TOOL_EXECUTE: dict[ToolExecuteOutcome, str]
    RESULT_CLASSIFY: dict[ResultClassifyOutcome, str]
    ROUTER: dict[RouterOutcome, str]
    ERROR_HANDLER: dict[ErrorHandlerOutcome, str]
    SYNTHESIZE: dict[SynthesizeOutcome, str]
    SECOND_LOOK: dict[SecondLookOutcome, str]


BY_NODE: Table = {
    "INPUT_ASSEMBLY": {
        "classify": "INTENT_CLASSIFY",
        "execute": "TOOL_EXECUTE",          # fast path: code fixed tool + args
        "synthesize": "SYNTHESIZE",         # degraded, nothing to run
    },
    "INTENT_CLASSIFY": {
        "direct": "SYNTHESIZE",
        "select": "TOOL_SELECT",
        "synthesize": "SYNTHESIZE",         # model failed
    },
    "TOOL_SELECT": {
        "execute": "TOOL_EXECUTE",
        "ask": "SYNTHESIZE",                # could not extract arguments
        "synthesize": "SYNTHESIZE",
    },
    "TOOL_EXECUTE": {
        "classify": "RESULT_CLASSIFY",
        "duplicate": "SYNTHESIZE",          # same tool + same args: not run twice
    },
    "RESULT_CLASSIFY": {"decide": "ROUTER"},
    "ROUTER": {
        "error": "ERROR_HANDLER",
        "ask": "SYNTHESIZE",                # several patients matched
        "select": "TOOL_SELECT",            # a task pattern is unmet
        "synthesize": "SYNTHESIZE",
        "pause": "SECOND_LOOK",             # a write awaits approval: review it first
    },
    "ERROR_HANDLER": {
        "retry_same": "TOOL_EXECUTE",
        "retry_different_args": "TOOL_SELECT",
        "ask": "SYNTHESIZE",
        "skip": "ROUTER",
    },
    "SYNTHESIZE": {
        "review": "SECOND_LOOK",            # a proposal or a therapy change is reviewed
        "done": END,
    },
    "SECOND_LOOK": {"done": END, "pause": PAUSE},
}

# The same table keyed by (node, outcome): the whole control flow in one lookup.
TRANSITIONS: dict[tuple[str, str], str] = {
    (node, outcome): target
    for node, table in cast("dict[str, dict[str, str]]", BY_NODE).items()
    for outcome, target in table.items()
}


def run_turn(state: Turn, deps: nodes.Deps, start: str = "INPUT_ASSEMBLY") -> Turn:
    """Apply nodes from ``start`` until END or PAUSE; returns the final turn."""
    node = start
    for _ in range(prompts.limit("max_iterations")):
        if node in (END, PAUSE):
            break
        state, outcome = _step(state, deps, node)
        node = next_node(node, outcome)
    else:  # the cap was hit: answer with what we have (never loop forever)
        state, _ = _step(
            merge(state, {"notice": prompts.message("max_iterations")}), deps, "SYNTHESIZE"
        )
        node = END
    paused = node == PAUSE
    by_node = dict(state.calls_by_node)
    for name, calls in deps.stats.by_node.items():
        by_node[name] = by_node.get(name, 0) + calls
    return merge(state, {"paused": paused, "next_node": "ROUTER" if paused else None,
                         "model_calls": state.model_calls + deps.stats.calls,
                         "model_seconds": round(state.model_seconds + deps.stats.seconds, 3),
                         "calls_by_node": by_node, "thinking": list(deps.stats.thinking)})


def next_node(node: str, outcome: str) -> str:
    """The table's next node; a pair the table lacks is a bug in a node, never a silent answer."""
    try:
        return TRANSITIONS[(node, outcome)]
    except KeyError:
        raise UnknownTransition(f"{node} returned {outcome!r}, which has no transition") from None


def _step(state: Turn, deps: nodes.Deps, node: str) -> tuple[Turn, str]:
    started = time.monotonic()
    state = merge(state, {"events": [_emit(deps, {"type": "node_start", "node": node})]})
    update = NODES[node](state, deps)
    outcome = update.pop("outcome")
    state = merge(state, update)
    end = {"type": "node_end", "node": node, "outcome": outcome, "model_calls": deps.stats.calls,
           "duration_ms": round((time.monotonic() - started) * 1000, 1)}
    return merge(state, {"nodes": [node], "events": [_emit(deps, end)]}), outcome


def _emit(deps: nodes.Deps, event: dict[str, Any]) -> dict[str, Any]:
    deps.emit(event)
    return event


class TurnResult:
    """One run of the agent as the UI, the trace and the evaluation read it: a view of ``state``."""

    def __init__(self, state: Turn):
        self.state = state

    answer = property(lambda self: self.state.answer or "")
    sources = property(lambda self: self.state.sources)
    events = property(lambda self: self.state.events)
    model_calls = property(lambda self: self.state.model_calls)
    model_seconds = property(lambda self: self.state.model_seconds)
    nodes = property(lambda self: self.state.nodes)
    route = property(lambda self: route_of(self.state))
    proposals = property(lambda self: self.state.proposals)
    degraded = property(lambda self: self.state.degraded)
    thinking = property(lambda self: self.state.thinking)
    calls_by_node = property(lambda self: self.state.calls_by_node)
    paused = property(lambda self: self.state.paused)

    @property
    def seed_budget(self) -> dict[str, Any]:
        return planning.seed_budget(self.state)


class Agent:
    """``Agent(model, tools, ctx).run(message, ...) -> TurnResult``.

    ``model`` is a ``ModelClient`` or None (degraded mode); ``tools`` maps tool
    names to ``tools.base.Tool`` for this session (the granted scopes decide);
    ``ctx`` is the session's ``ToolContext``.
    """

    def __init__(
        self,
        model: ModelClient | None,
        tools: dict[str, Tool],
        ctx: ToolContext | None,
        *,
        pause_on_proposal: bool = False,
        lessons: Iterable[Lesson] = (),
    ):
        self.model, self.tools, self.ctx = model, dict(tools), ctx
        self.pause_on_proposal = pause_on_proposal
        self.lessons = tuple(lessons)  # approved experience-library examples

    def run(
        self,
        message: str,
        *,
        history: list[dict[str, Any]] | None = None,
        chart_summary: str | None = None,
        chart_text: str | None = None,
        chart: ChartInContext | None = None,
        image: bytes | None = None,
        meta: ImageMeta | None = None,
        emit: Callable[[dict[str, Any]], None] | None = None,
    ) -> TurnResult:
        """One turn. An ``image`` comes with its ``meta``, read once from its bytes where it
        arrived (``tools.sources.imaging.image_meta``: the chat on upload, the evaluation harness
        per case); the turn and the imaging tool use that reading and never sniff the bytes
        again. ``chart``: the same chart read typed (the chart tool's ``Chart.in_context``,
        ``tools/chart/in_context.py``), what the reading and the routing take of the chart."""
        if image is not None and meta is None:
            raise TypeError(
                "Agent.run: pass the image's meta (tools.sources.imaging.image_meta) with it"
            )
        accepted = bool(meta and meta["accepted"])
        refused = [] if accepted or not meta else [
            "The attached file is not a supported image (PNG, JPEG or DICOM)."]
        state = new_turn(
            message,
            history=history,
            chart_summary=chart_summary,
            chart_text=chart_context.session_chart(chart_text)
            if chart_context.fits(self.model)
            else None,
            chart=chart,
            image_meta=meta if accepted else None,
            errors=refused,
            patient_id=getattr(self.ctx, "patient_id", None),
        )
        said = [str(t.get("content") or "") for t in history or [] if t.get("role") == "user"]
        deps = self._deps(emit, image if accepted else None, meta if accepted else None,
                          stated=states.stated([*said, message]))
        with languages.answering(self.language):  # templated answers in the clinician's language
            return self._answer(state, deps)

    def next_prompts(self, history: list[dict[str, Any]], *, chart_summary: str | None = None,
                     chart_text: str | None = None) -> list[tuple[str, list[dict[str, Any]]]]:
        """The requests the next turn's classifier and answer will start with, its question not
        yet asked (``history`` as that turn will get it): computed while the clinician reads this
        answer (``web/prefill.py``), so the next question's prompt computes its own words only."""
        state = new_turn(
            "",
            history=history,
            chart_summary=chart_summary,
            chart_text=chart_context.session_chart(chart_text)
            if chart_context.fits(self.model)
            else None,
            patient_id=getattr(self.ctx, "patient_id", None),
        )
        with languages.answering(self.language):
            return [("intent_classify", nodes.intent_messages(state)),
                    ("synthesize", synthesis.answer_messages(state))]

    def _answer(self, state: Turn, deps: nodes.Deps) -> TurnResult:
        circuit = getattr(self.model, "circuit", None)
        if circuit is not None and circuit.is_open:  # known down: no call, no timeout paid
            return self._without_model(state, state, deps, circuit.reason, "circuit_open")
        final = run_turn(state, deps)
        if final.degraded and self.model is not None:  # the model failed on some node
            return self._without_model(state, final, deps, final.degraded_reason, "failed")
        return self._result(final, deps)

    def _without_model(self, fresh: Turn, failed: Turn, deps: nodes.Deps, reason: str | None,
                       cause: str) -> TurnResult:
        """The turn answered again from its first node as no-model mode (agent/fallback.py)."""
        event = fallback.notice(reason)
        deps.emit(event)
        code = replace(deps, model=None, tools=fallback.remembered_tools(deps.tools, failed),
                       ctx=replace(deps.ctx, model=None) if deps.ctx is not None else None)
        start = merge(fresh, {"events": [*failed.events, event], "nodes": failed.nodes})
        final = fallback.labelled(run_turn(start, code), reason, cause)
        fallback.withdraw(deps.ctx, fallback.stray_proposals(failed, final))
        return self._result(final, deps)

    def resume(self, state: Turn, approvals: list[Approval] | None = None,
               emit: Callable[[dict[str, Any]], None] | None = None) -> TurnResult:
        """Continue a paused turn (e.g. from ``turns.store.TurnStore.load``) after the clinician
        decided.

        ``approvals``: ``[{"proposal_id", "decision"}]``, decision ``approved`` or ``rejected``;
        with the card's ``action``, ``result_ref``, ``provenance``, ``reason`` and
        ``changes`` the decided run reads as its outcome (``followup``), which
        the answer always states.
        """
        with languages.answering(self.language):
            return self._resume(state, list(approvals or []), emit)

    @property
    def language(self) -> str:
        return getattr(self.ctx, "language", None) or "en"

    def _resume(self, state: Turn, approvals: list[Approval],
                emit: Callable[[dict[str, Any]], None] | None) -> TurnResult:
        outcomes = {a["proposal_id"]: followup(a) if a.get("action") else
                    prompts.message(f"proposal_{a['decision']}", label=_proposal_label(state, a))
                    for a in approvals if a.get("decision") in ("approved", "rejected")}
        runs = [
            replace(
                run, result=replace(run.result, status="ok", text=outcomes[run.result.proposal_id])
            )
            if run.result.proposal_id in outcomes
            else run
            for run in state.tool_runs
        ]  # decided
        state = merge(state, {"approvals": state.approvals + approvals, "tool_runs": runs,
                              "notice": " ".join(outcomes.values()) or None, "paused": False})
        deps = self._deps(emit, None, None, resumed=True)
        return self._result(run_turn(state, deps, start=state.next_node or "ROUTER"), deps)

    def _deps(self, emit: Callable[[dict[str, Any]], None] | None, image: bytes | None,
              meta: ImageMeta | None,
              resumed: bool = False, stated: tuple[str, ...] = ()) -> nodes.Deps:
        stats = CallStats(slow=emit)  # a model slow to start answering is said as it happens
        ctx = self.ctx
        if ctx is not None:
            bound = self.model.bound(stats) if self.model is not None else None
            ctx = replace(ctx, model=bound, image=image, image_mime=meta["mime"] if meta else None,
                          image_kind=meta["kind"] if meta else None,
                          stated=stated or ctx.stated)
        return nodes.Deps(
            model=self.model,
            tools=self.tools,
            ctx=ctx,
            stats=stats,
            emit=emit or (lambda event: None),
            pause_on_proposal=self.pause_on_proposal and not resumed,
            lessons=self.lessons,
        )

    def _result(self, state: Turn, deps: nodes.Deps) -> TurnResult:
        done = {"type": "done", "model_calls": deps.stats.calls, "degraded": state.degraded}
        deps.emit(done)
        return TurnResult(merge(state, {"events": [done]}))


def _proposal_label(state: Turn, approval: Approval) -> str:
    for run in state.tool_runs:
        if run.result.proposal_id == approval.get("proposal_id"):
            return run.label
    return "proposal"
