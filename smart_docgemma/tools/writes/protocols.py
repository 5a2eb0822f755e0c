"""Order protocols as data: check the latest result, apply the site's rule, propose the orders.

"Check her magnesium; if low, replace per protocol", "K low? replace per protocol and recheck
tomorrow morning", "last HbA1c, and reorder it if older than a year": the protocol
(``data/protocols.yaml``, or the site's file named by ``PROTOCOLS_FILE``) names its analyte's
LOINC codes, unit, window and rule. The latest result is read from the chart with its date; a
protocol that cannot read it orders nothing and says so (never "nothing found" for a check that
did not run). A normal value, or no result in the window, orders nothing, said in one sentence.
Otherwise each order is its own proposal, on its own card, each card naming the protocol, its
source and version and the result it was based on; a medication order goes through the same
patient-safety check as any prescription (``orders.medication_flags``).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from pathlib import Path
from typing import Any

from ... import errors
from ...approval.types import ProposalSummary
from ...config import setting
from ...datafiles import safe_yaml
from ...knowledge import analytes
from ...languages import fold
from .. import args as tool_args
from .. import catalog
from ..base import Tool, ToolContext, ToolResult
from ..chart import labs
from ..words import dosing, when
from . import draft
from .orders import RXNORM, medication_flags
from .ward_orders import merged, propose_lab, site_zone

DEFAULT = Path(__file__).parents[1] / "data" / "protocols.yaml"


@lru_cache(maxsize=4)
def load(path: str) -> dict[str, Any]:
    """The protocols of a protocol file (the shape of ``data/protocols.yaml``), by name."""
    data: dict[str, Any] = safe_yaml(Path(path).read_text(encoding="utf-8"))["protocols"]
    return data


def protocols(ctx: ToolContext) -> dict[str, Any]:
    """The site's protocols: its own file when ``PROTOCOLS_FILE`` names one, else the shipped
    ones."""
    return load(str(setting(ctx.config, "PROTOCOLS_FILE") or DEFAULT))


def find(name: str, table: dict[str, Any]) -> str | None:
    """The protocol a name or an analyte word stands for ("potassium", "K", "magnesium_iv")."""
    low = " ".join(fold(name).lower().replace("_", " ").split())
    for key, p in table.items():
        if low in (
            key.replace("_", " "),
            p["title"].lower(),
            p["analyte"].lower(),
            *map(str.lower, p["words"]),
        ):
            return str(key)
    return None


def said(result: labs.LabResult, tz: str) -> str:
    """"1.3 mg/dL on 2026-11-27 07:10 (EST)", the time in the site's zone."""
    local = result.when.astimezone(when.zone(tz)) if result.when else None
    return result.text() + (
        f" on {local:%Y-%m-%d %H:%M} ({local.tzname()})" if local else " (no time recorded)"
    )


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.2f}".rstrip("0").rstrip(".")


def reading(ctx: ToolContext, protocol: dict[str, Any]) -> labs.Reading:
    """The newest result of the protocol's analyte in its window (any of the analyte table's
    codes, in its unit: ``tools/chart/labs.py``) and the last one before; raises the gateway's
    errors."""
    hours = protocol.get("window_hours")
    return labs.latest(ctx.gateway(), ctx.patient_id or "", protocol["analyte"],
                       within=timedelta(hours=hours) if hours else None)


def _header(protocol: dict[str, Any]) -> list[tuple[str, str]]:
    return [
        ("Protocol", f"{protocol['title']} (version {protocol['version']})"),
        ("Source", protocol["source"]),
    ]


