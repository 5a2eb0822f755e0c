"""Allergy cross-reactivity: a documented allergy against the ingredients of an order.

Same ingredient → critical; same class → critical; a known cross-reactive
class at a lower rate (penicillin → cephalosporins, carbapenems) → warning.
The allergy's criticality and recorded reaction travel with the finding so a
card can say "penicillin allergy (anaphylaxis, high criticality)".
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from . import classes
from .identity import DrugIdentity, identify
from .tables import load

SOURCE = "Drug class cross-reactivity table (knowledge core)"


@dataclass(frozen=True)
class AllergyConflict:
    drug: str  # the ingredient that conflicts
    allergy: str  # the allergy as recorded ("Penicillin")
    reason: str
    severity: str  # critical | warning
    criticality: str = "unrecorded"  # the AllergyIntolerance's: low | high | unable-to-assess
    reaction: str = ""  # "anaphylaxis"
    source: str = SOURCE

    @property
    def detail(self) -> str:
        reacted = f" ({self.reaction}, {self.criticality} criticality)" if self.reaction else ""
        return (f"The patient has a documented **{self.allergy}** allergy{reacted}; "
                f"**{self.drug}** — {self.reason}. Review the reaction history before ordering.")

    @property
    def source_url(self) -> str:
        return (
            "https://dailymed.nlm.nih.gov/dailymed/search.cfm?labeltype=all&query="
            + self.drug.replace(" ", "+")
        )


@lru_cache(maxsize=2048)
def allergen(substance: str) -> tuple[frozenset[str], frozenset[str]]:
    """(ingredients, classes) an allergy's substance text names ("Penicillin" → ({penicillin},
    {penicillin}))."""
    text = " ".join((substance or "").lower().split())
    terms = load("classes.yaml")["allergen_terms"]
    found_classes = {terms[text]} if text in terms else set()
    found_classes |= {c for word, c in terms.items() if f" {word} " in f" {text} "}
    ingredients = set(identify(text=substance).names)
    rules = load("classes.yaml")["allergy"]
    found_classes |= {c for ing in ingredients for c in classes.of(ing) if c in rules}
    return frozenset(ingredients), frozenset(found_classes)


def conflicts(substance: str, drug: DrugIdentity, criticality: str = "unrecorded",
              reaction: str = "") -> list[AllergyConflict]:
    """What one allergy says about one identified drug (one conflict per ingredient at most)."""
    ingredients, allergen_classes = allergen(substance)
    rules = load("classes.yaml")["allergy"]
    out = []
    for ing in drug.names:
        hit = ("the same drug", "critical") if ing in ingredients else None
        for cls in sorted(allergen_classes):
            if hit:
                break
            hit = next(((r["reason"], r["severity"]) for r in rules.get(cls, [])
                        if r["class"] in classes.of(ing)), None)
        hit = hit or _within_a_class(ing, allergen_classes, rules)
        if hit:
            out.append(
                AllergyConflict(
                    ing, substance, hit[0], hit[1], criticality or "unrecorded", reaction
                )
            )
    return out


def _within_a_class(name: str, allergen_classes: frozenset[str],
                    rules: dict[str, list[dict[str, str]]]) -> tuple[str, str] | None:
    """A class named for her ("what antibiotic can she have?") that holds drugs her allergy rules
    out: said as a warning naming them, never a clean check of the whole class."""
    key = classes.named(name)
    wide = set(classes.members(key)) if key else set()
    held = [rule for cls in sorted(allergen_classes) for rule in rules.get(cls, [])
            if wide & set(classes.members(rule["class"]))]
    held.sort(key=lambda rule: rule["severity"] != "critical")  # the same class first
    if not held:
        return None
    return (f"{classes.label(key or '')} include the {classes.label(held[0]['class'])}s: "
            f"{held[0]['reason']}", "warning")
