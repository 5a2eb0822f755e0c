"""Medication reconciliation: what the clinician says the patient takes, compared with the list.

"He also takes ibuprofen OTC and omeprazole", "il prend aussi de l'ibuprofène", "she stopped the
aspirin": each drug the statement names is matched with the active orders and the patient's
recorded statements (by ingredient). A drug already on the list is said so; an addition goes
through the one patient-safety check (``orders.medication_flags``: ibuprofen with warfarin is
critical) and is proposed as a ``MedicationStatement`` (what the patient takes by report), one
card each; a drug said to be stopped is proposed as a stopped ``MedicationStatement`` naming the
order it concerns (the order itself stays active until it is discontinued in the EHR, said so).
A drug on the list taken at another dose than the order's ("he takes warfarin 3 mg", the order
says 5 mg) is a discrepancy: said as a warning, and proposed as a statement of the reported dose
for the clinician to confirm; an order without a structured dose is not compared (said so).
Anything named that could not be identified is said, and nothing is recorded before approval.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

from ... import errors, knowledge
from ...approval.types import ProposalSummary, SafetyFlag
from ...checks.drug_safety import review_in_context, said_line
from ...knowledge.mentions import find_drugs
from ...languages import N_, answer_language, fold, message, say
from .. import args as tool_args
from .. import catalog
from ..base import Tool, ToolContext, ToolResult
from ..chart import records
from ..words.dosing import NUMBER, amount
from .draft import now, practitioner, propose, refuse
from .orders import medication_flags, rxnorm_coding
from .ward_orders import brief, merged

Said = Literal["takes", "stopped"]
# the words after which a drug is said to be stopped (four languages; accent-folded, lower case)
_STOPPED = re.compile(
    r"\b(?:stopped|stop(?:ped)? taking|no longer (?:takes|taking|on)|came off|discontinued|"
    r"a arrete|arrete|ne prend plus|n'prend plus|parou(?: de tomar)?|nao toma mais|"
    r"dejo(?: de tomar)?|ya no toma|suspendeu|suspendio)\b"
)


@dataclass(frozen=True)
class Reported:
    """One drug the statement names: what was said of it and what the list holds."""

    name: str  # the ingredient, as the knowledge core names it
    words: str  # as written
    said: Said
    on_list: (
        str | None
    )  # the matching order or statement ("MedicationRequest/…: text"), None if absent
    said_mg: float | None = None  # the dose said, in mg, when one follows the drug's name
    listed_mg: float | None = None  # the matching order's structured dose in mg, if it has one

    @property
    def differs(self) -> bool:
        """A dose said that is not the order's (a rounding's 1 % aside)."""
        return (self.said == "takes" and self.said_mg is not None and self.listed_mg is not None
                and abs(self.said_mg - self.listed_mg) > 0.01 * self.listed_mg)


Listed = tuple[str, str, float | None]  # ingredient, "Type/id: text", structured dose in mg
_IN_MG = {"mg": 1.0, "g": 1000.0, "mcg": 0.001, "ug": 0.001, "µg": 0.001}


def _order_mg(res: dict[str, Any]) -> float | None:
    """The order's first structured dose in mg (``doseQuantity`` in mg, g or mcg); None when
    it has none: a tablet's strength in the name is not a dose ("1 g" may be two 500 mg)."""
    for inst in res.get("dosageInstruction") or []:
        for rate in inst.get("doseAndRate") or []:
            q = rate.get("doseQuantity") or {}
            unit = str(q.get("code") or q.get("unit") or "").lower()
            if isinstance(q.get("value"), (int, float)) and unit in _IN_MG:
                return float(q["value"]) * _IN_MG[unit]
    return None


_SAID_DOSE = re.compile(rf"\s*{NUMBER}\s*(mg|g|mcg|ug|µg|micrograms?)?(?![\w/])")


def said_mg(low: str, surface: str) -> float | None:
    """The dose written straight after the drug's name ("warfarin 3mg", "metformina 850",
    "aspirin 81"), in mg; a bare number is mg. None when no number follows it."""
    at = low.find(surface)
    m = _SAID_DOSE.match(low, at + len(surface)) if at >= 0 else None
    if not m:
        return None
    unit = (m.group(2) or "mg").replace("micrograms", "mcg").replace("microgram", "mcg")
    return float(amount(m.group(1))) * _IN_MG.get(unit, 1.0)