# ------------------------------------------------------------------ the tool
def run_apply_protocol(args: tool_args.ProtocolArgs, ctx: ToolContext) -> ToolResult:
    table = protocols(ctx)
    key = find(args.protocol, table)
    if key is None:
        return ToolResult.failure(
            "invalid",
            f'No site protocol for "{args.protocol}" (this site has: '
            f"{', '.join(p['title'] for p in table.values())}), so nothing was ordered.",
        )
    protocol = _asked_window(table[key], args)
    needs = (
        ("MedicationRequest", "ServiceRequest")
        if protocol["kind"] == "replace"
        else ("ServiceRequest",)
    )
    for rtype in needs:
        refused = draft.refuse(args, ctx, rtype)
        if refused:
            return refused
    if protocol["analyte"] not in analytes.names():
        return ToolResult.failure(
            "invalid",
            f"The {protocol['title']} protocol names the analyte "
            f'"{protocol["analyte"]}", which the analyte table lacks, so nothing was ordered.',
        )
    try:
        last = reading(ctx, protocol)
    except errors.DocGemmaError:
        return ToolResult.failure(
            "unreachable",
            f"The {protocol['analyte']} results could not be read, so the "
            f"{protocol['title']} protocol was not applied and nothing was ordered.",
        )
    if last.analyte.unit != protocol["unit"]:  # a site file written in another unit: never compared
        return ToolResult.failure(
            "invalid",
            f"The {protocol['title']} protocol is written in {protocol['unit']} but "
            f"{last.analyte.name} results are read in {last.analyte.unit}, so it was not "
            "applied and nothing was ordered.",
        )
    tz = site_zone(ctx)
    if protocol["kind"] == "reorder":  # an interval the clinician said replaces the protocol's
        asked = (
            {**protocol, "interval_days": args.older_than_days}
            if args.older_than_days
            else protocol
        )
        return _reorder(ctx, asked, last.result, tz)
    if args.stated_value is not None and last.result is None:
        # "K 3.2 on the gas - K protocol": no result in the window, the one stated is used
        return _replace_stated(ctx, _asked_recheck(protocol, args), last,
                               Said(args.stated_value, args.stated_unit), tz)
    return _replace(ctx, _asked_recheck(protocol, args), last, tz)


def _asked_recheck(protocol: dict[str, Any], args: tool_args.ProtocolArgs) -> dict[str, Any]:
    """A time the clinician said for the paired recheck ("redraw tomorrow at 6am", "recheck in
    2h") replaces the protocol's own; words that name no time leave it. A recheck refused ("no
    recheck needed") is not drafted."""
    recheck = protocol.get("recheck")
    if recheck and args.without_recheck:
        return {k: v for k, v in protocol.items() if k != "recheck"}
    if not recheck or not args.recheck_when or when.parse(args.recheck_when, None).at is None:
        return protocol
    return {**protocol, "recheck": {**recheck, "when": args.recheck_when}}


def _asked_window(protocol: dict[str, Any], args: tool_args.ProtocolArgs) -> dict[str, Any]:
    """A window the clinician said ("if K under 3.5 in the last 24h") replaces the protocol's:
    a result older than it is no reason to replace."""
    if protocol["kind"] != "replace" or not args.within_hours:
        return protocol
    return {**protocol, "window_hours": args.within_hours}


def _nothing(text: str, last: labs.LabResult | None) -> ToolResult:
    return ToolResult(
        status="ok", text=text, data={"ordered": [], "latest": last.ref if last else None}, count=0
    )


def _searched(protocol: dict[str, Any]) -> str:
    return f"searched LOINC {', '.join(analytes.analyte(protocol['analyte']).codes)}"


def _reorder(
    ctx: ToolContext, protocol: dict[str, Any], last: labs.LabResult | None, tz: str
) -> ToolResult:
    """Order the test when the last result is older than the interval, or there is none."""
    days = protocol["interval_days"]
    name = protocol["analyte"]
    if last and last.when and datetime.now(UTC) - last.when <= timedelta(days=days):
        return _nothing(
            f"The last {name} is {said(last, tz)}, within {days} days, so per the "
            f"{protocol['title']} protocol (version {protocol['version']}) no new test is ordered.",
            last,
        )
    why = (f"The last {name} is {said(last, tz)}, more than {days} days ago" if last
           else f"There is no {name} result in the chart ({_searched(protocol)})")
    fields = _header(protocol) + [("Based on", why)]
    result = propose_lab(ctx, protocol["order"]["test"], when.When(None, ""), None,
                         f"{protocol['title']}: {why}", fields)
    result.text = (
        f"{why}; per the {protocol['title']} protocol a new test is proposed.\n{result.text}"
    )
    return result


