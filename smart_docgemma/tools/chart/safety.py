"""What the safety checks of a drafted write read from the patient in context, and the
flags they raise (shown on the approval card and to the interaction tool)."""
from __future__ import annotations

from typing import Any, Literal

from ... import errors
from ...approval.types import SafetyFlag
from ...languages import N_, english, message
from ..base import ToolContext
from .chart import concept_text

Severity = Literal["critical", "warning", "info"]
SEVERITIES: dict[str, Severity] = {"critical": "critical", "warning": "warning", "info": "info"}


def patient_lists(ctx: ToolContext, shared: bool = False
                  ) -> tuple[list[str], list[str], list[SafetyFlag]]:
    """Active medication names and allergy substances of the launch patient (for safety flags).
    ``shared``: a question, not a proposal: the turn's chart read (``ctx.chart_read``) serves
    the lists it read whole instead of a second search."""
    flags: list[SafetyFlag] = []
    meds: list[str] = []
    allergies: list[str] = []
    read = ctx.chart_read if shared else None
    whole = read.sections if read and read.patient_id == ctx.patient_id else {}
    for rtype, params, sink, section in (
            ("MedicationRequest", {"status": "active"}, meds, "medications"),
            ("AllergyIntolerance", {}, allergies, "allergies")):
        try:
            found = whole[section] if section in whole else ctx.gateway().search(
                rtype, {"patient": ctx.patient_id, "_count": 50, **params}, max_pages=2)
        except errors.DocGemmaError:
            flags.append(flag("warning", "unchecked", message(N_(
                "The patient's %(type)s records could not "
                "be read, so that safety check did not run."),
                type=rtype)))
            continue
        key = "medicationCodeableConcept" if rtype == "MedicationRequest" else "code"
        sink.extend(concept_text(r.get(key)) for r in found
                    if _code_of(r.get("verificationStatus")) not in ("refuted", "entered-in-error"))
    return meds, allergies, flags


def _code_of(cc: dict[str, Any] | None) -> str:
    return next((c.get("code") for c in (cc or {}).get("coding") or []), "")


def flag(severity: str, kind: str, said: str | dict[str, Any], label: str | None = None,
         url: str | None = None) -> SafetyFlag:
    """A finding at ``severity`` (critical, warning or info: the knowledge core's levels);
    ``said`` is its sentence, or a ``languages.message`` shown in the page's language."""
    text = english(said) if isinstance(said, dict) else said
    raised: SafetyFlag = {"severity": SEVERITIES[severity], "kind": kind, "text": text}
    if isinstance(said, dict):
        raised["message"] = said
    if label and url:
        raised["source"] = {"label": label, "url": url}
    return raised
