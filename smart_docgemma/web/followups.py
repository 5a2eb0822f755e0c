"""The follow-up after a decision on a card: the paused turn resumes and says what happened.

A turn that drafted a write is stored ``paused``. When the clinician approves
(after editing, or not) or rejects the card, ``resume_after`` claims the turn
(``paused → resuming``, one conditional UPDATE: of two tabs one resumes it)
and ``Agent.resume`` writes one follow-up from the proposal's own record.

- The page's script decides with ``X-Requested-With: fetch``: the follow-up is
  written by a worker thread and streamed by ``GET /app/turns/<id>/follow-up``
  (``token`` events, then ``done`` with the turn's HTML), like a question.
- A form posted without JavaScript: the follow-up is written before the 303,
  so the page it lands on shows it.

The live token queues are per process (``app.extensions``); a stream request
that reaches another process, or comes after the end, waits for the stored
turn instead.
"""
from __future__ import annotations

import logging
import queue
import threading
import time
from dataclasses import replace

from flask import Blueprint, Response, current_app, render_template, stream_with_context

from .. import errors, metrics
from ..agent.graph import Agent
from ..agent.state import Approval
from ..audit.turn_records import record_turn
from ..proposals.followup import followup
from ..proposals.store import Proposal
from ..session import launches as sessions
from ..tools.registry import tools_for
from ..turns.store import turn_store
from .chat import turn_view
from .jobs import KEEPALIVE_S, sse
from .language import page_language
from .markup import bounded
from .modelstatus import get_model
from .streams import deadline, detached, held, stream_slots

log = logging.getLogger(__name__)
bp = Blueprint("followups", __name__)
WAIT_S = 120  # longest a stream waits for a follow-up written elsewhere


def decision(p: Proposal) -> Approval:
    """What the agent is told about the clinician's decision on ``p``."""
    return {"proposal_id": p.id, "decision": p.status, "action": p.action,
            "result_ref": p.result_ref, "provenance": p.summary.get("provenance"),
            "reason": p.reason, "changes": p.summary.get("changes") or []}


def resume_after(p, launch, *, stream: bool = False) -> None:
    """Resume the session's turn paused on ``p``: now, or in a worker whose tokens are streamed."""
    turns = turn_store()
    turn_id = turns.paused_with(launch.sid, p.id)
    if turn_id is None or not turns.claim_paused(turn_id):
        return
    # the follow-up in the page's language
    ctx = replace(launch.tool_context(), language=page_language())
    agent = Agent(get_model(current_app), tools_for(launch.scopes), ctx)
    run = _Resume(turn_id, turns, agent, decision(p), current_app.config["ANSWER_MAX_CHARS"])
    if not stream:
        return run()
    current_app.extensions.setdefault("docgemma.followups", {})[turn_id] = run.events
    threading.Thread(target=run, name=f"resume-{turn_id[:8]}", daemon=True).start()


class _Resume:
    """One resumed turn: the agent's follow-up, stored, with its tokens on ``events``."""

    def __init__(self, turn_id, turns, agent, decided: Approval, limit: int):
        self.turn_id, self.turns, self.agent, self.decided, self.limit = turn_id, turns, agent, decided, limit
        self.events: queue.Queue = queue.Queue()

    def __call__(self) -> None:
        turn = self.turns.load(self.turn_id)
        try:
            done = self.agent.resume(turn, [self.decided], emit=self._emit).state
            done = replace(done, answer=bounded(done.answer, self.limit))
        except Exception:  # the decision stands; only the model's words around it are missing
            log.exception("chat: resuming turn %s failed", self.turn_id[:8])
            done = replace(turn, paused=False, approvals=[self.decided], answer=followup(self.decided))
        trail = getattr(self.agent.ctx.fhir, "audit", None)
        done, status = record_turn(trail, self.turn_id, done, "done", before=tuple(turn.proposals))
        try:
            self.turns.finish(self.turn_id, done, status)
        finally:
            self.events.put(("finished", None))

    def _emit(self, event: dict) -> None:
        if event.get("type") == "token":
            self.events.put(("token", event.get("text") or ""))


@bp.get("/app/turns/<turn_id>/follow-up")
def follow_up(turn_id: str):
    """The follow-up's tokens as they are written, then the turn's HTML (``done``)."""
    launch = sessions.current_launch()
    if turn_store().get(turn_id).sid != launch.sid:
        raise errors.NotFound("No such turn in this session.")
    live = current_app.extensions.get("docgemma.followups", {}).get(turn_id)
    slot = stream_slots().take(launch.sid)
    events = held(_relay(turn_id, live, deadline()), slot)
    response = Response(stream_with_context(events), mimetype="text/event-stream",
                        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
    response.call_on_close(slot.release)
    return response


def _relay(turn_id: str, live: queue.Queue | None, until: float):
    while live is not None:
        left = until - time.monotonic()
        if left <= 0:
            metrics.stream_detached()
            yield sse("detached", detached(turn_id))
            return
        try:
            kind, text = live.get(timeout=min(KEEPALIVE_S, left))
        except queue.Empty:
            yield ": still working\n\n"
            continue
        if kind == "finished":
            current_app.extensions.get("docgemma.followups", {}).pop(turn_id, None)
            break
        yield sse("token", {"text": text})
    turns, wait_until = turn_store(), min(until, time.monotonic() + WAIT_S)
    while turns.get(turn_id).status == "resuming" and time.monotonic() < wait_until:
        time.sleep(0.5)  # written by another process (or still being written)
    stored = turns.get(turn_id)
    yield sse("done", {"id": turn_id, "status": stored.status,
                        "html": render_template("chat/_turn.html", turn=turn_view(stored))})
