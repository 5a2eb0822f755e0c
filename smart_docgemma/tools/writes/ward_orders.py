"""Ward writes: lab orders and referrals (``ServiceRequest``) and vital signs (``Observation``).

Like every write tool they build a FHIR R4 resource, validate it and return a *proposal* for the
clinician's card; only the approval writes (``proposals.store``: exactly once, with Provenance,
for the patient in context only). The codes come from ``data/ward.yaml`` (LOINC order codes,
SNOMED CT referral procedures, the vital-signs profile's LOINC and UCUM); a test or specialty
the table lacks is said back to the clinician, never guessed; an implausible reading is refused.
"""
from __future__ import annotations

from datetime import datetime
from typing import Any

from ... import errors
from ...approval.types import ProposalSummary, SafetyFlag
from ...config import setting
from ...languages import N_, answer_language, message, say
from ...languages.wording import reread
from .. import args as tool_args
from .. import catalog
from ..base import Tool, ToolContext, ToolResult
from ..chart import labs
from ..chart.safety import flag
from ..words import arguments, ward_words, when
from ..words.dosing import SNOMED, UCUM
from . import draft
from .orders import LOINC

OBSERVATION_CATEGORY = "http://terminology.hl7.org/CodeSystem/observation-category"
# the display of each category a reading is recorded under (ward.yaml ``vital_signs``)
_CATEGORY_SHOWN = {"vital-signs": "Vital Signs", "exam": "Exam", "laboratory": "Laboratory"}
LAB_CATEGORY = {"system": SNOMED, "code": "108252007", "display": "Laboratory procedure"}
REFERRAL_CATEGORY = {"system": SNOMED, "code": "3457005", "display": "Patient referral"}
PROFILE = "http://hl7.org/fhir/StructureDefinition/"


def merged(results: list[ToolResult]) -> ToolResult:
    """Several proposals of one request as one result (each is its own card); the first
    failure stands for all when nothing was proposed."""
    made = [r for r in results if r.status == "proposal"]
    if not made:
        return results[0]
    ids = [r.proposal_id for r in made if r.proposal_id]
    text = "\n".join(r.text for r in results)
    findings = [f for r in made for f in r.safety_findings()]
    return ToolResult(
        status="proposal",
        text=text,
        proposal_id=ids[0],
        data={**made[0].json_data(), "proposal_ids": ids, "safety_findings": findings},
    )


def brief(results: list[ToolResult]) -> str:
    """One line per card (its title) and each refusal's sentence: a plan's answer lists its
    orders without repeating every field the cards show."""
    lines, lang = [], answer_language()
    for r in results:
        title = (
            (r.json_data().get("summary") or {}).get("title") if r.status == "proposal" else None
        )
        lines.append(say(message(N_("Proposed, awaiting your approval (nothing written yet): "
                                    "%(title)s."), title=reread(title, lang)), lang)
                     if title else r.text)
    return "\n".join(lines)


def site_zone(ctx: ToolContext) -> str:
    return str(setting(ctx.config, "SITE_TIMEZONE"))


def service_request(
    ctx: ToolContext,
    code: dict[str, Any],
    category: dict[str, str],
    priority: str | None,
    at: when.When | None = None,
    reason: str | None = None,
    note: str | None = None,
) -> dict[str, Any]:
    """An active ServiceRequest (intent order) for the patient in context, authored now."""
    resource: dict[str, Any] = {
        "resourceType": "ServiceRequest", "status": "active", "intent": "order",
        "category": [{"coding": [category]}], "priority": priority or "routine", "code": code,
        "subject": {"reference": f"Patient/{ctx.patient_id}"}, "authoredOn": draft.now()}
    if at and at.fhir():
        resource["occurrenceDateTime"] = at.fhir()
    if reason:
        resource["reasonCode"] = [{"text": reason}]
    if note:
        resource["note"] = [{"text": note}]
    if draft.practitioner(ctx):
        resource["requester"] = draft.practitioner(ctx)
    return resource


