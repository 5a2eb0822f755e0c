"""The clinician's language at run time, on the base floor so every floor may use it: the
language a turn answers in (a context variable: the agent sets it for a turn, the web for a page),
and the templated answers written per language (``agent/answers/<lang>.yaml``). How orders
write a frequency, in every language, is ``frequency.py``. Understanding the clinician's words (those rules merged into the agent's) is
``agent/languages.py``.
"""
from __future__ import annotations

import contextvars
import re
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

RULES = Path(__file__).parent / "agent" / "rules"
ANSWERS = Path(__file__).parent / "agent" / "answers"
UNDERSTOOD = ("fr", "pt", "es")  # languages with rule files; English is agent/data/rules.yaml
ANSWERED = ("en", "fr", "pt", "es")  # languages the templated answers are written in
_ELISION = re.compile(r"\b(l|d|j|qu|n|s|c|m|t)['\u2019](?=[a-z])", re.I)
_answer_language = contextvars.ContextVar("answer_language", default="en")


def fold(text: str) -> str:
    """Accents dropped and French elisions split ("l'ibuprofène" → "l ibuprofene"), case kept."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return _ELISION.sub(r"\1 ", plain.replace("\u2019", "'"))


@lru_cache(maxsize=None)
def answers(lang: str) -> dict[str, Any]:
    """``answers/<lang>.yaml``: the templated answers written in ``lang`` (as written, accents kept)."""
    path = ANSWERS / f"{lang}.yaml"
    table: dict[str, Any] = (yaml.safe_load(path.read_text(encoding="utf-8")) or {}) if path.exists() else {}
    return table


def answer_text(section: str, key: str) -> str | None:
    """This turn's language's text for ``section``/``key``; None in English or where not written."""
    lang = answer_language()
    said = None if lang == "en" else (answers(lang).get(section) or {}).get(key)
    return str(said) if said is not None else None


def instruction() -> str | None:
    """What the synthesis prompt adds so the model answers in this turn's language."""
    lang = answer_language()
    said = None if lang == "en" else answers(lang).get("instruction")
    return str(said) if said else None

def answer_language() -> str:
    """The language of this turn's templated answers ("en" unless a turn set another)."""
    return _answer_language.get()


@contextmanager
def answering(lang: str | None) -> Iterator[None]:
    """Templated answers in ``lang`` for the turn run inside (English if not one of ANSWERED)."""
    token = _answer_language.set(lang if lang in ANSWERED else "en")
    try:
        yield
    finally:
        _answer_language.reset(token)
