"""Offline drug knowledge: name normalisation, classes, critical interactions,
allergy cross-reactivity. Pure functions over the YAML tables in ``data/``,
shared by the interaction tool, the write tools' safety flags and the CDS
Hooks service (which must answer without the network).

Name normalisation uses the MIT-licensed ``drug-named-entity-recognition``
dictionary, which maps brand names and synonyms to generic names
("Coumadin" → warfarin), then falls back to the first word.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from pathlib import Path

import yaml

DATA = Path(__file__).with_name("data")
LABEL_SEARCH = "https://dailymed.nlm.nih.gov/dailymed/search.cfm?labeltype=all&query="
_COMBOS = {"amoxicillin clavulanate": "amoxicillin-clavulanate", "augmentin": "amoxicillin-clavulanate",
           "co-amoxiclav": "amoxicillin-clavulanate", "bactrim": "trimethoprim-sulfamethoxazole",
           "co-trimoxazole": "trimethoprim-sulfamethoxazole", "septra": "trimethoprim-sulfamethoxazole",
           "trimethoprim sulfamethoxazole": "trimethoprim-sulfamethoxazole",
           "piperacillin tazobactam": "piperacillin-tazobactam", "zosyn": "piperacillin-tazobactam"}


@dataclass(frozen=True)
class Interaction:
    drug_a: str
    drug_b: str
    severity: str
    summary: str
    mechanism: str
    management: str
    source: str

    @property
    def source_url(self) -> str:
        return LABEL_SEARCH + self.drug_a.replace(" ", "+")


@dataclass(frozen=True)
class AllergyConflict:
    drug: str
    allergy: str
    reason: str
    severity: str  # critical | warning
    source: str = "Drug class cross-reactivity table"

    @property
    def detail(self) -> str:
        return (f"The patient has a documented **{self.allergy}** allergy; **{self.drug}** — {self.reason}. "
                "Review the reaction history before ordering.")

    @property
    def source_url(self) -> str:
        return LABEL_SEARCH + self.drug.replace(" ", "+")


@lru_cache(maxsize=1)
def _classes() -> dict:
    return yaml.safe_load((DATA / "drug_classes.yaml").read_text())


@lru_cache(maxsize=1)
def _pairs() -> list[dict]:
    return yaml.safe_load((DATA / "critical_interactions.yaml").read_text())


@lru_cache(maxsize=2048)
def generic_name(name: str) -> str:
    """Lower-case generic name for a drug text ("Coumadin 5 MG Oral Tablet" → "warfarin")."""
    text = re.sub(r"[^a-z0-9 \-]", " ", (name or "").lower()).strip()
    for combo, generic in _COMBOS.items():
        if combo in text.replace("-", " ") or combo in text:
            return generic
    if _member_of(text):
        return text
    from drug_named_entity_recognition import find_drugs

    hits = find_drugs(text.replace("-", " ").split(), is_ignore_case=True)
    if hits:
        return hits[0][0]["name"].lower()
    words = text.split()
    return words[0] if words else ""


def classes_of(generic: str) -> set[str]:
    """The classes a generic drug belongs to (e.g. ibuprofen → {"nsaid"})."""
    return {name for name, members in _classes().items()
            if isinstance(members, list) and generic in members}


def _member_of(text: str) -> bool:
    return any(isinstance(m, list) and text in m for m in _classes().values())


def _matches(generic: str, side: str) -> bool:
    return side[6:] in classes_of(generic) if side.startswith("class:") else generic == side


def critical_pairs(drug_names: list[str]) -> list[Interaction]:
    """Every built-in critical interaction among ``drug_names`` (any order)."""
    generics = {generic_name(n): n for n in drug_names if n}
    found = []
    for (ga, na), (gb, nb) in combinations(generics.items(), 2):
        for row in _pairs():
            if (_matches(ga, row["a"]) and _matches(gb, row["b"])) or (_matches(gb, row["a"]) and _matches(ga, row["b"])):
                first, second = (ga, gb) if _matches(ga, row["a"]) else (gb, ga)
                found.append(Interaction(first, second, row["severity"], row["summary"],
                                         row["mechanism"], row["management"], row["source"]))
                break
    return found


def allergy_conflicts(allergy_substances: list[str], drug_names: list[str]) -> list[AllergyConflict]:
    """Drugs that the documented allergies forbid or call into question (class cross-reactivity)."""
    rules = _classes()["allergy_cross_reactivity"]
    out = []
    for substance in allergy_substances:
        allergen = generic_name(substance)
        allergen_classes = classes_of(allergen) | ({allergen} if allergen in rules else set())
        for drug in drug_names:
            generic = generic_name(drug)
            hit = _conflict(allergen, allergen_classes, generic, rules)
            if hit:
                out.append(AllergyConflict(drug=generic, allergy=substance, reason=hit[0], severity=hit[1]))
    return out


def _conflict(allergen: str, allergen_classes: set[str], generic: str, rules: dict):
    if generic == allergen:
        return ("the same drug", "critical")
    drug_classes = classes_of(generic)
    for cls in allergen_classes:
        for rule in rules.get(cls, []):
            if rule["class"] in drug_classes:
                return (rule["reason"], rule["severity"])
    return None