def active_orders(ctx: ToolContext, code: dict[str, Any], what: str) -> list[SafetyFlag]:
    """An order of the same code already active on the chart (a duplicate lab order or referral),
    or that it could not be checked: never silence for a check that did not run."""
    coding = (code.get("coding") or [{}])[0]
    if ctx.scopes is None or not ctx.scopes.allows("ServiceRequest", "s"):
        return [
            flag(
                "info",
                "unchecked",
                f"Active {what} orders could not be checked (this session may not "
                "search ServiceRequest records).",
            )
        ]
    try:
        found = ctx.gateway().search(
            "ServiceRequest",
            {
                "patient": ctx.patient_id,
                "status": "active",
                "code": f"{coding['system']}|{coding['code']}",
                "_count": 5,
            },
            max_pages=1,
        )
    except errors.DocGemmaError:
        return [
            flag(
                "info",
                "unchecked",
                f"Active {what} orders could not be read, so a duplicate was not checked.",
            )
        ]
    when_said = [(r.get("occurrenceDateTime") or r.get("authoredOn") or "")[:16] for r in found]
    return (
        [
            flag(
                "warning",
                "duplicate",
                f"A {what} order is already active on the chart ({', '.join(when_said)}); "
                "this would be another one.",
            )
        ]
        if found
        else []
    )


# ------------------------------------------------------------------ lab orders
def lab_code(key: str) -> dict[str, Any]:
    test = ward_words.lab_test(key)
    return {
        "coding": [{"system": LOINC, "code": test["loinc"], "display": test["display"]}],
        "text": key,
    }


def propose_lab(ctx: ToolContext, key: str, at: when.When, priority: str | None, reason: str | None,
                protocol: list[tuple[str, str]] | None = None,
                asked: str | None = None) -> ToolResult:
    """One lab order's proposal (its card names the test, code, priority and time)."""
    test = ward_words.lab_test(key)
    resource = service_request(ctx, lab_code(key), LAB_CATEGORY, priority, at, reason)
    fields = [
        ("Test", key),
        ("Code", f"LOINC {test['loinc']} ({test['display']})"),
        ("Priority", priority or "routine"),
        ("When", at.said or "not scheduled (when the lab runs it)"),
    ]
    fields += [("Reason", reason)] if reason else []
    fields += [("Latest", latest)] if (latest := latest_result(ctx, test["loinc"])) else []
    fields += protocol or []
    title = f"Order {key}" + (f" ({at.said})" if at.said else "")
    if _pending_twin(ctx, title, priority):  # "add a serum K tomorrow at 8am" beside the recheck
        return ToolResult(status="ok", text=f"{title}: already on a card waiting for your "
                          "approval, so it was not drafted twice.", data={"ordered": []}, count=0)
    summary: ProposalSummary = {"title": title, "kind": "lab_order", "fields": fields,
                                "flags": active_orders(ctx, resource["code"], key)}
    # what it was drafted from: a follow-up changes its time (a protocol's recheck too, when
    # the follow-up names it: "make the recheck 6am instead", agent/nodes.py)
    summary["request"] = {"test": key, "when": asked, "priority": priority, "reason": reason}
    return draft.propose(ctx, "order_lab_test", resource, summary, "lab order")


def latest_result(ctx: ToolContext, loinc: str) -> str | None:
    """The chart's latest result of the test ordered, with its day ("3.4 (2026-11-10)"): "check
    his inr before tonight's dose" drafts the order, and the INR already on file (3.4, above
    range, with warfarin due) is on its card, never left for the clinician to look up. None when
    the chart holds none or cannot be searched (the card is drafted as before)."""
    if ctx.scopes is not None and not ctx.scopes.allows("Observation", "s"):
        return None
    try:
        found = ctx.gateway().search("Observation", {"patient": ctx.patient_id,
                                                     "code": f"{LOINC}|{loinc}",
                                                     "_sort": "-date", "_count": 5}, max_pages=1)
    except errors.DocGemmaError:
        return None
    # the newest that holds a result: one entered in error or cancelled is never shown as hers
    for obs in [o for o in found if o.get("status") not in labs.NO_RESULT][:1]:
        quantity = obs.get("valueQuantity") or {}
        if quantity.get("value") is None:
            return None
        unit = str(quantity.get("unit") or "")
        shown = f"{quantity['value']:g}" if isinstance(quantity["value"], float) else str(
            quantity["value"])
        unit = "" if not unit or unit.startswith("{") else f" {unit}"
        taken = str(obs.get("effectiveDateTime") or obs.get("issued") or "")[:10]
        return f"{shown}{unit}" + (f" ({taken})" if taken else "")
    return None


