"""Editing a pending proposal on its card: the clinically meaningful fields, re-checked.

A clinician who wants 1000 mg instead of 500 mg changes the dose on the card
instead of rejecting and retyping the request. An edit:

1. reads only the fields of the proposal's kind (``FIELDS``); a field absent
   from the request is unchanged, so a JSON caller may send just ``dose``;
2. applies each changed value to the FHIR resource with the write tools' own
   coders (units, routes, timing, SNOMED CT substances and reactions, LOINC
   note types) and refuses a value that does not parse (``BadRequest``);
3. validates the edited resource with the ``fhir.resources`` R4B models and
   re-runs the write tool's safety checks on it;
4. is stored by ``ProposalStore.edit`` only if the proposal is still pending at
   the version the clinician edited (else ``Conflict``), as the next version,
   with the change (before → after) listed on the card.
"""
from __future__ import annotations

import base64
import copy
import math
from collections.abc import Callable, Collection
from typing import Any

from .. import errors
from ..approval.types import Change, Launch, ProposalSummary, SafetyFlag, SecondLook
from ..languages import N_, message
from ..tools.base import ToolContext
from ..tools.words import dosing
from ..tools.writes import draft, orders
from .describe import as_needed_text, frequency_text, note_text, quantity_text
from .store import Proposal, ProposalStore

# the one route vocabulary (tools/words/dosing.py)
ROUTES = {"": None, **{key: key for key in dosing.ROUTE_KEYS}}
UNITS = ("mg", "g", "mcg", "mL", "units", "mmol", "mEq")
CATEGORIES = ("", "medication", "food", "environment", "biologic")
CRITICALITIES = ("", "low", "high", "unable-to-assess")
SEVERITIES = ("", "mild", "moderate", "severe")
YES = ("yes", "on", "true", "1")
NOTE_MAX_CHARS = 20000

FIELDS = {
    "MedicationRequest": {
        "dose": "Dose",
        "unit": "Unit",
        "route": "Route",
        "frequency": "Frequency",
        "duration_days": "Duration (days)",
        "quantity": "Quantity to dispense",
        "as_needed": "As needed",
        "instructions": "Instructions",
    },
    "AllergyIntolerance": {
        "substance": "Substance",
        "category": "Category",
        "criticality": "Criticality",
        "reaction": "Reaction",
        "severity": "Severity",
    },
    "DocumentReference": {"note_type": "Note type", "note_text": "Note text"},
}


# ------------------------------------------------------------------ current values
def current(resource: dict[str, Any]) -> dict[str, str]:
    """The editable fields of ``resource`` as the card's form shows them."""
    rtype = resource["resourceType"]
    if rtype == "MedicationRequest":
        return _med_values(resource)
    if rtype == "AllergyIntolerance":
        reaction = (resource.get("reaction") or [{}])[0]
        return {
            "substance": (resource.get("code") or {}).get("text", ""),
            "category": (resource.get("category") or [""])[0],
            "criticality": resource.get("criticality", ""),
            "reaction": ", ".join(m.get("text", "") for m in reaction.get("manifestation") or []),
            "severity": reaction.get("severity", ""),
        }
    if rtype == "DocumentReference":
        return {
            "note_type": (resource.get("type") or {}).get("text", ""),
            "note_text": note_text(resource),
        }
    return {}


def _inst(resource: dict[str, Any]) -> dict[str, Any]:
    inst: dict[str, Any] = (resource.get("dosageInstruction") or [{}])[0]
    return inst


def _med_values(r: dict[str, Any]) -> dict[str, str]:
    inst, dispense = _inst(r), r.get("dispenseRequest") or {}
    dose = ((inst.get("doseAndRate") or [{}])[0]).get("doseQuantity") or {}
    route = dosing.route_key(inst.get("route"))
    supply = (dispense.get("expectedSupplyDuration") or {}).get("value")
    qty = (dispense.get("quantity") or {}).get("value")
    return {
        "dose": _num(dose.get("value")),
        "unit": dose.get("unit", ""),
        "route": route,
        "frequency": frequency_text((inst.get("timing") or {}).get("repeat"))
        or inst.get("text", ""),
        "duration_days": _num(supply),
        "quantity": _num(qty),
        "as_needed": "yes"
        if inst.get("asNeededBoolean") or inst.get("asNeededCodeableConcept")
        else "no",
        "instructions": inst.get("patientInstruction", ""),
    }


