"""Care gaps: the monitoring a chronic condition asks for, checked against the chart.

The programmes are data (``data/care_gaps.yaml``: diabetes, hypertension, CKD, warfarin
anticoagulation), each with its source and version. A programme applies when the chart holds
one of its conditions (or, for anticoagulation, one of its drugs). Each check is read from the
chart with every code it is recorded under (a lab by all of its analyte's LOINC codes, an exam by
its SNOMED CT and LOINC codes) and reported with its last date and value, or "none on file" with
the codes searched; a check whose records could not be read is "could not be checked", never
"none on file". ``order_care_gaps`` proposes one order per overdue check (a lab ServiceRequest or
a referral), each on its own card: nothing is written before the clinician approves it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from ... import errors, knowledge
from ...datafiles import safe_yaml
from ...knowledge import analytes
from ...languages import N_, answer_language, fold, message, say
from .. import args as tool_args
from .. import catalog
from ..base import Tool, ToolContext, ToolResult
from ..chart import labs, records
from ..words import ward_words, when
from .draft import refuse
from .ward_orders import brief, merged, propose_lab, run_refer

STATUS = {"due": N_("DUE"), "above_target": N_("ABOVE TARGET"), "met": N_("up to date"),
          "unknown": N_("could not be checked"), "not_applicable": N_("not applicable")}


def _say(msgid: str, **args: Any) -> str:
    """A line of the tool's text in this turn's language (English: the msgid filled)."""
    return say(message(msgid, **args), answer_language())


DATA = Path(__file__).parents[1] / "data" / "care_gaps.yaml"
BP_PANEL, SYSTOLIC, DIASTOLIC = "85354-9", "8480-6", "8462-4"
Status = Literal["due", "met", "above_target", "unknown", "not_applicable"]


@dataclass(frozen=True)
class Check:
    """One monitoring item of a programme (``data/care_gaps.yaml``)."""

    id: str
    label: str
    kind: str
    interval_days: int | None = None
    analytes: tuple[str, ...] = ()
    codes: tuple[tuple[str, str], ...] = ()  # (system, code)
    order: str | None = None
    drug_class: str | None = None
    ages: tuple[int, int] | None = None
    target: tuple[int, int] | None = None


@dataclass(frozen=True)
class Programme:
    key: str
    title: str
    source: str
    version: str
    conditions: frozenset[str]
    words: tuple[str, ...]
    medications: tuple[str, ...]
    checks: tuple[Check, ...]

    @property
    def cited(self) -> str:
        return f"{self.source}, version {self.version}"


@dataclass(frozen=True)
class Gap:
    """A check's state in this chart: due, met, above target, unknown or not applicable."""

    programme: Programme
    check: Check
    status: Status
    detail: str  # "last 7.2 % on 2025-06-10", "none on file (searched LOINC …)"
    ref: str | None = None
    last: date | None = None

    @property
    def open(self) -> bool:
        return self.status in ("due", "above_target")

    def sentence(self) -> str:
        """"HbA1c — DUE: …" with the status in this turn's language (the label and detail are the
        programme file's, as written)."""
        ref = f" [{self.ref}]" if self.ref else ""
        return f"{self.check.label} — {_say(STATUS[self.status])}: {self.detail}{ref}"


@dataclass(frozen=True)
class GapReport:
    programmes: tuple[Programme, ...]
    gaps: tuple[Gap, ...]
    unread: tuple[str, ...] = field(default_factory=tuple)  # chart parts that could not be read

    def open(self) -> list[Gap]:
        return [g for g in self.gaps if g.open]


def _check(raw: dict[str, Any]) -> Check:
    codes = tuple((system, str(c)) for system, cs in (raw.get("codes") or {}).items() for c in cs)
    return Check(
        id=raw["id"],
        label=raw["label"],
        kind=raw["kind"],
        interval_days=raw.get("interval_days"),
        analytes=tuple(raw.get("analytes") or ()),
        codes=codes,
        order=raw.get("order"),
        drug_class=raw.get("drug_class"),
        ages=tuple(raw["ages"]) if raw.get("ages") else None,
        target=tuple(raw["target"]) if raw.get("target") else None,
    )