def _pending_twin(ctx: ToolContext, title: str, priority: str | None) -> bool:
    """The same test at the same time and priority is already on a card of the last request,
    pending ("make it urgent" re-drafts the card at another priority: no twin)."""
    if not (ctx.sid and ctx.patient_id and ctx.proposals):
        return False
    return any(c.tool == "order_lab_test" and c.title == title
               and (c.request.get("priority") or "routine") == (priority or "routine")
               for c in ctx.proposals.last_cards(ctx.sid, ctx.patient_id))


def run_order_lab(args: tool_args.LabOrderArgs, ctx: ToolContext) -> ToolResult:
    """Propose one ServiceRequest per named lab test."""
    refused = draft.refuse(args, ctx, "ServiceRequest")
    if refused:
        return refused
    order = arguments.lab_order(args.test, args.when)
    tests = order.tests
    if not tests:
        return ToolResult.failure(
            "invalid",
            f'"{args.test}" is not a lab test this site\'s order table knows '
            "(basic metabolic panel, CBC, HbA1c, serum potassium …), so nothing was "
            "ordered. Please name the test, or place the order in the EHR.",
        )
    try:
        at = when.parse(args.when, site_zone(ctx))
    except errors.DocGemmaError as exc:
        return ToolResult.failure("invalid", exc.description)
    priority = args.priority or order.priority
    # a time of "now" ("lactato agora", "NFS maintenant", "BH ahora") is a stat order: the card
    # never says "at once" beside a routine priority
    if at.said.startswith(("now", "stat")) and not priority:
        priority = "stat"
    # "INR daily for 3 days": one order a day, each its own card at the series' clock time
    days = when.series(at, when.daily_count(args.when) or 1)
    return merged([propose_lab(ctx, key, day, priority, args.reason, asked=args.when)
                   for day in days for key in tests])


# ------------------------------------------------------------------ referrals
def run_refer(args: tool_args.ReferralArgs, ctx: ToolContext) -> ToolResult:
    """Propose a referral ServiceRequest: the specialty's SNOMED CT code, the reason, and the
    clinician's text verbatim as its note."""
    refused = draft.refuse(args, ctx, "ServiceRequest")
    if refused:
        return refused
    key = arguments.specialty(args.specialty)
    if key is None:
        return ToolResult.failure(
            "invalid",
            f'"{args.specialty}" is not a specialty this site\'s referral table '
            "knows, so no referral was prepared. Please name the specialty (orthopedic "
            "surgery, cardiology, dermatology …), or place the referral in the EHR.",
        )
    spec = ward_words.specialty(key)
    coding = [{"system": SNOMED, "code": spec["code"], "display": spec["display"]}]
    if spec.get("also"):
        coding.append({"system": SNOMED, **spec["also"]})
    code = {"coding": coding, "text": spec["display"]}
    resource = service_request(
        ctx, code, REFERRAL_CATEGORY, args.priority, reason=args.reason, note=args.note
    )
    fields = [
        ("Specialty", key),
        ("Code", "; ".join(f"SNOMED CT {c['code']} ({c['display']})" for c in coding)),
        ("Priority", args.priority or "routine"),
        ("Reason", args.reason or "not stated"),
    ]
    summary: ProposalSummary = {
        "title": f"Refer to {key}" + (f" for {args.reason}" if args.reason else ""),
        "kind": "referral",
        "fields": fields,
        "flags": active_orders(ctx, code, f"{key} referral"),
        # what a follow-up ("add a note: …") drafts again, with the note it gives
        "request": {"specialty": key, "reason": args.reason, "note": args.note,
                    "priority": args.priority},
    }
    if args.note:
        summary["preview"] = args.note[:600]
    return draft.propose(ctx, "refer_patient", resource, summary, "referral")


# ------------------------------------------------------------------ vital signs
def _quantity(value: float, entry: dict[str, Any]) -> dict[str, Any]:
    shown = int(value) if float(value).is_integer() else value
    return {
        "value": shown,
        "unit": entry["unit"]["shown"],
        "system": UCUM,
        "code": entry["unit"]["code"],
    }


