"""Argument schemas of the tools (``catalog.yaml`` names each tool's class), one
schema for three uses: the model's constrained decoding (the JSON-schema name
sent is the class name), validation of what the model produced, and the tests.

Decision-critical fields come first, optional ones last: a small model fills
fields in order, and argument accuracy drops sharply when the optional ones lead.
Every free-text field has a ``max_length`` sized to the TOOL_SELECT stage-2
token budget (256), so grammar-constrained decoding always closes the JSON
inside ``max_tokens`` (an unbounded string ran until it was truncated).
"""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from ..knowledge.analytes import names as analyte_names
from .chart.answers import foci
from .words.windows import WINDOW_KEY, Threshold

_STRICT = ConfigDict(extra="forbid")

DrugName = Field(min_length=2, max_length=60, description="Generic or brand drug name")
PatientId = Field(min_length=1, max_length=64, description="FHIR Patient id")


class DrugSafetyArgs(BaseModel):
    model_config = _STRICT
    drug_name: str = DrugName
    dose: str | None = Field(
        default=None,
        max_length=40,
        description="the dose asked about, e.g. 400 mg (checked against a child's weight)",
    )
    frequency: str | None = Field(
        default=None,
        max_length=40,
        description="how often the dose asked about is given, e.g. twice daily (a per-day dose "
        "by weight is divided by it)",
    )


class DrugInteractionArgs(BaseModel):
    model_config = _STRICT
    drug_names: list[str] = Field(min_length=2, max_length=10, description="Two to ten drug names")


class LiteratureSearchArgs(BaseModel):
    model_config = _STRICT
    query: str = Field(
        min_length=2, max_length=160, description="Search query for medical literature"
    )


class ClinicalTrialsArgs(BaseModel):
    model_config = _STRICT
    condition: str = Field(min_length=2, max_length=100)
    status: Literal["recruiting", "active", "completed", "any"] | None = None


class PatientSearchArgs(BaseModel):
    model_config = _STRICT
    name: str = Field(min_length=1, max_length=80)
    # one date, or the two readings of "07/09/1986" (comma-separated), each searched
    birth_date: str | None = Field(
        default=None, pattern=r"^\d{4}(-\d{2}(-\d{2})?)?(,\d{4}-\d{2}-\d{2})?$"
    )


class DrugIdentityArgs(BaseModel):
    model_config = _STRICT
    drug_name: str = DrugName


class MedicationCheckArgs(BaseModel):
    model_config = _STRICT
    medication_name: str = DrugName


class PatientChartArgs(BaseModel):
    model_config = _STRICT
    patient_id: str = PatientId
    # what the question asks of the chart ("lab:Potassium", "medications"...;
    # tools/chart/answers.py); none: the whole chart summary
    focus: str | None = Field(
        default=None,
        max_length=40,
        description="the part of the chart asked about, e.g. lab:Potassium",
    )

    # a lab question's time window ("24h", "3d", "today", "yesterday": since yesterday) and
    # statistic
    window: str | None = Field(
        default=None,
        max_length=12,
        description="results in a window only, e.g. 24h, 3d, today, yesterday",
    )
    statistic: Literal["mean", "max", "min"] | None = Field(
        default=None, description="mean, highest (max) or lowest (min) of the results in the window"
    )
    # a threshold each result in the window is compared with ("lt:4", "ge:5.5:mmol/L") and the
    # unit the answer is asked in
    threshold: str | None = Field(default=None, max_length=60,
                                     description="compare each result, e.g. lt:4, lt:3.5,gt:5.5")
    unit: str | None = Field(default=None, max_length=12,
                                description="answer in this unit, e.g. mg/dL")
    # how many of a lab's latest results are asked ("last 3 Ks": 3)
    count: int | None = Field(default=None, ge=1, le=50,
                              description="the number of latest results asked, e.g. 3")

    # the other parts of the chart a message of several requests asks ("K and eGFR"), each
    # answered after the focus: "lab:Potassium,allergies"
    also: str | None = Field(
        default=None,
        max_length=120,
        description="other parts asked beside the focus, comma separated, e.g. allergies",
    )
    # "K, Na, creat", "u&e + lfts?": several results in one read, each answered
    tests: str | None = Field(default=None, max_length=300,
                              description="several lab results asked at once, comma-separated "
                                          "analyte names, e.g. Potassium,Sodium,Creatinine")
    # "is that normal?": the latest result placed against its reference range
    # None when not asked, so a chart read's arguments carry it only when it is
    judge: bool | None = Field(
        default=None, description="say whether the latest result is within its reference range")

    @field_validator("focus")
    @classmethod
    def _known_focus(cls, value: str | None) -> str | None:
        return value if value in foci() else None  # a focus we cannot answer: the whole chart

    @field_validator("also")
    @classmethod
    def _known_foci(cls, value: str | None) -> str | None:
        known = [f.strip() for f in (value or "").split(",") if f.strip() in foci()]
        return ",".join(dict.fromkeys(known)) or None  # those we cannot answer: left out
    @field_validator("tests")
    @classmethod
    def _known_tests(cls, value: str | None) -> str | None:
        known = [t.strip() for t in (value or "").split(",") if t.strip() in analyte_names()]
        return ",".join(known) if len(known) > 1 else None  # one or none: the focus answers

    @field_validator("threshold")
    @classmethod
    def _known_threshold(cls, value: str | None) -> str | None:
        return value if Threshold.of_keys(value) else None  # unreadable: no threshold, the list

    @field_validator("window")
    @classmethod
    def _known_window(cls, value: str | None) -> str | None:
        return value if value and WINDOW_KEY.match(value) else None  # no window: the latest result


