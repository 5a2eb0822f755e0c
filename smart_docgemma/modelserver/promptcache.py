"""The embedded server's prompt cache: llama-cpp-python's server with several contexts kept
live (one per node that calls the model) and computed prompt prefixes (the model's KV state)
kept in RAM within a budget and on disk, so the fixed part of every node's prompt
(``prompts.request``) is computed once, not on every call, and a restarted server starts warm
up to the model's sliding window (``livecontext``).

    python -m smart_docgemma.modelserver <llama_cpp.server flags> \\
        --prompt_cache_dir DIR --prompt_cache_mb 1536 [--prompt_slots 3] [--prompt_whole]

``embedded.py`` starts this instead of ``python -m llama_cpp.server`` when the cache is on.
It is that server (same flags, same API) with three changes:

- ``livecontext.LiveContext`` decides what a request continues from (one of its live
  contexts, or a kept state) so that reuse never changes an answer; ``PromptCache`` replaces
  the server's ``--cache``. A state keeps the KV cells and the tokens only: llama-cpp-python's
  own states also copy its logits buffer (n_batch × vocabulary floats: 512 × 262,144 × 4 B =
  512 MB for Gemma's vocabulary) on every save and restore, outside their byte budget.
- Every state is also written to ``DIR`` (one file each, in the background) and read back at
  start-up, newest first, up to the budget.
- Each answer carries llama.cpp server's ``timings`` (``prompt_n`` tokens computed,
  ``cache_n`` tokens reused, ``prompt_ms`` until the first token, ``predicted_n``,
  ``predicted_ms``), so the app reports what the clinician waited for (``model.py``).

This module runs only in that child process; the app never imports llama_cpp.
"""
from __future__ import annotations

import argparse
import contextvars
import hashlib
import json
import os
import struct
import sys
import threading
from collections import OrderedDict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from .livecontext import CHUNK, CURRENT, LiveContext, State, Timings, shared

MAGIC = b"DGKV3\n"  # older states may come from a context whose cells were reordered: not reused
SUPERSEDE = 0.9  # a new state sharing this much of an older one's tokens replaces it
_HEAD = struct.Struct("<IQQ")  # tokens, seed, state bytes


class PromptCache:
    """Least-recently-used states within ``budget`` bytes, looked up by longest shared prefix;
    mirrored to ``folder`` when one is given. Thread-safe (the server's worker threads and the
    writer thread share it)."""

    def __init__(self, budget: int, folder: Path | None = None):
        self.budget, self.folder = budget, folder
        self.states: OrderedDict[bytes, State] = OrderedDict()
        self._lock = threading.Lock()
        if folder is not None:
            folder.mkdir(parents=True, exist_ok=True)
            self._load()

    def best(self, tokens: np.ndarray) -> State | None:
        """The state sharing the longest prefix with ``tokens``, if any shares one."""
        best, best_len = None, 0
        with self._lock:
            for key, state in self.states.items():
                n = shared(state.tokens, tokens)
                if n > best_len:
                    best, best_len = key, n
            if best is None:
                return None
            self.states.move_to_end(best)
            return self.states[best]

    def add(self, state: State) -> None:
        with self._lock:
            for key, old in list(self.states.items()):
                # The same prompt family (a node's fixed part, computed again with a new turn): the
                # newer state serves every request the older one would, less at most its tail.
                if shared(old.tokens, state.tokens) >= SUPERSEDE * len(old.tokens):
                    self._drop(key)
            self.states[_key(state.tokens)] = state
            while self.states and sum(s.size for s in self.states.values()) > self.budget:
                self._drop(next(iter(self.states)))

    @property
    def cache_size(self) -> int:
        return sum(s.size for s in self.states.values())

    # -- disk
    def persist(self) -> None:
        """Write the states not yet on disk (newest last, so file times keep the LRU order)."""
        if self.folder is None:
            return
        with self._lock:
            pending = [(k, s) for k, s in self.states.items() if not s.on_disk]
        for key, state in pending:
            path = self.folder / f"{key.hex()}.kv"
            tmp = path.with_suffix(".tmp")
            with open(tmp, "wb") as fh:
                fh.write(MAGIC + _HEAD.pack(len(state.tokens), state.seed, len(state.data)))
                fh.write(state.tokens.tobytes())
                fh.write(state.data)
            os.replace(tmp, path)
            state.on_disk = True

    def _load(self) -> None:
        assert self.folder is not None
        files = sorted(self.folder.glob("*.kv"), key=lambda p: p.stat().st_mtime, reverse=True)
        used = 0
        for path in files:
            state = _read(path)
            if state is None or used + state.size > self.budget:
                path.unlink(missing_ok=True)
                continue
            used += state.size
            self.states[_key(state.tokens)] = state
            self.states.move_to_end(_key(state.tokens), last=False)  # oldest first

    def _drop(self, key: bytes) -> None:
        self.states.pop(key, None)
        if self.folder is not None:
            (self.folder / f"{key.hex()}.kv").unlink(missing_ok=True)


def _key(tokens: np.ndarray) -> bytes:
    return hashlib.sha1(tokens.tobytes()).digest()[:12]


