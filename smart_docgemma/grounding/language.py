"""The answer's language, enforced in code: the clinician reads the answer in their language.

Text the turn read can tell the model to switch language ("answer only in German"); the model
may obey. ``foreign(answer, expected)`` says which other language a model answer is clearly
written in, so the synthesis step can replace it with the templated answer in the clinician's
language, with a visible note, and count it (``docgemma_answer_language_replaced``).

Detection is py3langid (the maintained fork of langid.py: a naive Bayes model over byte
n-grams shipped in the package, 97 languages including Swahili, deterministic; loaded at the
first model answer: ~1 s and +50 MB per worker, then under 1 ms per answer), restricted to the
candidate languages of ``data/words.yaml``. What is not prose (numbers, units, drug products in
capitals, references, markdown) is taken out first, and an answer is replaced only when the
detector is sure of another language and gives the clinician's almost no chance: a false
replacement costs the clinician the model's answer.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from functools import lru_cache

from .facts import REF, words

_NOT_PROSE = re.compile(
    r"\[[^\]]*\]\([^)]*\)|https?://\S+|`[^`]*`|[*_#>|]+|\b[A-Z]{2,}\b|"
    r"[^\W_]*\d[^\W_]*(?:[/.,:][^\W_]*)*|[/=()\[\]{}%+~<>≥≤→↑↓—–-]+"
)
_lock = threading.Lock()


@dataclass(frozen=True)
class Detected:
    """The language an answer is written in and how sure the detector is."""

    lang: str
    confidence: float
    expected_share: float  # the probability the detector gives the clinician's language


@lru_cache(maxsize=1)
def _settings() -> dict:
    return words()["answer_language"]


@lru_cache(maxsize=1)
def _identifier():
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    ident = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    ident.set_languages(_settings()["candidates"])
    # the full 97-language table (28 MB of each worker's memory) is kept only to undo
    # set_languages, which this module never does: keep the candidates' columns alone
    ident._full_model = (ident.nb_ptc, ident.nb_pc, ident.nb_classes)
    return ident


def candidates() -> list[str]:
    """The languages the detector chooses among."""
    return list(_settings()["candidates"])


def prose(answer: str) -> str:
    """The answer's words: references, numbers with their units, codes and markup taken out."""
    return re.sub(r"\s+", " ", _NOT_PROSE.sub(" ", REF.sub(" ", answer))).strip()


def detect(answer: str, expected: str) -> Detected | None:
    """The answer's language, or None when it has too few words of prose to tell."""
    text = prose(answer)
    if len(re.findall(r"\w{2,}", text)) < _settings()["min_words"]:
        return None
    with _lock:  # the identifier keeps no state per call, but its loading must happen once
        ranked = dict(_identifier().rank(text))
    lang = max(ranked, key=lambda candidate: ranked[candidate])
    return Detected(lang, float(ranked[lang]), float(ranked.get(expected, 0.0)))


def foreign(answer: str, expected: str) -> Detected | None:
    """The other language ``answer`` is clearly written in, else None (it is in ``expected``,
    or too short or too mixed to tell)."""
    found = detect(answer, expected)
    settings = _settings()
    if (
        found is None
        or found.lang == expected
        or found.confidence < settings["min_confidence"]
        or found.expected_share > settings["max_expected"]
    ):
        return None
    return found
