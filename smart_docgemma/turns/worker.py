"""The one turn worker: a question, or a turn resumed after a decision on its card, run in its
own thread to its end, its events on a queue for whoever relays them.

``TurnWorker`` owns the turn to its end: it stores the result even if the browser goes away
mid-stream, so nothing is lost, and its last event is ``("finished", StoredTurn)``. ``ask`` runs
a question (``Agent.run``); ``resume`` runs the follow-up of a paused turn (``Agent.resume``).
``Leases`` renews the leases of the turns this process runs (``store.py``), and stores the end
of a turn that finished while the database was away as soon as it answers again, so the
clinician's session is not held by a turn whose answer was already streamed. The relay to the
browser is the page's own (``web/relay.py``).
"""
from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from .. import errors
from ..agent.graph import Agent
from ..agent.state import Approval, Turn
from ..audit.turn_records import record_turn
from ..extensions import lazy
from ..proposals.followup import followup
from ..storage import UNREACHABLE
from ..tools.base import ToolContext
from ..tools.chart.in_context import ChartInContext
from .store import HEARTBEAT_S, INTERRUPTED, TurnStatus, TurnStore, turn_store
from .stored import StoredTurn

log = logging.getLogger(__name__)
CANCEL_CHECK_S = 0.25
RETRY_S = 1.0  # how often a database that did not answer is tried again (leases, turn ends)
LEASES = "docgemma.leases"
CANCELLED = "The clinician cancelled the question before it finished."
_CONTROL = {c: None for c in range(32) if chr(c) not in "\n\t"} | {127: None}
FAILED = ("The assistant failed while answering. Nothing was written to the chart. "
          "Please ask again.")


class ChartBrief(Protocol):
    """The chart a question's model context starts from (``web/snapshots.ChartRead``)."""

    @property
    def brief(self) -> str: ...

    @property
    def text(self) -> str: ...

    @property
    def chart(self) -> ChartInContext: ...


@dataclass
class TurnWorker:
    """One turn run by a worker thread; events flow to the relay through ``events``."""

    turn_id: str
    turns: TurnStore
    ctx: ToolContext
    limit: int  # the answer's most characters (``ANSWER_MAX_CHARS``)
    leases: Leases | None = None
    tokens_only: bool = False  # a follow-up relays its words, not its steps
    events: queue.Queue[tuple[str, Any]] = field(default_factory=queue.Queue)
    log: list[dict[str, Any]] = field(default_factory=list)
    streamed: int = 0  # answer characters sent as tokens
    checked: float = field(default_factory=time.monotonic)  # last cancel check
    chart: ChartBrief | None = None  # what ``ask`` read for the model's context

    def emit(self, event: dict[str, Any]) -> None:
        if event.get("type") == "node_start" and self._cancelled():  # stops the agent between steps
            raise errors.TurnCancelled("Cancelled by the clinician.")
        if event.get("type") != "token":
            self.log.append(event)
            if self.tokens_only:
                return
        elif self._streamed(event) > self.limit:
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
        try:
            return self.turns.cancelled(self.turn_id)
        except UNREACHABLE:  # the database is away: the answer goes on, a cancel is seen later
            return False

    def _streamed(self, event: dict[str, Any]) -> int:
        self.streamed += len(event.get("text") or "")
        return self.streamed

    def ask(self, agent: Agent, turn: Turn, *, history: list[dict[str, str]],
            image: bytes | None, chart: Callable[[], ChartBrief | None]) -> StoredTurn:
        """Answer the question ``turn`` holds (``chart`` reads the model's chart context)."""
        started, wall = time.perf_counter(), time.time()
        if self.leases:
            self.leases.hold(self.turn_id)
        try:
            self.chart = read = chart()
            done = agent.run(
                turn.message, history=history, chart_summary=read.brief if read else None,
                chart_text=read.text if read else None, chart=read.chart if read else None,
                image=image, meta=turn.image, emit=self.emit).state
            status: TurnStatus = "paused" if done.paused else "done"
        except errors.TurnCancelled:
            log.info("chat: turn %s cancelled", self.turn_id[:8])
            done, status = replace(turn, events=self.log), "cancelled"
        except Exception:  # the worker owns the turn: it always ends it
            log.exception("chat: turn %s failed", self.turn_id[:8])
            done, status = replace(turn, events=self.log, error=FAILED), "failed"
        done = replace(done, seconds=round(time.perf_counter() - started, 3))
        return self._end(done, status, wall)

    def resume(self, agent: Agent, decided: Approval) -> StoredTurn:
        """Write the follow-up of the turn paused on the decided proposal (claimed: ``resuming``);
        the decision stands whatever the model does, so a failure still says what was done."""
        wall = time.time()
        paused = self.turns.load(self.turn_id)
        try:
            done = agent.resume(paused, [decided], emit=self.emit).state
        except Exception:  # the decision stands; only the model's words around it are missing
            log.exception("chat: resuming turn %s failed", self.turn_id[:8])
            done = replace(paused, paused=False, approvals=[decided], answer=followup(decided))
        return self._end(done, "done", wall, before=tuple(paused.proposals))

    def _end(self, turn: Turn, status: TurnStatus, wall: float,
             before: tuple[str, ...] = ()) -> StoredTurn:
        """The turn recorded (audit), stored with its status, and announced as finished. When
        the database does not answer, the turn is announced all the same and ``Leases`` stores
        it once the database is back (the turn stays this worker's meanwhile)."""
        if turn.answer:
            turn = replace(turn, answer=bounded(turn.answer, self.limit))
        later = False
        try:
            trail = getattr(self.ctx.fhir, "audit", None)
            turn, status = record_turn(trail, self.turn_id, turn, status, before=before)
            try:
                status = self._store(turn, status, wall)
            except UNREACHABLE:
                if self.leases is None:
                    raise
                log.warning("chat: turn %s ended while the database was away; stored once it "
                            "answers", self.turn_id[:8])
                self.leases.store_later(self.turn_id, _Ending(self, turn, status, wall))
                later = True
            if status == "failed" and not turn.error:  # swept as interrupted while it ran late
                turn = replace(turn, error=INTERRUPTED)
        finally:
            if self.leases and not later:
                self.leases.release(self.turn_id)
            ended = StoredTurn(id=self.turn_id, sid=self.ctx.sid or "", status=status,
                               created_at=wall, turn=turn)
            self.events.put(("finished", ended))
        return ended

    def _store(self, turn: Turn, status: TurnStatus, wall: float) -> TurnStatus:
        """The ended turn stored; what a cancelled turn proposed before it stopped withdrawn."""
        status = self.turns.finish(self.turn_id, turn, status)
        if status == "cancelled":
            self.ctx.store().withdraw(self.ctx.sid or "", since=wall, reason=CANCELLED)
        return status