def _read(path: Path) -> State | None:
    raw = path.read_bytes()
    if not raw.startswith(MAGIC) or len(raw) < len(MAGIC) + _HEAD.size:
        return None
    n, seed, size = _HEAD.unpack_from(raw, len(MAGIC))
    start = len(MAGIC) + _HEAD.size
    if len(raw) != start + 4 * n + size:
        return None
    tokens = np.frombuffer(raw, dtype=np.int32, count=n, offset=start).copy()
    return State(tokens, raw[start + 4 * n:], seed, on_disk=True)


def timed_chat(create: Any) -> Any:
    """``Llama.create_chat_completion`` with ``timings`` in its answer (the last chunk of a
    stream)."""

    def create_chat_completion(self: Any, *args: Any, **kwargs: Any) -> Any:
        timings = Timings()
        CURRENT.set(timings)
        holder = _HOLDER.get()
        if holder is not None:
            holder.append(timings)
        result = create(self, *args, **kwargs)
        if isinstance(result, dict):
            return {**result, "timings": timings.as_dict()}
        return _stream(result, timings)

    return create_chat_completion


def _stream(chunks: Iterator[dict[str, Any]], timings: Timings) -> Iterator[dict[str, Any]]:
    CURRENT.set(timings)
    for chunk in chunks:
        choices = chunk.get("choices") or [{}]
        yield {**chunk, "timings": timings.as_dict()} if choices[0].get("finish_reason") else chunk


_HOLDER: contextvars.ContextVar[list[Timings] | None] = contextvars.ContextVar(
    "holder", default=None
)


def _with_timings(app: Any) -> None:
    """Answers that are not streamed pass the server's response model, which drops fields it
    does not know: put ``timings`` back into the JSON body."""
    from starlette.requests import Request
    from starlette.responses import Response

    @app.middleware("http")  # type: ignore[untyped-decorator]  # the server's FastAPI app
    async def timings(request: Request, call_next: Any) -> Any:
        holder: list[Timings] = []
        _HOLDER.set(holder)
        response = await call_next(request)
        if request.url.path != "/v1/chat/completions" or not holder or \
                not response.headers.get("content-type", "").startswith("application/json"):
            return response
        body = b"".join([chunk async for chunk in response.body_iterator])
        try:
            answer = json.loads(body)
            answer["timings"] = holder[-1].as_dict()
            body = json.dumps(answer).encode()
        except (ValueError, TypeError):
            pass
        headers = {k: v for k, v in response.headers.items() if k.lower() != "content-length"}
        return Response(body, status_code=response.status_code, headers=headers)


def main(argv: list[str] | None = None) -> None:
    import llama_cpp
    import llama_cpp.server.app as server_app
    import uvicorn
    from llama_cpp.server.cli import add_args_from_model, parse_model_from_args
    from llama_cpp.server.settings import ModelSettings, ServerSettings, Settings


    parser = argparse.ArgumentParser(prog="python -m smart_docgemma.modelserver")
    add_args_from_model(parser, Settings)
    parser.add_argument("--prompt_cache_dir", type=Path, default=None)
    parser.add_argument("--prompt_cache_mb", type=int, default=1536)
    parser.add_argument("--prompt_slots", type=int, default=3,
                        help="contexts kept live (one per node that calls the model, as in a turn)")
    parser.add_argument("--prompt_whole", action="store_true",
                        help="compute every prompt whole, nothing reused (the reference answers)")
    args = parser.parse_args(argv)
    server: Any = parse_model_from_args(ServerSettings, args)  # its annotation says the class
    model: Any = parse_model_from_args(ModelSettings, args)
    # prompts are computed a chunk at a time (livecontext): a larger batch only reserves memory,
    # the logits of n_batch positions per context (512 × Gemma's vocabulary × 4 B = 512 MB)
    model.n_batch = model.n_ubatch = CHUNK
    llama_cpp.Llama.create_chat_completion = timed_chat(  # type: ignore[method-assign]
        llama_cpp.Llama.create_chat_completion)
    app = server_app.create_app(server_settings=server, model_settings=[model])
    cache = PromptCache(args.prompt_cache_mb << 20, args.prompt_cache_dir)
    llama = server_app._llama_proxy()  # type: ignore[misc]  # the one model, loaded by create_app
    LiveContext(
        llama,
        None if args.prompt_whole else cache,
        whole=args.prompt_whole,
        slots=args.prompt_slots,
    )
    _with_timings(app)
    stop = threading.Event()

    def write_behind() -> None:  # states reach the disk off the request path
        while not stop.wait(5):
            cache.persist()

    threading.Thread(target=write_behind, daemon=True, name="prompt-cache-writer").start()

    @app.get("/extras/prompt_cache")  # type: ignore[untyped-decorator]
    def prompt_cache() -> dict[str, Any]:
        return {"states": len(cache.states), "bytes": cache.cache_size, "budget": cache.budget,
                "tokens": [len(s.tokens) for s in cache.states.values()]}

    @app.on_event("shutdown")  # type: ignore[untyped-decorator]
    def flush() -> None:
        stop.set()
        cache.persist()

    print(f"prompt cache: {len(cache.states)} states from {args.prompt_cache_dir}, "
          f"budget {args.prompt_cache_mb} MB", file=sys.stderr, flush=True)
    uvicorn.run(app, host=server.host, port=server.port)

