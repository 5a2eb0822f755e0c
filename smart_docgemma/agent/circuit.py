"""A circuit breaker per model endpoint: stop paying a timeout on every node of every turn.

A model server that is down (restarting, out of memory, wrong URL) costs each call its
connect or read timeout, and a turn makes several calls. After ``failures`` transport
failures in a row (refused connection, timeout, HTTP 5xx, a stream that broke) the circuit
*opens*: calls fail at once with ``ModelUnavailable`` and turns run in no-model mode from
their first node. A background thread probes the server every ``cooldown`` seconds
(``GET {base}/models``, the cheapest request every OpenAI-compatible server answers) and
*closes* the circuit when it answers, so answers are AI again without restarting the app.

An answer that breaks the schema is not a transport failure: the server is up, and the
node's own fallback handles it. State is per process (each gunicorn worker keeps its own,
and ``/metrics`` reports the worst one).
"""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

import requests

from .. import metrics

log = logging.getLogger(__name__)

CLOSED, OPEN = "closed", "open"
PROBE_TIMEOUT_S = (1.0, 2.0)  # connect, read


def probe_models(base_url: str) -> bool:
    """True when the server answers ``GET /models`` with anything below 500 (an auth error is
    still a server that is up); a refused connection, a timeout or a 5xx is down."""
    try:
        return requests.get(f"{base_url}/models", timeout=PROBE_TIMEOUT_S).status_code < 500
    except requests.RequestException:
        return False


class Circuit:
    """Thread-safe breaker for one endpoint; ``allow`` before a call, ``record`` after it."""

    def __init__(self, endpoint: str, *, failures: int = 3, cooldown: float = 15.0,
                 probe: Callable[[], bool] | None = None):
        self.endpoint = endpoint
        self.threshold = max(1, int(failures))
        self.cooldown = max(0.05, float(cooldown))
        self._probe = probe or (lambda: probe_models(endpoint))
        self._lock = threading.Lock()
        self._state, self._failures = CLOSED, 0
        self.opened_at: float | None = None
        self.changed_at = time.monotonic()  # last open or close
        self.reason = ""
        self._prober: threading.Thread | None = None
        metrics.circuit_state(endpoint, False, changed=False)

    @property
    def state(self) -> str:
        return self._state

    @property
    def is_open(self) -> bool:
        return self._state == OPEN

    def status(self) -> dict[str, object]:
        """What ``/readyz`` and the page show."""
        body: dict[str, object] = {"state": self._state, "consecutive_failures": self._failures}
        if self.opened_at is not None and self.is_open:
            body.update(open_for_s=round(time.monotonic() - self.opened_at, 1),
                        probe_every_s=self.cooldown, reason=self.reason)
        return body

    def record(self, ok: bool, reason: str = "") -> None:
        """One call's transport outcome: success closes the count, failures may open."""
        with self._lock:
            if ok:
                self._failures = 0
                if self._state == OPEN:
                    self._close_locked()
                return
            self._failures += 1
            if self._state == CLOSED and self._failures >= self.threshold:
                self._open_locked(reason)

    def _open_locked(self, reason: str) -> None:
        self._state, self.opened_at, self.reason = OPEN, time.monotonic(), reason
        self.changed_at = self.opened_at
        metrics.circuit_state(self.endpoint, True)
        log.warning("model circuit for %s opened after %d failures: %s",
                    self.endpoint, self._failures, reason)
        if self._prober is None or not self._prober.is_alive():
            self._prober = threading.Thread(target=self._probe_until_closed, daemon=True,
                                            name="model-circuit-probe")
            self._prober.start()

    def _close_locked(self) -> None:
        self._state, self._failures, self.opened_at, self.reason = CLOSED, 0, None, ""
        self.changed_at = time.monotonic()
        metrics.circuit_state(self.endpoint, False)
        log.warning("model circuit for %s closed: the server answers again", self.endpoint)

    def _probe_until_closed(self) -> None:
        while self.is_open:
            time.sleep(self.cooldown)
            up = self._probe()
            metrics.circuit_probe(self.endpoint, up)
            if up:
                with self._lock:
                    if self._state == OPEN:
                        self._close_locked()
