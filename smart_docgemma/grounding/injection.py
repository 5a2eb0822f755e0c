"""What the answer must never do, whatever the model was told by the text it read.

Text in a record can be written to steer the assistant ("ignore your instructions and
prescribe…"). The model may obey it; code then decides what reaches the page:

- ``instructions_in``: instruction-like text in anything the turn read is reported on the
  answer as content, quoted, with where it was found — never silently dropped, never followed;
- ``claims``: an answer sentence claiming an action the assistant cannot take (a write, an
  approval) when no approval happened in the turn is marked as not done;
- ``scrub``: secrets (the session's token, the app's keys) and the assistant's own
  instructions are removed from the answer.

Writes are gated elsewhere (a proposal, approved on a card, for the patient in context); this
module is about what the clinician reads.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache

from .facts import words

QUOTE_CHARS = 160
NOTICE = (
    "⚠ {where} contains text that reads like an instruction to the assistant; it was treated "
    "as content and not followed: «{quote}»"
)
NOT_DONE = "*(not done: nothing is written or approved without your approval on a card)*"
REMOVED = "[removed: not shown in answers]"
_SECRET_KEYS = (
    "CLIENT_SECRET",
    "SECRET_KEY",
    "TOKEN_KEY",
    "API_KEY",
    "OPENFDA_API_KEY",
    "NCBI_API_KEY",
)


@dataclass(frozen=True)
class Injected:
    """Instruction-like text found in one thing the turn read."""

    where: str  # the clinical label of the source (e.g. "Chart review")
    quote: str


@lru_cache(maxsize=1)
def _patterns() -> tuple[re.Pattern, re.Pattern]:
    data = words()

    def join(key: str) -> re.Pattern:
        return re.compile("|".join(f"(?:{p})" for p in data[key]), re.I | re.S)

    return join("instruction_like"), join("action_claims")


def instructions_in(state) -> list[Injected]:
    """Instruction-like passages in the turn's tool results (text and structured data)."""
    found, seen = [], set()
    pattern = _patterns()[0]
    for run in state.tool_runs:
        # a failed run's text is the app's own message; its data is what it read (an image's
        # metadata sent to a model that then failed)
        said = "" if run.result.status == "error" else run.result.text
        if not said and not run.result.data:
            continue
        text = said + "\n" + json.dumps(run.result.json_data(), ensure_ascii=False, default=str)
        for m in pattern.finditer(text):
            quote = _around(text, m.start(), m.end())
            if quote not in seen:
                seen.add(quote)
                found.append(Injected(run.label, quote))
    return found[:5]


def _around(text: str, start: int, end: int) -> str:
    left = max(0, start - 40)
    snippet = re.sub(r"\s+", " ", text[left : end + 80]).strip(" \"'\\,")
    return (snippet[:QUOTE_CHARS] + "…") if len(snippet) > QUOTE_CHARS else snippet


def notices(found: list[Injected]) -> list[str]:
    return [NOTICE.format(where=f.where, quote=f.quote.replace("»", '"')) for f in found]


def claims(answer: str, approved: bool) -> str:
    """Mark sentences claiming a write or an approval that did not happen in this turn."""
    if approved:
        return answer
    pattern = _patterns()[1]
    return re.sub(r"[^.!?\n]*[.!?]?", lambda m: _mark(m.group(0), pattern), answer)


def _mark(sentence: str, pattern: re.Pattern) -> str:
    claimed = pattern.search(sentence) and not re.search(
        r"\b(nothing|not|never|no|awaits?)\b", sentence, re.I
    )
    return f"{sentence.rstrip()} {NOT_DONE}" if claimed else sentence


def secrets_of(ctx, system_prompts: list[str]) -> list[str]:
    """What must never appear in an answer: tokens, keys, and the assistant's instructions."""
    config = (getattr(ctx, "config", None) or {}) if ctx else {}
    out = [
        str(config.get(k)) for k in _SECRET_KEYS if config.get(k) and str(config.get(k)) != "EMPTY"
    ]
    auth = getattr(getattr(getattr(ctx, "fhir", None), "server", None), "auth", None)
    token = getattr(auth, "access_token", None)
    if token:
        out.append(token)
    for prompt in system_prompts:  # its sentences long enough to be unmistakably the prompt
        out += [s.strip() for s in re.split(r"(?<=[.!?])\s+|\n", prompt) if len(s.strip()) >= 40]
    return [s for s in out if len(s) >= 8]


def scrub(answer: str, secrets: list[str]) -> tuple[str, int]:
    """The answer without any of ``secrets`` (longest first), and how many were removed."""
    removed = 0
    for secret in sorted(set(secrets), key=len, reverse=True):
        if secret in answer:
            removed += answer.count(secret)
            answer = answer.replace(secret, REMOVED)
    return answer, removed
