"""The chart tool's result as one typed value: ``ChartData`` and an entry type per section.

``records`` reads FHIR resources into these entries; ``chart.chart_data`` gathers them; the text
(``summary``), the chart answers (``answers``, ``labanswers``), the page's chart at a glance
(``web/charts.py``), the answer's evidence (``grounding/evidence.py``) and the MCP section tools
read their attributes. Each entry says what it is as a FHIR source (``source``) and as a
record of evidence (``record``) in one place, so the source list and the evidence builder walk
the sections the same way. ``to_json`` is the shape MCP clients and the injection guard read
(the keys the chart's dicts had before it was typed).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal, Protocol

from ...knowledge.reference_intervals import Interval
from ...languages import answer_language, lab_name

# the sections of ``ChartData`` that list entries, by their names in its JSON
Section = Literal[
    "problems",
    "social",
    "medications",
    "allergies",
    "vitals",
    "labs",
    "notes",
    "encounters",
    "immunizations",
]


def num(value: float | int | str) -> str:
    return f"{value:g}" if isinstance(value, (int, float)) else str(value)


@dataclass(frozen=True)
class ChartRecord:
    """What one resource of the chart says, as the answer's evidence reads it."""

    ref: str  # "Condition/…"
    label: str
    when: str | None
    text: str


class _Recorded(Protocol):
    def record(self) -> ChartRecord: ...


class Sourced(Protocol):
    """An entry the chart's text names, cited as (label, resource reference)."""

    def source(self) -> tuple[str, str]: ...


@dataclass(frozen=True)
class ChartPatient:
    id: str | None
    name: str = "Unnamed patient"
    gender: str = ""
    birth_date: str = ""
    age: int | None = None  # at death for a deceased patient
    mrn: str | None = None
    deceased: str | None = None  # the date of death

    def record(self) -> ChartRecord:
        return ChartRecord(
            f"Patient/{self.id}",
            f"Patient {self.name}",
            None,
            f"Patient {self.name} {self.gender} born {self.birth_date} age {self.age} "
            f"years old MRN {self.mrn}",
        )


@dataclass(frozen=True)
class ChartProblem:
    """An active Condition: a disorder, a finding or history, or a social finding."""

    text: str
    tag: str  # SNOMED's "(disorder)", "(finding)" …, without the brackets
    onset: str
    ref: str
    kind: str  # disorder | finding | social

    def source(self) -> tuple[str, str]:
        return f"Condition: {self.text}", self.ref

    def record(self) -> ChartRecord:
        return ChartRecord(self.ref, f"Condition: {self.text}", self.onset or None,
                           f"Condition {self.text} since {self.onset}")


@dataclass(frozen=True)
class ChartMed:
    """An active MedicationRequest."""

    text: str
    dosage: str  # "" when the order says nothing
    authored: str
    # the medication's CodeableConcept as FHIR JSON (identified by the core)
    concept: dict[str, Any]
    ref: str
    # why it was ordered, as the order says it: reasonCode texts and reasonReference displays
    # or references ("Condition/…", resolved against the problem list when answered)
    reasons: tuple[str, ...] = ()

    def source(self) -> tuple[str, str]:
        return f"MedicationRequest: {self.text}", self.ref

    def record(self) -> ChartRecord:
        return ChartRecord(self.ref, f"MedicationRequest: {self.text}", self.authored or None,
                           f"Medication {self.text} {self.dosage} authored {self.authored}")


@dataclass(frozen=True)
class ChartAllergy:
    no_known: bool  # "no known allergy" recorded as such
    substance: str
    reaction: str
    severity: str | None
    criticality: str | None
    verification: str
    category: str
    ref: str

    def source(self) -> tuple[str, str]:
        return f"AllergyIntolerance: {self.substance}", self.ref

    def record(self) -> ChartRecord:
        return ChartRecord(
            self.ref,
            f"AllergyIntolerance: {self.substance}",
            None,
            f"Allergy {self.substance} reaction {self.reaction} severity {self.severity} "
            f"criticality {self.criticality}",
        )


@dataclass(frozen=True)
class ChartPoint:
    date: str
    value: float
    ref: str  # the Observation (a blood pressure's two components share one)
    # the result's own reference range (``Observation.referenceRange``) and the laboratory's
    # interpretation ("H", "High"), when it carries them
    reference: Interval | None = None
    flag: str | None = None


@dataclass(frozen=True)
class ChartSeries:
    """The results of one code (a lab or a vital sign), newest last."""

    code: str
    name: str
    unit: str
    count: int
    direction: str  # ↑ ↓ → against the result before, "" for one result
    latest: ChartPoint
    series: tuple[ChartPoint, ...]  # oldest → newest, the newest ``records.SERIES_POINTS``

    def label(self) -> str:
        """The test's name in this turn's language (``translations/labs.yaml``), else as read."""
        return lab_name(self.name, answer_language(), self.code)

    def source(self) -> tuple[str, str]:
        return f"Observation: {self.label()} {self.latest.date}", self.latest.ref


