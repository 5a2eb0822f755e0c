"""Ingredient → the pharmacological classes that matter for safety (``data/classes.yaml``)."""
from __future__ import annotations

from functools import lru_cache

from .tables import load


@lru_cache(maxsize=1)
def _membership() -> dict[str, frozenset[str]]:
    out: dict[str, set[str]] = {}
    for cls, members in load("classes.yaml")["classes"].items():
        for m in members:
            out.setdefault(m, set()).add(cls)
    return {k: frozenset(v) for k, v in out.items()}


def of(ingredient: str) -> frozenset[str]:
    """The classes of one ingredient ("ketorolac" → {"nsaid"})."""
    return _membership().get(ingredient, frozenset())


def members(cls: str) -> list[str]:
    return list(load("classes.yaml")["classes"].get(cls, []))


def label(cls: str) -> str:
    label: str = load("classes.yaml")["labels"].get(cls, cls.replace("_", " "))
    return label


def matches(ingredient: str, key: str) -> bool:
    """``key`` is an ingredient or ``class:<name>``."""
    return key[6:] in of(ingredient) if key.startswith("class:") else ingredient == key
