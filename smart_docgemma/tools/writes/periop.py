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

from ... import errors, knowledge
from ...approval.types import ProposalSummary
from ...datafiles import safe_yaml
from ...languages import N_, answer_language, fold, message, say
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
    found: dict[str, Any] = safe_yaml(DATA.read_text(encoding="utf-8"))
    return found


def surgery_date(text: str, today: date,
                 month_said: bool = False) -> tuple[date, str | None] | None:
    """The date a message names ("Tuesday 15 December", "15/12", "2026-12-15", "Dec 15"; unless
    ``month_said``, also "tomorrow", "friday", "on the 15th"): the next such date from today; with
    the weekday said when it does not match (else None)."""
    low = fold(text).lower()
    iso = re.search(r"\b(20\d\d)-(\d\d)-(\d\d)\b", low)
    if iso:
        return date(int(iso.group(1)), int(iso.group(2)), int(iso.group(3))), None
    months = {w: int(m) for m, words in table()["months"].items() for w in words}
    names = "|".join(sorted(months, key=len, reverse=True))
    m = re.search(rf"\b(\d{{1,2}})(?:st|nd|rd|th|er)?\s+(?:de\s+)?({names})\b", low) or \
        re.search(rf"\b({names})\s+(\d{{1,2}})(?:st|nd|rd|th)?\b", low)
    slash = re.search(r"\b(\d{1,2})/(\d{1,2})\b", low)
    year = None
    if m:
        day, month = (m.group(1), m.group(2)) if m.group(1).isdigit() else (m.group(2), m.group(1))
        d, mo = int(day), months[month]
        # a year written after the date ("15 December 2037", "15 de diciembre de 2037") is meant
        written = re.match(r",?\s*(?:de\s+)?(20\d\d)\b", low[m.end():])
        year = int(written.group(1)) if written else None
    elif slash:
        d, mo = int(slash.group(1)), int(slash.group(2))
    else:
        return None if month_said else _day_said_alone(low, today)
    try:
        found = date(year or today.year, mo, d)
        found = found if year or found >= today else date(today.year + 1, mo, d)
    except ValueError:
        return None
    said = next((i for i, words in enumerate(table()["weekdays"])
                 if re.search(rf"\b(?:{'|'.join(words)})\b", low)), None)
    wrong = None if said is None or said == found.weekday() else table()["weekdays"][said][0]
    return found, wrong


_TOMORROW = re.compile(r"\b(?:tomorrow|tmrw|tmr|demain|amanha|manana)\b")
# "on the 15th", "le 15", "dia 15", "el 15": a day of the month alone, the next one to come
_DAY_ALONE = re.compile(r"\b(?:on the|the|le|dia|el|day)\s+(\d{1,2})(?:st|nd|rd|th|er)?\b"
                        r"(?!\s*(?:mg|g|h|hours?|days?|jours?|dias?|x|/))")


def _day_said_alone(low: str, today: date) -> tuple[date, str | None] | None:
    """A surgery day said without its month: "tomorrow", a weekday ("surgery friday": the next
    Friday after today) or a day of the month ("on the 15th": the next 15th); None otherwise."""
    if _TOMORROW.search(low):
        return today + timedelta(days=1), None
    said = next((i for i, words in enumerate(table()["weekdays"])
                 if re.search(rf"\b(?:{'|'.join(words)})\b", low)), None)
    if said is not None:
        return today + timedelta(days=(said - today.weekday() - 1) % 7 + 1), None
    m = _DAY_ALONE.search(low)
    if not m or not 1 <= int(m.group(1)) <= 31:
        return None
    month, year = today.month, today.year
    for _ in range(3):  # the next month holding that day (the 31st skips a short month)
        try:
            found = date(year, month, int(m.group(1)))
        except ValueError:
            found = None
        if found and found >= today:
            return found, None
        month, year = (1, year + 1) if month == 12 else (month + 1, year)
    return None


def _day(d: date) -> str:
    """"Wednesday 09 December 2037 (2037-12-09)"; the weekday and month in the turn's language
    (Babel's full date) on other languages, the ISO day kept."""
    lang = answer_language()
    if lang == "en":
        return f"{d:%A %d %B %Y} ({d.isoformat()})"
    from babel.dates import format_date

    return f"{format_date(d, 'full', locale=lang)} ({d.isoformat()})"


def _weekday(d: date) -> str:
    lang = answer_language()
    if lang == "en":
        return f"{d:%A}"
    from babel.dates import format_date

    return str(format_date(d, "EEEE", locale=lang))


# the plan's first line by the procedure's bleeding risk
SURGERY = {"low": N_("Surgery on %(day)s; bleeding risk: low. Guideline: %(source)s."),
           "high": N_("Surgery on %(day)s; bleeding risk: high. Guideline: %(source)s.")}


def _say(msgid: str, **args: Any) -> str:
    """A line of the tool's text in this turn's language (English: the msgid filled)."""
    return say(message(msgid, **args), answer_language())


def _row(drug: str) -> dict[str, Any] | None:
    return next((dict(r) for k, r in table()["drugs"].items() if k in drug), None)


