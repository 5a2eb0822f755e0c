"""Finding the approved lesson closest to a question (no index service needed).

Lessons are few (each one approved by a person), so ranking them in memory is
cheap: BM25 over content words, with clinical shorthand and drug names kept as
they are typed. A lesson is used only when it is close enough (``min_score``)
and its tools are all available to the session.
"""
from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

_WORD = re.compile(r"[a-z0-9][a-z0-9\-]*")
# Words that say nothing about what the clinician wants done.
_STOP = frozenset(
    """a an the of for to in on at and or with is are was be this that these those it its
i me my we our you your he she him her his hers pt patient please can could would should do does
any some what which who how there here from by as about s""".split()
)
K1, B = 1.2, 0.75
# Clinician shorthand that names the same thing as a longer word in an approved question.
_SHORTHAND = {"ddi": "interaction", "ddis": "interaction", "asa": "aspirin", "rx": "prescribe",
              "trial": "trial", "studies": "study", "hx": "history", "meds": "medication",
              "abx": "antibiotic", "dx": "diagnosis", "allergic": "allergy", "paper": "study",
              "papers": "study", "literature": "study", "evidence": "study"}


@dataclass(frozen=True)
class Lesson:
    """An approved example: the question and the tools (with arguments) that answered it."""

    id: str
    question: str
    tools: tuple[dict[str, Any], ...] = ()  # ({"tool": name, "args": {...}}, ...)
    outcome: str = ""
    words: tuple[str, ...] = field(default=(), compare=False)

    @property
    def tool_names(self) -> list[str]:
        return [t["tool"] for t in self.tools]


def terms(text: str) -> list[str]:
    """Content words of ``text``: lower-cased, shorthand expanded, plurals folded, stop words
    removed."""
    return [_fold(_SHORTHAND.get(w, w)) for w in _WORD.findall(text.lower()) if w not in _STOP]


def _fold(word: str) -> str:
    """'interactions' and 'interaction' are one term; short words and drug suffixes stay as
    typed."""
    if len(word) > 4 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def best_match(question: str, lessons: list[Lesson], *, available: Iterable[str] | None = None,
               min_score: float = 0.5) -> tuple[Lesson, float] | None:
    """The closest lesson and its score in [0, 1] (share of the best possible BM25), or None."""
    query = terms(question)
    usable = [lesson for lesson in lessons
              if lesson.tools and (available is None or set(lesson.tool_names) <= set(available))]
    if not query or not usable:
        return None
    scored = _bm25(query, usable)
    lesson, score = max(scored, key=lambda pair: pair[1])
    return (lesson, score) if score >= min_score else None


def _bm25(query: list[str], lessons: list[Lesson]) -> list[tuple[Lesson, float]]:
    docs = [lesson.words or tuple(terms(lesson.question)) for lesson in lessons]
    n, avg = len(docs), (sum(map(len, docs)) / len(docs)) or 1.0
    df = Counter(w for d in docs for w in set(d))
    idf = {w: math.log(1 + (n - df[w] + 0.5) / (df[w] + 0.5)) for w in set(query)}
    # Normalise by the score the question would get against itself, so the
    # threshold means "this share of the question's words match".
    ideal = sum(idf[w] * (K1 + 1) / (1 + K1) for w in set(query)) or 1.0
    out = []
    for lesson, doc in zip(lessons, docs, strict=False):
        tf, norm = Counter(doc), K1 * (1 - B + B * len(doc) / avg)
        s = sum(idf[w] * tf[w] * (K1 + 1) / (tf[w] + norm) for w in set(query) if w in tf)
        out.append((lesson, min(1.0, s / ideal)))
    return out