class PrescribeMedicationArgs(BaseModel):
    model_config = _STRICT
    patient_id: str = PatientId
    medication_name: str = DrugName
    dosage: str = Field(min_length=1, max_length=40, description="e.g. 500 mg")
    frequency: str = Field(min_length=1, max_length=40, description="e.g. twice daily")
    notes: str | None = Field(default=None, max_length=200)


class AddAllergyArgs(BaseModel):
    model_config = _STRICT
    patient_id: str = PatientId
    substance: str = Field(min_length=2, max_length=60)
    reaction: str = Field(min_length=2, max_length=80)
    severity: Literal["mild", "moderate", "severe"] | None = None
    verification: Literal["confirmed", "unconfirmed"] | None = Field(
        default=None, description="only if the clinician says so; unstated is recorded unconfirmed")
    criticality: Literal["low", "high", "unable-to-assess"] | None = Field(
        default=None, description="only if the clinician says so; unstated is left unknown")


class ClinicalNoteArgs(BaseModel):
    model_config = _STRICT
    patient_id: str = PatientId
    note_type: str = Field(min_length=2, max_length=40, description="e.g. progress note")
    note_text: str = Field(min_length=2, max_length=600)


class ImageAnalysisArgs(BaseModel):
    model_config = _STRICT
    query: str = Field(min_length=2, max_length=160, description="What to look for in the image")


Priority = Literal["routine", "urgent", "asap", "stat"] | None


class LabOrderArgs(BaseModel):
    model_config = _STRICT
    patient_id: str = PatientId
    # a ward's list of tests ("NFS, iono, créat, CRP") names four or five panels
    test: str = Field(
        min_length=2,
        max_length=240,
        description="the lab test(s) by name, e.g. basic metabolic panel",
    )
    when: str | None = Field(
        default=None, max_length=120, description="e.g. tomorrow at 8am, in 3 months, stat"
    )
    priority: Priority = None
    reason: str | None = Field(default=None, max_length=160)


class ReferralArgs(BaseModel):
    model_config = _STRICT
    patient_id: str = PatientId
    specialty: str = Field(
        min_length=2, max_length=60, description="e.g. orthopedic surgery, cardiology"
    )
    reason: str | None = Field(default=None, max_length=160, description="e.g. knee pain")
    note: str | None = Field(
        default=None, max_length=2000, description="the clinician's text, verbatim"
    )
    priority: Priority = None


class VitalSignArgs(BaseModel):
    model_config = _STRICT
    patient_id: str = PatientId
    reading: str = Field(
        min_length=3, max_length=200, description="e.g. BP 150/95 mmHg, HR 88, temp 38.2 C"
    )
    taken: str | None = Field(
        default=None, max_length=40,
        description="when it was taken, when said, e.g. 06:00 or 22:00 yesterday",
    )


class ProtocolArgs(BaseModel):
    model_config = _STRICT
    patient_id: str = PatientId
    protocol: str = Field(
        min_length=1,
        max_length=60,
        description="the protocol or its analyte, e.g. magnesium, potassium, HbA1c",
    )
    older_than_days: int | None = Field(
        default=None, ge=1, le=3650, description="a reorder interval the clinician said, in days"
    )
    within_hours: int | None = Field(
        default=None, ge=1, le=8760,
        description="the window the clinician said the result must be in, in hours",
    )
    recheck_when: str | None = Field(
        default=None, max_length=120,
        description="when the clinician said the paired recheck is drawn (their words)",
    )
    stated_value: float | None = Field(
        default=None, ge=0, le=100,
        description="a result the clinician stated for the protocol's analyte with no unit "
                    "(K 3.2 on the gas), used when the chart holds none in the window",
    )
    stated_unit: Literal["mmol/L", "mg/dL", "mEq/L", "mg/L"] | None = Field(
        default=None,
        description="the unit said with the stated value (Mg 0.5 mmol/L), when one is said",
    )
    without_recheck: bool | None = Field(
        default=None,
        description="the clinician refused the paired recheck (\"no recheck needed\")",
    )


