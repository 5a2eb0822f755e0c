"""The embedded server's running model: which computed prompt positions a request continues
from, so that an answer is exactly the one computing its prompt whole gives.

Reuse is exact only under three rules (each measured to flip a greedy answer when broken):

- Positions are computed in chunks of ``CHUNK``, aligned to multiples of it. llama.cpp's CPU
  kernels round differently for a batch of one token than for a batch of many, so a prefix
  continued in another batch would differ from the prompt computed whole. A prefix is reused
  only up to a chunk's start: at most ``CHUNK - 1`` tokens more are computed per request.
- Each context's cells hold positions in order, as computing the prompt whole leaves them:
  attention sums over cells in cell order, and another order rounds differently. A context
  computed from position 0 and rewound keeps that order. A restored state does too, except on
  a model with sliding-window layers (Gemma's): after a restore llama.cpp fills cells from the
  first, and a cell that fell out of the window counts as free, so the next positions land
  before older ones. A state is therefore continued only below the window (``restorable``),
  where no cell is out of it; past it, reuse comes from a live context.
- So that each node keeps its own prompt live, the server holds several contexts (``slots``,
  as llama.cpp's own server does) and a request goes to the one sharing the longest prefix
  with it, else to the least recently used one.

This module runs only in the server's child process (``promptcache.main``); the app never
imports llama_cpp.
"""
from __future__ import annotations

import contextvars
import ctypes
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

CHUNK = 64


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


def shared(a: np.ndarray, b: np.ndarray) -> int:
    """Length of the common prefix of two token arrays."""
    n = min(len(a), len(b))
    differ = np.flatnonzero(a[:n] != b[:n])
    return int(differ[0]) if differ.size else n


class States(Protocol):
    """Where computed prompts are kept (``promptcache.PromptCache``)."""

    def best(self, tokens: np.ndarray) -> State | None: ...

    def add(self, state: State) -> None: ...


@dataclass
class Slot:
    """One llama.cpp context and the tokens its cells hold."""

    ctx: Any
    tokens: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int32))
    used: float = 0.0


