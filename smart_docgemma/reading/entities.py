"""What deterministic extraction finds in one message: the ``Entities`` of a turn.

Part of the one typed request (``reading/request.py``): extraction (``agent/extraction.py``)
reads the words, this is the value it hands on; the dose and the allergy are typed
(``reading/dosage.py``).
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from ..knowledge.mentions import DrugMention
from .dosage import Allergy, Dose


@dataclass(frozen=True)
class Entities:
    """What deterministic extraction found in the message (``extraction.extract``), plus what
    INPUT_ASSEMBLY adds from the turn (``has_image``, an approved lesson); the chart's
    medications are the request's (``Request.chart.drugs``).
    The task patterns of ``data/rules.yaml`` name these fields (``entity``, ``with_entity``)."""

    drugs: tuple[str, ...] = ()  # generic names
    drug_pair: bool = False  # two drugs joined ("warfarin + aspirin"): most likely asked together
    drug_mentions: tuple[DrugMention, ...] = ()  # every drug named, as written
    ambiguous_drugs: tuple[DrugMention, ...] = ()  # misspellings one edit from two drugs
    patient_ids: tuple[str, ...] = ()
    patient_names: tuple[str, ...] = ()
    # "DOB 1958-12-14", "born 12/14/1958" as an ISO date (never a guessed order)
    birth_date: str | None = None
    # every reading of it: two for "07/09/1986" after an English word, both searched
    birth_dates: tuple[str, ...] = ()
    actions: tuple[str, ...] = ()
    dose: Dose | None = None  # the order's dose, frequency, route, duration
    allergy: Allergy | None = None  # the reaction and severity said
    unsupported: tuple[str, ...] = ()  # actions this assistant does not perform
    has_image: bool = False
    lesson: dict[str, Any] | None = None  # an approved lesson close to the question
    lesson_tools: tuple[str, ...] = ()  # its read tools, when it is a near paraphrase

    def named(self, field: str) -> Any:
        """The field a task pattern names; a name that is no field is an error in the rules."""
        if field not in _ENTITY_FIELDS:
            raise KeyError(
                f"data/rules.yaml names an entity that extraction does not find: {field}"
            )
        return getattr(self, field)


_ENTITY_FIELDS = frozenset(f.name for f in fields(Entities))
