"""The follow-up after a decision on a card: the paused turn resumes and says what happened.

A turn that drafted a write is stored ``paused``. When the clinician approves (after editing,
or not) or rejects the card, ``resume_after`` claims the turn (``paused → resuming``, one
conditional UPDATE: of two tabs one resumes it) and the turn worker (``turns/worker.py``)
writes one follow-up from the proposal's own record.

- The page's script decides with ``X-Requested-With: fetch``: the follow-up is written in a
  worker thread and streamed by ``GET /app/turns/<id>/follow-up`` (``web/followups.py``), like
  a question.
- A form posted without JavaScript: the follow-up is written before the 303, so the page it
  lands on shows it.

The live event queues are per process (``app.extensions``); a stream request that reaches
another process, or comes after the end, waits for the stored turn instead.
"""
from __future__ import annotations

import queue
import threading
from dataclasses import replace
from typing import Any

from flask import current_app

from .. import inputs
from ..agent.graph import Agent
from ..agent.state import Approval
from ..proposals.store import Proposal
from ..session.launches import LaunchContext
from ..tools.registry import tools_for
from ..turns.store import turn_store
from ..turns.worker import TurnWorker
from .language import page_language
from .modelstatus import get_model

LIVE = "docgemma.followups"


def decision(p: Proposal) -> Approval:
    """What the agent is told about the clinician's decision on ``p``."""
    return {"proposal_id": p.id, "decision": p.status, "action": p.action,
            "result_ref": p.result_ref, "provenance": p.summary.get("provenance"),
            "reason": p.reason, "changes": p.summary.get("changes") or []}


def resume_after(p: Proposal, launch: LaunchContext) -> None:
    """Resume the session's turn paused on ``p``: in a worker whose events the page's script
    streams (``X-Requested-With: fetch``), else now, before the page is answered."""
    turns = turn_store()
    turn_id = turns.paused_with(launch.sid, p.id)
    if turn_id is None or not turns.claim_paused(turn_id):
        return
    ctx = replace(launch.tool_context(), language=page_language())  # in the page's language
    agent = Agent(get_model(current_app), tools_for(launch.scopes), ctx)
    worker = TurnWorker(turn_id, turns, ctx, current_app.config["ANSWER_MAX_CHARS"],
                        tokens_only=True)
    if inputs.header("X-Requested-With") != "fetch":
        worker.resume(agent, decision(p))
        return
    current_app.extensions.setdefault(LIVE, {})[turn_id] = worker.events
    threading.Thread(target=worker.resume, args=(agent, decision(p)),
                     name=f"resume-{turn_id[:8]}", daemon=True).start()


def live(turn_id: str) -> queue.Queue[tuple[str, Any]] | None:
    """The events of the follow-up this process writes for ``turn_id`` (taken: one stream
    relays them), or None."""
    found: queue.Queue[tuple[str, Any]] | None = current_app.extensions.get(LIVE, {}).pop(
        turn_id, None)
    return found