@dataclass(frozen=True)
class _Ending:
    """A turn's end that the database did not take: stored again by ``Leases`` until it does."""

    worker: TurnWorker
    turn: Turn
    status: TurnStatus
    wall: float

    def __call__(self) -> TurnStatus:
        return self.worker._store(self.turn, self.status, self.wall)


def bounded(text: str | None, limit: int) -> str:
    """Model text without control characters, cut at ``limit`` with a visible note (a runaway
    generation must not fill the database or the page)."""
    clean = (text or "").translate(_CONTROL)
    if len(clean) <= limit:
        return clean
    return clean[:limit] + f"\n\n*[The answer was cut at {limit} characters.]*"


class Leases:
    """The leases of the turns this worker runs (turns/store.py), renewed together every few
    seconds by one thread: a worker that dies stops renewing, and its turns are then stored
    as interrupted instead of running forever. One thread and one UPDATE for all of them: a
    thread per turn cost a thread start per question.

    The same thread stores the turns that ended while the database was away (``store_later``):
    every ``RETRY_S`` until the database answers, so a database restart holds the clinician's
    session no longer than the database is down (the turn's lease would otherwise have to run
    out first). Leases are renewed every ``RETRY_S`` too while renewal fails, so a turn still
    running is renewed as soon as the database is back, before its lease can be found stale."""

    def __init__(self, turns: TurnStore):
        self.turns = turns
        self.every = min(HEARTBEAT_S, turns.lease_s / 3)
        self._held: set[str] = set()
        self._ending: dict[str, Callable[[], object]] = {}
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
            self._ending.pop(turn_id, None)

    def store_later(self, turn_id: str, store: Callable[[], object]) -> None:
        """Run ``store`` (the turn's end) once the database answers, then release the turn."""
        with self._lock:
            self._ending[turn_id] = store
        self.hold(turn_id)

    def ending(self) -> list[str]:
        """The turns whose end waits for the database."""
        with self._lock:
            return sorted(self._ending)

    def _renew(self) -> None:
        wait = self.every
        while True:
            time.sleep(wait)
            with self._lock:
                ending = list(self._ending.items())
                held = sorted(self._held - set(self._ending))
            answered = self._store_ended(ending) and self._beat(held)
            wait = self.every if answered else RETRY_S

    def _store_ended(self, ending: list[tuple[str, Callable[[], object]]]) -> bool:
        for turn_id, store in ending:
            try:
                store()
            except UNREACHABLE:
                return False
            except Exception:  # not the database being away: the lease will run out instead
                log.exception("chat: storing the end of turn %s failed", turn_id[:8])
            self.release(turn_id)
        return True

    def _beat(self, held: list[str]) -> bool:
        if not held:
            return True
        try:
            self.turns.beat_all(held)
        except Exception:  # a database hiccup: tried again in RETRY_S
            log.warning("chat: lease renewal of %d turns failed", len(held))
            return False
        return True


def leases(app: Any = None) -> Leases:
    """This worker's ``Leases`` (one per app)."""
    return lazy(app, LEASES, lambda app: Leases(turn_store(app)))
