"""In-memory, thread-safe stores with expiry for the sandbox's short-lived records.

The sandbox is one process (a local EHR stand-in), so launch
handles, authorization codes, refresh tokens and pending consent transactions
live in memory and vanish on restart, like sessions of a restarted EHR.
"""
from __future__ import annotations

import secrets
import threading
import time


class ExpiringStore:
    """``put``/``get``/``pop`` of records that expire ``ttl_s`` seconds after ``put``."""

    def __init__(self, ttl_s: float):
        self.ttl_s = ttl_s
        self._items: dict[str, tuple[float, object]] = {}
        self._lock = threading.Lock()

    def put(self, value: object, key: str | None = None, ttl_s: float | None = None) -> str:
        """Store ``value``; returns its key (a new 256-bit random one unless given)."""
        key = key or secrets.token_urlsafe(32)
        expires = time.monotonic() + (self.ttl_s if ttl_s is None else ttl_s)
        with self._lock:
            self._purge()
            self._items[key] = (expires, value)
        return key

    def get(self, key: str | None):
        with self._lock:
            item = self._items.get(key or "")
            if item is None or item[0] < time.monotonic():
                return None
            return item[1]

    def pop(self, key: str | None):
        """Remove and return (single use); None when absent or expired."""
        with self._lock:
            item = self._items.pop(key or "", None)
        if item is None or item[0] < time.monotonic():
            return None
        return item[1]

    def _purge(self) -> None:
        now = time.monotonic()
        for key in [k for k, (exp, _) in self._items.items() if exp < now]:
            del self._items[key]
