"""A recording HTTP proxy in front of the real model server.

The agent talks to it exactly as to the server (real HTTP, JSON and SSE
streaming pass through unchanged); each exchange is kept so a test can check
what the model really returned — the raw text, ``finish_reason`` and the
schema the request asked for — and count the HTTP calls the agent made.
"""
from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field

import requests
from tests.support.servers import LiveServer
from werkzeug.wrappers import Request, Response


@dataclass
class Exchange:
    """One chat-completions request and what the model server answered."""

    request: dict
    status: int = 0
    content: str = ""
    finish_reason: str | None = None
    stream: bool = False
    chunks: int = 0
    usage: dict = field(default_factory=dict)
    seconds: float = 0.0  # request sent → last byte received
    timings: dict = field(default_factory=dict)  # llama.cpp's prompt/answer timings, when the server sends them

    @property
    def schema(self) -> dict | None:
        """The JSON schema the request constrained the output to (either dialect)."""
        fmt = self.request.get("response_format") or {}
        return fmt.get("schema") or (fmt.get("json_schema") or {}).get("schema")

    @property
    def schema_name(self) -> str:
        fmt = self.request.get("response_format") or {}
        return (fmt.get("json_schema") or {}).get("name") or (self.schema or {}).get("title", "")

    @property
    def has_image(self) -> bool:
        return any(isinstance(m.get("content"), list) and
                   any(p.get("type") == "image_url" for p in m["content"])
                   for m in self.request.get("messages", []))


class RecordingProxy:
    """``RecordingProxy(upstream).start()``; ``.url`` is the base to give the client."""

    def __init__(self, upstream: str):
        self.upstream = upstream.rstrip("/")
        self.exchanges: list[Exchange] = []
        self._lock = threading.Lock()
        self._server = LiveServer(self._app)
        self.url = f"{self._server.url}/v1"

    def start(self) -> RecordingProxy:
        self._server.start()
        return self

    def stop(self) -> None:
        self._server.stop()

    def mark(self) -> int:
        """Position to slice ``exchanges`` from (the exchanges of one turn)."""
        with self._lock:
            return len(self.exchanges)

    def since(self, mark: int) -> list[Exchange]:
        with self._lock:
            return list(self.exchanges[mark:])

    @Request.application
    def _app(self, request: Request) -> Response:
        path = request.path.removeprefix("/v1")
        if request.method == "GET":
            up = requests.get(f"{self.upstream}{path}", timeout=30)
            return Response(up.content, up.status_code, content_type=up.headers.get("content-type"))
        if not request.path.startswith("/v1/"):  # the server's own routes (/extras/tokenize/count): not model calls
            root = self.upstream.removesuffix("/v1")
            up = requests.post(f"{root}{request.path}", data=request.get_data(), timeout=60,
                               headers={"Content-Type": request.content_type or "application/json"})
            return Response(up.content, up.status_code, content_type=up.headers.get("content-type"))
        body = request.get_json(force=True)
        ex = Exchange(request=body, stream=bool(body.get("stream")))
        with self._lock:
            self.exchanges.append(ex)
        started = time.monotonic()
        up = requests.post(f"{self.upstream}{path}", json=body, stream=ex.stream, timeout=600)
        ex.status = up.status_code
        if ex.stream and up.ok:
            return Response(self._relay(up, ex, started), up.status_code, content_type="text/event-stream")
        self._record_json(up, ex)
        ex.seconds = time.monotonic() - started
        return Response(up.content, up.status_code, content_type=up.headers.get("content-type"))

    @staticmethod
    def _record_json(up: requests.Response, ex: Exchange) -> None:
        try:
            data = up.json()
        except ValueError:
            ex.content = up.text
            return
        if up.ok:
            choice = data["choices"][0]
            ex.content, ex.finish_reason = choice["message"].get("content") or "", choice["finish_reason"]
            ex.usage = data.get("usage") or {}
            ex.timings = data.get("timings") or {}
        else:
            ex.content = json.dumps(data)

    @staticmethod
    def _relay(up: requests.Response, ex: Exchange, started: float):
        """Pass SSE lines through unchanged while assembling the streamed text."""
        for line in up.iter_lines():
            if line.startswith(b"data: ") and line != b"data: [DONE]":
                chunk = json.loads(line[6:])
                for choice in chunk.get("choices", []):
                    ex.content += (choice.get("delta") or {}).get("content") or ""
                    ex.finish_reason = choice.get("finish_reason") or ex.finish_reason
                ex.timings = chunk.get("timings") or ex.timings
                ex.chunks += 1
            yield line + b"\n\n" if line else b""
        ex.seconds = time.monotonic() - started
