"""The embedded server's prompt cache: llama-cpp-python's server with the computed prompt (the
model's KV state) kept for several prompts at once, in RAM within a budget and on disk, so the
fixed part of every node's prompt (``prompts.request``) is computed once, not on every call,
and a restarted server starts warm.

    python -m smart_docgemma.agent.promptcache <llama_cpp.server flags> \\
        --prompt_cache_dir DIR --prompt_cache_mb 1536 [--prompt_whole]

``embedded.py`` starts this instead of ``python -m llama_cpp.server`` when the cache is on.
It is that server (same flags, same API) with three changes:

- ``PromptCache`` replaces the server's ``--cache``. A state keeps the KV cells and the tokens
  only. llama-cpp-python's own states also copy its logits buffer (n_batch × vocabulary floats:
  512 × 262,144 × 4 B = 512 MB for Gemma's vocabulary) on every save and every restore, and
  its byte budget does not count that buffer, so on a Gemma model its RAM cache both spends
  most of a cache hit copying and outgrows its budget many times over. The logits are not
  needed: after a restore the server always evaluates at least one token before it samples.
- Every state is also written to ``DIR`` (one file each, in the background) and read back at
  start-up, newest first, up to the budget: a restart is warm.
- Each answer carries llama.cpp server's ``timings`` (``prompt_n`` tokens computed,
  ``cache_n`` tokens reused, ``prompt_ms`` until the first token, ``predicted_n``,
  ``predicted_ms``), so the app reports what the clinician waited for (``model.py``).

This module runs only in that child process; the app never imports llama_cpp.
"""
from __future__ import annotations

import argparse
import contextvars
import ctypes
import hashlib
import json
import os
import struct
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

MAGIC = b"DGKV2\n"  # DGKV1 states kept the answer's cells: not reused
# Prompt positions are computed in chunks of this many, aligned to multiples of it. llama.cpp's
# CPU kernels round differently for a batch of one token than for a batch of many, so a prefix
# reused from one prompt and continued in another batch would give an answer other than the
# prompt computed whole (measured: a 270M model's greedy answer flips). Computed alike in both
# cases, reusing a prefix to a chunk's start changes nothing; at most CHUNK - 1 tokens more are
# computed per request.
CHUNK = 64
SUPERSEDE = 0.9  # a new state sharing this much of an older one's tokens replaces it
_HEAD = struct.Struct("<IQQ")  # tokens, seed, state bytes


@dataclass
class State:
    """One computed prompt: its tokens and llama.cpp's state bytes for them."""

    tokens: np.ndarray  # int32
    data: bytes
    seed: int
    on_disk: bool = False

    @property
    def size(self) -> int:
        return len(self.data) + self.tokens.nbytes

    @property
    def input_ids(self) -> np.ndarray:  # the name llama_cpp.Llama reads
        return self.tokens


@dataclass
class Timings:
    """What one completion cost, in llama.cpp server's names."""

    started: float = field(default_factory=time.monotonic)
    prompt_tokens: int = 0
    evaluated: int = 0
    first_token: float | None = None
    predicted: int = 0

    def as_dict(self) -> dict[str, Any]:
        end = time.monotonic()
        first = self.first_token or end
        return {"prompt_n": self.evaluated, "cache_n": max(0, self.prompt_tokens - self.evaluated),
                "prompt_ms": round((first - self.started) * 1000, 1), "predicted_n": self.predicted,
                "predicted_ms": round((end - first) * 1000, 1)}


CURRENT: contextvars.ContextVar[Timings | None] = contextvars.ContextVar("timings", default=None)


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

    # -- what llama_cpp.Llama asks of a cache (``_create_completion``)
    def __getitem__(self, tokens: Any) -> State:
        best, best_len = None, 0
        query = np.asarray(tokens, dtype=np.int32)
        with self._lock:
            for key, state in self.states.items():
                n = _shared(state.tokens, query)
                if n > best_len:
                    best, best_len = key, n
            if best is None:
                raise KeyError("no cached prefix")
            self.states.move_to_end(best)
            return self.states[best]

    def __contains__(self, tokens: Any) -> bool:
        try:
            self[tokens]
            return True
        except KeyError:
            return False

    def __setitem__(self, tokens: Any, state: State) -> None:
        with self._lock:
            for key, old in list(self.states.items()):
                # The same prompt family (a node's fixed part, computed again with a new turn): the
                # newer state serves every request the older one would, less at most its tail.
                if _shared(old.tokens, state.tokens) >= SUPERSEDE * len(old.tokens):
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


