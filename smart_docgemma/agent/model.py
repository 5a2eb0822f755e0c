"""ModelClient: MedGemma behind any OpenAI-compatible server (vLLM, llama-server,
llama-cpp-python), with JSON-schema-constrained output validated by pydantic.

Why ``response_format`` json_schema through the ``openai`` SDK, not Outlines
---------------------------------------------------------------------------
vLLM >= 0.12 ignores ``guided_json`` with HTTP 200 (the constraint is silently
dropped), while ``response_format={"type": "json_schema", ...}`` is enforced by
every vLLM release and by llama.cpp's C++ ``llama-server``. Outlines' OpenAI
backend (1.3.x) sends exactly that ``response_format`` and nothing more; it
drops ``finish_reason`` and token usage, does not validate, and its vLLM backend
sends ``structured_outputs`` that llama-server does not read (older releases
sent the dead ``guided_json``). Calling the SDK ourselves keeps the one request
form that works everywhere, lets us see ``finish_reason == "length"``
(truncated JSON) and lets us speak llama-cpp-python's own dialect
(``{"type": "json_object", "schema": ...}``), which Outlines cannot produce.
The schema name sent is the pydantic class name (``IntentClassification``…).

Dialects (config ``SCHEMA_DIALECT``): ``json_schema``, ``json_object_schema``
or ``auto`` — one tiny probe per client, cached; a 4xx/5xx that mentions the
response format falls back to ``json_object_schema``.

Reliability: ``max_retries=0`` on the SDK and our own bounded retries on
transport errors, HTTP 5xx, invalid JSON and truncated JSON. Failures become
typed errors (``ModelUnavailable``, ``ModelTimeout``, ``InvalidModelOutput``).
Thread safety: one client per app, no lock around calls (only the one-time
probe is guarded); per-turn accounting lives in a ``CallStats`` passed in.
"""
from __future__ import annotations

import base64
import json
import logging
import re
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache, partial
from typing import Any, TypeVar, overload

import openai
from pydantic import BaseModel, ValidationError

from .. import metrics
from ..config import DEFAULTS, setting
from ..errors import InvalidModelOutput as InvalidModelOutput  # re-exported with the client
from ..errors import ModelError, VisionUnsupported
from ..errors import ModelTimeout as ModelTimeout
from ..errors import ModelUnavailable as ModelUnavailable
from .alarms import Alarms
from .circuit import Circuit
from .prompts import generation
from .window import Cut, TokenCounter, fit

log = logging.getLogger(__name__)
M = TypeVar("M", bound=BaseModel)

DIALECTS = ("json_schema", "json_object_schema")
_THINK = re.compile(r"<unused94>(?:thought\s*)?(.*?)(?:<unused95>|$)", re.S)
_FENCE = re.compile(r"^\s*```(?:json)?\s*|\s*```\s*$", re.I)
_FORMAT_WORDS = re.compile(r"response_format|json_schema|json_object|schema", re.I)
# vLLM: "... is not a multimodal model"; llama.cpp: "image input is not supported ... mmproj".
_VISION_WORDS = re.compile(
    r"multimodal|mmproj|image input|not support\w* image|vision|image_url", re.I
)


@dataclass(frozen=True)
class Prefill:
    """What computing one call's prompt cost, as the server reported it (llama.cpp's
    ``timings``: the embedded server and llama-server send them; vLLM does not)."""

    node: str
    computed: int  # prompt tokens computed for this call (the prompt cache's misses)
    cached: int  # prompt tokens reused from the prompt cache
    seconds: float  # until the first answer token: the clinician's wait before text appears

    @classmethod
    def of(cls, node: str, answer: Any) -> Prefill | None:
        timings = answer.get("timings") if isinstance(answer, dict) else None
        if not isinstance(timings, dict) or not isinstance(timings.get("prompt_n"), int):
            return None
        return cls(node, int(timings["prompt_n"]), int(timings.get("cache_n") or 0),
                   round(float(timings.get("prompt_ms") or 0) / 1000, 3))

    def event(self) -> dict[str, Any]:
        return {"type": "model_prefill", "node": self.node, "seconds": self.seconds,
                "tokens": self.computed + self.cached, "computed": self.computed}


