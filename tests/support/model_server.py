"""A scripted OpenAI-compatible chat-completions server on a real loopback port.

It stands in for MedGemma on vLLM / llama-server / llama-cpp-python in tests
and benchmarks: the protocol is real HTTP (JSON and SSE streaming), only the
answers are scripted.

Usage::

    from tests.support.model_server import ScriptedModelServer, reply, http_error

    with ScriptedModelServer() as srv:               # or srv = ScriptedModelServer().start()
        srv.script("IntentClassification", {"intent": "DIRECT", "task_summary": "greeting"})
        srv.say("Hello, doctor.")                    # plain-text queue (synthesis, streamed or not)
        client = ModelClient(srv.url, model=srv.model, dialect="json_schema")
        ...
        srv.requests                                 # every request body (dicts), in order
        srv.requests_for("IntentClassification")     # the bodies sent with that schema name
        srv.schema_names()                           # names in call order ("" = plain text)

Answers are routed by the JSON-schema name of the request:
``response_format.json_schema.name`` (``json_schema`` dialect) or the schema's
``title`` (llama-cpp-python's ``{"type": "json_object", "schema": ...}``);
requests without a schema take the plain-text queue. A queued item is

- a ``dict`` → sent as JSON text (``finish_reason: "stop"``);
- a ``str`` → sent verbatim as the content (invalid JSON, thinking spans…);
- ``reply(content, finish_reason=..., delay=...)`` → full control
  (``truncated('{"intent": "DI')`` sends ``finish_reason: "length"``);
- ``http_error(500, "message")`` → that HTTP status with an OpenAI error body.

``srv.inject(item, times=n)`` answers the next *n* requests of any kind with
``item`` first (e.g. ``http_error(500)`` or ``reply("", delay=2)`` for a
timeout). An empty queue answers with a minimal schema-valid object (or
"OK." for text) — tests should script explicitly. ``latency=`` adds a delay
to every answer (benchmarks). ``accept_json_schema=False`` makes the server
behave like llama-cpp-python: ``json_schema`` requests fail with HTTP 500.
``refused_url()`` is a base URL where nothing listens (connection refused).
"""
from __future__ import annotations

import json
import threading
import time
import uuid
from collections import defaultdict, deque
from dataclasses import dataclass

from werkzeug.wrappers import Request, Response

from tests.support.servers import LiveServer, free_port


@dataclass
class Reply:
    content: str = ""
    finish_reason: str = "stop"
    status: int = 200
    delay: float = 0.0
    error: str | None = None


def reply(content, finish_reason: str = "stop", delay: float = 0.0) -> Reply:
    text = content if isinstance(content, str) else json.dumps(content)
    return Reply(text, finish_reason=finish_reason, delay=delay)


def truncated(text: str) -> Reply:
    return Reply(text, finish_reason="length")


def http_error(status: int = 500, message: str = "internal server error") -> Reply:
    return Reply(status=status, error=message)


def refused_url() -> str:
    """A base URL on a free port with no listener (connection refused)."""
    return f"http://127.0.0.1:{free_port()}/v1"


