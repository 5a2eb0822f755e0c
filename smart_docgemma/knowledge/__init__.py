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
    disease_flags(ingredients, problems) -> [DiseaseFlag]
    paediatric_limit(ingredient) -> DoseLimit
    classes_of(ingredient) -> frozenset[str]    (FDA pharmacologic classes + clinical groupings)
    pharmacologic(ingredient) -> ("beta-Adrenergic Blocker",)
        the FDA Established Pharmacologic Classes
    duplication_findings(drug, others) / list_duplications(drugs) -> [Finding]
        therapeutic duplication
    child_findings(drug, age_days) -> [Finding]   children's age contraindications
    paediatric_dose(drug, kg, when=None, order_text="") -> UsualDose | WorkedDose-check
        weight-based dosing

Typed findings (``Finding``: severity, English summary/effect/management, sources that agree,
the ANSM French text as ``quote``), for callers that compose the checks against a chart:

    order_findings(drug, dose=None, others=(), renal=None, age=None, doses=None) -> [Finding]
    list_findings(drugs, doses=None, renal=None, age=None) -> [Finding]   (a whole medication list)
    interaction_findings(drugs, doses=None, focus=None) -> [Finding]
    dose_of(order=None, text="", product="") -> Dose | None
    limit_findings(drug, dose, age) -> [Finding]
    renal_findings(drug, Renal(value, measure, when), dose=None) -> [Finding]
    age_findings(drug, age) -> [Finding]
"""
from __future__ import annotations

from dataclasses import replace
from datetime import date
from functools import lru_cache
from itertools import combinations

from . import weight_dose
from .allergy import AllergyConflict
from .allergy import conflicts as _conflicts
from .checks import interaction_findings, list_findings, order_findings, trio_findings
from .classes import label as class_label
from .classes import matches, mechanisms, pharmacologic
from .classes import named as class_named
from .classes import of as classes_of
from .ddi import LEVELS, Interaction
from .ddi import between as _between
from .disease import (
    DiseaseFlag,
    DoseLimit,
    LabRule,
    Problem,
    disease_flags,
    lab_rules,
    paediatric_limit,
)
from .dose import Dose, aspirin_band, dose_of, limit_findings, product_dose, strength_mg
from .duplication import duplication_findings, list_duplications
from .finding import Finding, Source, by_severity
from .flags import Flag, Nephrotoxic, nephrotoxic, nephrotoxic_table
from .flags import pregnancy as pregnancy_flags
from .flags import renal as renal_flags
from .glossary import looks_french
from .identity import DrugIdentity, Ingredient, identify, unidentified
from .limits import (
    Renal,
    age_findings,
    age_list_minimum,
    age_list_source,
    age_on,
    child_findings,
    renal_findings,
)
from .weight_dose import DoseCheck, UsualDose, Weight, WeightDose, WorkedDose, usual_dose, work_out
from .weight_dose import read as read_weight_dose

__all__ = [
    "AllergyConflict",
    "DiseaseFlag",
    "DoseLimit",
    "LabRule",
    "Problem",
    "disease_flags",
    "lab_rules",
    "paediatric_limit",
    "Dose",
    "DrugIdentity",
    "Finding",
    "Flag",
    "Ingredient",
    "Interaction",
    "LEVELS",
    "Renal",
    "Source",
    "age_findings",
    "age_list_minimum",
    "age_list_source",
    "age_on",
    "child_findings",
    "duplication_findings",
    "list_duplications",
    "mechanisms",
    "pharmacologic",
    "DoseCheck",
    "UsualDose",
    "Weight",
    "WeightDose",
    "WorkedDose",
    "usual_dose",
    "work_out",
    "read_weight_dose",
    "paediatric_dose",
    "allergy_conflicts",
    "aspirin_band",
    "by_severity",
    "class_label",
    "class_named",
    "classes_of",
    "dose_of",
    "product_dose",
    "drug_classes",
    "drug_interactions",
    "generic",
    "identify",
    "interaction_findings",
    "interactions",
    "limit_findings",
    "list_findings",
    "looks_french",
    "matches",
    "order_findings",
    "pregnancy_flags",
    "renal_findings",
    "renal_flags",
    "Nephrotoxic",
    "nephrotoxic",
    "nephrotoxic_table",
    "strength_mg",
    "trio_findings",
    "unidentified",
]


@lru_cache(maxsize=4096)
def generic(name: str) -> str:
    """The ingredient names a drug text orders ("Augmentin 625" → "amoxicillin/clavulanate");
    the text itself, lower case, when it cannot be identified."""
    ident = identify(text=name)
    return ident.name if ident.identified else " ".join((name or "").lower().split())


def drug_classes(drug: str) -> frozenset[str]:
    """Classes of every ingredient of a drug name or a ``generic`` result."""
    return frozenset(c for part in generic(drug).split("/") for c in classes_of(part))


def drug_interactions(names: list[str], minimum: str = "precaution") -> list[Interaction]:
    """Interactions between drugs named by texts (each pair of drugs once, its most severe level at
    least ``minimum``), with ``drug_a``/``drug_b`` being each drug's ``generic`` name."""
    drugs = sorted({generic(n) for n in names if n and generic(n)})
    keep = LEVELS[:LEVELS.index(minimum) + 1]
    out = []
    for a, b in combinations(drugs, 2):
        hits = [h for h in interactions(a.split("/"), with_=b.split("/")) if h.severity in keep]
        if hits:
            first, second = (a, b) if hits[0].drug_a in a.split("/") else (b, a)
            out.append(replace(hits[0], drug_a=first, drug_b=second))
    return sorted(out, key=lambda h: LEVELS.index(h.severity))


def interactions(ingredients: list[str], with_: list[str] | None = None) -> list[Interaction]:
    """Interactions among ``ingredients`` or, with ``with_``, of each against those; most severe
    first."""
    return _between(ingredients, with_)


def allergy_conflicts(substance: str, drug: DrugIdentity | str, criticality: str = "unrecorded",
                      reaction: str = "") -> list[AllergyConflict]:
    """What one documented allergy says about one drug (a ``DrugIdentity`` or a name)."""
    ident = drug if isinstance(drug, DrugIdentity) else identify(text=drug)
    return _conflicts(substance, ident, criticality, reaction)


def paediatric_dose(drug: str, kg: float, when: date | None = None,
                    order_text: str = "") -> UsualDose | DoseCheck | None:
    """Weight-based dosing for a child of ``kg`` (weighed on ``when``): with ``order_text`` ("15
    mg/kg qds") the order worked out in mg and checked (``weight_dose.check``: severity and the
    sum); without, the usual dose of the paediatric table for that weight (``UsualDose``), or None
    when the table has no row for the drug (a dose question is then answered "not in the table")."""
    ingredient = generic(drug).split("/")[0]
    weight = weight_dose.Weight(kg, when)
    written = weight_dose.read(order_text) if order_text else None
    if written is None:
        return weight_dose.usual_dose(ingredient, weight)
    return weight_dose.check(ingredient, weight_dose.work_out(written, weight))
