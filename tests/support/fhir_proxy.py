"""A real HTTP proxy in front of a FHIR server that can stand for the server's faults.

- ``pause()`` / ``resume()``: the server stopped (SIGSTOP) and continued. Requests that arrive
  while paused are held, as the kernel holds them for a stopped process, and forwarded on
  resume in the order they came, even when their client has given up waiting: a create sent
  during the pause lands late.
- ``resume(lose_held=True)``: the server died while paused; what it held is never written.
- ``resume(late_by=S)``: the held creates land ``S`` seconds after the server answers again
  (a search sent after the resume is answered first: one empty answer is no proof).
- ``delay``: every request waits this many seconds before it is forwarded (a slow server).
- ``hold_answers``: every request is forwarded at once, its answer held this many seconds
  (the server wrote it, then died or stalled before answering).
- ``conditional_create=False``: ``If-None-Exist`` is dropped, as by a server without
  conditional create, so only the app's own search stands between a retry and a duplicate.

It lists the creates it forwarded (``posted``: resource types), so a test sees every create sent.
"""

from __future__ import annotations

import threading
import time

import requests
from werkzeug import Request, Response

from tests.support.servers import LiveServer

HOP_BY_HOP = {
    "host",
    "connection",
    "keep-alive",
    "transfer-encoding",
    "te",
    "upgrade",
    "content-length",
}


class FhirProxy:
    """Forwards ``/fhir/...`` to ``upstream``; ``url`` is the proxied FHIR base."""

    def __init__(self, upstream: str, *, conditional_create: bool = True, port: int | None = None):
        self.upstream = upstream.rstrip("/")
        self.conditional_create = conditional_create
        self.delay = 0.0
        self.hold_answers = 0.0
        self.posted: list[str] = []
        self._running = threading.Event()
        self._running.set()
        self._lose_held = False
        self._late_by = 0.0
        self._count = threading.Lock()
        self.server = LiveServer(self._wsgi, port)

    @property
    def url(self) -> str:
        return self.server.url + "/fhir"

    def start(self) -> FhirProxy:
        self.server.start()
        return self

    def stop(self) -> None:
        self.resume()
        self.server.stop()

    def pause(self) -> None:
        self._lose_held = False
        self._running.clear()

    def resume(self, *, lose_held: bool = False, late_by: float = 0.0) -> None:
        self._lose_held, self._late_by = lose_held, late_by
        self._running.set()

    def _wsgi(self, environ, start_response):
        req = Request(environ)
        body = req.get_data()  # read now: a stopped server's kernel has the bytes already
        arrived_paused = not self._running.is_set()
        self._running.wait()
        if arrived_paused and self._lose_held:
            return Response("lost", status=502)(environ, start_response)
        if arrived_paused and req.method == "POST" and self._late_by:
            time.sleep(self._late_by)
        if self.delay:
            time.sleep(self.delay)
        try:
            res = self._forward(req, body)
        except requests.RequestException:  # the server behind is down: what a gateway answers
            return Response("upstream down", status=502)(environ, start_response)
        if self.hold_answers:  # written upstream; the answer comes too late for the client
            time.sleep(self.hold_answers)
        out = Response(
            res.content, status=res.status_code, content_type=res.headers.get("Content-Type")
        )
        if res.headers.get("Location"):
            out.headers["Location"] = res.headers["Location"]
        return out(environ, start_response)

    def _forward(self, req: Request, body: bytes) -> requests.Response:
        headers = {k: v for k, v in req.headers if k.lower() not in HOP_BY_HOP}
        if not self.conditional_create:
            headers = {k: v for k, v in headers.items() if k.lower() != "if-none-exist"}
        if req.method == "POST":
            with self._count:
                self.posted.append(req.path.rstrip("/").rsplit("/", 1)[-1])
        return requests.request(
            req.method,
            self.upstream + req.path.removeprefix("/fhir"),
            params=req.args,
            data=body,
            headers=headers,
            timeout=120,
        )