class ScriptedModelServer:
    """See the module docstring. Thread-safe: requests may arrive concurrently."""

    def __init__(self, model: str = "google/medgemma-1.5-4b-it", latency: float = 0.0,
                 accept_json_schema: bool = True, port: int | None = None):
        self.model, self.latency, self.accept_json_schema = model, latency, accept_json_schema
        self.port = port  # a fixed port: the same server stopped and started again
        self.requests: list[dict] = []
        self._queues: dict[str, deque] = defaultdict(deque)
        self._injected: deque = deque()
        self._lock = threading.Lock()
        self._server: LiveServer | None = None

    # ----------------------------------------------------------- scripting
    def script(self, name: str, *answers) -> ScriptedModelServer:
        with self._lock:
            self._queues[name].extend(answers)
        return self

    def say(self, *texts) -> ScriptedModelServer:
        return self.script("", *texts)

    def inject(self, item, times: int = 1) -> ScriptedModelServer:
        with self._lock:
            self._injected.extend([item] * times)
        return self

    def requests_for(self, name: str) -> list[dict]:
        return [r for r in self.requests if schema_name(r) == name]

    def schema_names(self) -> list[str]:
        return [schema_name(r) for r in self.requests]

    # ----------------------------------------------------------- lifecycle
    @property
    def url(self) -> str:
        return self._server.url + "/v1"

    def start(self) -> ScriptedModelServer:
        self._server = LiveServer(self._wsgi, self.port).start()
        return self

    def stop(self) -> None:
        if self._server:
            self._server.stop()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    # ----------------------------------------------------------- protocol
    def _wsgi(self, environ, start_response):
        request = Request(environ)
        if request.path.rstrip("/") == "/v1/models":
            body = {"object": "list", "data": [{"id": self.model, "object": "model"}]}
            return _json(body)(environ, start_response)
        if request.path.rstrip("/") != "/v1/chat/completions" or request.method != "POST":
            return _json({"error": {"message": "not found"}}, 404)(environ, start_response)
        body = request.get_json(force=True)
        with self._lock:
            self.requests.append(body)
        return self._answer(body)(environ, start_response)

    def _answer(self, body: dict) -> Response:
        fmt = body.get("response_format") or {}
        if fmt.get("type") == "json_schema" and not self.accept_json_schema:
            return _error(500, "response_format: Input should be 'text' or 'json_object' "
                               "[type=literal_error, input_value='json_schema']")
        # a prefill (web/prefill.py) asks one token nobody reads: it never spends a scripted answer
        item = reply("OK.") if body.get("max_tokens") == 1 else self._next(schema_name(body), _schema(body))
        time.sleep(self.latency + item.delay)
        if item.error is not None:
            return _error(item.status, item.error)
        if body.get("stream"):
            return Response(self._sse(item), mimetype="text/event-stream")
        return _json(self._completion(item))

    def _next(self, name: str, schema: dict | None) -> Reply:
        with self._lock:
            if self._injected:
                item = self._injected.popleft()
            elif self._queues[name]:
                item = self._queues[name].popleft()
            else:
                item = minimal(schema) if schema else "OK."
        return item if isinstance(item, Reply) else reply(item)

    def _completion(self, item: Reply) -> dict:
        return {"id": f"chatcmpl-{uuid.uuid4().hex[:12]}", "object": "chat.completion",
                "created": int(time.time()), "model": self.model,
                "choices": [{"index": 0, "finish_reason": item.finish_reason,
                             "message": {"role": "assistant", "content": item.content}}],
                "usage": {"prompt_tokens": 10, "completion_tokens": len(item.content) // 4,
                          "total_tokens": 10 + len(item.content) // 4}}

    def _sse(self, item: Reply):
        cid, step = f"chatcmpl-{uuid.uuid4().hex[:12]}", max(1, len(item.content) // 4)
        pieces = [item.content[i:i + step] for i in range(0, len(item.content), step)]
        deltas = [{"role": "assistant", "content": ""}] + [{"content": p} for p in pieces]
        for n, delta in enumerate(deltas + [{}]):
            finish = item.finish_reason if n == len(deltas) else None
            chunk = {"id": cid, "object": "chat.completion.chunk", "created": int(time.time()),
                     "model": self.model,
                     "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
            yield f"data: {json.dumps(chunk)}\n\n"
        yield "data: [DONE]\n\n"


def schema_name(body: dict) -> str:
    """The schema name a request carries ("" for plain text)."""
    fmt = body.get("response_format") or {}
    if fmt.get("type") == "json_schema":
        return fmt.get("json_schema", {}).get("name", "")
    if fmt.get("type") == "json_object":
        return (fmt.get("schema") or {}).get("title", "json_object")
    return ""


def _schema(body: dict) -> dict | None:
    fmt = body.get("response_format") or {}
    return fmt.get("json_schema", {}).get("schema") if fmt.get("type") == "json_schema" \
        else fmt.get("schema")


def minimal(schema: dict, defs: dict | None = None) -> object:
    """A minimal instance of a (pydantic-generated) JSON schema."""
    defs = defs if defs is not None else schema.get("$defs", {})
    if "$ref" in schema:
        return minimal(defs[schema["$ref"].split("/")[-1]], defs)
    if "enum" in schema:
        return schema["enum"][0]
    if "anyOf" in schema:
        options = [s for s in schema["anyOf"] if s.get("type") != "null"] or schema["anyOf"]
        return minimal(options[0], defs)
    kind = schema.get("type")
    if kind == "object":
        props = schema.get("properties", {})
        return {k: minimal(props[k], defs) for k in schema.get("required", [])}
    if kind == "array":
        return [minimal(schema.get("items", {"type": "string"}), defs)
                for _ in range(schema.get("minItems", 0))]
    if kind == "string":
        return "x" * max(2, schema.get("minLength", 1))
    return {"integer": 0, "number": 0, "boolean": False}.get(kind)


def _json(body: dict, status: int = 200) -> Response:
    return Response(json.dumps(body), status=status, mimetype="application/json")


def _error(status: int, message: str) -> Response:
    body = {"error": {"message": message, "type": "server_error" if status >= 500 else
                      "invalid_request_error", "code": status}}
    return _json(body, status)