class LiveContext:
    """A loaded ``llama_cpp.Llama`` with ``slots`` contexts, exact prefix reuse, the prompt cache
    and timings. ``whole``: nothing reused at all (the reference the bench compares with)."""

    def __init__(self, llama: Any, cache: States | None, whole: bool = False, slots: int = 1):
        from llama_cpp import llama_cpp as lib

        self.llama, self.cache, self.whole, self._lib = llama, cache, whole, lib
        window = int(lib.llama_model_n_swa(llama._model.model))
        # the longest prefix a restored state is continued from (cells all inside the window)
        self.restorable = (window - 1) // CHUNK * CHUNK if window > 0 else None
        self.slots = [Slot(llama._ctx)] + [
            Slot(self._new_context()) for _ in range(max(1, slots) - 1)
        ]
        self.active = self.slots[0]
        self._capture_at: int | None = None
        self._evaluate, self._generate = llama.eval, llama.generate
        llama.eval, llama.generate = self.evaluate, self.generate

    def _new_context(self) -> Any:
        from llama_cpp import _internals

        ctx = _internals.LlamaContext(model=self.llama._model, params=self.llama.context_params,
                                      verbose=self.llama.verbose)
        self.llama._stack.callback(ctx.close)
        return ctx

    # -- which context and prefix a request continues from
    def prepare(self, tokens: np.ndarray) -> int:
        """Position a context to continue ``tokens``; the number of tokens reused."""
        self._park()
        if self.whole:
            self._activate(self.active)
            return self._reuse(0)
        slot, live = self._choose(tokens[:-1])
        self._activate(slot)
        # one lookup for both uses
        state = self.cache.best(tokens) if self.cache is not None else None
        kept = self._kept(state, tokens[:-1])
        if state is not None and kept > live:
            live = kept if self.restore(state) else 0  # a failed restore may have overwritten cells
        self._capture_at = self._capture_point(state, tokens)
        return self._reuse(live)

    def _choose(self, tokens: np.ndarray) -> tuple[Slot, int]:
        best = max(self.slots, key=lambda s: (shared(s.tokens, tokens) // CHUNK, -s.used))
        reused = shared(best.tokens, tokens) // CHUNK * CHUNK
        if reused == 0:
            best = min(self.slots, key=lambda s: s.used)
        return best, reused

    def _kept(self, state: State | None, tokens: np.ndarray) -> int:
        """The prefix of the kept ``state`` continued exactly."""
        if state is None:
            return 0
        kept = shared(state.tokens, tokens) // CHUNK * CHUNK
        return kept if self.restorable is None else min(kept, self.restorable)

    def _capture_point(self, state: State | None, tokens: np.ndarray) -> int | None:
        """Where this prompt's state is taken (a chunk start), unless ``state`` holds it already."""
        if self.cache is None:
            return None
        point = (len(tokens) - 1) // CHUNK * CHUNK
        if self.restorable is not None:
            point = min(point, self.restorable)
        if point == 0 or (state is not None and shared(state.tokens, tokens) >= point):
            return None
        return point

    def _reuse(self, prefix: int) -> int:
        self.llama.n_tokens = prefix  # llama_cpp.Llama.generate drops the cells after it
        return prefix

    def _park(self) -> None:
        self.active.tokens = np.array(self.llama.input_ids[:self.llama.n_tokens], dtype=np.int32)

    def _activate(self, slot: Slot) -> None:
        self.active, slot.used = slot, time.monotonic()
        self.llama._ctx = slot.ctx
        self.llama.input_ids[:len(slot.tokens)] = slot.tokens
        self.llama.n_tokens = len(slot.tokens)
        self.llama._requires_eval = True  # the logits buffer may be another context's

    # -- states
    def capture(self) -> State:
        """The active context's computed positions as a state."""
        lib, ctx = self._lib, self.llama._ctx.ctx
        size = lib.llama_state_get_size(ctx)
        buffer = (ctypes.c_uint8 * size)()
        used = lib.llama_state_get_data(ctx, buffer, size)
        n = self.llama.n_tokens
        return State(
            np.array(self.llama.input_ids[:n], dtype=np.int32),
            ctypes.string_at(buffer, used),
            self.llama._seed,
        )

    def restore(self, state: State) -> bool:
        buffer = (ctypes.c_uint8 * len(state.data)).from_buffer_copy(state.data)
        if self._lib.llama_state_set_data(self.llama._ctx.ctx, buffer, len(state.data)) != len(
            state.data
        ):
            self._reuse(0)  # an unusable state: the prompt is computed instead
            return False
        n = len(state.tokens)
        self.llama.input_ids[:n] = state.tokens
        self.llama.n_tokens, self.llama._seed = n, state.seed
        return True

    # -- what llama_cpp.Llama calls
    def evaluate(self, tokens: Any) -> None:
        timings = CURRENT.get()
        if timings is not None and timings.first_token is None:
            timings.evaluated += len(tokens)
        done = 0
        while done < len(tokens):  # position p is always computed with the chunk it starts
            start = self.llama.n_tokens
            if start == self._capture_at and self.cache is not None:
                self.cache.add(self.capture())
                self._capture_at = None
            end = min(len(tokens), done + CHUNK - (start % CHUNK))
            self._evaluate(tokens[done:end])
            done = end

    def generate(self, tokens: Any, *args: Any, **kwargs: Any) -> Iterator[int]:
        timings = CURRENT.get()
        if timings is not None:
            timings.prompt_tokens = len(tokens)
        self.prepare(np.asarray(tokens, dtype=np.int32))
        for token in self._generate(tokens, *args, **kwargs):
            if timings is not None:
                timings.first_token = timings.first_token or time.monotonic()
                timings.predicted += 1
            yield token
