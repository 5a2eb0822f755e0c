"""Problem plans: a raised potassium, a supratherapeutic INR, a low glucose, from the chart and
a protocol.

"K is 5.6 — what's driving it and what should I do?", "INR 3.4 — plan?": the protocol is data
(``data/problem_plans.yaml``, with its source and version). The plan reads the analyte by every
code it is recorded under, names the latest value with its date, the drugs on the list that
raise it (or interact with warfarin) and the context results with their dates, then gives the
protocol's steps and proposes its orders (recheck; hold or reduce), each on its own card.

A decisive fact missing, stale or contradicted is never acted on as current: no result and no
value stated → asked; a chart value older than the protocol allows, with no value stated →
named with its date and only the recheck is proposed; a stated value that differs from the
chart's latest → both named, the clinician asked which is current, nothing proposed.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from typing import Any

from ... import errors, knowledge
from ...approval.types import ProposalSummary
from ...datafiles import safe_yaml
from ...knowledge import analytes
from .. import args as tool_args
from .. import catalog
from ..base import Tool, ToolContext, ToolResult
from ..chart import labs, records
from ..words import dosing, when
from .draft import now, practitioner, propose, refuse
from .orders import RXNORM, medication_flags
from .ward_orders import brief, merged, propose_lab, site_zone

DATA = Path(__file__).parents[1] / "data" / "problem_plans.yaml"


@lru_cache(maxsize=1)
def table() -> dict[str, Any]:
    found: dict[str, Any] = safe_yaml(DATA.read_text(encoding="utf-8"))["plans"]
    return found


def _num(value: float) -> str:
    return f"{value:g}"


def _day(r: labs.LabResult) -> str:
    return f"{r.when:%Y-%m-%d}" if r.when else "an undated result"


@dataclass(frozen=True)
class Med:
    """An active order as the plan reads it."""

    name: str  # generic
    text: str
    dosage: str
    ref: str
    resource: dict[str, Any]


def _meds(ctx: ToolContext) -> list[Med]:
    found = ctx.gateway().search(
        "MedicationRequest",
        {"patient": ctx.patient_id, "status": "active", "_count": 100},
        max_pages=1,
    )
    out = []
    for m in found:
        text = records.concept_text(m.get("medicationCodeableConcept"))
        out.append(
            Med(
                knowledge.generic(text),
                text,
                records.dosage(m.get("dosageInstruction") or []),
                f"MedicationRequest/{m.get('id')}",
                m,
            )
        )
    return out


def _series(ctx: ToolContext, name: str) -> list[labs.LabResult]:
    a = analytes.analyte(name)
    rtype, params = labs.search(a)
    obs = ctx.gateway().search(rtype, {"patient": ctx.patient_id, **params}, max_pages=1)
    return [r for r in labs.own(labs.results(obs, a), a) if r.converted and r.when]


def _band(plan: dict[str, Any], value: float) -> dict[str, Any] | None:
    return next(
        (
            b
            for b in plan["bands"]
            if b.get("at_least", -math.inf) <= value < b.get("below", math.inf)
        ),
        None,
    )


def beyond(plan: dict[str, Any], value: float) -> bool:
    """``value`` (in the analyte's unit) is past the plan's threshold: below ``low_at`` for a
    low value's plan, at or above ``high_at`` for a raised one."""
    if "low_at" in plan:
        return value < float(plan["low_at"])
    return value >= float(plan["high_at"])


def stated(plan: dict[str, Any], value: float, unit: str | None) -> tuple[float, str]:
    """The value told, in the analyte's unit, with how it was read: the unit said, else the
    first of ``stated_units`` whose ``below`` holds it ("glucose 2.9": mmol/L), else the
    analyte's own unit."""
    rows = plan.get("stated_units") or []
    row = next((r for r in rows if r["unit"] == unit), None) if unit else next(
        (r for r in rows if value < float(r["below"])), None)
    if row is None:
        return value, ""
    own = analytes.analyte(plan["analyte"]).unit
    converted = round(value * float(row["factor"]), 1)
    return converted, f"{_num(value)} {row['unit']} = {_num(converted)} {own}"


def _searched(name: str) -> str:
    return f"searched LOINC {', '.join(analytes.codes_with_family(analytes.analyte(name)))}"


# ------------------------------------------------------------------ what drives it
def contributing(plan: dict[str, Any], meds: list[Med]) -> list[str]:
    """The active drugs that raise the value (by class or by name), or interact with the plan's
    drug."""
    out = []
    classes, names = (
        set(plan.get("contributing_classes") or ()),
        set(plan.get("contributing_drugs") or ()),
    )
    for m in meds:
        hit = classes & set(knowledge.drug_classes(m.name)) or {n for n in names if n in m.name}
        if hit:
            out.append(f"{m.text} ({m.dosage or 'dose not stated'}) [{m.ref}]")
    drug = str(plan.get("drug") or "")
    for m in meds if drug else []:
        found = [] if drug in m.name else knowledge.interactions([drug], with_=m.name.split("/"))
        if found:
            out.append(f"{m.text} [{m.ref}]: {found[0].severity.upper()} interaction with {drug}")
    return out


def context_results(ctx: ToolContext, plan: dict[str, Any]) -> list[str]:
    lines = []
    for name in plan.get("results") or ():
        found = _series(ctx, name)
        if not found:
            lines.append(f"{name}: none on file ({_searched(name)})")
            continue
        trend = ", ".join(f"{r.text()} ({_day(r)})" for r in reversed(found[:4]))
        lines.append(f"{name}: {trend} [{found[0].ref}]")
    return lines


# ------------------------------------------------------------------ the tool
def run_plan(args: tool_args.ProblemPlanArgs, ctx: ToolContext) -> ToolResult:
    refused = refuse(args, ctx, "ServiceRequest")
    if refused:
        return refused
    plan = table()[args.problem]
    try:
        found, meds = _series(ctx, plan["analyte"]), _meds(ctx)
        context = context_results(ctx, plan)
    except errors.DocGemmaError:
        return ToolResult.failure(
            "unreachable",
            f"The chart could not be read, so no {plan['title'].lower()} "
            "plan was made and nothing was proposed.",
        )
    head = f"{plan['title']} — protocol: {plan['source']} (version {plan['version']})."
    if args.bleeding and "bleeding" in plan:
        return _bleeding(plan, found[0] if found else None, args.stated_value)
    latest, name = (found[0] if found else None), plan["analyte"]
    told, read_as = (stated(plan, args.stated_value, args.stated_unit)
                     if args.stated_value is not None else (None, ""))
    now = datetime.now(UTC)
    if latest is None and told is None:
        return _asked(
            f"{head}\nNo {name} result on file ({_searched(name)}) and no value was given: "
            f"what is the current {name}? Nothing was proposed."
        )
    chart = (
        f"the chart's latest {name} is {latest.text()} on {_day(latest)} [{latest.ref}]"
        if latest
        else f"no {name} result is on file ({_searched(name)})"
    )
    if (
        latest is not None
        and told is not None
        and not plan.get("told_is_current")
        and abs(latest.value - told) > plan["agree_within"]
    ):
        return _asked(f"{head}\nYou said {name} {_num(told)}, but {chart}. Which is current? If "
                      f"{_num(told)} is a newer result, please record it or confirm it; nothing "
                      "was proposed until the value is confirmed.")
    age = (now - latest.when).days if latest and latest.when else None
    stale = age is not None and (age > plan["stale_days"] if plan["stale_days"] else
                                 latest is not None and latest.when is not None
                                 and latest.when.date() < now.date())
    if told is None and latest is not None and stale:
        return _stale(ctx, plan, head, chart, age or 0)
    value = told if told is not None else (latest.value if latest else 0.0)
    basis = (f"Value used: {name} {read_as or _num(value)} as you stated; {chart}"
             + (f" ({age} days ago)" if stale else "") + ".")
    return _act(ctx, plan, args, head, basis, value, meds, context)


def _bleeding(plan: dict[str, Any], latest: labs.LabResult | None,
              stated: float | None) -> ToolResult:
    """Bleeding said with the result: the source's bleeding plan, said and never carded, and
    not the no-bleeding bands (whatever value is stated or on file)."""
    name, rule = plan["analyte"], plan["bleeding"]
    said = f"{name} {_num(stated)} as you stated" if stated is not None else f"no {name} stated"
    chart = f"chart: {latest.text()} on {_day(latest)}" if latest else f"no {name} on file"
    steps = "\n".join(f"- {step}" for step in rule["steps"])
    return _asked(f"{plan['title']} with bleeding — protocol: {rule['source']} "
                  f"(version {plan['version']}).\nBleeding is said ({said}; {chart}): the plan "
                  f"for a raised {name} without bleeding does not apply.\n{steps}\nNothing was "
                  "proposed: this is urgent care, not an order to approve.")


def _asked(text: str) -> ToolResult:
    return ToolResult(status="ok", text=text, data={"asked": True, "proposal_ids": []}, count=0)


def _stale(ctx: ToolContext, plan: dict[str, Any], head: str, chart: str, age: int) -> ToolResult:
    """Named with its date; only a recheck to obtain a current value is proposed."""
    rc = plan["bands"][0].get("recheck")
    allowed = (f"older than the {plan['stale_days']} days the protocol allows"
               if plan["stale_days"] else "not today's")
    text = (f"{head}\n{chart[0].upper()}{chart[1:]}, {age} days ago: {allowed}, so it is not "
            "acted on as current. What is today's value?")
    if rc is None:  # bedside treatment: the value is asked, nothing is carded
        return _asked(f"{text} Nothing was proposed.")
    text += " A recheck is proposed."
    made = propose_lab(ctx, rc["test"], when.parse("now", site_zone(ctx)), rc.get("priority"),
                       f"{plan['title']}: last value stale ({age} days)")
    made.text = f"{text}\n{brief([made])}"
    return made


def _act(
    ctx: ToolContext,
    plan: dict[str, Any],
    args: tool_args.ProblemPlanArgs,
    head: str,
    basis: str,
    value: float,
    meds: list[Med],
    context: list[str],
) -> ToolResult:
    name = plan["analyte"]
    band = _band(plan, value)
    drivers = contributing(plan, meds)
    lines = [head, basis]
    moves = "lower" if "low_at" in plan else "raise"
    lines.append("Contributing drugs on the list: " + ("; ".join(drivers) if drivers else
                 f"none of the active medications is known to {moves} it "
                 f"({', '.join(m.text for m in meds) or 'none'})"))
    lines += [f"Context: {c}" for c in context]
    if plan.get("do_not_start"):
        lines.append(f"Do not start: {', '.join(plan['do_not_start'])}.")
    if band is None or not beyond(plan, value):
        unit = analytes.analyte(name).unit
        side = (f"below the protocol's threshold ({_num(plan['low_at'])} {unit}); no plan for "
                f"a raised {name.lower()} is held here" if "low_at" in plan
                else f"above the protocol's threshold ({_num(plan['high_at'])})")
        lines.append(f"{name} {_num(value)} {unit if 'low_at' in plan else ''}".rstrip()
                     + f" is not {side}, so no orders are proposed.")
        return _asked("\n".join(lines))
    lines.append(f"Protocol band: {band['name']}. Steps: " + "; ".join(band["steps"]) + ".")
    rc = band.get("recheck")
    if rc is None:  # bedside treatment, the clinician's to give: nothing is carded
        lines.append("Nothing was proposed: these steps are bedside treatment.")
        return _asked("\n".join(lines))
    fields = [("Protocol", f"{plan['title']} ({plan['source']}, version {plan['version']})"),
              ("Based on", basis)]
    results = [
        propose_lab(
            ctx,
            rc["test"],
            when.parse(rc["when"], site_zone(ctx)),
            rc.get("priority"),
            f"{plan['title']}: recheck after {name} {_num(value)}",
            fields,
        )
    ]
    if band.get("hold"):
        results += [_hold(ctx, m, plan, fields) for m in meds if any(m.ref in d for d in drivers)]
    if plan.get("drug"):
        target = next((m for m in meds if plan["drug"] in m.name), None)
        if target is None:
            lines.append(
                f"No active {plan['drug']} order was found, so no dose change is proposed."
            )
        else:
            results.append(_reduce(ctx, target, band, plan, fields))
    done = merged(results)
    done.text = "\n".join(lines) + "\n" + brief(results)
    return done


def _order(
    ctx: ToolContext, prior: Med, text: str, dose: dict[str, Any] | None, status: str
) -> dict[str, Any]:
    inst: dict[str, Any] = {"text": text}
    old = (prior.resource.get("dosageInstruction") or [{}])[0]
    if old.get("route"):
        inst["route"] = old["route"]
    if dose:
        inst["doseAndRate"] = [{"doseQuantity": dose}]
        inst["timing"] = old.get("timing") or {
            "repeat": {"frequency": 1, "period": 1, "periodUnit": "d"}
        }
    resource: dict[str, Any] = {
        "resourceType": "MedicationRequest",
        "status": status,
        "intent": "order",
        "medicationCodeableConcept": prior.resource.get("medicationCodeableConcept")
        or {"text": prior.text},
        "subject": {"reference": f"Patient/{ctx.patient_id}"},
        "authoredOn": now(),
        "priorPrescription": {"reference": prior.ref},
        "dosageInstruction": [inst],
    }
    if practitioner(ctx):
        resource["requester"] = practitioner(ctx)
    return resource


def _hold(
    ctx: ToolContext, m: Med, plan: dict[str, Any], fields: list[tuple[str, str]]
) -> ToolResult:
    text = f"Hold {m.text} until the {plan['analyte'].lower()} is rechecked"
    resource = _order(ctx, m, text, None, "on-hold")
    summary: ProposalSummary = {
        "title": f"Hold {m.text}",
        "kind": "medication",
        "fields": [
            ("Medication", m.text),
            ("Replaces", f"{m.ref} ({m.dosage})"),
            ("Instruction", text),
        ]
        + fields,
        "flags": [],
    }
    return propose(ctx, "plan_problem", resource, summary, "medication hold")


def _reduce(ctx: ToolContext, m: Med, band: dict[str, Any], plan: dict[str, Any],
            fields: list[tuple[str, str]]) -> ToolResult:
    """The warfarin order at the band's reduced dose (after the doses to hold), computed from the
    current daily dose; a dose the order does not state is asked for, never guessed."""
    old = (m.resource.get("dosageInstruction") or [{}])[0]
    qty = ((old.get("doseAndRate") or [{}])[0]).get("doseQuantity") or {}
    held = band.get("hold_doses", 0)
    if held >= 99 or not qty.get("value"):
        text = f"Hold {m.text}" + (
            "" if qty.get("value") else " (the current dose is not stated on the order)"
        )
        resource = _order(ctx, m, text, None, "on-hold")
        summary: ProposalSummary = {
            "title": f"Hold {m.text}",
            "kind": "medication",
            "fields": [("Medication", m.text), ("Replaces", m.ref), ("Instruction", text)] + fields,
            "flags": [],
        }
        return propose(ctx, "plan_problem", resource, summary, "medication hold")
    daily = float(qty["value"])
    pct = band.get("reduce_percent", 0)
    new = round(daily * (1 - pct / 100) * 2) / 2  # to the nearest half milligram
    hold = f"hold {held} dose{'s' if held > 1 else ''}, then " if held else ""
    text = (f"{hold}{_num(new)} mg once daily (reduced from {_num(daily)} mg: {_num(daily * 7)} → "
            f"{_num(new * 7)} mg/week, −{pct}%)")
    dose = {"value": new, "unit": "mg", "system": dosing.UCUM, "code": "mg"}
    resource = _order(ctx, m, text, dose, "active")
    coding = next(
        (
            c
            for c in resource["medicationCodeableConcept"].get("coding") or []
            if c.get("system") == RXNORM
        ),
        None,
    )
    flags = medication_flags(ctx, m.text, resource["dosageInstruction"][0])
    summary = {
        "title": f"{'Hold, then reduce' if held else 'Reduce'} {plan['drug']} "
        f"to {_num(new)} mg daily",
        "kind": "medication",
        "fields": [
            ("Medication", m.text),
            ("New dose", text),
            ("Replaces", f"{m.ref} ({m.dosage})"),
            ("Code", f"RxNorm {coding['code']}" if coding else "as on the current order"),
        ]
        + fields,
        "flags": flags,
    }
    return propose(ctx, "plan_problem", resource, summary, "dose change")


TOOLS: list[Tool] = [Tool(catalog.spec("plan_problem"), run_plan)]
