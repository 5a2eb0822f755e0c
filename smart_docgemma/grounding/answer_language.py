"""The answer's language, enforced in code: the clinician reads the answer in their language.

Text the turn read can tell the model to switch language ("answer only in German"); the model
may obey. ``foreign(answer, expected)`` says which other language a model answer is clearly
written in, so the synthesis step can replace it with the templated answer in the clinician's
language, with a visible note, and count it (``docgemma_answer_language_replaced``).

Detection counts each candidate language's function words (``data/words.yaml``; accents
folded) in the answer's prose, and names Russian, Chinese, Japanese, Arabic and Hindi by their
script. What is not prose (numbers, units, drug products in capitals, references, markdown) is
taken out first. An answer is replaced only when another language's function words are many,
dense and several times the clinician's: a false replacement costs the clinician the model's
answer. A statistical detector (py3langid) did the same on the tests but cost each worker
+50–64 MB and a one-second load at its first answer; the counts cost nothing and are data.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from .facts import REF, words

_NOT_PROSE = re.compile(
    r"\[[^\]]*\]\([^)]*\)|https?://\S+|`[^`]*`|[*_#>|]+|\b[A-Z]{2,}\b|"
    r"\b[^\W_]{0,40}\d[^\W_]*(?:[/.,:][^\W_]*)*|[/=()\[\]{}%+~<>≥≤→↑↓—–-]+"
)
# The start of an answer tells its language; a runaway answer (one "word" of 100,000 letters)
# would make the patterns above backtrack for minutes.
SAMPLE_CHARS = 3000


@dataclass(frozen=True)
class Detected:
    """The language an answer is written in and how sure the detector is."""

    lang: str
    confidence: float  # the language's share of the function words counted (1.0 for a script)
    expected_share: float  # the clinician's language's share of them
    hits: int  # the language's function words in the answer
    words: int  # words of prose in the answer
    by_script: bool = False  # named by its script, not by its words


@lru_cache(maxsize=1)
def _settings() -> dict:
    return words()["answer_language"]


@lru_cache(maxsize=1)
def _function_words() -> dict[str, frozenset[str]]:
    return {lang: frozenset(map(str, said)) for lang, said in _settings()["function_words"].items()}


def function_words(lang: str) -> frozenset[str]:
    """The short words that mark a text as written in ``lang`` (accent-folded, lower case)."""
    return _function_words().get(lang, frozenset())


def candidates() -> list[str]:
    """The languages the check can name (by function words or by script)."""
    return list(dict.fromkeys([*_function_words(), *_settings()["scripts"].values()]))


def prose(answer: str) -> str:
    """The answer's words: references, numbers with their units, codes and markup taken out."""
    sample = answer[:SAMPLE_CHARS]
    return re.sub(r"\s+", " ", _NOT_PROSE.sub(" ", REF.sub(" ", sample))).strip()


def _fold(word: str) -> str:
    return "".join(
        c for c in unicodedata.normalize("NFD", word.lower()) if not unicodedata.combining(c)
    )


def _script(text: str) -> str | None:
    """The language named by the script most of the letters are in, when it is not Latin."""
    letters = [c for c in text if c.isalpha()]
    found = Counter(
        _settings()["scripts"].get(unicodedata.name(c, "").split(" ")[0]) for c in letters
    )
    found.pop(None, None)
    if not found:
        return None
    lang, n = found.most_common(1)[0]
    if "ja" in found and lang == "zh":  # Japanese writes kanji beside its kana
        lang, n = "ja", sum(found.values())
    return lang if n >= _settings()["min_script"] * len(letters) else None


def detect(answer: str, expected: str) -> Detected | None:
    """The answer's language, or None when it has too few words of prose to tell.
    ``confidence`` and ``expected_share`` are shares of the function words counted."""
    text = prose(answer)
    tokens = [_fold(w) for w in re.findall(r"[^\W\d_]+", text)]
    scripted = _script(text)
    if scripted and sum(c.isalpha() for c in text) >= 2 * _settings()["min_words"]:
        return Detected(scripted, 1.0, 1.0 if scripted == expected else 0.0, 0, len(tokens), True)
    if len(tokens) < _settings()["min_words"]:
        return None
    hits = {lang: sum(t in said for t in tokens) for lang, said in _function_words().items()}
    total = sum(hits.values()) or 1
    lang = max(hits, key=lambda candidate: hits[candidate])
    return Detected(
        lang, hits[lang] / total, hits.get(expected, 0) / total, hits[lang], len(tokens)
    )


def foreign(answer: str, expected: str) -> Detected | None:
    """The other language ``answer`` is clearly written in, else None (it is in ``expected``,
    or too short or too mixed to tell)."""
    found = detect(answer, expected)
    if found is None or found.lang == expected:
        return None
    settings = _settings()
    if found.by_script:
        return found  # most of the answer's letters are in another script
    clear = (
        found.hits >= settings["min_hits"]
        and found.hits >= settings["min_density"] * found.words
        and found.confidence >= settings["min_ratio"] * found.expected_share
    )
    return found if clear else None
