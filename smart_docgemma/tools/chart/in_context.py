"""The chart in context, typed, from one chart read: what the reading of a message and the
agent's routing take of the chart, never text to parse again.

The chart tool reads the chart once for a turn (``chart.read_for_turn``); ``in_context`` types
what the reading asks of that read (``Chart.in_context``): who she is (name, id, MRN, birth
date, sex, age), her active medications (generic names, the RxNorm code when the order carries
one, the dose as the order states it), the latest weight in kg with the day it was taken, the
latest result of each lab and vital sign, her active conditions, her allergies and whether the
chart says she is pregnant. A section the chart could not read is named in ``unread``, so "no
medication" is never told from "not read".

It is built with the readers the safety checks use, so the weight, the pregnancy and the
medications the reading sees are the ones the checks see: the latest weight converted to kg
(``checks/chart_values``), pregnancy from an active condition or a pregnancy status
(``checks/hookdata``), each medication's generic names from its text
(``knowledge.mentions.find_drugs``, as the brief's list was read before) or, when the text names
none, from its RxNorm code (``knowledge.identify``).

    chart = read_for_turn(ctx).in_context
    chart.drugs             # ("warfarin", "aspirin")
    chart.weight            # Weight(kg=20.1, taken="2026-11-19", written="")
    chart.result("2160-0")  # the latest creatinine, or None
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

from ... import knowledge
from ...checks import chart_values, hookdata
from ...checks.context import HookData
from ...checks.lookups import table
from ...knowledge.mentions import find_drugs
from .chartdata import ChartData, ChartMed, ChartSeries

RXNORM = "http://www.nlm.nih.gov/research/umls/rxnorm"


@dataclass(frozen=True)
class InContext:
    """The patient in context as the chart read names her."""

    name: str | None = None
    id: str | None = None
    mrn: str | None = None
    born: str | None = None  # ISO date


@dataclass(frozen=True)
class Medication:
    """An active medication order."""

    text: str  # as the chart writes it ("Warfarin Sodium 5 MG Oral Tablet")
    names: tuple[str, ...] = ()  # its generic names (two for a combination), none when unknown
    rxnorm: str | None = None  # the order's RxNorm code, when it carries one
    dose: str = ""  # dose and frequency as the order states them ("" when it says nothing)


@dataclass(frozen=True)
class Weight:
    """The latest body weight that converts to kg, with the day it was taken."""

    kg: float
    taken: str  # ISO date
    written: str = ""  # as recorded when not in kg ("30.9 [lb_av] = 14.02 kg")


@dataclass(frozen=True)
class Result:
    """The latest value of one lab test or vital sign."""

    analyte: str  # the chart's short name ("Potassium", "Body Weight")
    code: str  # its LOINC code
    value: float
    unit: str
    taken: str  # ISO date


@dataclass(frozen=True)
class Condition:
    """An active condition (a disorder, finding or history)."""

    text: str
    onset: str = ""  # ISO date, "" when not recorded


@dataclass(frozen=True)
class Intolerance:
    """An allergy or intolerance on file, or "no known allergy" recorded as such."""

    substance: str
    criticality: str | None = None
    no_known: bool = False
    reaction: str | None = None  # the reaction on file ("Anaphylaxis"), said with the allergy


@dataclass(frozen=True)
class ChartInContext:
    """The chart in context, typed. The default is no chart read: nobody in context."""

    patient: InContext = field(default_factory=InContext)
    sex: str = ""
    age: int | None = None
    medications: tuple[Medication, ...] = ()
    weight: Weight | None = None
    results: tuple[Result, ...] = ()  # labs, the latest of each
    vitals: tuple[Result, ...] = ()  # vital signs, the latest of each
    conditions: tuple[Condition, ...] = ()
    allergies: tuple[Intolerance, ...] = ()
    pregnant: bool = False  # a pregnancy condition or status on file
    unread: tuple[str, ...] = ()  # the sections that could not be read

    @property
    def read(self) -> bool:
        """A chart was read for the patient in context."""
        return self.patient.id is not None

    @property
    def drugs(self) -> tuple[str, ...]:
        """Her active medications as generic names, each once, in the chart's order."""
        return tuple(dict.fromkeys(n for m in self.medications for n in m.names))

    def result(self, *codes: str) -> Result | None:
        """The latest result of any of the LOINC ``codes`` (the newest when several)."""
        found = [r for r in (*self.results, *self.vitals) if r.code in codes]
        return max(found, key=lambda r: r.taken) if found else None


def in_context(sections: dict[str, list[dict[str, Any]]], data: ChartData,
               today: date | None = None) -> ChartInContext:
    """The typed chart of one read: its resources by section (``ChartFetch.sections``), and
    ``data``, the same read as the chart tool typed it."""
    p = data.patient
    observations = sections.get("observations", [])
    conditions = sections.get("conditions", [])
    return ChartInContext(
        patient=InContext(name=p.name if p.id else None, id=p.id, mrn=p.mrn,
                          born=p.birth_date or None),
        sex=p.gender,
        age=p.age,
        medications=tuple(map(medication, data.medications)),
        weight=weight(observations, today),
        results=tuple(map(result, data.labs)),
        vitals=tuple(map(result, data.vitals)),
        conditions=tuple(Condition(c.text, c.onset) for c in data.problems),
        allergies=tuple(Intolerance(a.substance, a.criticality, a.no_known, a.reaction)
                        for a in data.allergies),
        pregnant=pregnant(conditions, observations),
        unread=tuple(sorted(data.unavailable)),
    )


def medication(med: ChartMed) -> Medication:
    """An active order: its generic names, its RxNorm code, its dose as the order states it."""
    names = tuple(dict.fromkeys(d.name for d in find_drugs(med.text) if d.name))
    if not names:
        ident = knowledge.identify(concept=med.concept)
        names = tuple(i.name for i in ident.ingredients) if ident.identified else ()
    return Medication(text=med.text, names=names, rxnorm=rxnorm(med.concept), dose=med.dosage)


def rxnorm(concept: dict[str, Any]) -> str | None:
    """The RxNorm code of a medication's CodeableConcept, when it carries one."""
    return next((str(c["code"]) for c in concept.get("coding") or []
                 if c.get("system") == RXNORM and c.get("code")), None)


def weight(observations: list[dict[str, Any]], today: date | None = None) -> Weight | None:
    """The latest weight that converts to kg, as the checks read it."""
    found = chart_values.latest_weight(HookData({"weight": observations}), today)
    if found is None:
        return None
    return Weight(found.kg, found.when.isoformat(), found.written)


def result(entry: ChartSeries) -> Result:
    return Result(entry.name, entry.code, float(entry.latest.value), entry.unit,
                  entry.latest.date)


def pregnant(conditions: list[dict[str, Any]], observations: list[dict[str, Any]]) -> bool:
    """An active pregnancy condition or a positive pregnancy status, as the checks read it."""
    data = HookData({"conditions": conditions, "pregnancy": observations})
    return bool(hookdata.pregnancy_evidence(data, table()["pregnancy_status"]))