def run_periop(args: tool_args.PeriopArgs, ctx: ToolContext) -> ToolResult:
    refused = refuse(args, ctx, "MedicationRequest")
    if refused:
        return refused
    src = f"{table()['source']} (version {table()['version']})"
    found = surgery_date(args.surgery, datetime.now(when.zone(site_zone(ctx))).date())
    if found is None:
        return ToolResult(status="ok", text=_say(N_(
            "No surgery date could be read in \"%(said)s\": on which date is the surgery? Nothing "
            "was proposed."), said=args.surgery), data={"asked": True}, count=0)
    day, wrong = found
    if wrong:
        return ToolResult(status="ok", text=_say(N_(
            "%(day)s is a %(weekday)s, not a %(wrong)s: which date is the surgery? Nothing was "
            "proposed."), day=day.isoformat(), weekday=_weekday(day), wrong=wrong),
            data={"asked": True}, count=0)
    try:
        meds = ctx.gateway().search(
            "MedicationRequest",
            {"patient": ctx.patient_id, "status": "active", "_count": 100},
            max_pages=1,
        )
    except errors.DocGemmaError:
        return ToolResult.failure(
            "unreachable",
            "The medication list could not be read, so no peri-operative "
            "plan was made and nothing was proposed.",
        )
    lines = [_say(SURGERY[args.bleeding_risk], day=_day(day), source=src)]
    results: list[ToolResult] = []
    for m in meds:
        name = knowledge.generic(records.concept_text(m.get("medicationCodeableConcept")))
        row = _row(name)
        if row is None:
            continue
        lines.append(_plan_line(ctx, m, row, day, args.bleeding_risk, results, src))
    if len(lines) == 1:
        listed = (
            ", ".join(records.concept_text(m.get("medicationCodeableConcept")) for m in meds)
            or "none"
        )
        lines.append(
            _say(
                N_(
                    "No antithrombotic drug is on the active medication list (%(listed)s), "
                    "so nothing needs stopping."
                ),
                listed=listed,
            )
        )
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
        return _say(N_("- %(drug)s: continue — %(resume)s."), drug=drug, resume=row["resume"])
    offset = (
        row["last_dose_day"]
        if isinstance(row["last_dose_day"], int)
        else row["last_dose_day"][risk]
    )
    last = day + timedelta(days=offset)
    today = datetime.now(when.zone(site_zone(ctx))).date()
    if last < today:
        # surgery sooner than the guideline's stop: the day to stop has passed, so the plan says
        # so and holds it from today; never a hold dated in the past as if it were on time
        line = _say(N_("- %(drug)s: the last dose for this surgery should have been %(last)s, "
                       "which has passed (%(n)s full days without it are advised): hold it from "
                       "today and agree with the surgeon whether to postpone or reverse; resume "
                       "%(resume)s."), drug=drug, last=_day(last), n=-offset - 1,
                    resume=row["resume"])
        last = today - timedelta(days=1)
    else:
        line = _say(N_("- %(drug)s: last dose %(last)s (%(n)s full days without it before "
                       "surgery); resume %(resume)s."), drug=drug, last=_day(last),
                    n=-offset - 1, resume=row["resume"])
    results.append(_hold(ctx, m, drug, last, day, row, src))
    check = row.get("check")
    if check:
        at = datetime.combine(
            max(day + timedelta(days=check["day"]), today), time(8),
            tzinfo=when.zone(site_zone(ctx))
        )
        moment = when.When(at, f"{at:%Y-%m-%d} at 08:00")
        results.append(
            propose_lab(
                ctx,
                check["test"],
                moment,
                None,
                f"Before surgery on {day.isoformat()}",
                [("Guideline", src)],
            )
        )
        line += _say(N_(" Check: %(why)s, on %(day)s."), why=check["why"], day=_day(at.date()))
    return line + (f" {row['note']}" if row.get("note") else "")


def _hold(
    ctx: ToolContext,
    m: dict[str, Any],
    drug: str,
    last: date,
    day: date,
    row: dict[str, Any],
    src: str,
) -> ToolResult:
    ref = f"MedicationRequest/{m.get('id')}"
    text = (
        f"Last dose {last.isoformat()}; hold from {(last + timedelta(days=1)).isoformat()} "
        f"for surgery on {day.isoformat()}; resume {row['resume']}"
    )
    resource: dict[str, Any] = {
        "resourceType": "MedicationRequest",
        "status": "on-hold",
        "intent": "order",
        "medicationCodeableConcept": m.get("medicationCodeableConcept") or {"text": drug},
        "subject": {"reference": f"Patient/{ctx.patient_id}"},
        "authoredOn": now(),
        "priorPrescription": {"reference": ref},
        "statusReason": {"text": f"Surgery on {day.isoformat()}"},
        "dosageInstruction": [{"text": text}],
    }
    if practitioner(ctx):
        resource["requester"] = practitioner(ctx)
    summary: ProposalSummary = {
        "title": f"Hold {drug} before surgery (last dose {last.isoformat()})",
        "kind": "medication",
        "flags": [],
        "fields": [("Medication", drug), ("Order", ref), ("Instruction", text), ("Guideline", src)],
    }
    return propose(ctx, "periop_plan", resource, summary, "peri-operative hold")


TOOLS: list[Tool] = [Tool(catalog.spec("periop_plan"), run_periop)]
