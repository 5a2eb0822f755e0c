"""Drug names as written in each language the assistant understands: ``data/drug_words.yaml``
per language, and French, Portuguese and Spanish spellings read to the core's ingredients.

Drug names as written in French, Portuguese or Spanish reach the core's ingredients three
ways: the language's ``drug_synonyms`` (exceptions and brands, read by ``mentions``), the ANSM
French names shipped in the interaction data (``ingredient.fr``) and a spelling skeleton shared
by the English, French, Spanish and Portuguese INN spellings (ph→f, th→t, y→i, w→v, doubled
letters single, final vowels dropped: warfarin / warfarine / warfarina / varfarina → "varfarin").
"""
from __future__ import annotations

import re
from functools import cache, lru_cache
from typing import Any

from ..languages import UNDERSTOOD, fold
from . import vocabulary
from .tables import db, load

_FOLDS = (("ph", "f"), ("th", "t"), ("ch", "c"), ("y", "i"), ("w", "v"), ("k", "c"))


@cache
def drug_words(lang: str) -> dict[str, Any]:
    """One language's ``drug_synonyms`` and ``not_drugs``; other than English's, accent folded,
    as the clinician's message is read folded."""
    table: dict[str, Any] = load("drug_words.yaml")[lang]
    if lang == "en":
        return table
    return {"drug_synonyms": {fold(k): fold(v) for k, v in table["drug_synonyms"].items()},
            "not_drugs": [fold(w) for w in table["not_drugs"]]}


def skeleton(word: str) -> str:
    """The spelling skeleton of one drug word (see the module docstring)."""
    w = fold(word).lower()
    for a, b in _FOLDS:
        w = w.replace(a, b)
    w = re.sub(r"(.)\1+", r"\1", w)
    return re.sub(r"[aeo]+$", "", w)


@lru_cache(maxsize=1)
def _french_names() -> dict[str, str]:
    """ANSM French ingredient name (folded, lower case) → the core's English ingredient."""
    conn = db()
    rows = conn.execute("SELECT fr, name FROM ingredient").fetchall() if conn else []
    return {fold(fr).lower(): name for fr, name in rows if fr and fold(fr).lower() != name}


@lru_cache(maxsize=1)
def _skeletons() -> dict[str, str | None]:
    """Skeleton → ingredient for every one-word name the core and the ANSM data know
    (None where two ingredients share a skeleton: never guessed)."""
    index: dict[str, str | None] = {}
    words = [(w, vocabulary.canonical(w)) for w in vocabulary.single_words() if w.isalpha()]
    words += [(fr, en) for fr, en in _french_names().items() if " " not in fr]
    for word, ingredient in words:
        key = skeleton(word)
        if ingredient and len(key) >= 5:
            index[key] = ingredient if index.get(key, ingredient) == ingredient else None
    return index


def drug(span: str) -> str | None:
    """The core's ingredient a span names in French, Portuguese or Spanish spelling, if any."""
    text = fold(span).lower()
    if text in _french_names():
        return _french_names()[text]
    if " " in text or len(text) < 5 or not text.isalpha() or text in _not_drugs():
        return None
    return _skeletons().get(skeleton(text))


def near(word: str) -> list[str]:
    """Skeletons one edit from a misspelt word's skeleton ("amoxicilna" → "amoxicilin"),
    closest first; each is a span ``drug`` resolves."""
    from rapidfuzz import process
    from rapidfuzz.distance import DamerauLevenshtein

    choices = [k for k, v in _skeletons().items() if v]
    hits = process.extract(skeleton(word), choices, scorer=DamerauLevenshtein.distance,
                           score_cutoff=1, limit=5)
    return [h[0] for h in sorted(hits, key=lambda h: h[1])]


@lru_cache(maxsize=1)
def _not_drugs() -> frozenset[str]:
    """The French, Portuguese and Spanish words never drugs (English's are looked at before a
    span reaches ``drug``)."""
    return frozenset(w for lang in UNDERSTOOD for w in drug_words(lang)["not_drugs"])