class DraftDocumentArgs(BaseModel):
    """A document drafted from the chart for the clinician to sign (``tools/writes/drafts.py``)."""

    model_config = _STRICT
    patient_id: str = PatientId
    kind: Literal["discharge", "progress", "handoff", "referral"]
    request: str = Field(min_length=2, max_length=400, description="The clinician's words")
    specialty: str | None = Field(
        default=None, max_length=60, description="A referral's specialty"
    )
    priority: Priority = None
    reason: str | None = Field(default=None, max_length=300)
    include: list[str] = Field(
        default_factory=list, max_length=8, description="Analytes whose trend to show"
    )
    birth_date: str | None = Field(
        default=None, max_length=10, description="A birth date the request names"
    )
    patient_name: str | None = Field(
        default=None, max_length=80, description="A name the request names"
    )
    supersedes: list[str] = Field(
        default_factory=list, max_length=4, description="Pending drafts replaced"
    )
    drugs: list[str] = Field(
        default_factory=list, max_length=8,
        description="Drugs the request names, checked against this patient's chart",
    )
    additions: list[str] = Field(
        default_factory=list, max_length=6,
        description="Sentences the clinician asked to add to the document, as written",
    )
    brief: bool = Field(
        default=False, description="A shorter draft: each section's first lines, every "
        "medication, allergy and review finding kept"
    )
    language: Literal["en", "fr", "pt", "es"] = Field(
        default="en", description="The language of the draft's title, headings and fixed "
        "sentences; the chart's own words stay as recorded"
    )


class CareGapArgs(BaseModel):
    model_config = _STRICT
    patient_id: str = PatientId


class CareGapOrderArgs(BaseModel):
    model_config = _STRICT
    patient_id: str = PatientId
    labs_only: bool = Field(
        default=False, description="order only the overdue lab tests, not referrals"
    )


class ProblemPlanArgs(BaseModel):
    model_config = _STRICT
    patient_id: str = PatientId
    problem: Literal["high_potassium", "high_inr", "low_glucose"] = Field(
        description="the problem to plan: high_potassium (hyperkalaemia), high_inr "
                    "(supratherapeutic INR) or low_glucose (hypoglycaemia)")
    stated_value: float | None = Field(
        default=None, ge=0, le=100, description="the value the clinician stated, e.g. 5.6 or 3.4"
    )
    stated_unit: Literal["mmol/L", "mg/dL", "g/L"] | None = Field(
        default=None, description="the unit said with the value, when one was said")
    bleeding: bool = Field(
        default=False, description="bleeding is said with the result (the bleeding plan applies)"
    )


class ReconcileArgs(BaseModel):
    model_config = _STRICT
    patient_id: str = PatientId
    statement: str = Field(
        min_length=2,
        max_length=400,
        description="what the clinician said the patient takes, stopped or changed",
    )


class SwitchArgs(BaseModel):
    model_config = _STRICT
    patient_id: str = PatientId
    new_drug: str = DrugName
    dosage: str = Field(min_length=1, max_length=40, description="e.g. 100 mg")
    frequency: str = Field(min_length=1, max_length=40, description="e.g. twice daily")
    replaces: str | None = Field(
        default=None, max_length=60, description="the drug it replaces, when said"
    )


class DoseChangeArgs(BaseModel):
    model_config = _STRICT
    patient_id: str = PatientId
    medication_name: str = DrugName
    dosage: str = Field(min_length=1, max_length=40, description="the new dose, e.g. 10 mg")
    frequency: str | None = Field(
        default=None, max_length=40, description="the new frequency; None: the order's own"
    )


class StopArgs(BaseModel):
    model_config = _STRICT
    patient_id: str = PatientId
    medication_name: str = DrugName
    reason: str | None = Field(default=None, max_length=200,
                               description="why it is stopped, as the clinician said it")


class PeriopArgs(BaseModel):
    model_config = _STRICT
    patient_id: str = PatientId
    surgery: str = Field(min_length=2, max_length=200,
                         description="the surgery's date as said, e.g. Tuesday 15 December")
    bleeding_risk: Literal["low", "high"] = Field(
        default="high", description="the procedure's bleeding risk"
    )
