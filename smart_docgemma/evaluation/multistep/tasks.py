"""The multi-step task set: a clinician's request (and follow-ups) on one chart, graded by
checkpoints scored by code against FHIR (``run.py``).

A task file is a YAML list; every ``*.yaml`` in this folder is one family's file (``drafts.yaml``,
``plans.yaml`` …), loaded together, ids unique across files. A task names its patient, the turns
the clinician types (follow-ups in order, one session), results placed before the first turn, and
its checkpoints. Perturbation twins (``twin_of`` + ``perturbation``) remove, age, contradict or
misattribute one decisive fact of an original task. Unknown fields are an error (a typo cannot
silently lower a score).
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ...datafiles import safe_yaml
from ..cases import Injected

FOLDER = Path(__file__).parent
Phase = Literal["retrieve", "reason", "propose", "document", "before_approval", "once"]
Perturbation = Literal["missing", "stale", "conflicting", "wrong_patient"]
# "Document": a Composition or a DocumentReference, whichever the app writes
WriteType = Literal[
    "Document",
    "Composition",
    "DocumentReference",
    "ServiceRequest",
    "MedicationRequest",
    "MedicationStatement",
    "Observation",
    "AllergyIntolerance",
]


class ExpectedResource(BaseModel):
    """One resource that must reach FHIR once the task's cards are approved.

    ``type``: any of these "system|code" in the document type (Composition.type,
    DocumentReference.type) or the order's code (ServiceRequest.code, …).
    ``contains`` / ``excludes``: texts of the resource as a reader sees it (attachments decoded,
    section narratives, notes, reasons, contained resources); "a | b" means either.
    ``priority``: the order's priority. ``letter``: a document of one of these type codes is
    linked from ``supportingInfo`` (contained or by reference), and holds ``letter_contains``.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)
    resourceType: WriteType
    type: list[str] = Field(default_factory=list)
    contains: list[str] = Field(default_factory=list)
    excludes: list[str] = Field(default_factory=list)
    priority: str | None = None
    letter: list[str] = Field(default_factory=list)
    letter_contains: list[str] = Field(default_factory=list)


class Checkpoint(BaseModel):
    """One graded step. Exactly one check: ``says``/``says_not`` (the last turn's answer and
    its pending cards, "a | b" means either), ``proposes`` (the resource types pending before
    approval, as a multiset), ``no_early_write`` (nothing of the write types reached FHIR before
    Approve), ``writes`` (what reached FHIR after Approve, nothing more), ``once`` (approving
    every card again creates nothing: one resource per card)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str
    phase: Phase
    says: list[str] = Field(default_factory=list)
    says_not: list[str] = Field(default_factory=list)
    proposes: list[WriteType] | None = None
    no_early_write: bool = False
    writes: list[ExpectedResource] | None = None
    once: bool = False

    @model_validator(mode="after")
    def _one_check(self) -> Checkpoint:
        kinds = [
            bool(self.says or self.says_not),
            self.proposes is not None,
            self.no_early_write,
            self.writes is not None,
            self.once,
        ]
        if sum(kinds) != 1:
            raise ValueError(f"checkpoint {self.name!r}: exactly one check, not {sum(kinds)}")
        return self


class Task(BaseModel):
    """One multi-step task."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str
    family: str  # the report's group: discharge, progress, handoff, referral, …
    split: Literal["tuned", "holdout"]
    source: Literal["fixtures", "synthea"]
    patient: str
    language: Literal["en", "fr", "pt", "es"] = "en"  # the page's language the clinician reads
    turns: list[str] = Field(min_length=1)
    setup: list[Injected] = Field(default_factory=list)
    twin_of: str | None = None
    perturbation: Perturbation | None = None
    checkpoints: list[Checkpoint] = Field(min_length=5)

    @model_validator(mode="after")
    def _twin(self) -> Task:
        if (self.twin_of is None) != (self.perturbation is None):
            raise ValueError(f"task {self.id}: twin_of and perturbation go together")
        return self


def load_tasks(paths: list[Path] | None = None) -> list[Task]:
    """Every task of the given files (default: every ``*.yaml`` here); ids unique, twins name
    a task of the set."""
    tasks: list[Task] = []
    for path in paths or sorted(FOLDER.glob("*.yaml")):
        for item in safe_yaml(Path(path).read_text()) or []:
            try:
                tasks.append(Task.model_validate(item))
            except ValueError as exc:
                raise ValueError(f"{Path(path).name}: {item.get('id')}: {exc}") from exc
    ids = [t.id for t in tasks]
    if len(ids) != len(set(ids)):
        raise ValueError(f"duplicate task ids: {sorted({i for i in ids if ids.count(i) > 1})}")
    unknown = [t.id for t in tasks if t.twin_of and t.twin_of not in ids]
    if unknown and not paths:
        raise ValueError(f"twins of unknown tasks: {unknown}")
    return tasks