@dataclass
class CallStats:
    """Model calls of one turn: count, seconds, per node, thinking texts."""

    calls: int = 0
    seconds: float = 0.0
    by_node: dict[str, Any] = field(default_factory=dict)
    thinking: list[Any] = field(default_factory=list)
    probes: int = 0
    # told when the model is slow to start answering
    slow: Callable[[dict[str, Any]], None] | None = None
    # what each call's prompt cost (servers that say)
    prefills: list[Prefill] = field(default_factory=list)
    cuts: list[Cut] = field(default_factory=list)  # what was left out to fit the context

    def record(self, node: str, seconds: float) -> None:
        self.calls += 1
        self.seconds += seconds
        self.by_node[node] = self.by_node.get(node, 0) + 1


def _prefilled(node: str, answer: Any, stats: CallStats | None, watch: FirstTokenWatch) -> None:
    """Record the server's prompt timings of one answer: metrics, the turn's stats, and after a
    "slow first token" notice, how long the prompt took (the progress stream says it)."""
    prefill = Prefill.of(node, answer)
    if prefill is None:
        return
    metrics.model_prefill(node, prefill.seconds, prefill.computed, prefill.cached)
    if stats is not None:
        stats.prefills.append(prefill)
    if watch.fired and stats is not None and stats.slow is not None:
        stats.slow(prefill.event())


def split_thinking(text: str) -> tuple[str, list[str]]:
    """Remove ``<unused94>…<unused95>`` spans (closed or not); return (visible, thoughts)."""
    thoughts = [m.group(1).strip() for m in _THINK.finditer(text or "")]
    visible = _THINK.sub("", text or "").replace("<unused95>", "")
    return visible.strip(), [t for t in thoughts if t]


def parse_json(raw: str, schema: type[M]) -> M:
    """Tolerant parse, strict validation: strip fences, take the outermost object,
    accept raw control characters inside strings (``strict=False``), then pydantic."""
    text = _FENCE.sub("", raw).strip()
    start, end = text.find("{"), text.rfind("}")
    if start < 0 or end < start:
        raise ValueError("no JSON object in the model output")
    obj = json.loads(text[start : end + 1], strict=False)
    return schema.model_validate(obj)


@lru_cache(maxsize=512)
def response_format(schema: type[BaseModel], dialect: str) -> dict[str, Any]:
    """The ``response_format`` body for ``schema`` in ``dialect`` (built once per schema: pydantic
    generates the JSON schema anew on every call; the result is shared, never changed)."""
    body = schema.model_json_schema()
    if dialect == "json_object_schema":  # llama-cpp-python
        # Its schema-to-grammar port copies regex escapes such as \d into the grammar,
        # the grammar fails to parse and the 0.3.36 server segfaults (measured):
        # send no ``pattern``; pydantic still enforces it when the output is parsed.
        return {"type": "json_object", "schema": _without_patterns(body)}
    return {"type": "json_schema",
            "json_schema": {"name": schema.__name__, "schema": body, "strict": True}}


def _first_choice(answer: Any) -> dict[str, Any]:
    """The first choice of a chat completion (or chunk) as a dict; {} when there is none."""
    choices = answer.get("choices") if isinstance(answer, dict) else None
    first = choices[0] if isinstance(choices, list) and choices else None
    return first if isinstance(first, dict) else {}


def _delta_text(chunk: Any) -> str | None:
    delta = _first_choice(chunk).get("delta")
    text = delta.get("content") if isinstance(delta, dict) else None
    return text if isinstance(text, str) else None


def _without_patterns(node: Any) -> Any:
    """A copy of a JSON schema with every string ``pattern`` removed."""
    if isinstance(node, dict):
        return {k: _without_patterns(v) for k, v in node.items()
                if not (k == "pattern" and isinstance(v, str))}
    if isinstance(node, list):
        return [_without_patterns(v) for v in node]
    return node


class _Probe(BaseModel):
    ok: bool


