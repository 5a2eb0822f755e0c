"""Clinical knowledge core: drug identity, classes, interactions, allergy
cross-reactivity, pregnancy/lactation and renal flags.

Pure functions over shipped data (``data/``): no Flask, no FHIR client, no
network of its own. RxNav is reached only through a ``resolver`` a caller
injects into ``identify`` (see ``rxnav.resolver``). Every caller — the agent's
drug tools, the proposals' safety flags and the CDS hooks — goes through here.

    identify(concept=..., medication=..., text=..., resolver=None) -> DrugIdentity
    interactions(ingredients, with_=None) -> [Interaction]
    allergy_conflicts(substance, drug, criticality=, reaction=) -> [AllergyConflict]
    pregnancy_flags(ingredients, lactation=False) / renal_flags(ingredients, egfr) -> [Flag]
    classes_of(ingredient) -> frozenset[str]
"""
from __future__ import annotations

from .allergy import AllergyConflict
from .allergy import conflicts as _conflicts
from .classes import label as class_label
from .classes import matches
from .classes import of as classes_of
from .flags import Flag
from .flags import pregnancy as pregnancy_flags
from .flags import renal as renal_flags
from .identity import DrugIdentity, Ingredient, identify, unidentified
from .ddi import Interaction
from .ddi import between as _between

__all__ = ["AllergyConflict", "DrugIdentity", "Flag", "Ingredient", "Interaction", "allergy_conflicts",
           "class_label", "classes_of", "identify", "interactions", "matches", "pregnancy_flags",
           "renal_flags", "unidentified"]


def interactions(ingredients: list[str], with_: list[str] | None = None) -> list[Interaction]:
    """Interactions among ``ingredients`` or, with ``with_``, of each against those; most severe first."""
    return _between(ingredients, with_)


def allergy_conflicts(substance: str, drug: DrugIdentity | str, criticality: str = "unrecorded",
                      reaction: str = "") -> list[AllergyConflict]:
    """What one documented allergy says about one drug (a ``DrugIdentity`` or a name)."""
    ident = drug if isinstance(drug, DrugIdentity) else identify(text=drug)
    return _conflicts(substance, ident, criticality, reaction)
