"""A turn's worker thread and the event stream that relays it to the browser.

``TurnJob`` runs the agent in its own thread and owns the turn to its end: it
stores the result even if the browser goes away mid-stream, so nothing is lost.
``stream`` turns the job's events into server-sent events for ``POST /api/chat``.
"""
from __future__ import annotations

import logging
import queue
import threading
import time
from dataclasses import dataclass, field, replace
from typing import Any, cast

from flask import json

from .. import errors, metrics
from ..agent.graph import Agent
from ..agent.lesson_search import Lesson
from ..agent.model import ModelClient
from ..agent.state import StoredTurn, Turn
from ..audit.turn_records import record_turn
from ..extensions import lazy
from ..proposals.store import ProposalStore
from ..tools.base import Tool, ToolContext
from ..tools.chart.chart import read_for_turn
from ..turns.store import HEARTBEAT_S, INTERRUPTED, TurnStatus, TurnStore, turn_store
from .markup import bounded
from .prefill import prefill_next_turn
from .snapshots import ChartRead, ChartSnapshots
from .streams import detached
from .trace import progress_event

log = logging.getLogger(__name__)
KEEPALIVE_S = 15
CANCEL_CHECK_S = 0.25
LEASES = "docgemma.leases"
CANCELLED = "The clinician cancelled the question before it finished."


@dataclass
class TurnJob:
    """One turn run by a worker thread; events flow to the stream through ``events``."""

    turn_id: str
    turn: Turn  # as started: the question and the image's meta
    history: list[dict[str, str]]
    image: bytes | None
    ctx: ToolContext
    turns: TurnStore
    leases: Leases
    charts: ChartSnapshots
    model: ModelClient | None
    tools: dict[str, Tool]
    lessons: tuple[Lesson, ...] = ()  # approved experience-library examples
    # ("finished", StoredTurn) last
    events: queue.Queue[tuple[str, Any]] = field(default_factory=queue.Queue)
    log: list[dict[str, Any]] = field(default_factory=list)
    streamed: int = 0  # answer characters sent as tokens
    # last cancel check (started: none needed)
    checked: float = field(default_factory=time.monotonic)

    def emit(self, event: dict) -> None:
        if event.get("type") == "node_start" and self._cancelled():
            # stops the agent between steps
            raise errors.TurnCancelled("Cancelled by the clinician.")
        if event.get("type") != "token":
            self.log.append(event)
        elif self._streamed(event) > self.ctx.config["ANSWER_MAX_CHARS"]:
            return  # a runaway answer: the stored turn is cut, the stream stops growing
        self.events.put(("event", event))

    def _cancelled(self) -> bool:
        """Has the clinician cancelled? Asked of the database (the cancel may reach another
        worker) at most every ``CANCEL_CHECK_S``: steps that follow each other within
        milliseconds need no query each; a cancel seen late still ends the turn cancelled,
        because ``finish`` keeps a cancelled turn cancelled and withdraws its proposals."""
        now = time.monotonic()
        if now - self.checked < CANCEL_CHECK_S:
            return False
        self.checked = now
        return self.turns.cancelled(self.turn_id)

    def _streamed(self, event: dict) -> int:
        self.streamed += len(event.get("text") or "")
        return self.streamed

    def run(self) -> None:
        started, wall = time.perf_counter(), time.time()
        self.leases.hold(self.turn_id)
        agent, chart = Agent(self.model, self.tools, self.ctx, lessons=self.lessons, pause_on_proposal=True), None
        try:
            chart = self._chart()
            turn = agent.run(
                self.turn.message, history=self.history, chart_summary=chart.brief if chart else None,
                chart_text=chart.text if chart else None,
                image=self.image, meta=self.turn.image, emit=self.emit).state
            status: TurnStatus = "paused" if turn.paused else "done"
        except errors.TurnCancelled:
            log.info("chat: turn %s cancelled", self.turn_id[:8])
            turn, status = replace(self.turn, events=self.log), "cancelled"
        except Exception:  # the worker owns the turn: it always ends it
            log.exception("chat: turn %s failed", self.turn_id[:8])
            turn, status = replace(self.turn, events=self.log, error="The assistant failed while answering. "
                                   "Nothing was written to the chart. Please ask again."), "failed"
        turn = replace(turn, seconds=round(time.perf_counter() - started, 3))
        if turn.answer:
            turn = replace(turn, answer=bounded(turn.answer, self.ctx.config["ANSWER_MAX_CHARS"]))
        try:
            trail = getattr(self.ctx.fhir, "audit", None)
            turn, status = record_turn(trail, self.turn_id, turn, status)
            status = self.turns.finish(self.turn_id, turn, status)
            if status == "cancelled":  # what the turn proposed before it stopped is withdrawn
                store = cast(ProposalStore, self.ctx.store())  # the tools see it as a ProposalSink
                store.withdraw(self.ctx.sid or "", since=wall, reason=CANCELLED)
            if status == "failed" and not turn.error:  # swept as interrupted while it ran late
                turn = replace(turn, error=INTERRUPTED)
        finally:
            self.leases.release(self.turn_id)
            self.events.put(("finished", StoredTurn(id=self.turn_id, sid=self.ctx.sid or "", status=status,
                                                    created_at=wall, turn=turn)))
        if status == "done":
            self._prefill_next(agent, chart)

    def _prefill_next(self, agent: Agent, chart: ChartRead | None) -> None:
        """The next turn's prompts computed while the clinician reads this answer
        (``web/prefill.py``)."""
        if self.model is None or not self.ctx.config.get("MODEL_PREFILL_NEXT_TURN"):
            return
        try:
            requests = agent.next_prompts(self.turns.history(self.ctx.sid or ""),
                                          chart_summary=chart.brief if chart else None,
                                          chart_text=chart.text if chart else None)
        except Exception:  # nothing depends on it: the next question computes its own prompt
            log.exception("chat: next turn's prompts not built")
            return
        prefill_next_turn(self.model, requests)

    def _chart(self) -> ChartRead | None:
        """The launch patient's chart for the model's context (None if unreadable): the
        session's read of the last ``CHART_FRESH_S`` seconds, else read now (and kept in
        ``ctx.chart_read`` for this turn's drug questions)."""
        sid, patient = self.ctx.sid or "", self.ctx.patient_id
        if not patient:
            return None
        kept = self.charts.fresh(sid, patient)
        if kept is not None:
            return kept
        try:
            chart = read_for_turn(self.ctx)
        except errors.DocGemmaError as exc:
            log.info("chat: chart prefetch failed (%s)", exc.error)
            return None
        kept = ChartRead(chart.brief, chart.text)
        self.charts.keep(sid, patient, kept)
        return kept