def _num(value: float | int | str | None) -> str:
    if value is None:
        return ""
    return str(int(value)) if float(value).is_integer() else str(value)


# ------------------------------------------------------------------ applying
def changed(resource: dict[str, Any], submitted: dict[str, str | None]) -> dict[str, str]:
    """The submitted fields whose value differs from the resource's (stripped; absent =
    unchanged)."""
    now = current(resource)
    out = {}
    for name in FIELDS.get(resource["resourceType"], {}):
        value = submitted.get(name)
        if value is None:
            continue
        value = value.strip().lower() if name == "as_needed" else value.strip()
        if name == "as_needed":
            value = "yes" if value in YES else "no"
        if value != now.get(name, ""):
            out[name] = value
    return out


def apply(resource: dict[str, Any], changes: dict[str, str]) -> dict[str, Any]:
    """A copy of ``resource`` with ``changes`` applied and validated (``BadRequest`` naming the
    field)."""
    edited = copy.deepcopy(resource)
    appliers = {"MedicationRequest": _apply_med, "AllergyIntolerance": _apply_allergy,
                "DocumentReference": _apply_note}
    appliers[resource["resourceType"]](edited, changes)
    try:
        return draft.validated(edited)
    except ValueError as exc:
        raise errors.BadRequest(message=message(N_(
            "The edited %(type)s is not valid FHIR (%(why)s); nothing was changed."),
            type=resource["resourceType"], why=str(exc))) from exc


def _number(name: str, value: str, *, integer: bool = False) -> float | int:
    label = {
        "dose": N_("The dose"),
        "duration_days": N_("The duration"),
        "quantity": N_("The quantity"),
    }[name]
    try:
        number = int(value) if integer else float(value)
    except ValueError:
        kind = N_("a whole number of days") if integer else N_("a number, e.g. 500")
        raise errors.BadRequest(
            message=message(
                N_("%(label)s must be %(kind)s; “%(value)s” is not. Nothing was changed."),
                label=message(label),
                kind=message(kind),
                value=value,
            )
        ) from None
    if not math.isfinite(number) or number <= 0:
        raise errors.BadRequest(
            message=message(
                N_("%(label)s must be greater than zero; “%(value)s” is not. Nothing was changed."),
                label=message(label),
                value=value,
            )
        )
    return int(number) if float(number).is_integer() else number


def _choice(name: str, value: str, allowed: Collection[str]) -> str:
    if value not in allowed:
        shown = ", ".join(a for a in allowed if a) or "none"
        raise errors.BadRequest(
            message=message(
                N_("%(label)s must be one of: %(shown)s. Nothing was changed."),
                label=message(FIELD_LABELS[name]),
                shown=shown,
            )
        )
    return value


def _apply_dose(inst: dict[str, Any], ch: dict[str, str]) -> None:
    dose = inst.setdefault("doseAndRate", [{}])[0].setdefault("doseQuantity", {})
    if "dose" in ch:
        dose["value"] = _number("dose", ch["dose"])
    if "unit" in ch:
        unit = _choice("unit", ch["unit"], UNITS)
        dose.update(unit=unit, system=dosing.UCUM, code=dosing.ucum(unit) or unit)


def _apply_med(r: dict[str, Any], ch: dict[str, str]) -> None:
    inst = r.setdefault("dosageInstruction", [{}])[0]
    was = ((inst.get("timing") or {}).get("repeat") or {})
    infusion = (
        f"over {was['duration']} {was.get('durationUnit', 'h')}" if was.get("duration") else ""
    )
    _apply_dose(inst, ch)
    if "route" in ch:
        inst.pop("route", None)
        if _choice("route", ch["route"], ROUTES):
            inst["route"] = dosing.route_coding(ch["route"])
    if "frequency" in ch:
        timing = orders.parse_timing(ch["frequency"])
        if not timing:
            raise errors.BadRequest(message=message(N_(
                "The frequency “%(said)s” was not understood; write it as e.g. “twice daily”, "
                "“every 8 hours”, “TID” or “weekly”. Nothing was changed."), said=ch["frequency"]))
        inst["timing"] = {"repeat": timing}
    if "as_needed" in ch:  # "no" drops the coded reason too; "yes" from "no" has none
        inst.pop("asNeededBoolean", None)
        inst.pop("asNeededCodeableConcept", None)
        if ch["as_needed"] == "yes":
            inst["asNeededBoolean"] = True
    if "instructions" in ch:
        inst.pop("patientInstruction", None)
        if ch["instructions"]:
            inst["patientInstruction"] = ch["instructions"][:500]
    _apply_dispense(r, ch)
    if infusion:  # an infusion keeps its length; its rate follows the edited dose
        for part in inst.get("doseAndRate") or []:
            part.pop("rateQuantity", None)
        dosing.infusion(inst, infusion)
    inst["text"] = _dosage_text(inst) + (f" {infusion}" if infusion else "")


