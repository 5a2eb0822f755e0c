"""The CDS rules' drug lookups: a small façade over the knowledge core (identity, generic names,
classes, interactions, allergy conflicts, pregnancy and lactation flags) and over
knowledge.yaml (extra classes, boxed warnings, alternatives, named sources, monitoring rules).
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from .. import knowledge
from ..datafiles import safe_yaml
from . import hookdata
from .findings import Source


@lru_cache(maxsize=1)
def table() -> dict:
    return safe_yaml(Path(__file__).with_name("knowledge.yaml").read_text())


def identity(resource: dict) -> knowledge.DrugIdentity:
    """What a MedicationRequest orders: its code, its text, or its contained Medication
    (offline)."""
    return knowledge.identify(concept=resource.get("medicationCodeableConcept"),
                              medication=hookdata.contained_medication(resource))


@lru_cache(maxsize=2048)
def generic(name: str) -> str:
    """Ingredient names ("amoxicillin 875 MG / clavulanate potassium 125 MG Oral Tablet" →
    "amoxicillin/clavulanate"); the words themselves when the knowledge cannot identify them."""
    return knowledge.generic(name)


def ingredients(drug: str) -> list[str]:
    return drug.split("/")


def classes(drug: str) -> set[str]:
    found = {c for i in ingredients(drug) for c in knowledge.classes_of(i)}
    return found | {name for name, members in table()["extra_classes"].items() if drug in members}


def matches(drug: str, key: str) -> bool:
    """``key`` is a generic name or ``class:<name>``."""
    return (
        key[6:] in classes(drug) if key.startswith("class:") else key in (drug, *ingredients(drug))
    )


def interactions(names: list[str]) -> list[knowledge.Interaction]:
    """Known interactions among these drugs (each pair of drugs once, its most severe), by generic
    name."""
    return knowledge.drug_interactions(names)


def interaction_sources(hit: knowledge.Interaction) -> list[Source]:
    return [Source(s, hit.url_of(s)) for s in hit.sources or (hit.source,)]


def allergy_conflicts(substance: str, names: list[str]) -> list[knowledge.AllergyConflict]:
    return [c for n in names for c in knowledge.allergy_conflicts(substance, n)[:1]]


def pregnancy_flags(drug: str) -> list[knowledge.Flag]:
    return knowledge.pregnancy_flags(ingredients(drug))


def lactation_flags(drug: str) -> list[knowledge.Flag]:
    return knowledge.pregnancy_flags(ingredients(drug), lactation=True)


def flag_source(flag: knowledge.Flag, drug: str) -> Source:
    """A flag's source with a link: LactMed, the guideline named, or the drug's labels."""
    named = next((source(k) for k in ("lactmed", "kdigo", "beers")
                  if source(k).label.split()[0].lower() in flag.source.lower()), None)
    return Source(flag.source, named.url if named else source("dailymed", drug).url)


def boxed_warning(drug: str) -> str | None:
    return table()["boxed_warnings"].get(drug)


def alternative(kind: str, replaced: str, context: str = "") -> dict | None:
    """A safer drug to draft instead of ``replaced`` ({"display", "rxnorm", "source", "says"}),
    when a shipped source states one.

    ``context``: the other drug of an interaction, the allergen, or the shared class."""
    if "antiplatelet" in classes(replaced):
        return None  # aspirin or clopidogrel is there for the heart: no analgesic replaces it
    rules = table()["alternatives"][kind]
    if kind == "interaction":
        name = next(
            (
                alt
                for pair, alt in rules.items()
                if matches(context, pair.split("+")[0]) and matches(replaced, pair.split("+")[1])
            ),
            None,
        )
    else:
        name = next((alt for k, alt in rules.items() if k == context or matches(replaced, k)), None)
    if not name:
        return None
    # the drug to draft, with the source that states it ("FDA Drug Label — Warfarin")
    return {**table()["drugs"][name["drug"]], "source": name["source"], "says": name["says"]}


def source(key: str, drug: str = "") -> Source:
    """A named source; the drug-label source links to that drug's labels."""
    entry = table()["sources"][key]
    return Source(
        entry["label"], entry["url"] + drug.replace(" ", "+") if key == "dailymed" else entry["url"]
    )


def monitoring_rules() -> list[dict]:
    return table()["monitoring"]
