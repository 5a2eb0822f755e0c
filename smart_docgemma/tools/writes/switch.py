"""A drug switch: "switch her to labetalol 100 mg twice daily" (pregnant, on lisinopril).

Two cards: the new order (the prescription tool's own card, with the one patient-safety check)
and the stop of the order it replaces: the one active drug of the same therapeutic group
(``data/switch_groups.yaml``), or the drug the clinician names ("from lisinopril", "instead of
lisinopril"). The stop is proposed as a ``MedicationRequest`` with status ``stopped`` whose
``priorPrescription`` is the replaced order (the proposal store creates resources; the EHR
discontinues the order itself when it is signed, said on the card). Several candidates, or none,
are said and asked about; nothing is stopped on a guess, and nothing is written before approval.
"""
from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from ... import errors, knowledge
from ...approval.types import ProposalSummary
from ...datafiles import safe_yaml
from ...languages import N_, answer_language, message, say
from .. import args as tool_args
from .. import catalog
from ..base import Tool, ToolContext, ToolResult
from ..chart import records
from .dose_change import orders_of
from .draft import propose, refuse
from .orders import run_prescribe
from .stop import stop_order
from .ward_orders import brief, merged

DATA = Path(__file__).parents[1] / "data" / "switch_groups.yaml"


@lru_cache(maxsize=1)
def groups() -> dict[str, Any]:
    found: dict[str, Any] = safe_yaml(DATA.read_text(encoding="utf-8"))["groups"]
    return found


def group_of(drug: str) -> str | None:
    name, classes = knowledge.generic(drug), knowledge.drug_classes(drug)
    for key, g in groups().items():
        if set(g["classes"]) & set(classes) or any(d in name for d in g["drugs"]):
            return str(key)
    return None


def _active(ctx: ToolContext) -> list[dict[str, Any]]:
    return ctx.gateway().search("MedicationRequest", {"patient": ctx.patient_id, "status": "active",
                                                      "_count": 100}, max_pages=1)


def text(order: dict[str, Any]) -> str:
    return records.concept_text(order.get("medicationCodeableConcept"))


def replaced(new: str, said: str | None,
             active: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The orders the switch replaces, and how they were chosen (or why none was), as a message
    (``languages.message``) said in the turn's language."""
    if said:
        # by its name, or a class named ("switch her ace-i to labetalol"): her orders of it
        hit = orders_of(said, active)
        return hit, (message(N_("named by you (%(said)s)"), said=said) if hit
                     else message(N_("%(said)s is not on the active list"), said=said))
    group = group_of(new)
    if group is None:
        return [], message(
            N_(
                "%(drug)s is in no therapeutic group this site lists, so no order was "
                "chosen to stop"
            ),
            drug=new,
        )
    same = [
        m
        for m in active
        if group_of(text(m)) == group and knowledge.generic(text(m)) != knowledge.generic(new)
    ]
    return same, message(N_("the active %(group)s order") if len(same) == 1
                         else N_("the active %(group)s orders"), group=group.replace("_", " "))


def _stop(ctx: ToolContext, order: dict[str, Any], new: str) -> ToolResult:
    ref = f"MedicationRequest/{order.get('id')}"
    drug = records.concept_text(order.get("medicationCodeableConcept"))
    resource = {**stop_order(ctx, order, f"Switched to {new}", f"Stop {drug}: switched to {new}"),
                "priorPrescription": {"reference": ref}}
    summary: ProposalSummary = {
        "title": f"Stop {drug}",
        "kind": "medication",
        "flags": [],
        "fields": [
            ("Medication", drug),
            ("Order stopped", f"{ref} ({records.dosage(order.get('dosageInstruction') or [])})"),
            ("Reason", f"switched to {new}"),
            ("In the EHR", f"{ref} is discontinued when this is signed"),
        ],
    }
    return propose(ctx, "switch_medication", resource, summary, "stop order")


def _say(msgid: str, **args: Any) -> str:
    """A line of the tool's text in this turn's language (English: the msgid filled)."""
    return say(message(msgid, **args), answer_language())


def run_switch(args: tool_args.SwitchArgs, ctx: ToolContext) -> ToolResult:
    refused = refuse(args, ctx, "MedicationRequest")
    if refused:
        return refused
    try:
        active = _active(ctx)
    except errors.DocGemmaError:
        return ToolResult.failure(
            "unreachable",
            "The medication list could not be read, so no switch was "
            "prepared and nothing was proposed.",
        )
    stops, how = replaced(args.new_drug, args.replaces, active)
    names = ", ".join(records.concept_text(m.get("medicationCodeableConcept")) for m in stops)
    start = run_prescribe(
        tool_args.PrescribeMedicationArgs(
            patient_id=args.patient_id,
            medication_name=args.new_drug,
            dosage=args.dosage,
            frequency=args.frequency,
            notes=f"replaces {names}"[:200] if len(stops) == 1 else None,
        ),
        replace(ctx, replacing=tuple(str(m.get("id")) for m in stops)) if len(stops) == 1 else ctx,
    )
    lines = [_say(N_("Switch to %(drug)s %(dose)s %(frequency)s."), drug=args.new_drug,
                  dose=args.dosage, frequency=args.frequency)]
    if len(stops) == 1:
        results = [start, _stop(ctx, stops[0], args.new_drug)]
        lines.append(_say(N_("Replaces %(drug)s (%(how)s)."), how=how,
                          drug=records.concept_text(stops[0].get("medicationCodeableConcept"))))
    else:
        results = [start]
        listed = ", ".join(records.concept_text(m.get("medicationCodeableConcept")) for m in stops)
        lines.append(_say(N_("No order is proposed to stop: %(how)s: %(listed)s. Which order does "
                             "it replace?"), how=how, listed=listed) if stops and listed
                     else _say(N_("No order is proposed to stop: %(how)s. Which order does it "
                                  "replace?"), how=how) if stops
                     else _say(N_("No order is proposed to stop: %(how)s."), how=how))
    flags = [f for r in results for f in (r.json_data().get("summary") or {}).get("flags") or []
             if f.get("severity") == "critical"]
    lines += [f"CRITICAL: {f['text']}" for f in flags]
    done = merged(results)
    done.text = "\n".join(lines) + "\n" + brief(results)
    return done


TOOLS: list[Tool] = [Tool(catalog.spec("switch_medication"), run_switch)]
