"""What every write tool shares: it refuses what may not be written, drafts a valid FHIR resource
and proposes it; it never writes.

``refuse`` keeps writes to the patient in context with a create scope for the type; ``propose``
validates the resource with the ``fhir.resources`` R4B models (an invalid resource is refused
here, not at approval), stores it through ``ctx.proposals`` as a proposal for the clinician's card
and says so in the tool's text; ``practitioner`` is the user when the EHR names a practitioner;
``now`` stamps the draft. Only the clinician's approval writes (``ProposalStore.approve``).
"""
from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from fhir.resources.R4B import get_fhir_model_class
from pydantic import ValidationError

from ... import errors
from ...approval.types import ProposalSummary, SafetyFlag
from ...fhir import local_ref
from ...languages import N_, answer_language, clinical_clause, message, say
from ...languages.wording import reread
from ..base import ToolContext, ToolResult


def now() -> str:
    """The draft's time stamp: now, in UTC, to the second."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def validated(resource: dict[str, Any]) -> dict[str, Any]:
    """The resource checked against the FHIR R4B model; raises ``ValueError`` naming the problem."""
    try:
        model = get_fhir_model_class(resource["resourceType"]).model_validate(resource)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first.get("loc", ())) or resource["resourceType"]
        raise ValueError(f"{where}: {first.get('msg')}") from exc
    return model.model_dump(mode="json", exclude_none=True)


def refuse(args: Any, ctx: ToolContext, rtype: str) -> ToolResult | None:
    """Why this write may not be drafted, or None: writes only for the launch patient, and only
    with a create scope for the type."""
    if not ctx.patient_id:
        return ToolResult.failure(
            "forbidden", "No patient is in context, so nothing can be written to a chart. "
            "Open the assistant from the patient's chart.")
    if args.patient_id != ctx.patient_id:
        return ToolResult.failure(
            "forbidden", "Chart writes are limited to the patient in context "
            f"(id {ctx.patient_id}); {args.patient_id} is a different patient.")
    if ctx.scopes is None or not ctx.scopes.allows(rtype, "c"):
        return ToolResult.failure(
            "forbidden", f"This session was not granted permission to create {rtype} records.")
    return None


def propose(ctx: ToolContext, tool: str, resource: dict[str, Any], summary: ProposalSummary,
            noun: str) -> ToolResult:
    """The resource validated and stored as a proposal awaiting the clinician's approval."""
    try:
        resource = validated(resource)
    except ValueError as exc:
        return ToolResult.failure("invalid", f"The {noun} could not be prepared as a valid FHIR "
                                  f"{resource['resourceType']} ({exc}). Please restate it.")
    try:
        proposal_id = ctx.store().create(sid=ctx.sid or "", patient_id=ctx.patient_id or "",
                                         tool=tool, resource=resource, summary=summary)
    except errors.Forbidden as exc:  # the store's own check of the subject against the session
        return ToolResult.failure("forbidden", exc.description)
    flags, lang = summary.get("flags") or [], answer_language()
    lines = [say(message(N_("Proposed, awaiting the clinician's approval (nothing has been "
                            "written yet): %(title)s."),
                         title=reread(summary["title"], lang)), lang)]
    lines += [f"{say(message(label), lang)}: {reread(value, lang)}"
              for label, value in summary["fields"]]
    lines += [_flag_line(f, lang) for f in flags]
    mentions = [{"severity": f["severity"], "text": f"{f['severity'].upper()} — {f['text']}",
                 "terms": f["terms"]} for f in flags if f.get("terms")]
    return ToolResult(status="proposal", text="\n".join(lines), proposal_id=proposal_id,
                      data={"proposal_id": proposal_id, "summary": summary,
                            "resource_type": resource["resourceType"],
                            "safety_findings": mentions})


def practitioner(ctx: ToolContext) -> dict[str, Any] | None:
    """A reference to the user when the EHR names a Practitioner or PractitionerRole."""
    ref = local_ref(ctx.user)
    kinds = ("Practitioner", "PractitionerRole")
    return {"reference": ref} if ref and ref.split("/")[0] in kinds else None


def _flag_line(flag: SafetyFlag, lang: str) -> str:
    """A safety flag for the tool's text in ``lang``, keeping the English clinical clause the
    translated sentence does not carry (``languages.clinical_clause``)."""
    said = flag.get("message")
    line = say(message(N_("Safety flag (%(severity)s): %(text)s"),
                       severity=message(flag["severity"]), text=said or flag["text"]), lang)
    clause = clinical_clause(said, flag["text"]) if said and lang != "en" else ""
    return f"{line} ({clause})" if clause else line
