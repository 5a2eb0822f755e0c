"""Calls due after a delay, run by one thread per owner instead of one thread per call.

A model call that may turn out slow sets an alarm ("no answer text after N s": said in the
progress stream) and clears it when the first token arrives, which is nearly always first.
``threading.Timer`` starts a thread for each such call (two or more per turn); under a burst
of questions those starts cost the worker CPU that the questions are waiting for. ``Alarms``
keeps the pending calls in a heap, served by a single daemon thread started with the first
alarm (again after a fork: gunicorn's workers are forked, and threads do not survive it).
"""
from __future__ import annotations

import heapq
import itertools
import logging
import threading
import time
from collections.abc import Callable

log = logging.getLogger(__name__)


class Alarms:
    """``after(seconds, call)`` → an alarm id; ``cancel(id)`` before it is due and it never runs.

    Calls run one after another on the alarms' thread: they must be short (emit an event)."""

    def __init__(self, name: str):
        self.name = name
        self._due: list[tuple[float, int, Callable[[], None]]] = []
        self._cancelled: set[int] = set()
        self._changed = threading.Condition()
        self._ids = itertools.count(1)
        self._thread: threading.Thread | None = None

    def after(self, seconds: float, call: Callable[[], None]) -> int:
        with self._changed:
            alarm = next(self._ids)
            heapq.heappush(self._due, (time.monotonic() + seconds, alarm, call))
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._serve, name=self.name, daemon=True)
                self._thread.start()
            elif self._due[0][1] == alarm:  # due before the one the thread waits for
                self._changed.notify()
        return alarm

    def cancel(self, alarm: int) -> None:
        with self._changed:
            if any(pending == alarm for _, pending, _ in self._due):
                self._cancelled.add(alarm)

    def pending(self) -> int:
        """How many alarms are still to ring (cancelled ones not counted)."""
        with self._changed:
            return sum(1 for _, alarm, _ in self._due if alarm not in self._cancelled)

    def _serve(self) -> None:
        while True:
            call = self._next()
            try:
                call()
            except Exception:  # an alarm's failure is its owner's; the others still ring
                log.exception("alarm of %s failed", self.name)

    def _next(self) -> Callable[[], None]:
        """Wait for the next alarm that is due and not cancelled."""
        with self._changed:
            while True:
                if not self._due:
                    self._changed.wait()
                    continue
                at, alarm, call = self._due[0]
                if alarm in self._cancelled:
                    heapq.heappop(self._due)
                    self._cancelled.discard(alarm)
                    continue
                wait = at - time.monotonic()
                if wait <= 0:
                    heapq.heappop(self._due)
                    return call
                self._changed.wait(wait)