class ModelClient:
    """One OpenAI-compatible endpoint; build one per app with ``model_from_config``."""

    def __init__(
        self,
        endpoint: str,
        *,
        api_key: str = DEFAULTS["API_KEY"],
        model: str,
        dialect: str = DEFAULTS["SCHEMA_DIALECT"],
        timeout: float = DEFAULTS["MODEL_TIMEOUT_S"],
        retries: int = DEFAULTS["MODEL_RETRIES"],
        first_token_s: float = 0,
        circuit_failures: int = DEFAULTS["MODEL_CIRCUIT_FAILURES"],
        circuit_cooldown: float = DEFAULTS["MODEL_CIRCUIT_COOLDOWN_S"],
        context_tokens: int = 0,
    ):
        base = endpoint.rstrip("/")
        self.base_url = base if base.endswith("/v1") else base + "/v1"
        self.model = model
        self.context_tokens = int(context_tokens or 0)  # 0: requests are not fitted (window.py)
        self.count_tokens = TokenCounter(self.base_url, model)
        self.retries = max(0, int(retries))
        self.timeout = float(timeout)
        self.circuit = Circuit(self.base_url, failures=circuit_failures, cooldown=circuit_cooldown)
        self.first_token_s = float(first_token_s or 0)  # 0: never reported as slow
        self._dialect = dialect if dialect in DIALECTS else None
        self._probe_lock = threading.Lock()
        self.alarms = Alarms("model-slow")
        self._client = openai.OpenAI(base_url=self.base_url, api_key=api_key or "EMPTY",
                                     timeout=self.timeout, max_retries=0)

    # ------------------------------------------------------------ public API
    def structured(self, node: str, messages: list[dict[str, Any]], schema: type[M],
                   stats: CallStats | None = None) -> M:
        """One constrained call for ``node`` (generation config from prompts.yaml)."""
        fmt = response_format(schema, self.dialect(stats))
        gen = generation(node)
        messages = self._fitted(node, messages, gen, stats)
        last: Exception | None = None
        for _attempt in range(self.retries + 1):
            watch = FirstTokenWatch(
                self.first_token_s, getattr(stats, "slow", None), node, self.alarms
            )
            try:
                raw, finish = self._complete(node, messages, gen, stats, watch, response_format=fmt)
            finally:
                watch.stop()
            visible, thoughts = split_thinking(raw)
            if stats is not None:
                stats.thinking.extend(thoughts)
            if finish == "length":
                last = InvalidModelOutput(f"{schema.__name__}: output truncated at "
                                          f"{gen['max_tokens']} tokens")
                metrics.model_outcome(node, "invalid")
                continue
            try:
                return parse_json(visible, schema)
            except (ValueError, ValidationError) as exc:
                last = InvalidModelOutput(f"{schema.__name__}: {str(exc).splitlines()[0]}")
                metrics.model_outcome(node, "invalid")
        raise last  # type: ignore[misc]

    def stream_text(self, node: str, messages: list[dict[str, Any]],
                    stats: CallStats | None = None) -> Iterator[str]:
        """Stream visible text (thinking spans withheld and recorded in ``stats``)."""
        gen = generation(node)
        messages = self._fitted(node, messages, gen, stats)
        started = time.monotonic()
        watch = FirstTokenWatch(self.first_token_s, getattr(stats, "slow", None), node, self.alarms)
        try:
            stream = self._with_retries(node, stats,
                                        lambda: self._chat(messages, stream=True, **gen))
        except ModelError:
            watch.stop()
            raise
        filt = ThinkingFilter()
        try:
            for chunk in stream:
                watch.stop()
                _prefilled(node, chunk, stats, watch)  # the last chunk carries the timings
                text = _delta_text(chunk)
                if text:
                    out = filt.feed(text)
                    if out:
                        yield out
        except openai.APITimeoutError as exc:
            self.circuit.record(False, "the answer stream timed out")
            raise ModelTimeout(f"The model stopped answering after {self.timeout:.0f} s") from exc
        except openai.APIError as exc:
            self.circuit.record(False, "the answer stream broke")
            raise ModelUnavailable("The model connection broke while answering") from exc
        finally:
            watch.stop()
            tail = filt.finish()
            if stats is not None:  # the call was counted when the stream opened
                stats.seconds += time.monotonic() - started
                stats.thinking.extend(filt.thoughts)
        if tail:
            yield tail

    @overload
    def vision(self, prompt: str, image: bytes, mime: str, schema: type[M],
               stats: CallStats | None = None, system: str | None = None) -> M: ...
    @overload
    def vision(self, prompt: str, image: bytes, mime: str, schema: None = None,
               stats: CallStats | None = None, system: str | None = None) -> str: ...
    def vision(self, prompt: str, image: bytes, mime: str, schema: type[M] | None = None,
               stats: CallStats | None = None, system: str | None = None) -> M | str:
        """Image + text → ``schema`` instance (or text when ``schema`` is None)."""
        url = f"data:{mime};base64,{base64.b64encode(image).decode()}"
        content = [
            {"type": "text", "text": prompt},
            {"type": "image_url", "image_url": {"url": url}},
        ]
        messages = ([{"role": "system", "content": system}] if system else []) + [
            {"role": "user", "content": content}]
        if schema is not None:
            return self.structured("vision", messages, schema, stats)
        raw, _ = self._complete("vision", messages, generation("vision"), stats, None)
        visible, thoughts = split_thinking(raw)
        if stats is not None:
            stats.thinking.extend(thoughts)
        return visible

    def prefill(self, node: str, messages: list[dict[str, Any]]) -> bool:
        """Have the server compute ``messages``' prompt (one answer token, not kept), so a
        server that keeps computed prompts starts the next call with that prefix computed.
        One attempt; False when it failed (nothing depends on it)."""
        try:
            self._client.post(
                "/chat/completions", cast_to=object,
                body={"model": self.model, "messages": messages, "max_tokens": 1, "temperature": 0})
        except openai.OpenAIError as exc:
            log.info("model: %s prefill failed (%s)", node, type(exc).__name__)
            return False
        return True

    def bound(self, stats: CallStats) -> BoundModel:
        """A view of this client that records every call in ``stats`` (for tools)."""
        return BoundModel(self, stats)

    def dialect(self, stats: CallStats | None = None) -> str:
        """The schema dialect; probed once per client when configured ``auto``."""
        if self._dialect is None:
            if self.circuit.is_open:
                raise ModelUnavailable(f"The model server at {self.base_url} is not answering; "
                                       "it is checked in the background")
            with self._probe_lock:
                if self._dialect is None:
                    self._dialect = self._probe(stats)
        return self._dialect

    # ------------------------------------------------------------ internals
    def _fitted(self, node: str, messages: list[dict[str, Any]], gen: Mapping[str, Any],
                stats: CallStats | None) -> list[dict[str, Any]]:
        """``messages`` within the model's context (``window.fit``); each cut is said in the
        turn's events (its trace)."""
        if not self.context_tokens:
            return messages
        fitted, cuts = fit(messages, int(gen["max_tokens"]), self.context_tokens, self.count_tokens)
        for cut in cuts:
            if stats is not None:
                stats.cuts.append(cut)
                if stats.slow is not None:
                    stats.slow(cut.event(node))
        return fitted

    def _probe(self, stats: CallStats | None) -> str:
        """Try json_schema on a tiny schema; a format complaint → json_object_schema."""
        msgs = [{"role": "user", "content": 'Answer {"ok": true}'}]
        fmt = response_format(_Probe, "json_schema")
        if stats is not None:
            stats.probes += 1
        try:
            # plain dict messages
            self._client.chat.completions.create(  # type: ignore[call-overload]
                model=self.model, messages=msgs, temperature=0, max_tokens=16, response_format=fmt)
        except openai.APIStatusError as exc:
            if exc.status_code in (400, 422, 500) and _FORMAT_WORDS.search(_body_text(exc)):
                return "json_object_schema"
            if exc.status_code >= 500:
                self.circuit.record(False, f"HTTP {exc.status_code}")
                raise ModelUnavailable(f"The model server failed (HTTP {exc.status_code})") from exc
        except openai.APITimeoutError as exc:
            self.circuit.record(False, "timeout")
            raise ModelTimeout(f"The model did not answer within {self.timeout:.0f} s") from exc
        except openai.APIConnectionError as exc:
            self.circuit.record(False, "connection refused")
            raise ModelUnavailable(f"No model server answers at {self.base_url}") from exc
        return "json_schema"

    def _complete(self, node: str, messages: list[dict[str, Any]], gen: Mapping[str, Any],
                  stats: CallStats | None, watch: FirstTokenWatch | None,
                  **extra: Any) -> tuple[str, str | None]:
        resp = self._with_retries(node, stats, lambda: self._chat(messages, **gen, **extra))
        if watch is not None:
            watch.stop()
        _prefilled(node, resp, stats, watch or FirstTokenWatch.idle())
        choice = _first_choice(resp)
        message = choice.get("message")
        content = message.get("content") if isinstance(message, dict) else None
        return content if isinstance(content, str) else "", choice.get("finish_reason")

    def _chat(self, messages: list[dict[str, Any]], stream: bool = False, **params: Any) -> Any:
        """POST /chat/completions through the SDK's own client (its HTTP, error mapping and
        server-sent-event decoding), with the body as built here and the answer as plain JSON.
        The body is plain JSON already, so the SDK's walk of every message and schema is not
        needed; and building a typed object per streamed chunk costs more CPU than the rest
        of a turn once answers run to hundreds of tokens (one chunk each)."""
        body = {
            "model": self.model,
            "messages": messages,
            **params,
            **({"stream": True} if stream else {}),
        }
        return self._client.post("/chat/completions", body=body, cast_to=object,
                                 stream=stream, stream_cls=openai.Stream[object])

    def _with_retries(self, node: str, stats: CallStats | None, call: Callable[[], Any]) -> Any:
        """Bounded retries on transport errors and HTTP 5xx; typed errors after.
        Every HTTP attempt counts as a model call in ``stats``; each transport outcome goes to
        the endpoint's circuit, and an open circuit fails the call at once (no HTTP)."""
        for attempt in range(self.retries + 1):
            if self.circuit.is_open:
                metrics.model_outcome(node, "circuit_open")
                raise ModelUnavailable(f"The model server at {self.base_url} is not answering; "
                                       "it is checked in the background")
            started, outcome = time.monotonic(), "error"
            try:
                result, outcome = call(), "ok"
                self.circuit.record(True)
                return result
            except openai.APITimeoutError as exc:
                err: ModelError = ModelTimeout(
                    f"The model did not answer within {self.timeout:.0f} s")
                err.__cause__, outcome = exc, "timeout"
            except openai.APIConnectionError as exc:
                err = ModelUnavailable(f"No model server answers at {self.base_url}")
                err.__cause__, outcome = exc, "unreachable"
            except openai.APIStatusError as exc:
                body = _body_text(exc)
                refused_image = node == "vision" and _VISION_WORDS.search(body)
                err = (VisionUnsupported if refused_image else ModelUnavailable)(
                    f"The model server refused the request (HTTP {exc.status_code}: {body[:160]})")
                outcome = "http_5xx" if exc.status_code >= 500 else "http_4xx"
                if exc.status_code < 500 or refused_image:
                    self.circuit.record(True)  # the server answered: it is up
                    raise err from exc
            finally:
                metrics.model_call(node, time.monotonic() - started, outcome)
                if stats is not None:
                    stats.record(node, time.monotonic() - started)
            self.circuit.record(False, err.description)
            if attempt < self.retries and not self.circuit.is_open:
                time.sleep(0.2 * (attempt + 1))
        raise err


