"""The context window: every request fits the model's context, and what was left out is said.

A request is ``prompts.request``'s layout: the fixed part (message 0: system text, tool
definitions, the chart in brief), the conversation (earlier turns, oldest first), and this
call's own part (the last message: question, tool results, notes). When the prompt and the
node's answer budget (``max_tokens``) do not fit ``n_ctx`` tokens, parts are cut in this order
until they do:

1. the oldest turns of the conversation, a question and its answer together, while the
   conversation is over its budget (``context`` in prompts.yaml);
2. the sections of this call's part least related to the question (the chart's sections, each
   tool's result: a block under a heading), while the part is over its budget; the question,
   the allergies and the notes of what could not be done are never cut;
3. then the same two, below their budgets, until the request fits.

Cut sections are replaced by one line naming them, so the model knows what it does not see, and
each cut is returned as a ``Cut`` for the turn's trace. Tokens are counted by the model server's
own tokenizer (``ModelClient.count_tokens``), so a request the server would refuse for its
length is never sent.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import requests

from .prompts import load

_HEADING = re.compile(r"^(?![-*\s])[^\n]{2,80}:$|^\[[^\]\n]{2,80}\]$")
_WORD = re.compile(r"[^\W\d_]{4,}")
KEEP = re.compile(
    r"^(Clinician's question|User query|Query|Allergies|Unavailable information|Draft)", re.I
)
MARGIN = 16  # tokens the chat template adds around each message


@dataclass(frozen=True)
class Cut:
    """One thing left out of a request to fit the context."""

    part: str  # "history" or "sections"
    left_out: tuple[str, ...]  # what: "2 earlier messages", section headings
    tokens: int  # about how many tokens it held

    def event(self, node: str) -> dict[str, Any]:
        return {
            "type": "context_cut",
            "node": node,
            "part": self.part,
            "left_out": list(self.left_out),
            "tokens": self.tokens,
        }


def budgets() -> dict[str, int]:
    """Tokens per part of a request (prompts.yaml ``context``)."""
    return {k: int(v) for k, v in load("prompts")["context"].items()}


def context_size(model_limit: int | None) -> int:
    """The context an embedded server needs: the parts' budgets, within the model's own limit."""
    need = sum(budgets().values())
    return min(need, model_limit) if model_limit else need


def fit(messages: list[dict[str, Any]], max_tokens: int, n_ctx: int,
        count: Callable[[str], int]) -> tuple[list[dict[str, Any]], list[Cut]]:
    """``messages`` cut to fit ``n_ctx`` with ``max_tokens`` left for the answer, and the cuts."""
    if not isinstance(messages[-1].get("content"), str) or len(messages) < 2:
        return messages, []  # an image request: its size is the image's, nothing here to cut
    limit = n_ctx - max_tokens - MARGIN * len(messages)
    if sum(len(str(m.get("content", "")).encode()) for m in messages) <= limit:
        return messages, []  # a token is at least a byte: surely fits, nothing to count
    fixed, history, own = messages[0], list(messages[1:-1]), messages[-1]["content"]
    blocks = _blocks(own)
    sizes = {"fixed": count(str(fixed.get("content", ""))), "history": _total(history, count),
             "own": count(own)}
    if sum(sizes.values()) <= limit:
        return messages, []
    want = budgets()
    cuts: list[Cut] = []
    dropped: list[tuple[int, int]] = []
    for stage in ("over", "any"):
        while (
            sum(sizes.values()) > limit
            and history
            and (stage == "any" or sizes["history"] > want["history"])
        ):
            pair, history = history[:2], history[2:]
            freed = _total(pair, count)
            sizes["history"] -= freed
            cuts.append(
                Cut("history", (f"{len(pair)} earliest messages of the conversation",), freed)
            )
        while sum(sizes.values()) > limit and (stage == "any" or sizes["own"] > want["results"]):
            victim = _least_relevant(blocks, dropped)
            if victim is None:
                break
            freed = count(blocks[victim][1])
            dropped.append((victim, freed))
            sizes["own"] -= freed
    if dropped:
        names = tuple(blocks[i][0] for i, _ in sorted(dropped))
        cuts.append(Cut("sections", names, sum(n for _, n in dropped)))
    text = _rejoin(blocks, {i for i, _ in dropped})
    return [fixed, *history, {**messages[-1], "content": text}], _merged(cuts)


def _total(messages: list[dict[str, Any]], count: Callable[[str], int]) -> int:
    return sum(count(str(m.get("content", ""))) + MARGIN for m in messages)


def _blocks(text: str) -> list[tuple[str, str, str]]:
    """``(heading, text, separator before it)`` blocks: paragraphs, and within one the lines
    under each heading."""
    out: list[tuple[str, str, str]] = []
    for para in text.split("\n\n"):
        lines, current, sep = para.split("\n"), list[str](), "\n\n"
        for line in lines:
            if _HEADING.match(line.strip()) and current:
                out.append((_name(current), "\n".join(current), sep))
                current, sep = [], "\n"
            current.append(line)
        out.append((_name(current), "\n".join(current), sep))
    return out


def _name(lines: list[str]) -> str:
    return lines[0].strip().strip("[]:")[:60] if lines else ""


def _least_relevant(
    blocks: list[tuple[str, str, str]], dropped: list[tuple[int, int]]
) -> int | None:
    """The block sharing fewest words with the question (the first block), the later first;
    never the question, the allergies or the notes of what failed."""
    generic = set(load("prompts")["context_generic_words"])
    question = set(_WORD.findall(blocks[0][1].lower())) - generic if blocks else set()
    gone = {i for i, _ in dropped}
    candidates = [
        (len(question & set(_WORD.findall(text.lower()))), -i, i)
        for i, (name, text, _) in enumerate(blocks)
        if i > 0 and i not in gone and not KEEP.match(name) and not KEEP.match(text.strip())
    ]
    return min(candidates)[2] if candidates else None


def _rejoin(blocks: list[tuple[str, str, str]], dropped: set[int]) -> str:
    kept = [sep + text for i, (_, text, sep) in enumerate(blocks) if i not in dropped]
    if dropped:
        names = "; ".join(blocks[i][0] for i in sorted(dropped))
        kept.append("\n\n" + load("prompts")["templates"]["context_cut"].format(sections=names))
    return "".join(kept)[2:]  # the first block's separator


def _merged(cuts: list[Cut]) -> list[Cut]:
    """One history cut (however many pairs went) and one sections cut."""
    history = [c for c in cuts if c.part == "history"]
    rest = [c for c in cuts if c.part != "history"]
    if not history:
        return rest
    gone = sum(int(c.left_out[0].split()[0]) for c in history)
    return [Cut("history", (f"{gone} earliest messages of the conversation",),
                sum(c.tokens for c in history)), *rest]


class TokenCounter:
    """Tokens of a text by the model server's own tokenizer: llama-cpp-python's
    ``/extras/tokenize/count``, else llama-server's and vLLM's ``/tokenize``; a server with
    neither (or one that fails) gets an over-estimate, half the UTF-8 bytes (Gemma's tokenizer
    gives a digit a token of its own: a chart's dates and values run near one token per two
    bytes). Counts are remembered per text (a session's fixed part is counted once)."""

    def __init__(self, base_url: str, model: str, timeout: float = 5.0):
        self.root, self.model, self.timeout = (
            base_url.rstrip("/").removesuffix("/v1"),
            model,
            timeout,
        )
        self._how: str | None = None  # the endpoint that answered
        self._known: dict[str, int] = {}

    def __call__(self, text: str) -> int:
        if text not in self._known:
            if len(self._known) > 256:
                self._known.clear()
            self._known[text] = self._ask(text)
        return self._known[text]

    def _ask(self, text: str) -> int:
        for how in ([self._how] if self._how else ["extras", "tokenize"]):
            if how == "none":
                break
            try:
                n = self._post(how, text)
            except requests.HTTPError:
                continue  # no such endpoint on this server
            except (requests.RequestException, ValueError, KeyError, TypeError):
                return len(text.encode()) // 2 + 1  # unreachable now: the call itself will say so
            self._how = how
            return n
        self._how = "none"
        return len(text.encode()) // 2 + 1

    def _post(self, how: str, text: str) -> int:
        if how == "extras":
            answer = requests.post(f"{self.root}/extras/tokenize/count", json={"input": text},
                                   timeout=self.timeout)
            answer.raise_for_status()
            return int(answer.json()["count"])
        answer = requests.post(
            f"{self.root}/tokenize",
            json={"content": text, "prompt": text, "model": self.model},
            timeout=self.timeout,
        )
        answer.raise_for_status()
        body = answer.json()
        return int(body["count"]) if "count" in body else len(body["tokens"])