def _listed(ctx: ToolContext) -> list[Listed]:
    """(ingredient, "Type/id: text", dose in mg) of every active order and recorded statement."""
    out = []
    for rtype, params in (
        ("MedicationRequest", {"status": "active"}),
        ("MedicationStatement", {"status": "active"}),
    ):
        if ctx.scopes is not None and not ctx.scopes.allows(rtype, "s"):
            continue
        for res in ctx.gateway().search(
            rtype, {"patient": ctx.patient_id, **params, "_count": 100}, max_pages=1
        ):
            text = records.concept_text(res.get("medicationCodeableConcept"))
            ref = f"{rtype}/{res.get('id')}: {text}"
            out.append((knowledge.generic(text), ref, _order_mg(res)))
    return out


def reported(statement: str, listed: list[Listed]) -> tuple[list[Reported], list[str]]:
    """The drugs the statement names, each with what was said and its match on the list; and
    the words that looked like a drug but could not be identified (ambiguous spellings)."""
    low = fold(statement).lower()
    out, unclear = [], []
    for m in find_drugs(low):  # accent-folded: "ibuprofène" is ibuprofen
        if not m.name:
            unclear.append(m.surface)
            continue
        at = low.find(m.surface)
        before = low[max(0, at - 40):at] if at >= 0 else ""
        said: Said = "stopped" if _STOPPED.search(before) else "takes"
        parts = set(m.name.split("/"))
        match = next((row for row in listed if parts & set(row[0].split("/"))), None)
        out.append(Reported(m.name, m.surface, said, match[1] if match else None,
                            said_mg(low, m.surface), match[2] if match else None))
    return out, unclear


def _statement(ctx: ToolContext, r: Reported, statement: str) -> dict[str, Any]:
    coding = rxnorm_coding(r.name)
    resource: dict[str, Any] = {
        "resourceType": "MedicationStatement",
        "status": "active" if r.said == "takes" else "stopped",
        "medicationCodeableConcept": {"text": r.name, **({"coding": [coding]} if coding else {})},
        "subject": {"reference": f"Patient/{ctx.patient_id}"},
        "dateAsserted": now(),
        "note": [{"text": f'As the clinician reported: "{statement[:300]}"'}],
    }
    if practitioner(ctx):
        resource["informationSource"] = practitioner(ctx)
    if r.said == "stopped" and r.on_list and r.on_list.startswith("MedicationRequest/"):
        resource["derivedFrom"] = [{"reference": r.on_list.split(":")[0]}]
    return resource


def _discrepancy(r: Reported) -> SafetyFlag:
    """The reported dose against the order's, as the card's first flag."""
    text = message(N_("Dose differs from the list: the order says %(listed)s mg, the patient "
                      "takes %(said)s mg by report — confirm which is right"),
                   listed=f"{r.listed_mg:g}", said=f"{r.said_mg:g}")
    return {"severity": "warning", "kind": "dose_discrepancy", "text": say(text, "en"),
            "message": text, "terms": [[r.name], ["dose"]]}


def _propose_one(ctx: ToolContext, r: Reported, statement: str) -> ToolResult:
    resource = _statement(ctx, r, statement)
    flags = medication_flags(ctx, r.name) if r.said == "takes" else []
    verb = "takes" if r.said == "takes" else "has stopped"
    fields = [("Medication", r.name), ("Reported", f"the patient {verb} {r.words}"),
              ("On the list", r.on_list or "not on the medication list")]
    if r.differs:  # the same drug at another dose: a discrepancy, not a second order of it
        flags = [_discrepancy(r)] + [f for f in flags if f["kind"] != "duplicate-order"]
        resource["dosage"] = [{"text": f"{r.said_mg:g} mg, as reported"}]
        fields.append(("Dose", f"{r.said_mg:g} mg reported; {r.listed_mg:g} mg on the order"))
    if r.said == "stopped" and r.on_list and r.on_list.startswith("MedicationRequest/"):
        fields.append(("Order", f"{r.on_list} stays active until it is discontinued in the EHR"))
    dosed = f" {r.said_mg:g} mg" if r.differs else ""
    summary: ProposalSummary = {
        "title": f"Record that the patient {verb} {r.name}{dosed}",
        "kind": "medication",
        "fields": fields,
        "flags": flags,
    }
    return propose(ctx, "reconcile_medications", resource, summary, "medication statement")