class FirstTokenWatch:
    """Calls ``report(event)`` once if no answer text has arrived ``seconds`` after start (a
    slow model is said in the progress stream while the clinician waits; cancel still works).
    The call is an alarm of the client's ``alarms`` (one thread for all its calls)."""

    def __init__(self, seconds: float, report: Callable[[dict[str, Any]], None] | None, node: str,
                 alarms: Alarms | None):
        self._alarms, self._alarm, self.fired = alarms, 0, False
        if seconds > 0 and report is not None and alarms is not None:
            event = {"type": "model_slow", "node": node, "seconds": seconds}
            self._alarm = alarms.after(seconds, partial(self._fire, report, event))

    @classmethod
    def idle(cls) -> FirstTokenWatch:
        """A watch that never fires (calls nobody waits on)."""
        return cls(0, None, "", None)

    def _fire(self, report: Callable[[dict[str, Any]], None], event: dict[str, Any]) -> None:
        self.fired = True
        report(event)

    def stop(self) -> None:
        if self._alarm and self._alarms is not None:
            self._alarms.cancel(self._alarm)
            self._alarm = 0


class BoundModel:
    """``ModelClient`` methods with the per-turn ``CallStats`` filled in."""

    def __init__(self, client: ModelClient, stats: CallStats):
        self.client, self.stats = client, stats

    def vision(
        self, prompt: str, image: bytes, mime: str, schema: type[M], system: str | None = None
    ) -> M:
        return self.client.vision(prompt, image, mime, schema, self.stats, system)

    def structured(self, node: str, messages: list[dict[str, Any]], schema: type[M]) -> M:
        return self.client.structured(node, messages, schema, self.stats)


