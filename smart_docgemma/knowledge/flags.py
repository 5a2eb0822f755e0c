"""Pregnancy, lactation and renal (eGFR) flags for the ingredients the tables know
(``data/flags.yaml``), and the nephrotoxic drugs (``data/nephrotoxic.yaml``)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import classes
from .tables import load


@dataclass(frozen=True)
class Flag:
    drug: str
    topic: str  # pregnancy | lactation | renal
    severity: str  # critical | warning
    summary: str
    management: str
    source: str


def _entry(table: dict[str, Any], ingredient: str) -> Any:
    """The table's entry for the ingredient or its class (its shape is the YAML's), else None."""
    if ingredient in table:
        return table[ingredient]
    return next(
        (v for k, v in table.items() if k.startswith("class:") and classes.matches(ingredient, k)),
        None,
    )


def pregnancy(ingredients: list[str], lactation: bool = False) -> list[Flag]:
    topic = "lactation" if lactation else "pregnancy"
    out = []
    for ing in dict.fromkeys(ingredients):
        e = _entry(load("flags.yaml")[topic], ing)
        if e:
            out.append(
                Flag(ing, topic, e["severity"], e["risk"], e.get("management", ""), e["source"])
            )
    return out


def renal(ingredients: list[str], egfr: float | None) -> list[Flag]:
    """Flags for a measured eGFR (mL/min/1.73 m²); nothing is claimed without a value."""
    if egfr is None:
        return []
    out = []
    for ing in dict.fromkeys(ingredients):
        e = _entry(load("flags.yaml")["renal"], ing)
        for rule in e or []:
            if egfr < rule["below"]:
                out.append(
                    Flag(
                        ing,
                        "renal",
                        rule["severity"],
                        f"eGFR {egfr:g} < {rule['below']}: {rule['risk']}",
                        rule["management"],
                        rule["source"],
                    )
                )
                break
    return out


@dataclass(frozen=True)
class Nephrotoxic:
    drug: str
    why: str
    source: str


def nephrotoxic(ingredient: str) -> Nephrotoxic | None:
    """The nephrotoxic table's entry for an ingredient (by name or class), or None: a drug the
    table does not list is not covered by it, not shown to be safe for the kidney."""
    e = _entry(load("nephrotoxic.yaml")["drugs"], ingredient)
    return Nephrotoxic(ingredient, e["why"], e["source"]) if e else None


def nephrotoxic_table() -> tuple[str, str]:
    """What the table lists, in words ("aminoglycosides, NSAIDs, …"), and its source."""
    table = load("nephrotoxic.yaml")
    plural = {"aminoglycoside": "aminoglycosides", "nsaid_non_aspirin": "NSAIDs"}
    names = [plural.get(k.removeprefix("class:"), k.removeprefix("class:").replace("_", " "))
             for k in table["drugs"]]
    return ", ".join(names), str(table["source"])