def _shared(a: np.ndarray, b: np.ndarray) -> int:
    """Length of the common prefix of two token arrays."""
    n = min(len(a), len(b))
    differ = np.flatnonzero(a[:n] != b[:n])
    return int(differ[0]) if differ.size else n


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


# ------------------------------------------------------------------ the running model
def install(llama: Any, cache: PromptCache | None, whole: bool = False) -> None:
    """Give a loaded ``llama_cpp.Llama`` the cache, states without logits, and timings; its
    prompts computed in chunks aligned to ``CHUNK`` positions, a computed prefix reused only up
    to a chunk's start and never past the prompt (so an answer is what computing its prompt
    whole gives). ``whole``: no prefix reused at all (the reference the bench compares with)."""
    from llama_cpp import llama_cpp as lib

    prompt = [0]  # this completion's prompt length: a state keeps the prompt, not the answer

    def save_state() -> State:
        n = min(llama.n_tokens, prompt[0]) // CHUNK * CHUNK
        llama._ctx.kv_cache_seq_rm(-1, n, -1)  # the answer's cells and a chunk not whole: computed again
        llama.n_tokens = n
        size = lib.llama_state_get_size(llama._ctx.ctx)
        buffer = (ctypes.c_uint8 * size)()
        used = lib.llama_state_get_data(llama._ctx.ctx, buffer, size)
        return State(np.array(llama.input_ids[:n], dtype=np.int32), ctypes.string_at(buffer, used), llama._seed)

    def load_state(state: State) -> None:
        buffer = (ctypes.c_uint8 * len(state.data)).from_buffer_copy(state.data)
        if lib.llama_state_set_data(llama._ctx.ctx, buffer, len(state.data)) != len(state.data):
            llama.reset()  # an unusable state: compute the prompt instead
            return
        n = len(state.tokens)
        llama.input_ids[:n] = state.tokens
        llama.n_tokens, llama._seed = n, state.seed
        llama._requires_eval = True  # a token is evaluated before sampling: logits are fresh

    evaluate, generate = llama.eval, llama.generate

    def aligned_eval(tokens: Any) -> None:
        timings = CURRENT.get()
        if timings is not None and timings.first_token is None:
            timings.evaluated += len(tokens)
        done = 0
        while done < len(tokens):  # position p is always computed with the chunk it starts
            end = min(len(tokens), done + CHUNK - (llama.n_tokens % CHUNK))
            evaluate(tokens[done:end])
            done = end

    def timed_generate(tokens: Any, *args: Any, **kwargs: Any) -> Iterator[int]:
        timings = CURRENT.get()
        if timings is not None:
            timings.prompt_tokens = len(tokens)
        prompt[0] = len(tokens)
        reused = 0 if whole else _shared(np.asarray(llama.input_ids[:llama.n_tokens], dtype=np.int32),
                                         np.asarray(tokens[:-1], dtype=np.int32))
        llama.n_tokens = min(llama.n_tokens, reused // CHUNK * CHUNK)
        for token in generate(tokens, *args, **kwargs):
            if timings is not None:
                timings.first_token = timings.first_token or time.monotonic()
                timings.predicted += 1
            yield token

    llama.save_state, llama.load_state = save_state, load_state
    llama.eval, llama.generate = aligned_eval, timed_generate
    if cache is not None:
        llama.set_cache(cache)


def timed_chat(create: Any) -> Any:
    """``Llama.create_chat_completion`` with ``timings`` in its answer (the last chunk of a stream)."""

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


_HOLDER: contextvars.ContextVar[list[Timings] | None] = contextvars.ContextVar("holder", default=None)


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

    parser = argparse.ArgumentParser(prog="python -m smart_docgemma.agent.promptcache")
    add_args_from_model(parser, Settings)
    parser.add_argument("--prompt_cache_dir", type=Path, default=None)
    parser.add_argument("--prompt_cache_mb", type=int, default=1536)
    parser.add_argument("--prompt_whole", action="store_true",
                        help="compute every prompt whole, nothing reused (the reference answers)")
    args = parser.parse_args(argv)
    server: Any = parse_model_from_args(ServerSettings, args)  # its annotation says the class
    model: Any = parse_model_from_args(ModelSettings, args)
    llama_cpp.Llama.create_chat_completion = timed_chat(  # type: ignore[method-assign]
        llama_cpp.Llama.create_chat_completion)
    app = server_app.create_app(server_settings=server, model_settings=[model])
    cache = PromptCache(args.prompt_cache_mb << 20, args.prompt_cache_dir)
    llama = server_app._llama_proxy()  # type: ignore[misc]  # the one model, loaded by create_app
    install(llama, None if args.prompt_whole else cache, whole=args.prompt_whole)
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


if __name__ == "__main__":
    main()