class ThinkingFilter:
    """Streaming filter: hides ``<unused94>…<unused95>`` even when tags span chunks."""

    OPEN, CLOSE = "<unused94>", "<unused95>"

    def __init__(self) -> None:
        self.buf, self.inside, self._thought = "", False, ""
        self.thoughts: list[str] = []

    def feed(self, text: str) -> str:
        self.buf += text
        out: list[str] = []
        while self.buf:
            tag = self.CLOSE if self.inside else self.OPEN
            i = self.buf.find(tag)
            if i < 0:
                keep = _partial_suffix(self.buf, tag)
                chunk, self.buf = self.buf[: len(self.buf) - keep], self.buf[len(self.buf) - keep:]
                self._take(chunk, out)
                break
            self._take(self.buf[:i], out)
            self.buf = self.buf[i + len(tag):]
            if self.inside:
                self._close()
            self.inside = not self.inside
        return "".join(out)

    def finish(self) -> str:
        out: list[str] = []
        self._take(self.buf, out)
        self.buf = ""
        if self.inside:
            self._close()
        return "".join(out)

    def _take(self, chunk: str, out: list[Any]) -> None:
        if self.inside:
            self._thought += chunk
        else:
            out.append(chunk.replace(self.CLOSE, ""))

    def _close(self) -> None:
        text = re.sub(r"^thought\s*", "", self._thought).strip()
        if text:
            self.thoughts.append(text)
        self._thought = ""


