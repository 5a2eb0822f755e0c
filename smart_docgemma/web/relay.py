"""The one event relay: a worker's events (``turns/worker.py``) as server-sent events, for a
question (``POST /api/chat``) and for the follow-up a decision earns
(``GET /app/turns/<id>/follow-up``).

Events that queued up while this thread waited for its turn on the CPU leave in one write,
consecutive answer tokens as one ``token`` event: under load a stream costs a few writes, not
one per token, and the clinician sees the same text. The last event is ``done`` with the
finished turn's HTML; at ``until`` (monotonic) the stream says ``detached`` and ends, and the
turn goes on and is stored (``web/streams.py``). A stream with no live queue in this process
(the worker runs in another, or has ended) waits for the stored turn instead.
"""
from __future__ import annotations

import queue
import time
from collections.abc import Callable, Iterator
from typing import Any

from flask import json

from .. import metrics
from ..turns.store import TurnStore
from ..turns.stored import StoredTurn
from .streams import detached
from .trace import progress_event

KEEPALIVE_S = 15
WAIT_S = 120  # longest a stream waits for a turn written elsewhere


def sse(event: str, data: dict[str, Any]) -> str:
    return f"event: {event}\ndata: {json.dumps(data)}\n\n"


def stream(turn_id: str, events: queue.Queue[tuple[str, Any]] | None,
           render_done: Callable[[StoredTurn], str], turns: TurnStore, *,
           until: float = float("inf"), announce: bool = True) -> Iterator[str]:
    """Relay the worker's events as SSE; ``render_done(turn)`` renders the finished turn (in the
    request context, which the stream keeps). ``announce``: a question's stream opens with
    ``turn`` (its id)."""
    if announce:
        yield sse("turn", {"id": turn_id})
    finished = None
    while events is not None and finished is None:
        left = until - time.monotonic()
        if left <= 0:
            metrics.stream_detached()
            yield sse("detached", detached(turn_id))
            return
        try:
            batch = [events.get(timeout=min(KEEPALIVE_S, left))]
        except queue.Empty:
            yield ": still working\n\n"
            continue
        batch += _queued(events)
        finished = next((item for kind, item in batch if kind == "finished"), None)
        if text := "".join(relay([item for kind, item in batch if kind == "event"])):
            yield text
    if finished is None:
        finished = _stored(turn_id, turns, until)
    yield sse("done", {"id": turn_id, "status": finished.status, "html": render_done(finished),
                       "degraded": finished.turn.degraded,
                       "model_calls": finished.turn.model_calls})


def _stored(turn_id: str, turns: TurnStore, until: float) -> StoredTurn:
    """The turn as stored once no worker of this process writes it (or ``WAIT_S`` passed)."""
    wait_until = min(until, time.monotonic() + WAIT_S)
    while turns.get(turn_id).status in ("running", "resuming") and time.monotonic() < wait_until:
        time.sleep(0.5)  # written by another process (or still being written)
    return turns.get(turn_id)


def _queued(events: queue.Queue[tuple[str, Any]]) -> list[tuple[str, Any]]:
    out = []
    while True:
        try:
            out.append(events.get_nowait())
        except queue.Empty:
            return out


def relay(items: list[dict[str, Any]]) -> Iterator[str]:
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
