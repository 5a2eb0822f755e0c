"""The state of one agent turn: a typed ``Turn``, turned into JSON only where it is stored.

Nodes never mutate a turn; each returns an ``Update`` (the fields it changes,
and its ``Outcome``, which the transition table turns into the next node),
applied by ``merge``: the list fields named in ``APPEND`` accumulate, the other
fields are replaced. A turn holds plain data (the attached image is
referenced by its meta, never its bytes), so a turn paused on an approval can
be stored (``dumps``) and resumed later (``loads``) — the chat's turn store
keeps exactly this JSON.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any, Generic, Literal, TypeVar, get_args

from pydantic import TypeAdapter, ValidationError
from typing_extensions import TypedDict  # pydantic reads TypedDicts from here before 3.12

from ..approval.types import Approval as Approval  # the decision a paused turn resumes with
from ..grounding.check import Citation, SentenceCheck
from ..reading.entities import Entities as Entities  # made by extraction, kept on the turn
from ..reading.request import Request
from ..tools.base import Source, ToolResult
from ..tools.chart.in_context import ChartInContext
from ..tools.sources.imaging import ImageMeta

APPEND = ("events", "nodes", "errors", "proposals", "thinking", "sources", "skipped")

# Each node's own outcomes: a node returns an ``Update[ItsOutcome]``, so mypy rejects a node that
# returns another node's outcome, and agent/graph.py's table is keyed by (node, its outcome).
InputAssemblyOutcome = Literal["classify", "execute", "synthesize"]
IntentClassifyOutcome = Literal["direct", "select", "synthesize"]
ToolSelectOutcome = Literal["execute", "ask", "synthesize"]
ToolExecuteOutcome = Literal["classify", "duplicate"]
ResultClassifyOutcome = Literal["decide"]
RouterOutcome = Literal["error", "ask", "select", "synthesize", "pause"]
ErrorHandlerOutcome = Literal["retry_same", "retry_different_args", "ask", "skip"]
SynthesizeOutcome = Literal["review", "done"]
SecondLookOutcome = Literal["done", "pause"]
# Every outcome of every node (what a ``node_end`` event may carry).
Outcome = Literal[
    InputAssemblyOutcome,
    IntentClassifyOutcome,
    ToolSelectOutcome,
    ToolExecuteOutcome,
    ResultClassifyOutcome,
    RouterOutcome,
    ErrorHandlerOutcome,
    SynthesizeOutcome,
    SecondLookOutcome,
]
NodeOutcome = TypeVar("NodeOutcome", bound=str)  # one node's outcome Literal


@dataclass(frozen=True)
class ToolCall:
    """A tool about to run and its validated arguments."""

    tool: str
    args: dict[str, Any]


@dataclass(frozen=True)
class ToolRun:
    """One tool run of the turn: what was asked, what came back, how it was judged."""

    tool: str
    label: str  # the clinical label the clinician and the model read
    args: dict[str, Any]
    result: ToolResult
    quality: str | None = None  # RESULT_CLASSIFY's verdict: success_rich, no_results, error_fatal…
    summary: str = ""  # one line for the trace and the progress list


@dataclass(frozen=True)
class TurnReview:
    """The second look kept on a turn (agent/second_look.py): the review shown under the answer
    and on the cards, and what it already covered, so a resumed turn is not reviewed twice."""

    severity: str = "none"  # none | low | high
    findings: tuple[str, ...] = ()
    reviewed_by: str = "deterministic"  # deterministic | deterministic+model
    note: str = ""
    proposals: tuple[str, ...] = ()  # the proposals reviewed so far
    answer_reviewed: bool = False  # the answer recommended a therapy change and was reviewed


@dataclass(frozen=True)
class Turn:
    """Everything one turn knows, from the question to the answer."""

    message: str
    # recent {"role", "content"} exchanges
    history: list[dict[str, Any]] = field(default_factory=list)
    chart_summary: str | None = None
    # the session's read of the chart as SYNTHESIZE reads it (chart_context)
    chart_text: str | None = None
    # the same read typed, as the reading and the routing take it (None: no chart was read)
    chart: ChartInContext | None = None
    patient_id: str | None = None  # the launch patient
    image: ImageMeta | None = None  # what the attachment's bytes said, never the bytes
    entities: Entities = field(default_factory=Entities)  # what extraction found in the message
    request: Request | None = None  # the message read once (INPUT_ASSEMBLY): what every step reads
    intent: str | None = None  # DIRECT | TOOL_NEEDED
    task_summary: str = ""
    suggested_tool: str | None = None
    current: ToolCall | None = None  # the call TOOL_EXECUTE runs next
    tool_runs: list[ToolRun] = field(default_factory=list)
    step_count: int = 0
    retries: dict[str, int] = field(default_factory=dict)  # tool -> retries so far
    total_retries: int = 0
    retry_mode: str | None = None  # retry_same | retry_different_args
    errors: list[str] = field(default_factory=list)  # pre-formatted, clinician-readable
    skipped: list[str] = field(default_factory=list)  # tools ERROR_HANDLER gave up on
    clarification: str | None = None  # a question for the clinician, answered without the model
    notice: str | None = None  # e.g. the step limit was reached
    degraded: bool = False
    degraded_reason: str | None = None
    proposals: list[str] = field(default_factory=list)  # proposal ids awaiting approval
    # the pending cards a follow-up re-drafts, withdrawn once replaced
    supersedes: tuple[str, ...] = ()
    # the decisions a paused turn resumed with
    approvals: list[Approval] = field(default_factory=list)
    answer: str | None = None
    asked: str | None = None  # SYNTHESIZE's own part as the model read it (the next turns' history)
    second_look: TurnReview | None = None  # when the draft earned one
    sources: list[Source] = field(default_factory=list)
    cited_answer: str | None = None  # the answer with numbered citation links and marks (shown)
    citations: list[Citation] = field(default_factory=list)  # the answer's numbered citations
    grounding: list[SentenceCheck] = field(default_factory=list)  # each sentence's verdict
    # node names in order (the route is route_of(turn))
    nodes: list[str] = field(default_factory=list)
    # every event emitted, except answer tokens
    events: list[dict[str, Any]] = field(default_factory=list)
    thinking: list[str] = field(default_factory=list)
    model_calls: int = 0
    model_seconds: float = 0.0
    calls_by_node: dict[str, int] = field(default_factory=dict)
    next_node: str | None = None  # where a paused turn resumes
    paused: bool = False
    seconds: float = 0.0  # wall time the clinician waited (set by whoever runs the turn)
    error: str | None = None  # why the turn failed, when it did (nothing was written)



class Changes(TypedDict, total=False):
    """The ``Turn`` fields a node (or a helper of one) changes."""

    approvals: list[Approval]
    message: str
    history: list[dict[str, Any]]
    chart_summary: str | None
    chart_text: str | None
    chart: ChartInContext | None
    patient_id: str | None
    image: dict[str, Any] | None
    entities: Entities
    request: Request | None
    intent: str | None
    task_summary: str
    suggested_tool: str | None
    current: ToolCall | None
    tool_runs: list[ToolRun]
    step_count: int
    retries: dict[str, int]
    total_retries: int
    retry_mode: str | None
    errors: list[str]
    skipped: list[str]
    clarification: str | None
    notice: str | None
    degraded: bool
    degraded_reason: str | None
    proposals: list[str]
    supersedes: tuple[str, ...]
    answer: str | None
    asked: str | None
    second_look: TurnReview | None
    sources: list[Source]
    nodes: list[str]
    events: list[dict[str, Any]]
    thinking: list[str]
    model_calls: int
    model_seconds: float
    calls_by_node: dict[str, int]
    next_node: str | None
    paused: bool
    seconds: float
    error: str | None
    cited_answer: str | None
    citations: list[Citation]
    grounding: list[SentenceCheck]


class Update(Changes, Generic[NodeOutcome], total=False):
    """What a node returns: the ``Turn`` fields it changes and its outcome, one of its own
    (``Update[RouterOutcome]`` for ROUTER)."""

    outcome: NodeOutcome


def new_turn(
    message: str,
    *,
    history: list[dict[str, Any]] | None = None,
    chart_summary: str | None = None,
    chart_text: str | None = None,
    chart: ChartInContext | None = None,
    image_meta: ImageMeta | None = None,
    patient_id: str | None = None,
    errors: tuple[str, ...] | list[str] = (),
) -> Turn:
    """A fresh turn for ``message``."""
    return Turn(
        message=message,
        history=list(history or []),
        chart_summary=chart_summary,
        chart_text=chart_text,
        chart=chart,
        patient_id=patient_id,
        image=image_meta,
        errors=list(errors),
    )


def merge(turn: Turn, update: Changes | Update[Any] | dict[str, Any]) -> Turn:
    """A new turn with ``update`` applied (lists in ``APPEND`` are extended)."""
    values: dict[str, Any] = dict(update)
    changes = {
        key: getattr(turn, key) + list(value) if key in APPEND else value
        for key, value in values.items()
    }
    return replace(turn, **changes)


_ADAPTER = TypeAdapter(Turn)


def to_dict(turn: Turn) -> dict[str, Any]:
    """The turn as JSON-ready data (what the chat's turn store keeps)."""
    data: dict[str, Any] = _ADAPTER.dump_python(turn, mode="json")
    return data


def from_dict(data: dict[str, Any]) -> Turn:
    """A turn back from ``to_dict`` data, validated field by field."""
    return _ADAPTER.validate_python(_upgraded(data))


def dumps(turn: Turn) -> str:
    return _ADAPTER.dump_json(turn).decode()


def loads(text: str) -> Turn:
    try:
        return _ADAPTER.validate_json(text)
    except ValidationError:  # read as JSON, as stored: a ``data`` union resolves as it was dumped
        return _ADAPTER.validate_json(json.dumps(_upgraded(json.loads(text))))


def _upgraded(data: dict[str, Any]) -> dict[str, Any]:
    """A turn stored before the chart in context was typed: its request's medications were
    generic names only; each becomes a medication of that name (nothing else was known)."""
    chart = (data.get("request") or {}).get("chart") or {}
    meds = chart.get("medications") or []
    if any(isinstance(m, str) for m in meds):
        chart["medications"] = [{"text": m, "names": [m]} if isinstance(m, str) else m
                                for m in meds]
    return data


# The route a turn took, the one vocabulary for it: the evaluation's cases (``route:`` in the YAML)
# and scores, ``docgemma-eval --stored`` and the ``docgemma_turns_total{route}`` metric.
Route = Literal["direct", "tool", "proposal", "ask", "error"]
ROUTES: tuple[Route, ...] = get_args(Route)


def route_of(turn: Turn) -> Route:
    """ask > error > proposal > tool > direct, from the turn's final state."""
    if turn.clarification:
        return "ask"
    if turn.skipped or any(run.result.status == "error" for run in turn.tool_runs):
        return "error"
    if turn.proposals:
        return "proposal"
    return "tool" if turn.tool_runs else "direct"
