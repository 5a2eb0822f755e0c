"""``Alarms``: delayed calls served by one thread (the model's "still waiting" notice)."""
from __future__ import annotations

import threading
import time

from smart_docgemma.agent.alarms import Alarms


def _threads(name: str) -> int:
    return [t.name for t in threading.enumerate()].count(name)


def test_alarms_ring_in_time_order_on_one_thread():
    alarms, rang = Alarms("test-order"), []
    started = time.monotonic()
    for delay in (0.6, 0.2, 0.4):
        alarms.after(delay, lambda d=delay: rang.append((d, time.monotonic() - started)))
    assert _threads("test-order") == 1
    time.sleep(1.0)
    assert [d for d, _ in rang] == [0.2, 0.4, 0.6]
    assert all(d <= at < d + 0.3 for d, at in rang)  # not before its time, nor long after


def test_a_cancelled_alarm_never_rings_and_a_failing_one_stops_no_other():
    alarms, rang = Alarms("test-cancel"), []
    cancelled = alarms.after(0.2, lambda: rang.append("cancelled"))
    alarms.after(0.1, lambda: 1 / 0)
    alarms.after(0.3, lambda: rang.append("kept"))
    alarms.cancel(cancelled)
    assert alarms.pending() == 2
    time.sleep(0.6)
    assert rang == ["kept"] and alarms.pending() == 0


def test_many_waiting_calls_share_the_thread():
    alarms = Alarms("test-many")
    before = threading.active_count()
    ids = [alarms.after(5, lambda: None) for _ in range(100)]
    assert threading.active_count() - before == 1
    for alarm in ids:
        alarms.cancel(alarm)
    assert alarms.pending() == 0