def _apply_dispense(r: dict[str, Any], ch: dict[str, str]) -> None:
    dispense = r.setdefault("dispenseRequest", {})
    if "duration_days" in ch:
        dispense.pop("expectedSupplyDuration", None)
        if ch["duration_days"]:
            days = _number("duration_days", ch["duration_days"], integer=True)
            dispense["expectedSupplyDuration"] = {
                "value": days,
                "unit": "days",
                "system": dosing.UCUM,
                "code": "d",
            }
    if "quantity" in ch:
        dispense.pop("quantity", None)
        if ch["quantity"]:
            dispense["quantity"] = {"value": _number("quantity", ch["quantity"])}
    if not dispense:
        r.pop("dispenseRequest")


def _dosage_text(inst: dict[str, Any]) -> str:
    """The dosage's free text, rewritten so it never contradicts the structured dose after an
    edit."""
    dose = quantity_text(((inst.get("doseAndRate") or [{}])[0]).get("doseQuantity"))
    parts = [dose, (inst.get("route") or {}).get("text", "").lower(),
             frequency_text((inst.get("timing") or {}).get("repeat")),
             as_needed_text(inst)]
    text = " ".join(p for p in parts if p)
    return text + (f". {inst['patientInstruction']}" if inst.get("patientInstruction") else "")


def _apply_allergy(r: dict[str, Any], ch: dict[str, str]) -> None:
    reaction = r.setdefault("reaction", [{}])[0]
    if "substance" in ch:
        if not 2 <= len(ch["substance"]) <= 60:
            raise errors.BadRequest(
                message=message(
                    N_("The substance must be 2 to 60 characters. Nothing was changed.")
                )
            )
        r["code"], implied = orders.substance_code(ch["substance"])
        if implied and "category" not in ch:
            r["category"] = [implied]
    if "category" in ch:
        r.pop("category", None)
        if _choice("category", ch["category"], CATEGORIES):
            r["category"] = [ch["category"]]
    if "criticality" in ch:
        r.pop("criticality", None)
        if _choice("criticality", ch["criticality"], CRITICALITIES):
            r["criticality"] = ch["criticality"]
    if "reaction" in ch:
        if not 2 <= len(ch["reaction"]) <= 80:
            raise errors.BadRequest(
                message=message(N_("The reaction must be 2 to 80 characters. Nothing was changed."))
            )
        reaction["manifestation"] = [orders.manifestation(ch["reaction"])]
    if "severity" in ch:
        reaction.pop("severity", None)
        if _choice("severity", ch["severity"], SEVERITIES):
            reaction["severity"] = ch["severity"]


def _apply_note(r: dict[str, Any], ch: dict[str, str]) -> None:
    attachment = r["content"][0]["attachment"]
    if "note_type" in ch:
        kind = orders.note_type(ch["note_type"] or "note")
        r["type"] = {"coding": [kind], "text": kind["display"]}
        attachment["title"] = kind["display"]
        r["description"] = f"{kind['display']} drafted with the DocGemma assistant"
    if "note_text" in ch:
        if not ch["note_text"] or len(ch["note_text"]) > NOTE_MAX_CHARS:
            raise errors.BadRequest(
                message=message(
                    N_("The note text must be 1 to %(n)s characters. Nothing was changed."),
                    n=NOTE_MAX_CHARS,
                )
            )
        attachment["data"] = base64.b64encode(ch["note_text"].encode()).decode()


MANAGED = {
    "Dose",
    "Route",
    "Frequency",
    "Duration",
    "Quantity to dispense",
    "As needed",
    "Instructions",
    "Substance",
    "Reaction",
    "Severity",
    "Note type",
    "Length",
}  # card rows an edit rewrites
FIELD_LABELS = {name: label for fields in FIELDS.values() for name, label in fields.items()}