def _list_review(ctx: ToolContext) -> list[str]:
    """The list's own dangers, shown with it ("warfarin and aspirin, both continued — sanity
    check": warfarin with aspirin is critical): each finding of warning or above of the
    whole-list review, in the words of the CDS card; a review that could not run is said."""
    report = review_in_context(ctx)
    if report is None:
        return []
    if report.unread:
        return [_say(N_("The medication review could not run: %(parts)s could not be read."),
                     parts=", ".join(report.unread))]
    return [said_line(f) for f in report.shown() if f.severity in ("critical", "warning")]


def _flag_text(flag: dict[str, Any]) -> str:
    """A card flag's words in this turn's language when it carries them language-neutral."""
    return say(flag["message"], answer_language()) if flag.get("message") else str(flag["text"])


def _say(msgid: str, **args: Any) -> str:
    """A line of the tool's text in this turn's language (English: the msgid filled)."""
    return say(message(msgid, **args), answer_language())


def run_reconcile(args: tool_args.ReconcileArgs, ctx: ToolContext) -> ToolResult:
    refused = refuse(args, ctx, "MedicationStatement")
    if refused:
        return refused
    try:
        listed = _listed(ctx)
    except errors.DocGemmaError:
        return ToolResult.failure(
            "unreachable",
            "The medication list could not be read, so nothing was "
            "reconciled and nothing was recorded.",
        )
    found, unclear = reported(args.statement, listed)
    names = ", ".join(ref.split(": ", 1)[1] for _, ref, _ in listed)
    lines = [_say(N_("Medication list: %(names)s."), names=names) if names
             else _say(N_("Medication list: none active."))]
    lines += _list_review(ctx) if listed else []
    same = [r for r in found if r.said == "takes" and r.on_list and not r.differs]
    lines += [_say(N_("Already on the list: %(name)s (%(listed)s)."), name=r.name, listed=r.on_list)
              for r in same]
    todo = [r for r in found if r not in same]
    stopped_absent = [r for r in todo if r.said == "stopped" and not r.on_list]
    todo = [r for r in todo if r not in stopped_absent]
    lines += [_say(N_("Said to be stopped but not on the list: %(name)s; nothing recorded."),
                   name=r.name) for r in stopped_absent]
    lines += [_say(N_("Not recorded: \"%(words)s\" could not be identified as one drug; please "
                      "name it."), words=w) for w in unclear]
    if not found and not unclear:
        lines.append(_say(N_("No medication was named, so nothing was reconciled or recorded.")))
    if not todo:
        lines.append(_say(N_("Nothing to record.")))
        return ToolResult(
            status="ok",
            text="\n".join(lines),
            data={"reconciled": [r.name for r in found]},
            count=0,
        )
    results = [_propose_one(ctx, r, args.statement) for r in todo]
    done = merged(results)
    # every finding of warning or above is said in the answer, not only on its card
    flags = [f for r in results for f in (r.json_data().get("summary") or {}).get("flags") or []
             if f.get("severity") in ("critical", "warning")]
    flags.sort(key=lambda f: f.get("severity") != "critical")
    shown = "\n".join(lines)  # a finding the list's review already stated is not said twice
    lines += list(dict.fromkeys(f"{f['severity'].upper()}: {_flag_text(f)}" for f in flags
                                if f["text"] not in shown))
    done.text = ("\n".join(lines) + "\n" + brief(results) + "\n"
                 + _say(N_("Nothing is recorded until you approve each card.")))
    return done


TOOLS: list[Tool] = [Tool(catalog.spec("reconcile_medications"), run_reconcile)]