@lru_cache(maxsize=1)
def programmes() -> tuple[Programme, ...]:
    raw = safe_yaml(DATA.read_text(encoding="utf-8"))["programmes"]
    return tuple(
        Programme(
            key=k,
            title=p["title"],
            source=p["source"],
            version=str(p["version"]),
            conditions=frozenset(map(str, p.get("conditions") or ())),
            words=tuple(p.get("words") or ()),
            medications=tuple(p.get("medications") or ()),
            checks=tuple(_check(c) for c in p["checks"]),
        )
        for k, p in raw.items()
    )


# ------------------------------------------------------------------ what applies
_INACTIVE = {"resolved", "inactive", "remission", "entered-in-error", "refuted"}


def active_conditions(found: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Conditions neither resolved nor refuted (a Condition without a status counts as active)."""
    def status(res: dict[str, Any], key: str) -> str:
        return records.code_of(res.get(key))
    return [c for c in found if status(c, "clinicalStatus") not in _INACTIVE
            and status(c, "verificationStatus") not in _INACTIVE]


def _says(words: tuple[str, ...], text: str) -> bool:
    low = fold(text).lower()
    return any(
        re.search(rf"(?<![a-z0-9]){re.escape(fold(w).lower())}(?![a-z0-9])", low) for w in words
    )


def applies(p: Programme, conditions: list[dict[str, Any]], drugs: list[str]) -> str | None:
    """Why the programme applies to this chart ("Type 2 diabetes mellitus [Condition/x]"), or
    None."""
    for c in conditions:
        codes = {str(x.get("code")) for x in (c.get("code") or {}).get("coding") or []}
        text = records.concept_text(c.get("code"))
        if codes & p.conditions or (p.words and _says(p.words, text)):
            return f"{text} [Condition/{c.get('id')}]"
    hit = next((d for d in drugs if any(m in d for m in p.medications)), None)
    return f"on {hit}" if hit and p.medications else None


# ------------------------------------------------------------------ reading the chart
@dataclass(frozen=True)
class Chart:
    """What the gap checks read once: age, active conditions and drug names, or why not."""

    age: int | None
    conditions: list[dict[str, Any]]
    drugs: list[str]  # generic names of the active orders
    unread: list[str]


def read_chart(ctx: ToolContext) -> Chart:
    gw, pid, unread = ctx.gateway(), ctx.patient_id or "", []
    patient = gw.read("Patient", pid)
    conditions: list[dict[str, Any]] = []
    drugs: list[str] = []
    try:
        conditions = active_conditions(
            gw.search("Condition", {"patient": pid, "_count": 100}, max_pages=2)
        )
    except errors.DocGemmaError:
        unread.append("conditions")
    try:
        meds = gw.search(
            "MedicationRequest", {"patient": pid, "status": "active", "_count": 100}, max_pages=2
        )
        drugs = [
            knowledge.generic(records.concept_text(m.get("medicationCodeableConcept")))
            for m in meds
        ]
    except errors.DocGemmaError:
        unread.append("medications")
    return Chart(records.age_on(patient.get("birthDate") or ""), conditions, drugs, unread)


def _day(moment: datetime | None) -> str:
    return f"{moment:%Y-%m-%d}" if moment else "an undated record"


def _old(moment: datetime | None, days: int, now: datetime) -> bool:
    return moment is None or now - moment > timedelta(days=days)


def lab_gap(ctx: ToolContext, p: Programme, c: Check, now: datetime) -> Gap:
    """The newest result of any of the check's analytes, read by every code of each."""
    found: list[labs.LabResult] = []
    searched: list[str] = []
    for name in c.analytes:
        a = analytes.analyte(name)
        rtype, params = labs.search(a)
        searched += analytes.codes_with_family(a)
        try:
            obs = ctx.gateway().search(rtype, {"patient": ctx.patient_id, **params}, max_pages=1)
        except errors.DocGemmaError:
            return Gap(p, c, "unknown", f"the {name} results could not be read")
        found += labs.results(obs, a)
    dated = sorted((r for r in found if r.when), key=lambda r: r.when or now, reverse=True)
    if not dated:
        return Gap(
            p, c, "due", f"none on file (searched LOINC {', '.join(dict.fromkeys(searched))})"
        )
    last = dated[0]
    said = f"last {last.analyte} {last.text()} on {_day(last.when)}"
    days = c.interval_days or 365
    if _old(last.when, days, now):
        return Gap(
            p,
            c,
            "due",
            f"{said}, more than {days} days ago",
            last.ref,
            last.when.date() if last.when else None,
        )
    return Gap(
        p,
        c,
        "met",
        f"{said}, within {days} days",
        last.ref,
        last.when.date() if last.when else None,
    )


def procedure_gap(ctx: ToolContext, p: Programme, c: Check, now: datetime) -> Gap:
    """An exam as a Procedure or an exam Observation under any of the check's codes."""
    tokens = ",".join(f"{system}|{code}" for system, code in c.codes)
    searched = ", ".join(code for _, code in c.codes)
    dated: list[tuple[datetime, str]] = []
    unread = []
    for rtype in ("Procedure", "Observation"):
        if ctx.scopes is not None and not ctx.scopes.allows(rtype, "s"):
            unread.append(f"{rtype} (not granted)")
            continue
        try:
            found = ctx.gateway().search(
                rtype, {"patient": ctx.patient_id, "code": tokens, "_count": 20}, max_pages=1
            )
        except errors.DocGemmaError:
            unread.append(rtype)
            continue
        for res in found:
            raw = res.get("performedDateTime") or (res.get("performedPeriod") or {}).get("start")
            moment = labs.taken({"effectiveDateTime": raw} if raw else res)
            if moment and res.get("status") not in ("entered-in-error", "not-done"):
                dated.append((moment, f"{rtype}/{res.get('id')}"))
    if dated:
        moment, ref = max(dated)
        days = c.interval_days or 365
        state: Status = "due" if _old(moment, days, now) else "met"
        rel = "more than" if state == "due" else "within"
        return Gap(p, c, state, f"last on {_day(moment)}, {rel} {days} days", ref, moment.date())
    if unread:
        return Gap(
            p,
            c,
            "unknown",
            f"{' and '.join(unread)} records could not be searched (codes {searched})",
        )
    return Gap(p, c, "due", f"none on file (searched codes {searched})")


def medication_gap(p: Programme, c: Check, chart: Chart) -> Gap:
    if "medications" in chart.unread:
        return Gap(p, c, "unknown", "the medication list could not be read")
    lo, hi = c.ages or (0, 200)
    if chart.age is None or not lo <= chart.age <= hi:
        return Gap(
            p,
            c,
            "not_applicable",
            f"age {chart.age if chart.age is not None else 'unknown'}, outside {lo} to {hi}",
        )
    on = [d for d in chart.drugs if c.drug_class and c.drug_class in knowledge.drug_classes(d)]
    if on:
        return Gap(p, c, "met", f"on {', '.join(on)}")
    listed = ", ".join(chart.drugs) or "no active medications"
    return Gap(
        p, c, "due", f"no {c.drug_class} on the active medication list ({listed}); age {chart.age}"
    )


def bp_gap(ctx: ToolContext, p: Programme, c: Check, now: datetime) -> Gap:
    codes = ",".join(f"{labs.LOINC}|{x}" for x in (BP_PANEL, SYSTOLIC))
    try:
        found = ctx.gateway().search(
            "Observation",
            {"patient": ctx.patient_id, "code": codes, "_sort": records.SORT_NEWEST, "_count": 10},
            max_pages=1,
        )
    except errors.DocGemmaError:
        return Gap(p, c, "unknown", "the blood pressure readings could not be read")
    readings = [r for r in map(_bp, found) if r]
    if not readings:
        return Gap(
            p, c, "due", f"no blood pressure on file (searched LOINC {BP_PANEL}, {SYSTOLIC})"
        )
    moment, sbp, dbp, ref = max(readings, key=lambda r: r[0])
    said = (
        f"last {sbp:g}/{dbp:g} mmHg on {_day(moment)}"
        if dbp is not None
        else f"last systolic {sbp:g} mmHg"
    )
    days, (ts, td) = c.interval_days or 365, c.target or (130, 80)
    if _old(moment, days, now):
        return Gap(p, c, "due", f"{said}, more than {days} days ago", ref, moment.date())
    if sbp >= ts or (dbp is not None and dbp >= td):
        return Gap(p, c, "above_target", f"{said}, at or above {ts}/{td}", ref, moment.date())
    return Gap(p, c, "met", f"{said}, below {ts}/{td}", ref, moment.date())


def _bp(obs: dict[str, Any]) -> tuple[datetime, float, float | None, str] | None:
    """(when, systolic, diastolic) of a panel, or of a lone systolic with its diastolic unknown."""
    moment = labs.taken(obs)
    parts = {records.code_of(x.get("code")): (x.get("valueQuantity") or {}).get("value")
             for x in [obs, *(obs.get("component") or [])]}
    sbp = parts.get(SYSTOLIC)
    if moment is None or sbp is None:
        return None
    dbp = parts.get(DIASTOLIC)
    return (
        moment,
        float(sbp),
        float(dbp) if dbp is not None else None,
        f"Observation/{obs.get('id')}",
    )


def report(ctx: ToolContext, now: datetime | None = None) -> GapReport:
    """Every applicable programme's checks for the patient in context; raises the gateway's
    errors when the patient itself cannot be read."""
    now = now or datetime.now(UTC)
    chart = read_chart(ctx)
    chosen = [p for p in programmes() if applies(p, chart.conditions, chart.drugs)]
    gaps = []
    for p in chosen:
        for c in p.checks:
            if c.kind == "lab":
                gaps.append(lab_gap(ctx, p, c, now))
            elif c.kind == "procedure":
                gaps.append(procedure_gap(ctx, p, c, now))
            elif c.kind == "medication":
                gaps.append(medication_gap(p, c, chart))
            else:
                gaps.append(bp_gap(ctx, p, c, now))
    return GapReport(tuple(chosen), tuple(gaps), tuple(chart.unread))


# ------------------------------------------------------------------ the tools
def text_of(rep: GapReport, chart_note: str = "") -> str:
    if not rep.programmes:
        unread = _say(N_(" (%(unread)s could not be read)"),
                      unread=", ".join(rep.unread)) if rep.unread else ""
        return _say(N_("No care-gap programme applies: the chart holds none of the conditions this "
                       "site's programmes cover (diabetes, hypertension, chronic kidney disease, "
                       "warfarin)%(unread)s."), unread=unread)
    lines = []
    for p in rep.programmes:
        mine = [g for g in rep.gaps if g.programme is p]
        lines.append(
            _say(
                N_("%(title)s (%(open)s open of %(n)s; source: %(cited)s):"),
                title=p.title,
                open=sum(g.open for g in mine),
                n=len(mine),
                cited=p.cited,
            )
        )
        lines += [f"- {g.sentence()}" for g in mine]
    if rep.unread:
        lines.append(_say(N_("Could not be read: %(unread)s; gaps that depend on them are not "
                             "shown as met."), unread=", ".join(rep.unread)))
    return "\n".join(lines) + chart_note


def _data(rep: GapReport) -> dict[str, Any]:
    return {"gaps": [{"programme": g.programme.key, "check": g.check.id, "label": g.check.label,
                      "status": g.status, "detail": g.detail, "ref": g.ref,
                      "last": g.last.isoformat() if g.last else None, "source": g.programme.cited}
                     for g in rep.gaps]}


def _read(ctx: ToolContext) -> GapReport | ToolResult:
    try:
        return report(ctx)
    except errors.DocGemmaError:
        return ToolResult.failure(
            "unreachable", "The chart could not be read, so the care gaps were not checked."
        )


def run_review(args: tool_args.CareGapArgs, ctx: ToolContext) -> ToolResult:
    if args.patient_id != ctx.patient_id:
        return ToolResult.failure(
            "forbidden",
            f"Care gaps are checked for the patient in context only "
            f"(id {ctx.patient_id}); {args.patient_id} is a different patient.",
        )
    rep = _read(ctx)
    if isinstance(rep, ToolResult):
        return rep
    opened = rep.open()
    tail = "\n" + _say(N_("%(n)s open gap(s); ask \"order the overdue ones\" to have each order "
                          "proposed on its own card."), n=len(opened)
                       ) if any(g.check.order for g in opened) else ""
    return ToolResult(status="ok", text=text_of(rep, tail), data=_data(rep), count=len(opened))


def orders_for(rep: GapReport, labs_only: bool) -> list[tuple[str, str, list[Gap]]]:
    """(kind, order key, gaps it closes): one order per test or referral, overdue checks only."""
    out: dict[str, tuple[str, list[Gap]]] = {}
    for g in rep.gaps:
        if g.status != "due" or not g.check.order:
            continue
        kind = "lab" if g.check.order in ward_words.table()["lab_tests"] else "referral"
        if labs_only and kind != "lab":
            continue
        out.setdefault(g.check.order, (kind, []))[1].append(g)
    return [(kind, key, gaps) for key, (kind, gaps) in out.items()]


def run_order(args: tool_args.CareGapOrderArgs, ctx: ToolContext) -> ToolResult:
    refused = refuse(args, ctx, "ServiceRequest")
    if refused:
        return refused
    rep = _read(ctx)
    if isinstance(rep, ToolResult):
        return rep
    wanted = orders_for(rep, args.labs_only)
    if not wanted:
        nothing = "\n" + _say(N_("Nothing overdue that can be ordered here, so nothing was "
                                 "proposed."))
        return ToolResult(status="ok", text=text_of(rep, nothing), data=_data(rep), count=0)
    results = []
    for kind, key, gaps in wanted:
        why = "; ".join(f"{g.programme.title}: {g.check.label} {g.detail}" for g in gaps)[:480]
        fields = [
            ("Care gap", why),
            ("Source", "; ".join(dict.fromkeys(g.programme.cited for g in gaps))),
        ]
        if kind == "lab":
            results.append(
                propose_lab(ctx, key, when.When(None, ""), None, f"Care gap: {why}", fields)
            )
        else:
            results.append(
                run_refer(
                    tool_args.ReferralArgs(
                        patient_id=args.patient_id,
                        specialty=key,
                        reason=gaps[0].check.label.lower(),
                    ),
                    ctx,
                )
            )
    done = merged(results)
    done.text = brief(results)
    shown = [g for g in rep.open() if not g.check.order or (args.labs_only and g.check.order not in
                                                            ward_words.table()["lab_tests"])]
    said = "".join("\n" + _say(N_("Not ordered here: %(check)s (%(detail)s)."),
                               check=g.check.label, detail=g.detail) for g in shown)
    said += "".join("\n" + _say(N_("Could not be checked, so not ordered: %(check)s (%(detail)s)."),
                                check=g.check.label, detail=g.detail)
                    for g in rep.gaps if g.status == "unknown")
    heading = _say(N_("Overdue per the care-gap programmes, one card per order:"))
    done.text = f"{heading}\n{done.text}{said}"
    return done


TOOLS: list[Tool] = [Tool(catalog.spec("review_care_gaps"), run_review),
                     Tool(catalog.spec("order_care_gaps"), run_order)]