def observation(
    ctx: ToolContext, reading: ward_words.Reading, taken: str | None = None
) -> dict[str, Any]:
    """The vital-signs profile's Observation of ``reading`` (final), effective when it was
    ``taken`` (ISO, the site's zone), else now."""
    entry, now = reading.entry, draft.now()
    coding = [{"system": LOINC, "code": entry["loinc"], "display": entry["display"]}]
    if entry.get("also"):
        coding.append(
            {"system": LOINC, "code": entry["also"]["loinc"], "display": entry["also"]["display"]}
        )
    category = entry["category"]
    resource: dict[str, Any] = {
        "resourceType": "Observation",
        "status": "final",
        "category": [
            {
                "coding": [
                    {
                        "system": OBSERVATION_CATEGORY,
                        "code": category,
                        "display": _CATEGORY_SHOWN.get(category, "Laboratory"),
                    }
                ]
            }
        ],
        "code": {"coding": coding, "text": reading.vital},
        "subject": {"reference": f"Patient/{ctx.patient_id}"},
        "effectiveDateTime": taken or now,
        "issued": now,
    }
    if entry.get("profile"):
        resource["meta"] = {"profile": [PROFILE + entry["profile"]]}
    if entry.get("pair"):
        resource["component"] = [
            {"code": {"coding": [{"system": LOINC, "code": c["loinc"], "display": c["display"]}]},
             "valueQuantity": _quantity(v, entry)}
            for c, v in zip(entry["components"].values(), reading.values, strict=False)]
    else:
        resource["valueQuantity"] = _quantity(reading.values[0], entry)
    if draft.practitioner(ctx):
        resource["performer"] = [draft.practitioner(ctx)]
    return resource


def _said_again(at: datetime, zone: str | None) -> str:
    """The time a reading was taken as words that place it there again ("06:15", "22:00
    yesterday")."""
    clock = f"{at:%H:%M}"
    return clock if when.taken(clock, zone) == at else f"{clock} yesterday"


def run_record_vital(args: tool_args.VitalSignArgs, ctx: ToolContext) -> ToolResult:
    """Propose one Observation per reading; an implausible reading is refused, said why."""
    refused = draft.refuse(args, ctx, "Observation")
    if refused:
        return refused
    found = arguments.readings(args.reading)
    if not found:
        return ToolResult.failure(
            "invalid",
            f'No vital sign with a value was found in "{args.reading}" '
            '(e.g. "BP 150/95 mmHg", "HR 88"), so nothing was recorded.',
        )
    wrong = [w for w in map(ward_words.implausible, found) if w]
    plausible = [r for r in found if not ward_words.implausible(r)]
    if not plausible:
        return ToolResult.failure("invalid", " ".join(wrong))
    # the time as the caller read it ("06:00", "22:00 yesterday"), else the reading's own words
    at = when.taken(args.taken or args.reading, site_zone(ctx))
    # a sign said twice at two times ("CBG 3.1 at 02:30, repeat 6.4 at 02:50"): each at its own
    results = [_vital_card(ctx, r, (when.taken(r.clock, site_zone(ctx)) if r.clock else None) or at)
               for r in plausible]
    done = merged(results)
    if wrong and done.status == "proposal":  # what was not recorded is said, never dropped
        done.text = "\n".join([done.text, *wrong])
        done.data = {**done.json_data(), "notes": wrong}
    return done


def _vital_card(ctx: ToolContext, reading: ward_words.Reading, at: datetime | None) -> ToolResult:
    """One reading's card: its value (as written when converted), code and time taken."""
    said = ward_words.reading_text(reading)
    fields = [
        ("Vital sign", reading.vital),
        ("Value", said.removeprefix(reading.vital).strip()
         + (f" (written {reading.as_written()})" if reading.as_written() else "")),
        ("Code", f"LOINC {reading.entry['loinc']}"),
        ("Time taken",
         f"{at:%Y-%m-%d %H:%M} (as said)" if at else draft.now() + " (when it was said)"),
    ]
    summary: ProposalSummary = {
        "title": f"Record {said}",
        "kind": "vital_sign",
        "fields": fields,
        "flags": [],
        # what a correction ("sorry, it was 150/95") re-drafts: the reading and its time
        # (as written when converted: "2.9" corrects "3.9 mmol/L", not its 70 mg/dL)
        "request": {"reading": (f"{reading.vital} {reading.as_written()}"
                                if reading.as_written() else said),
                    "taken": _said_again(at, site_zone(ctx)) if at else None},
    }
    taken = at.isoformat(timespec="seconds") if at else None
    return draft.propose(ctx, "record_vital_sign", observation(ctx, reading, taken), summary,
                         "vital sign")


TOOLS: list[Tool] = [
    Tool(catalog.spec("order_lab_test"), run_order_lab),
    Tool(catalog.spec("record_vital_sign"), run_record_vital),
    Tool(catalog.spec("refer_patient"), run_refer),
]
