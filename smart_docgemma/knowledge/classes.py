"""Ingredient → its classes: the FDA's pharmacologic classes, and the clinical groupings.

Two sources, one answer (``of``):

- ``data/pharm_classes.json`` (built by ``epc_build`` from the FDA National Drug Code
  Directory): each ingredient's Established Pharmacologic Classes (EPC) and mechanisms, the
  FDA's terminology for what a drug *is* (``pharmacologic("metoprolol")`` →
  ("beta-Adrenergic Blocker",)). ``classes.yaml`` → ``from_epc`` names which EPCs make up each
  class key the rules use (``statin`` ← "HMG-CoA Reductase Inhibitor"), with the members a key
  leaves out (loperamide is an opioid agonist that acts only in the gut).
- ``classes.yaml`` → ``classes``: groupings that are not a pharmacological class (serotonergic,
  QT risk, potassium-raising, strong CYP3A4 inhibitors …) and ingredients the FDA file does not
  class (acetaminophen, gliclazide and other drugs not sold in the US).
"""
from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from .tables import DATA, load


@lru_cache(maxsize=1)
def _fda() -> dict[str, Any]:
    path = DATA / "pharm_classes.json"
    table: dict[str, Any] = (
        json.loads(path.read_text()) if path.exists() else {"ingredients": {}, "meta": {}}
    )
    return table


def pharmacologic(ingredient: str) -> tuple[str, ...]:
    """The FDA Established Pharmacologic Classes of an ingredient (empty when it has none)."""
    return tuple(_fda()["ingredients"].get(ingredient, {}).get("epc", ()))


def mechanisms(ingredient: str) -> tuple[str, ...]:
    """The FDA mechanism-of-action classes of an ingredient."""
    return tuple(_fda()["ingredients"].get(ingredient, {}).get("moa", ()))


def classified() -> list[str]:
    """Every ingredient the FDA file classes."""
    return list(_fda()["ingredients"])


def product_brands() -> dict[str, list[str]]:
    """Prescription brand name → ingredients, from the same FDA product file (``epc_build``)."""
    found: dict[str, list[str]] = _fda().get("brands", {})
    return found


def source() -> dict[str, str]:
    """Where the FDA classes come from (source and version), for the docs and the coverage
    report."""
    meta: dict[str, str] = _fda()["meta"]
    return meta


@lru_cache(maxsize=1)
def _membership() -> dict[str, frozenset[str]]:
    out: dict[str, set[str]] = {}
    for cls, members in load("classes.yaml")["classes"].items():
        for m in members:
            out.setdefault(m, set()).add(cls)
    by_epc: dict[str, list[tuple[str, frozenset[str]]]] = {}
    for cls, spec in load("classes.yaml")["from_epc"].items():
        for epc in spec["epc"]:
            by_epc.setdefault(epc, []).append((cls, frozenset(spec.get("except", ()))))
    for ingredient, found in _fda()["ingredients"].items():
        for epc in found.get("epc", ()):
            for cls, left_out in by_epc.get(epc, ()):
                if ingredient not in left_out:
                    out.setdefault(ingredient, set()).add(cls)
    return {k: frozenset(v) for k, v in out.items()}


def of(ingredient: str) -> frozenset[str]:
    """The classes of one ingredient ("ketorolac" → {"nsaid", "nsaid_non_aspirin", …}); a class
    named by its own name ("NSAID", "ACE inhibitor": "can he have an NSAID?") is that class and
    every class holding all of its members, so the class's rules apply to it."""
    found = _membership().get(ingredient)
    if found is None and named(ingredient):
        return _with_wider(named(ingredient) or "")
    return found or frozenset()


@lru_cache(maxsize=1)
def _by_label() -> dict[str, str]:
    return {str(v).lower(): k for k, v in load("classes.yaml")["labels"].items()}


def named(name: str) -> str | None:
    """The class key a class's own name stands for ("NSAID" → nsaid); None for an ingredient
    or any other word ("penicillin" is also an ingredient: the ingredient)."""
    low = (name or "").lower()
    # a class said in the plural or by an allergy's word ("sulfonamides", "sulfa drugs")
    key = (_by_label().get(low) or _by_label().get(low.removesuffix("s"))
           or load("classes.yaml")["allergen_terms"].get(low))
    return key if key and low not in _membership() else None


@lru_cache(maxsize=128)
def _with_wider(key: str) -> frozenset[str]:
    mine = set(members(key))
    keys = {k for found in _membership().values() for k in found}
    return frozenset({key} | {k for k in keys if mine and mine <= set(members(k))})


@lru_cache(maxsize=256)
def members(cls: str) -> list[str]:
    return sorted(i for i, found in _membership().items() if cls in found)


def label(cls: str) -> str:
    label: str = load("classes.yaml")["labels"].get(cls, cls.replace("_", " "))
    return label


def matches(ingredient: str, key: str) -> bool:
    """``key`` is an ingredient or ``class:<name>``."""
    return key[6:] in of(ingredient) if key.startswith("class:") else ingredient == key