class Leases:
    """The leases of the turns this worker runs (turns/store.py), renewed together every few
    seconds by one thread: a worker that dies stops renewing, and its turns are then stored
    as interrupted instead of running forever. One thread and one UPDATE for all of them: a
    thread per turn cost a thread start per question."""

    def __init__(self, turns: TurnStore):
        self.turns = turns
        self.every = min(HEARTBEAT_S, turns.lease_s / 3)
        self._held: set[str] = set()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def hold(self, turn_id: str) -> None:
        with self._lock:
            self._held.add(turn_id)
            if self._thread is None or not self._thread.is_alive():  # none yet, or forked
                self._thread = threading.Thread(target=self._renew, name="turn-leases", daemon=True)
                self._thread.start()

    def release(self, turn_id: str) -> None:
        with self._lock:
            self._held.discard(turn_id)

    def _renew(self) -> None:
        while True:
            time.sleep(self.every)
            with self._lock:
                held = sorted(self._held)
            if not held:
                continue
            try:
                self.turns.beat_all(held)
            except Exception:  # a database hiccup: the next round tries again
                log.warning("chat: lease renewal of %d turns failed", len(held))


def leases(app=None) -> Leases:
    """This worker's ``Leases`` (one per app)."""
    return lazy(app, LEASES, lambda app: Leases(turn_store(app)))


def sse(event: str, data: dict) -> str:
    return f"event: {event}\ndata: {json.dumps(data)}\n\n"


def stream(job: TurnJob, render_done, until: float = float("inf")):
    """Relay the worker's events as SSE; ``render_done(turn)`` renders the finished turn (in the
    request context, which the stream keeps). At ``until`` (monotonic) the stream says
    ``detached`` and ends; the turn goes on and is stored (``web/streams.py``).

    Events that queued up while this thread waited for its turn on the CPU leave in one write,
    consecutive answer tokens as one ``token`` event: under load a stream costs a few writes,
    not one per token, and the clinician sees the same text."""
    yield sse("turn", {"id": job.turn_id})
    while True:
        left = until - time.monotonic()
        if left <= 0:
            metrics.stream_detached()
            yield sse("detached", detached(job.turn_id))
            return
        try:
            batch = [job.events.get(timeout=min(KEEPALIVE_S, left))]
        except queue.Empty:
            yield ": still working\n\n"
            continue
        batch += _queued(job.events)
        finished = next((item for kind, item in batch if kind == "finished"), None)
        text = "".join(relay([item for kind, item in batch if kind == "event"]))
        if finished is not None:
            html = render_done(finished)
            yield text + sse("done", {"id": job.turn_id, "status": finished.status, "html": html,
                                      "degraded": finished.turn.degraded,
                                      "model_calls": finished.turn.model_calls})
            return
        if text:
            yield text


def _queued(events: queue.Queue) -> list:
    out = []
    while True:
        try:
            out.append(events.get_nowait())
        except queue.Empty:
            return out


def relay(items: list[dict]):
    """SSE for the agent's events in order: runs of tokens joined, progress as shown."""
    tokens = []
    for item in items:
        if item.get("type") == "token":
            tokens.append(item["text"])
            continue
        if tokens:
            yield sse("token", {"text": "".join(tokens)})
            tokens = []
        if (shown := progress_event(item)) is not None:
            yield sse("progress", shown)
    if tokens:
        yield sse("token", {"text": "".join(tokens)})