def _partial_suffix(text: str, tag: str) -> int:
    """Length of the longest suffix of ``text`` that is a prefix of ``tag``."""
    for n in range(min(len(tag) - 1, len(text)), 0, -1):
        if tag.startswith(text[-n:]):
            return n
    return 0


def _body_text(exc: openai.APIStatusError) -> str:
    try:
        return exc.response.text or str(exc.body or "")
    except Exception:  # a streamed response may not be readable
        return str(exc.body or exc)


def model_from_config(config: Mapping[str, Any]) -> ModelClient | None:
    """The app's model client, or None (degraded mode) when ENDPOINT is unset."""
    endpoint = config.get("ENDPOINT")
    if not endpoint:
        return None
    return ModelClient(
        endpoint,
        api_key=setting(config, "API_KEY"),
        model=setting(config, "MODEL"),
        dialect=setting(config, "SCHEMA_DIALECT"),
        timeout=setting(config, "MODEL_TIMEOUT_S"),
        retries=setting(config, "MODEL_RETRIES"),
        first_token_s=setting(config, "MODEL_FIRST_TOKEN_S"),
        circuit_failures=setting(config, "MODEL_CIRCUIT_FAILURES"),
        circuit_cooldown=setting(config, "MODEL_CIRCUIT_COOLDOWN_S"),
        context_tokens=setting(config, "MODEL_CONTEXT_TOKENS"),
    )
