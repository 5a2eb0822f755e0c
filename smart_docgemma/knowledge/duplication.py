"""Therapeutic duplication (``data/duplication.yaml``): a new drug of a class the patient already
takes, the same ingredient in two products, and harmful combinations across classes.

Checked per ingredient: a combination product counts for each of its ingredients, so
hydrocodone/acetaminophen beside oxycodone/acetaminophen is two opioids *and* two
acetaminophen products. The same product ordered twice is the caller's "remove the duplicate"
(it needs no class). Each finding names the drug already there and says what to do: switch,
not add.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from . import classes
from .finding import Finding, Source
from .tables import load

SUMMARY_MAX = 139
VERB = {"critical": "Do not add", "warning": "Switch rather than add"}


def _table() -> dict[str, Any]:
    table: dict[str, Any] = load("duplication.yaml")
    return table


def duplication_findings(drug: str, others: list[str] | tuple[str, ...]) -> list[Finding]:
    """What ``drug`` (a generic name, "a/b" for a combination) duplicates among ``others``."""
    return [
        f
        for other in dict.fromkeys(o for o in others if o and o != drug)
        for f in _pair(drug, other)
    ]


@lru_cache(maxsize=8192)
def _pair(drug: str, other: str) -> tuple[Finding, ...]:
    """One pair's duplications, remembered: a chart's drugs meet every order and every review."""
    return tuple(_shared_ingredients(drug, other) + _by_class(drug, other))


def list_duplications(drugs: list[str]) -> list[Finding]:
    """Every duplication among a whole medication list, each pair once."""
    names = list(dict.fromkeys(d for d in drugs if d))
    return [f for i, d in enumerate(names) for f in duplication_findings(d, names[i + 1:])]


def _shared_ingredients(drug: str, other: str) -> list[Finding]:
    table = _table()["same_ingredient"]
    out = []
    for ingredient in [i for i in drug.split("/") if i in other.split("/")]:
        rule = table.get(ingredient, table["default"])
        out.append(_finding(rule, drug, other, f"two products containing {ingredient}",
                            f"dup:ingredient:{ingredient}"))
    return out


def _by_class(drug: str, other: str) -> list[Finding]:
    out = []
    for rule in _table()["same_class"]:
        pair = rule.get("classes") or [rule["class"], rule["class"]]
        if _pairs(drug, other, pair):
            what = (f"two {_plural(pair[0])}" if pair[0] == pair[1]
                    else f"{classes.label(pair[0])} + {classes.label(pair[1])}")
            out.append(_finding(rule, drug, other, what, f"dup:class:{'+'.join(pair)}"))
    for rule in _table()["cross_class"]:
        if _pairs(drug, other, rule["classes"]):
            what = " + ".join(classes.label(c) for c in rule["classes"])
            out.append(_finding(rule, drug, other, what, f"dup:cross:{'+'.join(rule['classes'])}"))
    return out


def _pairs(drug: str, other: str, pair: list[str]) -> bool:
    """One ingredient of ``drug`` in the first class and another ingredient of ``other`` in the
    second (either way round); the same ingredient on both sides is ``_shared_ingredients``'."""
    for a_cls, b_cls in ((pair[0], pair[1]), (pair[1], pair[0])):
        mine, theirs = _in_class(drug, a_cls), _in_class(other, b_cls)
        if mine and theirs and (mine - theirs or theirs - mine):
            return True
    return False


@lru_cache(maxsize=16384)
def _in_class(name: str, cls: str) -> frozenset[str]:
    """The ingredients of ``name`` ("a/b") in class ``cls``."""
    return frozenset(i for i in name.split("/") if cls in classes.of(i))


def _plural(cls: str) -> str:
    label = classes.label(cls)
    return label if label.endswith("s") else f"{label}s"


def _finding(rule: dict[str, Any], drug: str, other: str, what: str, key: str) -> Finding:
    src = _table()["sources"][rule["source"]]
    verb = VERB[rule["severity"]]
    summary = _fit([f"{verb} {drug}: {other} is already ordered — {what}: {rule['risk']}",
                    f"{verb} {drug}: {other} is already ordered — {what}",
                    f"{verb} {drug} — {what}"])
    return Finding("duplication", rule["severity"], (drug, other), summary,
                   f"{drug.capitalize()} and {other}: {what} — {rule['risk']}.",
                   rule["action"][0].upper() + rule["action"][1:] + ".",
                   (Source(src["label"], src["url"]),), key=key)


def _fit(candidates: list[str]) -> str:
    for text in candidates:
        if len(text) <= SUMMARY_MAX:
            return text
    return candidates[-1][:SUMMARY_MAX].rsplit(" ", 1)[0]
