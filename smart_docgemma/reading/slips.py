"""A result's name typed with one slip ("magnesuim", "potasium", "creatinnine", "hemoglobine"
typed "hemogolbine") read as that name, so the question reaches the chart the same as when it is
typed right ("magnesuim level in the last day?" was read as a drug and checked for safety).

Only a word of seven letters or more that no word list of the four languages holds (nor the
assistant's own vocabulary), one slip — a letter missed, added or changed, or two neighbours
swapped — from exactly one result word of seven letters or more (``knowledge/analytes.yaml``,
names and words); shorter words and words near two results stay as typed.
"""
from __future__ import annotations

import re
from functools import lru_cache

from rapidfuzz.distance import OSA

from ..knowledge import analytes
from .people import fold_accents
from .unknown_words import is_word

_LEAST = 7
_WORD = re.compile(rf"(?<![\w'\-])[A-Za-zÀ-ÿ]{{{_LEAST},}}(?![\w'\-])")


@lru_cache(maxsize=1)
def result_words() -> frozenset[str]:
    """The results' names and words of seven letters or more, folded lower case."""
    said = {fold_accents(w).lower() for a in analytes.table().values() for w in (a.name, *a.words)}
    return frozenset(w for w in said if len(w) >= _LEAST and re.fullmatch(r"[a-z]+", w))


def slipped(word: str) -> str | None:
    """The result word ``word`` was meant to be, or None."""
    low = fold_accents(word).lower()
    if low in result_words() or is_word(low):
        return None
    near = {w for w in result_words() if OSA.distance(low, w, score_cutoff=1) <= 1}
    return near.pop() if len(near) == 1 else None


def unslipped(text: str) -> str:
    """``text`` with each result name typed with one slip written right."""
    return _WORD.sub(lambda m: slipped(m.group(0)) or m.group(0), text)


def document_named(message: str) -> str:
    """``message`` with a document's name typed with one slip read as it ("d/c sumary",
    "handvoer for nights", "refferal letter"), so the draft asked is found as when typed right: a
    word of six letters or more that no word list holds, one slip from exactly one of the draft
    vocabulary's ``slip_words`` (``tools/data/drafts.yaml``); any other word stays as typed."""
    from ..tools.writes.drafts import vocabulary  # the drafts' words, read where they live

    def mend(m: re.Match[str]) -> str:
        word = m.group(0)
        low = fold_accents(word).lower()
        # a capitalised word inside the sentence may be a surname ("Mr Hanover's INR"): as typed
        if is_word(low) or (word[:1].isupper() and m.start() > 0):
            return word
        near = {w for w in vocabulary()["slip_words"] if OSA.distance(low, w, score_cutoff=1) <= 1}
        return near.pop() if len(near) == 1 else word

    return re.sub(r"(?<![\w'\-])[A-Za-zÀ-ÿ]{6,}(?![\w'\-])", mend, message)
