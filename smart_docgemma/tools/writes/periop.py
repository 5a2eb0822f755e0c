"""A peri-operative anticoagulant plan: "surgery Tuesday 15 December — what do I stop and when?".

The guideline is data (``data/periop.yaml``, its source and version): for each antithrombotic
drug on the active list, the date of its last dose before surgery, the check before surgery (an
INR the day before for warfarin) and when it is resumed, with the dates computed from the
surgery date. A weekday that does not match the date is said and asked about, nothing proposed.
Cards: a hold per drug to stop (a ``MedicationRequest`` on-hold whose ``priorPrescription`` is the
current order, with its last-dose and resume dates) and the check before surgery (a lab
``ServiceRequest`` on its date); nothing is written before approval.
"""
from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from ... import errors, knowledge
from ...approval.types import ProposalSummary
from ...languages import fold
from .. import args as tool_args
from .. import catalog
from ..base import Tool, ToolContext, ToolResult
from ..chart import records
from ..words import when
from .draft import now, practitioner, propose, refuse
from .ward_orders import brief, merged, propose_lab, site_zone

DATA = Path(__file__).parents[1] / "data" / "periop.yaml"


@lru_cache(maxsize=1)
def table() -> dict[str, Any]:
    found: dict[str, Any] = yaml.safe_load(DATA.read_text(encoding="utf-8"))
    return found


def surgery_date(text: str, today: date) -> tuple[date, str | None] | None:
    """The date a message names ("Tuesday 15 December", "15/12", "2026-12-15", "Dec 15"): the next
    such date from today; with the weekday said when it does not match (else None)."""
    low = fold(text).lower()
    iso = re.search(r"\b(20\d\d)-(\d\d)-(\d\d)\b", low)
    if iso:
        return date(int(iso.group(1)), int(iso.group(2)), int(iso.group(3))), None
    months = {w: int(m) for m, words in table()["months"].items() for w in words}
    names = "|".join(sorted(months, key=len, reverse=True))
    m = re.search(rf"\b(\d{{1,2}})(?:st|nd|rd|th|er)?\s+(?:de\s+)?({names})\b", low) or \
        re.search(rf"\b({names})\s+(\d{{1,2}})(?:st|nd|rd|th)?\b", low)
    slash = re.search(r"\b(\d{1,2})/(\d{1,2})\b", low)
    if m:
        day, month = (m.group(1), m.group(2)) if m.group(1).isdigit() else (m.group(2), m.group(1))
        d, mo = int(day), months[month]
    elif slash:
        d, mo = int(slash.group(1)), int(slash.group(2))
    else:
        return None
    try:
        found = date(today.year, mo, d)
        found = found if found >= today else date(today.year + 1, mo, d)
    except ValueError:
        return None
    said = next((i for i, words in enumerate(table()["weekdays"])
                 if re.search(rf"\b(?:{'|'.join(words)})\b", low)), None)
    wrong = None if said is None or said == found.weekday() else table()["weekdays"][said][0]
    return found, wrong


def _day(d: date) -> str:
    return f"{d:%A %d %B %Y} ({d.isoformat()})"


def _row(drug: str) -> dict[str, Any] | None:
    return next((dict(r) for k, r in table()["drugs"].items() if k in drug), None)