def _replace(
    ctx: ToolContext, protocol: dict[str, Any], found: labs.Reading, tz: str
) -> ToolResult:
    """A low result in the window gets the protocol's dose and the paired recheck."""
    name, hours = protocol["analyte"].lower(), protocol["window_hours"]
    title = f"{protocol['title']} protocol (version {protocol['version']})"
    last, before = found.result, found.before
    if last is None and before is None:
        return _nothing(
            f"There is no {name} result in the chart ({_searched(protocol)}), so per the {title} "
            "nothing is ordered.",
            None,
        )
    if last is None and before is not None:
        return _nothing(
            f"No {name} result in the last {hours} hours (the last was {said(before, tz)}), "
            f"so per the {title} nothing is ordered.",
            before,
        )
    assert last is not None
    if last.value >= protocol["low_below"]:
        return _nothing(
            f"The latest {name} is {said(last, tz)}, not below {_num(protocol['low_below'])} "
            f"{protocol['unit']}, so per the {title} nothing is ordered.",
            last,
        )
    done = _order(ctx, protocol, last.value, f"{name} {said(last, tz)} (within {hours} h)", tz)
    done.text = f"The latest {name} is {said(last, tz)}: low, so per the {title}:\n{done.text}"
    return done


def _order(ctx: ToolContext, protocol: dict[str, Any], value: float, based_on: str,
           tz: str) -> ToolResult:
    """The protocol's dose for ``value`` and its paired recheck, each a card."""
    dose, hours_over = _dose(protocol, value)
    fields = _header(protocol) + [("Based on", based_on)]
    results = [_medication(ctx, protocol, dose, hours_over, fields)]
    recheck = protocol.get("recheck")
    if recheck and results[0].status == "proposal":
        at = when.parse(recheck["when"], tz)
        results.append(
            propose_lab(
                ctx, recheck["test"], at, None, f"Recheck after {protocol['title']}", fields,
                asked=recheck["when"],
            )
        )
    return merged(results)


@dataclass(frozen=True)
class Said:
    """A result the clinician stated: its value, and its unit when one was said."""

    value: float
    unit: str | None = None


def _replace_stated(ctx: ToolContext, protocol: dict[str, Any], found: labs.Reading,
                    told: Said, tz: str) -> ToolResult:
    """A result the clinician stated, none in the chart's window: the protocol's dose for it,
    said as stated, when its unit cannot be mistaken (potassium: mmol/L and mEq/L are one; a
    unit said with it, "Mg 0.5 mmol/L", converted); an analyte reported in units that differ,
    said with no unit ("Mg 0.5": mmol/L or mg/dL), is never guessed."""
    name = protocol["analyte"].lower()
    title = f"{protocol['title']} protocol (version {protocol['version']})"
    charted = (f" (the chart's last was {said(found.before, tz)})" if found.before
               else f" (none in the chart: {_searched(protocol)})")
    value = told.value
    if told.unit:
        converted = analytes.convert(told.value, told.unit, found.analyte)
        if converted is None:
            return _nothing(f"You stated {name} {_num(told.value)} {told.unit}, a unit the "
                            f"{title} cannot convert from, so nothing is ordered from it.",
                            found.before)
        value = round(converted, 2)
    elif any(tuple(c) != (1, 0) for c in found.analyte.convert.values()):
        return _nothing(
            f"You stated {name} {_num(value)} with no unit, and {name} is reported in more than "
            f"one unit ({protocol['unit']} in this protocol){charted}, so per the {title} nothing "
            "is ordered from it: record the result with its unit, or order the replacement "
            "directly.", found.before)
    before = found.before
    if before is not None and abs(before.value - value) > 1e-9:
        # as a problem's plan does: a stated value the chart contradicts is confirmed first
        return _nothing(
            f"You said {name} {_num(value)}, but the chart's latest {name} is "
            f"{said(before, tz)}. Which is current? If {_num(value)} is a newer result, record "
            f"it and ask again; per the {title} nothing was ordered until the value is in the "
            "chart.", before)
    stated = f"{name} {_num(value)} {protocol['unit']} as you stated, not a charted result"
    if told.unit and value != told.value:
        stated = (f"{name} {_num(told.value)} {told.unit} ({_num(value)} {protocol['unit']}) as "
                  "you stated, not a charted result")
    if value >= protocol["low_below"]:
        return _nothing(f"The {stated}{charted} is not below {_num(protocol['low_below'])} "
                        f"{protocol['unit']}, so per the {title} nothing is ordered.", found.before)
    done = _order(ctx, protocol, value, stated, tz)
    done.text = (f"The {stated}{charted}: low, so per the {title} (record the result itself "
                 f"to chart it):\n{done.text}")
    return done


