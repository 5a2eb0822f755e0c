"""A weight-based dose typed without its unit: "amox 80/kg/d div bd", "ibuprofen 10/kg tds",
"paracetamol 15 per kilo q6h".

On the ward the unit of a per-kg dose is left out when it cannot be anything but mg: the drug's
doses by weight are in mg/kg in the paediatric table the child's check reads
(``knowledge/data/disease.yaml`` → ``paediatric_doses``). Only then is the bare number read as
mg/kg, once, before the dose is read, so the order is worked out and checked against that table
like any mg/kg order. A drug outside the table (fentanyl in micrograms, a fluid bolus in mL) or
no drug before the number leaves the text as written: its dose is asked, never guessed.
"""
from __future__ import annotations

import re
from functools import cache

from ..knowledge import generic
from ..knowledge.mentions import find_drugs
from ..knowledge.tables import load

# a number straight before "/kg" or "per kilo", with no unit between
_BARE = re.compile(r"(?<![\w.,/])(\d+(?:[.,]\d+)?)\s*"
                   r"(?:/\s*kg|\s(?:per|por|par)\s+(?:kg|kilos?|quilos?))(?![a-z])", re.I)


@cache
def _in_mg_per_kg() -> frozenset[str]:
    table = load("disease.yaml")["paediatric_doses"]
    return frozenset(table["drugs"])


def _dosed_by_weight(drug: str | None) -> bool:
    ingredients = generic(drug or "").split("/") if drug else []
    return bool(ingredients) and all(i in _in_mg_per_kg() for i in ingredients)


def per_kg_in_mg(text: str) -> str:
    """``text`` with each bare per-kg number after a drug of the table as "N mg/kg"."""
    out, last = [], 0
    for m in _BARE.finditer(text):
        named = find_drugs(text[:m.start()])
        if not named or not _dosed_by_weight(named[-1].name):
            continue
        out += [text[last:m.start()], f"{m.group(1)} mg/kg"]
        last = m.end()
    return "".join(out) + text[last:] if out else text