def run_periop(args: tool_args.PeriopArgs, ctx: ToolContext) -> ToolResult:
    refused = refuse(args, ctx, "MedicationRequest")
    if refused:
        return refused
    src = f"{table()['source']} (version {table()['version']})"
    found = surgery_date(args.surgery, datetime.now(when.zone(site_zone(ctx))).date())
    if found is None:
        return ToolResult(status="ok", text=f"No surgery date could be read in \"{args.surgery}\": on which date "
                          "is the surgery? Nothing was proposed.", data={"asked": True}, count=0)
    day, wrong = found
    if wrong:
        return ToolResult(status="ok", text=f"{day.isoformat()} is a {day:%A}, not a {wrong}: which date is the "
                          "surgery? Nothing was proposed.", data={"asked": True}, count=0)
    try:
        meds = ctx.gateway().search("MedicationRequest", {"patient": ctx.patient_id, "status": "active",
                                                          "_count": 100}, max_pages=1)
    except errors.DocGemmaError:
        return ToolResult.failure("unreachable", "The medication list could not be read, so no peri-operative "
                                  "plan was made and nothing was proposed.")
    lines = [f"Surgery on {_day(day)}; bleeding risk: {args.bleeding_risk}. Guideline: {src}."]
    results: list[ToolResult] = []
    for m in meds:
        name = knowledge.generic(records.concept_text(m.get("medicationCodeableConcept")))
        row = _row(name)
        if row is None:
            continue
        lines.append(_plan_line(ctx, m, row, day, args.bleeding_risk, results, src))
    if len(lines) == 1:
        listed = ", ".join(records.concept_text(m.get("medicationCodeableConcept")) for m in meds) or "none"
        lines.append(f"No antithrombotic drug is on the active medication list ({listed}), so nothing needs stopping.")
        return ToolResult(status="ok", text="\n".join(lines), data={"proposal_ids": []}, count=0)
    if not results:
        return ToolResult(status="ok", text="\n".join(lines), data={"proposal_ids": []}, count=0)
    done = merged(results)
    done.text = "\n".join(lines) + "\n" + brief(results)
    return done


def _plan_line(ctx: ToolContext, m: dict[str, Any], row: dict[str, Any], day: date, risk: str,
               results: list[ToolResult], src: str) -> str:
    drug = records.concept_text(m.get("medicationCodeableConcept"))
    if row.get("continue"):
        return f"- {drug}: continue — {row['resume']}."
    offset = row["last_dose_day"] if isinstance(row["last_dose_day"], int) else row["last_dose_day"][risk]
    last = day + timedelta(days=offset)
    line = (f"- {drug}: last dose {_day(last)} ({-offset - 1} full days without it before surgery); "
            f"resume {row['resume']}.")
    results.append(_hold(ctx, m, drug, last, day, row, src))
    check = row.get("check")
    if check:
        at = datetime.combine(day + timedelta(days=check["day"]), time(8), tzinfo=when.zone(site_zone(ctx)))
        moment = when.When(at, f"{at:%Y-%m-%d} at 08:00")
        results.append(propose_lab(ctx, check["test"], moment, None, f"Before surgery on {day.isoformat()}",
                                   [("Guideline", src)]))
        line += f" Check: {check['why']}, on {_day(at.date())}."
    return line + (f" {row['note']}" if row.get("note") else "")


def _hold(ctx: ToolContext, m: dict[str, Any], drug: str, last: date, day: date, row: dict[str, Any],
          src: str) -> ToolResult:
    ref = f"MedicationRequest/{m.get('id')}"
    text = f"Last dose {last.isoformat()}; hold from {(last + timedelta(days=1)).isoformat()} for surgery on " \
           f"{day.isoformat()}; resume {row['resume']}"
    resource: dict[str, Any] = {
        "resourceType": "MedicationRequest", "status": "on-hold", "intent": "order",
        "medicationCodeableConcept": m.get("medicationCodeableConcept") or {"text": drug},
        "subject": {"reference": f"Patient/{ctx.patient_id}"}, "authoredOn": now(),
        "priorPrescription": {"reference": ref}, "statusReason": {"text": f"Surgery on {day.isoformat()}"},
        "dosageInstruction": [{"text": text}]}
    if practitioner(ctx):
        resource["requester"] = practitioner(ctx)
    summary: ProposalSummary = {"title": f"Hold {drug} before surgery (last dose {last.isoformat()})",
                                "kind": "medication", "flags": [],
                                "fields": [("Medication", drug), ("Order", ref), ("Instruction", text),
                                           ("Guideline", src)]}
    return propose(ctx, "periop_plan", resource, summary, "peri-operative hold")


TOOLS: list[Tool] = [Tool(catalog.spec("periop_plan"), run_periop)]