def _dose(protocol: dict[str, Any], value: float) -> tuple[float, float | None]:
    """The dose (and infusion hours) the protocol gives for ``value``."""
    step = protocol.get("per_step")
    if step:
        steps = math.ceil(round((step["below"] - value) / step["step"], 6))
        return steps * step["dose"], None
    for tier in protocol["tiers"]:
        if value >= tier.get("at_least", -math.inf) and value < tier.get("below", math.inf) \
                and value <= tier.get("at_most", math.inf):
            return tier["dose"], tier.get("duration_hours")
    # between the top tier's at_most and low_below (1.95): the mildest dose
    tier = protocol["tiers"][0]
    return tier["dose"], tier.get("duration_hours")


def _medication(ctx: ToolContext, protocol: dict[str, Any], dose: float, hours: float | None,
                fields: list[tuple[str, str]]) -> ToolResult:
    med = protocol["medication"]
    unit_shown = {"meq": "mEq"}.get(med["unit"], med["unit"])
    quantity = {"value": dose, "unit": unit_shown, "system": dosing.UCUM, "code": med["unit"]}
    route = dosing.route_coding(med["route"])
    text = f"{_num(dose)} {unit_shown} {route['text'].lower()}" + (
        f" over {_num(hours)} h" if hours else " once"
    )
    dose_rate: dict[str, Any] = {"doseQuantity": quantity}
    repeat: dict[str, Any] = {"count": 1}
    if hours:
        dose_rate["rateQuantity"] = {
            "value": round(dose / hours, 3),
            "unit": f"{unit_shown}/h",
            "system": dosing.UCUM,
            "code": f"{med['unit']}/h",
        }
        repeat.update({"duration": hours, "durationUnit": "h"})
    inst = {"text": text, "timing": {"repeat": repeat}, "route": route, "doseAndRate": [dose_rate]}
    resource: dict[str, Any] = {
        "resourceType": "MedicationRequest",
        "status": "active",
        "intent": "order",
        "medicationCodeableConcept": {
            "coding": [{"system": RXNORM, "code": med["rxnorm"], "display": med["display"]}],
            "text": med["text"],
        },
        "subject": {"reference": f"Patient/{ctx.patient_id}"},
        "authoredOn": draft.now(),
        "dosageInstruction": [inst],
    }
    if draft.practitioner(ctx):
        resource["requester"] = draft.practitioner(ctx)
    flags = medication_flags(ctx, med["text"], inst)
    if protocol.get("warn_above") and dose > protocol["warn_above"]:
        flags.append({"severity": "warning", "kind": "dose", "text": (
            f"{_num(dose)} {unit_shown} is above {protocol['warn_above']} {unit_shown} in one oral "
            "dose; consider splitting it.")})
    rows = [
        ("Medication", med["text"]),
        ("Dose", f"{_num(dose)} {unit_shown}"),
        ("Route", route["text"]),
    ]
    rows += (
        [("Infusion", f"over {_num(hours)} h ({_num(dose / hours)} {unit_shown}/h)")]
        if hours
        else []
    )
    rows += [("Code", f"RxNorm {med['rxnorm']} ({med['display']})")]
    summary: ProposalSummary = {"title": f"Give {med['text']} {text}", "kind": "medication",
                                "fields": rows + fields, "flags": flags}
    # the order's words, re-drafted by a follow-up ("make it 20 mEq"); an infusion's with its
    # time, changed only with a time said ("make it 2 g over 2 hours", agent/amendments.py)
    summary["request"] = {"medication_name": med["text"], "frequency": "once",
                          "dosage": f"{_num(dose)} {unit_shown}",
                          "notes": f"route {med['route']}" + (f"; over {_num(hours)} h"
                                                               if hours else "")}
    return draft.propose(ctx, "apply_protocol", resource, summary, "medication order")


TOOLS: list[Tool] = [Tool(catalog.spec("apply_protocol"), run_apply_protocol)]