@dataclass(frozen=True)
class ChartNote:
    """A DocumentReference's text: written by anyone, so quoted and labelled untrusted."""

    date: str
    type: str
    author: str
    text: str
    untrusted: bool
    instruction_like: bool
    ref: str

    def source(self) -> tuple[str, str]:
        return f"DocumentReference: {self.type} {self.date}", self.ref

    def record(self) -> ChartRecord:
        return ChartRecord(self.ref, f"DocumentReference: {self.type}", self.date or None,
                           f"Note {self.type} {self.date} by {self.author}: {self.text}")


@dataclass(frozen=True)
class ChartEncounter:
    date: str
    end: str
    type: str
    reason: str
    status: str | None
    klass: str = ""  # FHIR's Encounter.class code ("class" in the JSON)
    admission: str | None = None  # what the class means when it is an admission or emergency visit
    ref: str = ""

    def source(self) -> tuple[str, str]:
        return f"Encounter: {self.date}", self.ref

    def record(self) -> ChartRecord:
        return ChartRecord(self.ref, f"Encounter: {self.type or self.reason}", self.date or None,
                           f"Encounter {self.date} {self.type} {self.reason} {self.status}")

    def to_json(self) -> dict[str, Any]:
        return {("class" if k == "klass" else k): v for k, v in asdict(self).items()}


@dataclass(frozen=True)
class ChartImmunization:
    date: str
    vaccine: str
    status: str | None
    ref: str

    def record(self) -> ChartRecord:
        return ChartRecord(self.ref, f"Immunization: {self.vaccine}", self.date or None,
                           f"Immunization {self.vaccine} on {self.date} {self.status}")


@dataclass(frozen=True)
class ChartData:
    """One read of the chart, section by section, with what could not be read and why."""

    patient: ChartPatient
    problems: tuple[ChartProblem, ...] = ()  # disorders, then findings and history
    # resolved and inactive conditions: read only when her past is asked (focus "history")
    past_problems: tuple[ChartProblem, ...] = ()
    social: tuple[ChartProblem, ...] = ()  # social and administrative findings
    medications: tuple[ChartMed, ...] = ()
    allergies: tuple[ChartAllergy, ...] = ()
    vitals: tuple[ChartSeries, ...] = ()
    labs: tuple[ChartSeries, ...] = ()
    notes: tuple[ChartNote, ...] = ()
    encounters: tuple[ChartEncounter, ...] = ()
    # the newest admissions and emergency visits searched by their class: read only when her
    # visits are asked (focus "encounters"), so one older than the window is still found
    admissions: tuple[ChartEncounter, ...] = ()
    immunizations: tuple[ChartImmunization, ...] = ()
    # section (the search's key, and "labs"/"vitals" for the Observation search) -> why not read
    unavailable: dict[str, str] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)  # resources read per search
    calls: int = 0  # HTTP requests to the FHIR server
    elapsed_ms: float = 0.0
    # a medication review's findings (``checks.mentions.Mention.to_dict``), in the words of the CDS
    # cards
    safety_findings: tuple[dict[str, Any], ...] = ()

    def records(self) -> list[ChartRecord]:
        """Every resource read, each with its own facts (the patient first when it has an id)."""
        first: list[_Recorded] = [*self.problems, *self.past_problems, *self.medications,
                                  *self.allergies]
        older = [a for a in self.admissions if a.ref not in {e.ref for e in self.encounters}]
        then: list[_Recorded] = [*self.notes, *self.immunizations, *self.social, *self.encounters,
                                 *older]
        patient = [self.patient.record()] if self.patient.id else []
        return (
            patient
            + [e.record() for e in first]
            + self._observations()
            + [e.record() for e in then]
        )

    def _observations(self) -> list[ChartRecord]:
        """One record per Observation (a blood pressure's two components are one resource)."""
        parts: dict[str, list[str]] = {}
        when: dict[str, str] = {}
        names: dict[str, str] = {}
        for entry in (*self.labs, *self.vitals):
            for point in entry.series:
                parts.setdefault(point.ref, []).append(
                    f"{entry.name} {num(point.value)} {entry.unit}"
                )
                when[point.ref] = point.date
                names.setdefault(point.ref, entry.label())  # the label in this turn's language
        return [ChartRecord(ref, f"Observation: {names[ref]} {when[ref]}", when[ref] or None,
                            f"{'; '.join(texts)} on {when[ref]}") for ref, texts in parts.items()]

    def sections_json(self, keys: tuple[Section, ...]) -> dict[str, list[dict[str, Any]]]:
        """The named sections as JSON (an MCP section tool keeps its own)."""
        whole = self.to_json()
        return {k: whole[k] for k in keys}

    def to_json(self) -> dict[str, Any]:
        """The chart as JSON values, with the keys its sections always had."""
        out: dict[str, Any] = _plain(asdict(self))
        out["encounters"] = [e.to_json() for e in self.encounters]
        if not self.safety_findings:
            del out["safety_findings"]  # only a medication review has them
        return out


def _plain(value: Any) -> Any:
    """``asdict``'s tuples as lists, as JSON has them."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value
