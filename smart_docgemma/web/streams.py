"""The page's event streams (a question's answer, a decision's follow-up) hold a worker thread
each until they end, so each is bounded (docs/operations.md, "Streams and threads"):

- a stream lives at most ``STREAM_MAX_S``: then it says ``detached`` and ends. The turn goes on in
  its own thread and is stored when it ends; the page reads it from ``GET /app/turns/<id>``, as
  after a dropped connection (``app.js: recover``);
- a session holds at most ``STREAMS_PER_SESSION`` streams in a worker (429 beyond), a worker at
  most ``STREAMS_PER_WORKER`` (503 beyond, so the rest of ``THREADS`` always serve pages, CDS and
  ``/healthz``), both with ``Retry-After`` and checked before a turn starts.

The slot is given back when the stream ends or the server closes the response (``held`` and
``call_on_close``), however it ended: finished, detached, or the browser gone.
"""
from __future__ import annotations

import threading
import time
from collections import Counter

from flask import current_app

from .. import errors, metrics
from ..extensions import lazy

SLOTS = "docgemma.stream_slots"


class StreamSlots:
    """This worker's open event streams, in all and per session."""

    def __init__(self, per_worker: int, per_session: int):
        self.per_worker, self.per_session = int(per_worker), int(per_session)
        self._open: Counter[str] = Counter()
        self._lock = threading.Lock()

    def take(self, sid: str) -> Slot:
        with self._lock:
            if self._open[sid] >= self.per_session:
                metrics.stream_refused("session")
                exc = errors.RateLimited("This page already has an answer streaming. Wait for it, "
                                         "or reload the page to see it.")
                exc.retry_after = 2
                raise exc
            if sum(self._open.values()) >= self.per_worker:
                metrics.stream_refused("worker")
                raise errors.ServerBusy("The assistant is answering as many questions as it can at "
                                        "once. Ask again in a few seconds.")
            self._open[sid] += 1
        return Slot(self, sid)

    def _release(self, sid: str) -> None:
        with self._lock:
            self._open[sid] -= 1
            if self._open[sid] <= 0:
                del self._open[sid]

    def open(self) -> int:
        with self._lock:
            return sum(self._open.values())


class Slot:
    """One taken slot; ``release`` is safe to call more than once."""

    def __init__(self, slots: StreamSlots, sid: str):
        self.slots, self.sid, self._held = slots, sid, True

    def release(self) -> None:
        if self._held:
            self._held = False
            self.slots._release(self.sid)


def held(events, slot: Slot):
    """``events`` relayed while ``slot`` is held; given back when they end (the response's
    ``call_on_close`` gives it back too, for a stream the server closes before it starts)."""
    try:
        yield from events
    finally:
        slot.release()


def stream_slots(app=None) -> StreamSlots:
    """This worker's ``StreamSlots`` (one per app)."""
    return lazy(app, SLOTS, lambda app: StreamSlots(app.config["STREAMS_PER_WORKER"],
                                                     app.config["STREAMS_PER_SESSION"]))


def deadline() -> float:
    """When a stream that starts now must end (monotonic clock)."""
    return time.monotonic() + float(current_app.config["STREAM_MAX_S"])


def detached(turn_id: str) -> dict:
    """The last event of a stream that outlived ``STREAM_MAX_S``."""
    return {
        "id": turn_id,
        "message": "Still working: the answer will appear here when it is ready.",
    }
