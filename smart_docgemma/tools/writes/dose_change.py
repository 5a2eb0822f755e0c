"""A dose change of a drug on her list: "increase amlodipine to 10mg od", "monte l'amlodipine à
10", "reduzir varfarina para 2,5 mg/dia".

One card proposes the change, checked as any order is (the new dose against the ceilings and
the chart, the order it replaces left out of the check, so it is no duplicate of itself). On
approval one FHIR transaction (R4 §3.1.0.11.2: all or nothing) creates the new
``MedicationRequest``, whose ``priorPrescription`` is the old order, and sets the old order
``stopped`` (a PUT conditional on the version read, so an order changed meanwhile fails the
whole transaction and nothing is written). The new order carries the proposal identifier and is
created only if none carries it, so a retry writes nothing twice; its Provenance is written as
for every approved card. The drug not on the active list, or on it twice, is said and nothing
is proposed.
"""
from __future__ import annotations

import re
import uuid
from dataclasses import replace
from typing import Any

from ... import errors, knowledge
from ...approval.types import ProposalSummary
from ...knowledge import classes
from ...languages import N_, answer_language, message, say
from .. import args as tool_args
from .. import catalog
from ..base import Tool, ToolContext, ToolResult
from ..chart import records
from .draft import propose, refuse, validated
from .orders import drafted


def _say(msgid: str, **args: Any) -> str:
    return say(message(msgid, **args), answer_language())


def active_orders(ctx: ToolContext) -> list[dict[str, Any]]:
    """Her active orders read fresh (``Cache-Control: no-cache``): an order approved a moment
    ago is on the list the dose change is made from, never a cached result set without it."""
    return ctx.gateway().search("MedicationRequest", {"patient": ctx.patient_id,
                                                      "status": "active", "_count": 100},
                                max_pages=1, fresh=True)


def orders_of(drug: str, active: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The active orders of ``drug`` (by its generic name); a class named ("discontinue the
    ace-i", "stop the anticoagulant") is her orders of that class, none by a name of its own."""
    want = knowledge.generic(drug)
    of = [knowledge.generic(records.concept_text(m.get("medicationCodeableConcept")))
          for m in active]
    found = [m for m, name in zip(active, of, strict=True) if want and want in name]
    cls = classes.named(drug) if not found else None
    if not cls:
        return found
    return [m for m, name in zip(active, of, strict=True) if cls in classes.of(name)]


_DAILY = {1: "once daily", 2: "twice daily", 3: "three times daily", 4: "four times daily"}
# the old dose at the head of a dosage text ("5 mg by mouth once daily"): never carried into the
# new order, whose dose is the one asked
_OLD_DOSE = re.compile(r"^\s*\d+(?:[.,]\d+)?\s*(?:mg|g|mcg|micrograms?|ml|units?|iu|tablets?|tabs?)"
                       r"\b\s*", re.I)


def frequency_of(order: dict[str, Any]) -> str:
    """The old order's frequency, for a change of dose alone: from its timing ("once daily",
    "every 8 hours"), else its dosage text without the old dose ("by mouth once daily")."""
    inst = (order.get("dosageInstruction") or [{}])[0]
    rep = (inst.get("timing") or {}).get("repeat") or {}
    times, period, unit = rep.get("frequency"), rep.get("period") or 1, rep.get("periodUnit")
    if unit == "d" and period == 1 and times in _DAILY:
        return _DAILY[times]
    if unit == "h" and times == 1:
        return f"every {period:g} hours"
    text = str(inst.get("text") or records.dosage(order.get("dosageInstruction") or []) or "")
    return _OLD_DOSE.sub("", text).strip() or "as before"


def transaction(new: dict[str, Any], old: dict[str, Any], said: str,
                reason: str | None = None) -> dict[str, Any]:
    """The transaction: the new order (its ``priorPrescription`` the old) and the old stopped,
    conditional on the version read (``reason``: why, "Dose changed: …" unless said)."""
    ref = f"MedicationRequest/{old['id']}"
    stopped = {k: v for k, v in old.items() if k not in ("meta", "text")}
    stopped.update(status="stopped", statusReason={"text": reason or f"Dose changed: {said}"})
    put: dict[str, Any] = {"method": "PUT", "url": ref}
    version = (old.get("meta") or {}).get("versionId")
    if version:
        put["ifMatch"] = f'W/"{version}"'
    return {"resourceType": "Bundle", "type": "transaction", "entry": [
        {"fullUrl": f"urn:uuid:{uuid.uuid4()}", "resource": {**new, "priorPrescription": {
            "reference": ref}}, "request": {"method": "POST", "url": "MedicationRequest"}},
        {"fullUrl": ref, "resource": validated(stopped), "request": put}]}


def run_change_dose(args: tool_args.DoseChangeArgs, ctx: ToolContext) -> ToolResult:
    refused = refuse(args, ctx, "MedicationRequest")
    if refused:
        return refused
    try:
        found = orders_of(args.medication_name, active_orders(ctx))
    except errors.DocGemmaError:
        return ToolResult.failure("unreachable", "The medication list could not be read, so no "
                                  "dose change was prepared and nothing was proposed.")
    if len(found) != 1:
        return ToolResult(status="ok", text=_say(
            N_("%(drug)s is not on the active medication list, so no dose change was prepared; "
               "to start it, order it with its dose.") if not found else
            N_("%(drug)s is on the active list more than once, so no dose change was prepared: "
               "which order changes?"), drug=args.medication_name))
    old = found[0]
    frequency = args.frequency or frequency_of(old)
    was = records.dosage(old.get("dosageInstruction") or []) or "its current dose"
    resource, summary = drafted(tool_args.PrescribeMedicationArgs(
        patient_id=args.patient_id, medication_name=args.medication_name, dosage=args.dosage,
        frequency=frequency[:40], notes=f"dose change from {was}"[:200]),
        replace(ctx, replacing=(str(old.get("id")),)))
    said = f"{args.medication_name} {args.dosage} {frequency}"
    try:
        bundle = transaction(validated(resource), old, said)
    except ValueError as exc:
        return ToolResult.failure("invalid", f"The dose change could not be prepared ({exc}).")
    card: ProposalSummary = {
        **summary, "title": f"Change the dose: {args.medication_name} {args.dosage} {frequency}",
        "fields": [*summary["fields"], ("Replaces", f"MedicationRequest/{old['id']} ({was}), "
                                                    "stopped in the same transaction")]}
    return propose(ctx, "change_dose", bundle, card, "dose change")


TOOLS: list[Tool] = [Tool(catalog.spec("change_dose"), run_change_dose)]
