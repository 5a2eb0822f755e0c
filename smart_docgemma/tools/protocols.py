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

from typing import Any

import math
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from functools import lru_cache
from pathlib import Path

import yaml

from .. import errors
from ..config import setting
from ..languages import fold
from ..proposals.store import ProposalSummary
from . import args as tool_args
from . import catalog, dosing, when
from .base import Tool, ToolContext, ToolResult
from .orders import LOINC, RXNORM, _now, _practitioner, _propose, _refusal, medication_flags
from .ward_orders import merged, propose_lab, site_zone

DEFAULT = Path(__file__).with_name("data") / "protocols.yaml"


@lru_cache(maxsize=4)
def _load(path: str) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(Path(path).read_text(encoding="utf-8"))["protocols"]
    return data


def protocols(ctx: ToolContext) -> dict[str, Any]:
    """The site's protocols: its own file when ``PROTOCOLS_FILE`` names one, else the shipped ones."""
    return _load(str(setting(ctx.config, "PROTOCOLS_FILE") or DEFAULT))


def find(name: str, table: dict[str, Any]) -> str | None:
    """The protocol a name or an analyte word stands for ("potassium", "K", "magnesium_iv")."""
    low = " ".join(fold(name).lower().replace("_", " ").split())
    for key, p in table.items():
        if low in (key.replace("_", " "), p["title"].lower(), p["analyte"].lower(), *map(str.lower, p["words"])):
            return str(key)
    return None


@dataclass(frozen=True)
class Result:
    """One result of the analyte, in the protocol's unit."""

    value: float
    unit: str
    at: datetime
    code: str

    def said(self, tz: str) -> str:
        local = self.at.astimezone(when.zone(tz))
        return f"{_num(self.value)} {self.unit} on {local:%Y-%m-%d %H:%M} ({local.tzname()})"


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.2f}".rstrip("0").rstrip(".")


def latest(ctx: ToolContext, protocol: dict[str, Any]) -> Result | None:
    """The newest result of the protocol's analyte with a value (any of its LOINC codes), in
    the protocol's unit; raises ``UpstreamError`` when the chart cannot be read."""
    codes = ",".join(f"{LOINC}|{c}" for c in protocol["loinc"])
    found = ctx.gateway().search("Observation", {"patient": ctx.patient_id, "code": codes, "_sort": "-date",
                                                 "_count": 20}, max_pages=1)
    results = [r for r in map(lambda o: _result(o, protocol), found) if r]
    return max(results, key=lambda r: r.at) if results else None


def _result(obs: dict[str, Any], protocol: dict[str, Any]) -> Result | None:
    q, at = obs.get("valueQuantity") or {}, obs.get("effectiveDateTime") or obs.get("issued")
    if q.get("value") is None or not at or obs.get("status") in ("entered-in-error", "cancelled"):
        return None
    unit = str(q.get("unit") or q.get("code") or protocol["unit"])
    factor = 1.0 if unit.lower() == protocol["unit"].lower() else protocol["convert"].get(unit.lower())
    if factor is None:
        return None  # a unit the protocol cannot convert is not compared (the card would mislead)
    moment = datetime.fromisoformat(at.replace("Z", "+00:00"))
    moment = moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)
    code = next((c.get("code") for c in (obs.get("code") or {}).get("coding") or []), "")
    return Result(round(float(q["value"]) * factor, 3), protocol["unit"], moment, str(code))


def _header(protocol: dict[str, Any]) -> list[tuple[str, str]]:
    return [("Protocol", f"{protocol['title']} (version {protocol['version']})"), ("Source", protocol["source"])]


# ------------------------------------------------------------------ the tool
def run_apply_protocol(args: tool_args.ProtocolArgs, ctx: ToolContext) -> ToolResult:
    table = protocols(ctx)
    key = find(args.protocol, table)
    if key is None:
        return ToolResult.failure("invalid", f"No site protocol for \"{args.protocol}\" (this site has: "
                                  f"{', '.join(p['title'] for p in table.values())}), so nothing was ordered.")
    protocol = table[key]
    needs = ("MedicationRequest", "ServiceRequest") if protocol["kind"] == "replace" else ("ServiceRequest",)
    for rtype in needs:
        refused = _refusal(args, ctx, rtype)
        if refused:
            return refused
    try:
        last = latest(ctx, protocol)
    except errors.DocGemmaError:
        return ToolResult.failure("unreachable", f"The {protocol['analyte']} results could not be read, so the "
                                  f"{protocol['title']} protocol was not applied and nothing was ordered.")
    tz = site_zone(ctx)
    apply = _reorder if protocol["kind"] == "reorder" else _replace
    return apply(ctx, protocol, last, tz)


def _nothing(text: str, last: Result | None) -> ToolResult:
    return ToolResult(status="ok", text=text, data={"ordered": [], "latest": last.said("UTC") if last else None},
                      count=0)


def _searched(protocol: dict[str, Any]) -> str:
    return f"searched LOINC {', '.join(protocol['loinc'])}"