# ------------------------------------------------------------------ the card after an edit
def safety_flags(resource: dict[str, Any], ctx: ToolContext) -> list[SafetyFlag] | None:
    """The write tool's own safety checks, re-run on the edited resource (None: keep the old
    ones)."""
    rtype = resource["resourceType"]
    if rtype == "MedicationRequest":
        dosage = (resource.get("dosageInstruction") or [None])[0]
        return orders.medication_flags(
            ctx, (resource.get("medicationCodeableConcept") or {}).get("text", ""), dosage
        )
    if rtype == "AllergyIntolerance":
        return orders.allergy_flags(ctx, (resource.get("code") or {}).get("text", ""))
    return None


def edited_summary(
    summary: ProposalSummary,
    before: dict[str, Any],
    after: dict[str, Any],
    changes: dict[str, str],
    *,
    flags: list[SafetyFlag] | None,
    version: int,
    user: str | None,
) -> ProposalSummary:
    """The summary for the next version: changes (before → after) listed, fields and flags
    refreshed. Keys this module does not own (e.g. a second look) are kept as they are."""
    old, new = current(before), current(after)
    listed: list[Change] = [
        {
            "field": FIELD_LABELS[n],
            "before": _shown(n, old),
            "after": _shown(n, new),
            "version": version,
        }
        for n in changes
    ]
    fresh = dict(_fields(after, new))
    fields = [(label, fresh.pop(label, value)) for label, value in summary.get("fields") or []
              if label in fresh or label not in MANAGED]
    fields += list(fresh.items())
    out: ProposalSummary = {
        **summary,
        "fields": fields,
        "changes": [*(summary.get("changes") or []), *listed],
        "edited_by": user,
        "last_error": None,
    }
    if flags is not None:
        out["flags"] = flags
    if after["resourceType"] == "DocumentReference":
        out["preview"] = new["note_text"][:600]
    return out


def _shown(name: str, values: dict[str, str]) -> str:
    value = values.get(name, "")
    if name == "dose":
        return f"{value} {values.get('unit', '')}".strip()
    if name == "note_text":
        return f"{len(value)} characters" if value else "empty"
    return value or "not set"


def _fields(resource: dict[str, Any], values: dict[str, str]) -> list[tuple[str, str]]:
    rtype = resource["resourceType"]
    if rtype == "MedicationRequest":
        route = (_inst(resource).get("route") or {}).get("text", "not specified")
        shown = [("Dose", f"{values['dose']} {values['unit']}".strip()), ("Route", route),
                 ("Frequency", values["frequency"])]
        extra = [("Duration", f"{values['duration_days']} days" if values["duration_days"] else ""),
                 ("Quantity to dispense", values["quantity"]),
                 ("As needed", "yes" if values["as_needed"] == "yes" else ""),
                 ("Instructions", values["instructions"])]
        return shown + [(label, value) for label, value in extra if value]
    if rtype == "AllergyIntolerance":
        return [("Substance", values["substance"]), ("Reaction", values["reaction"]),
                ("Severity", values["severity"] or "not stated")]
    kind = resource["type"]["coding"][0]
    return [("Note type", f"{kind['display']} (LOINC {kind['code']})"),
            ("Length", f"{len(values['note_text'])} characters")]


# ------------------------------------------------------------------ the whole edit
def edit_proposal(store: ProposalStore, proposal_id: str, launch: Launch, version: int,
                  submitted: dict[str, str | None], ctx: ToolContext,
                  relook: Callable[[SecondLook, list[SafetyFlag], int], SecondLook] | None = None
                  ) -> Proposal:
    """Apply the clinician's edit to a pending proposal of this session and store it as the next
    version (see the module's docstring); an edit that changes nothing leaves it as it is.
    ``relook(second_look, flags, version)`` renews a second look for the edited version, in the
    same write (an approval can never pair the new version with the old acknowledgement)."""
    p = store.visible(proposal_id, launch)
    if p.status != "pending" or p.version != version:
        raise store.conflict(p.id, version, "edited")
    if p.resource.get("resourceType") == "Bundle":  # a dose change, a stop: two orders at once
        raise errors.Conflict("A dose change or a stop is not edited on its card: reject it and "
                              "ask again for what you want; nothing was changed.")
    changes = changed(p.resource, submitted)
    if not changes:
        return p
    resource = apply(p.resource, changes)
    summary = edited_summary(
        p.summary,
        p.resource,
        resource,
        changes,
        flags=safety_flags(resource, ctx),
        version=version + 1,
        user=launch.user,
    )
    look = summary.get("second_look")
    if relook is not None and look is not None:
        summary["second_look"] = relook(look, summary.get("flags") or [], version + 1)
    return store.edit(p, version, resource, summary)
