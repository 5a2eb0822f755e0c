"""A stop of a drug on her list: "stop the aspirin", "d/c the omeprazole", "arrête l'amlodipine",
"suspender o AAS", "suspende el enalapril".

One card proposes the stop. On approval one FHIR transaction (R4 §3.1.0.11.2: all or nothing)
sets the order ``stopped`` (a PUT conditional on the version read, so an order changed meanwhile
fails the whole transaction and nothing is written) and creates the stop order that names it: a
``MedicationRequest`` with status ``stopped`` whose ``priorPrescription`` is the order stopped, as a
switch's stop card is. The stop order carries the proposal identifier and is created only if none
carries it, so a retry writes nothing twice; its Provenance is written as for every approved card.
The drug not on the active list, or on it more than once, is said and nothing is proposed. A hold
("hold warfarin tonight") is not a stop: it is said, never drafted as one.
"""
from __future__ import annotations

from typing import Any

from ... import errors
from ...approval.types import ProposalSummary
from ...languages import N_, answer_language, message, say
from .. import args as tool_args
from .. import catalog
from ..base import Tool, ToolContext, ToolResult
from ..chart import records
from .dose_change import active_orders, orders_of, transaction
from .draft import now, practitioner, propose, refuse, validated


def _say(msgid: str, **args: Any) -> str:
    return say(message(msgid, **args), answer_language())


def stop_order(ctx: ToolContext, old: dict[str, Any], reason: str,
               said: str | None = None) -> dict[str, Any]:
    """The stop order of ``old``: the stopped drug, its subject, why (``reason``), and its
    instruction (``said``; "Stop <drug>" unless given). A switch's stop card is one too."""
    drug = records.concept_text(old.get("medicationCodeableConcept"))
    resource: dict[str, Any] = {
        "resourceType": "MedicationRequest", "status": "stopped", "intent": "order",
        "medicationCodeableConcept": old.get("medicationCodeableConcept") or {"text": drug},
        "subject": {"reference": f"Patient/{ctx.patient_id}"}, "authoredOn": now(),
        "statusReason": {"text": reason},
        "dosageInstruction": [{"text": said or f"Stop {drug}"}]}
    if practitioner(ctx):
        resource["requester"] = practitioner(ctx)
    return resource


def run_stop(args: tool_args.StopArgs, ctx: ToolContext) -> ToolResult:
    refused = refuse(args, ctx, "MedicationRequest")
    if refused:
        return refused
    try:
        found = orders_of(args.medication_name, active_orders(ctx))
    except errors.DocGemmaError:
        return ToolResult.failure("unreachable", "The medication list could not be read, so no "
                                  "stop was prepared and nothing was proposed.")
    if len(found) != 1:
        return ToolResult(status="ok", text=_say(
            N_("%(drug)s is not on the active medication list, so no stop was prepared.")
            if not found else
            N_("%(drug)s is on the active list more than once, so no stop was prepared: which "
               "order stops?"), drug=args.medication_name))
    old = found[0]
    drug = records.concept_text(old.get("medicationCodeableConcept"))
    reason = f"Stopped: {args.reason}" if args.reason else "Stopped by the clinician"
    try:
        bundle = transaction(validated(stop_order(ctx, old, reason)), old, reason, reason)
    except ValueError as exc:
        return ToolResult.failure("invalid", f"The stop could not be prepared ({exc}).")
    ref = f"MedicationRequest/{old['id']}"
    card: ProposalSummary = {
        "title": f"Stop {drug}",
        "kind": "medication",
        "flags": [],
        "fields": [
            ("Medication", drug),
            ("Order stopped", f"{ref} ({records.dosage(old.get('dosageInstruction') or [])})"),
            ("Reason", args.reason or "not said"),
            ("In the record", f"{ref} is set to stopped in the same transaction"),
        ],
    }
    return propose(ctx, "stop_medication", bundle, card, "stop")


TOOLS: list[Tool] = [Tool(catalog.spec("stop_medication"), run_stop)]