def _reorder(ctx: ToolContext, protocol: dict[str, Any], last: Result | None, tz: str) -> ToolResult:
    """Order the test when the last result is older than the interval, or there is none."""
    days = protocol["interval_days"]
    name = protocol["analyte"]
    if last and datetime.now(timezone.utc) - last.at <= timedelta(days=days):
        return _nothing(f"The last {name} is {last.said(tz)}, within {days} days, so per the "
                        f"{protocol['title']} protocol (version {protocol['version']}) no new test is ordered.", last)
    said = (f"The last {name} is {last.said(tz)}, more than {days} days ago" if last
            else f"There is no {name} result in the chart ({_searched(protocol)})")
    fields = _header(protocol) + [("Based on", said)]
    result = propose_lab(ctx, protocol["order"]["test"], when.When(None, ""), None,
                         f"{protocol['title']}: {said}", fields)
    result.text = f"{said}; per the {protocol['title']} protocol a new test is proposed.\n{result.text}"
    return result


def _replace(ctx: ToolContext, protocol: dict[str, Any], last: Result | None, tz: str) -> ToolResult:
    """A low result in the window gets the protocol's dose and the paired recheck."""
    name, hours = protocol["analyte"], protocol["window_hours"]
    title = f"{protocol['title']} protocol (version {protocol['version']})"
    if last is None:
        return _nothing(f"There is no {name} result in the chart ({_searched(protocol)}), so per the {title} "
                        "nothing is ordered.", None)
    if datetime.now(timezone.utc) - last.at > timedelta(hours=hours):
        return _nothing(f"No {name} result in the last {hours} hours (the last was {last.said(tz)}), so per the "
                        f"{title} nothing is ordered.", last)
    if last.value >= protocol["low_below"]:
        return _nothing(f"The latest {name} is {last.said(tz)}, not below {_num(protocol['low_below'])} "
                        f"{protocol['unit']}, so per the {title} nothing is ordered.", last)
    dose, hours_over = _dose(protocol, last.value)
    based = f"{name} {last.said(tz)} (within {hours} h)"
    fields = _header(protocol) + [("Based on", based)]
    results = [_medication(ctx, protocol, dose, hours_over, fields)]
    recheck = protocol.get("recheck")
    if recheck and results[0].status == "proposal":
        at = when.parse(recheck["when"], tz)
        results.append(propose_lab(ctx, recheck["test"], at, None, f"Recheck after {protocol['title']}", fields))
    done = merged(results)
    done.text = f"The latest {name} is {last.said(tz)}: low, so per the {title}:\n{done.text}"
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
    tier = protocol["tiers"][0]  # between the top tier's at_most and low_below (1.95): the mildest dose
    return tier["dose"], tier.get("duration_hours")


def _medication(ctx: ToolContext, protocol: dict[str, Any], dose: float, hours: float | None,
                fields: list[tuple[str, str]]) -> ToolResult:
    med = protocol["medication"]
    unit_shown = {"meq": "mEq"}.get(med["unit"], med["unit"])
    quantity = {"value": dose, "unit": unit_shown, "system": dosing.UCUM, "code": med["unit"]}
    route = dosing.route_coding(med["route"])
    text = f"{_num(dose)} {unit_shown} {route['text'].lower()}" + (f" over {_num(hours)} h" if hours else " once")
    dose_rate: dict[str, Any] = {"doseQuantity": quantity}
    repeat: dict[str, Any] = {"count": 1}
    if hours:
        dose_rate["rateQuantity"] = {"value": round(dose / hours, 3), "unit": f"{unit_shown}/h", "system": dosing.UCUM,
                                     "code": f"{med['unit']}/h"}
        repeat.update({"duration": hours, "durationUnit": "h"})
    inst = {"text": text, "timing": {"repeat": repeat}, "route": route, "doseAndRate": [dose_rate]}
    resource: dict[str, Any] = {
        "resourceType": "MedicationRequest", "status": "active", "intent": "order",
        "medicationCodeableConcept": {"coding": [{"system": RXNORM, "code": med["rxnorm"], "display": med["display"]}],
                                      "text": med["text"]},
        "subject": {"reference": f"Patient/{ctx.patient_id}"}, "authoredOn": _now(), "dosageInstruction": [inst]}
    if _practitioner(ctx):
        resource["requester"] = _practitioner(ctx)
    flags = medication_flags(ctx, med["text"], inst)
    if protocol.get("warn_above") and dose > protocol["warn_above"]:
        flags.append({"severity": "warning", "kind": "dose", "text": (
            f"{_num(dose)} {unit_shown} is above {protocol['warn_above']} {unit_shown} in one oral dose; "
            "consider splitting it.")})
    rows = [("Medication", med["text"]), ("Dose", f"{_num(dose)} {unit_shown}"), ("Route", route["text"])]
    rows += [("Infusion", f"over {_num(hours)} h ({_num(dose / hours)} {unit_shown}/h)")] if hours else []
    rows += [("Code", f"RxNorm {med['rxnorm']} ({med['display']})")]
    summary: ProposalSummary = {"title": f"Give {med['text']} {text}", "kind": "medication",
                                "fields": rows + fields, "flags": flags}
    return _propose(ctx, "apply_protocol", resource, summary, "medication order")


TOOLS: list[Tool] = [Tool(catalog.spec("apply_protocol"), run_apply_protocol)]
