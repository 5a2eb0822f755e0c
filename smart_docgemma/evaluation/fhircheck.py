"""What a case expects to reach FHIR after its proposals are approved, and the check of it.

An action case names the resources it expects (``writes``), each by the fields a FHIR R4
grader reads: code and system, category, status and intent, dose value and unit, route,
infusion duration or rate, occurrence, note text, components, value, effective time — and
always the subject. The shapes are R4's own (route a CodeableConcept, note an Annotation list,
the observation-category CodeSystem), read leniently where R4 allows several (a rate or a
duration; a Medication by code or by text). ``[]`` expects nothing written.

    problems = check_writes(expected, written, patient, now, tz)   # [] when every write is right
"""
from __future__ import annotations

import re
from datetime import datetime, timedelta, tzinfo
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..knowledge.analytes import unit_key
from ..tools.words.dosing import ROUTES

NOW_SLACK = timedelta(hours=2)


class Quantity(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    value: float
    unit: str


class Component(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    code: str  # "system|code"
    value: float
    unit: str


class ExpectedWrite(BaseModel):
    """One resource that must reach FHIR (every named field is checked; the subject always)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    resourceType: Literal[
        "MedicationRequest",
        "ServiceRequest",
        "Observation",
        "AllergyIntolerance",
        "DocumentReference",
        "MedicationStatement",
    ]
    status: str | None = None
    intent: str | None = None
    category: str | None = None  # a category coding's code
    code: list[str] = Field(default_factory=list)  # any of these "system|code"
    code_system: str | None = None  # some coding of the code in this system
    code_text: list[str] = Field(default_factory=list)  # words of the code's text or displays
    dose: Quantity | None = None
    route: Literal["intravenous", "oral", "subcutaneous", "intramuscular"] | None = None
    duration_hours: float | None = None  # infusion time: timing duration, or dose / rate
    # "tomorrow 08:00" in the site's time zone; "next 08:00" for a time said with its part of
    # the day ("recheck in the morning at 8"): the first such time after now, so a set run after
    # midnight expects this morning's, as the clinician means
    occurrence: str | None = None
    note_contains: str | None = None  # verbatim (spacing aside) in a note's text
    components: list[Component] = Field(default_factory=list)
    value: Quantity | None = None
    # "now", or a clock time said with the reading ("06:15"): its latest such time not after now,
    # in the site's time zone (a reading taken "at 14:30" asked at 09:00 was yesterday's);
    # "yesterday 22:00" for one said with its night ("last night at 10pm"), whatever the hour
    # the case runs at (asked at 23:05 it is still yesterday's, not the hour just gone)
    effective: str | None = Field(default=None, pattern=r"^(now|(yesterday )?\d{2}:\d{2})$")


def _codings(cc: dict[str, Any] | None) -> list[dict[str, Any]]:
    return list((cc or {}).get("coding") or [])


def _concept(resource: dict[str, Any]) -> dict[str, Any]:
    return resource.get("code") or resource.get("medicationCodeableConcept") or {}


def _words(cc: dict[str, Any]) -> str:
    return " ".join([cc.get("text") or ""] + [c.get("display") or "" for c in _codings(cc)]).lower()


def _same(a: float, b: float) -> bool:
    return abs(float(a) - float(b)) <= 1e-6 + abs(float(b)) * 1e-3


# a mass written in another of its units is the same dose: "1 g" is 1000 mg, "500 mcg" 0.5 mg
_MASS_MG = {"g": 1000.0, "mg": 1.0, "ug": 0.001, "mcg": 0.001, "µg": 0.001}


def _quantity_ok(got: dict[str, Any] | None, want: Quantity) -> bool:
    if not got or got.get("value") is None:
        return False
    units = {unit_key(got.get("unit") or ""), unit_key(got.get("code") or "")}
    if _same(got["value"], want.value) and unit_key(want.unit) in units:
        return True
    said = next((_MASS_MG[u] for u in (got.get("code"), got.get("unit")) if u in _MASS_MG), None)
    wanted = _MASS_MG.get(want.unit)
    return bool(said and wanted and _same(float(got["value"]) * said, want.value * wanted))


def _doses(resource: dict[str, Any]) -> list[dict[str, Any]]:
    return [r for d in resource.get("dosageInstruction") or [] for r in d.get("doseAndRate") or []]


def _duration_ok(resource: dict[str, Any], hours: float) -> bool:
    for d in resource.get("dosageInstruction") or []:
        rep = (d.get("timing") or {}).get("repeat") or {}
        unit = {"h": 1.0, "min": 1 / 60, "s": 1 / 3600, "d": 24.0}.get(
            rep.get("durationUnit") or ""
        )
        if rep.get("duration") is not None and unit and _same(rep["duration"] * unit, hours):
            return True
        for r in d.get("doseAndRate") or []:
            dose, rate = (r.get("doseQuantity") or {}).get("value"), r.get("rateQuantity") or {}
            per_hour = "/h" in (rate.get("unit") or rate.get("code") or "")
            if dose and rate.get("value") and per_hour and _same(dose / rate["value"], hours):
                return True
            ratio = r.get("rateRatio") or {}
            num, den = ratio.get("numerator") or {}, ratio.get("denominator") or {}
            if (
                dose
                and num.get("value")
                and den.get("value")
                and (den.get("unit") or den.get("code")) in ("h", "hr")
            ):
                if _same(dose / (num["value"] / den["value"]), hours):
                    return True
    return False


def _route_ok(resource: dict[str, Any], route: str) -> bool:
    """The route's SNOMED CT code, or its words in the route's text or display (the package's
    one route vocabulary, ``tools/dosing.ROUTES``)."""
    want = next(r for r in ROUTES if r.key == route)
    for d in resource.get("dosageInstruction") or []:
        cc = d.get("route") or {}
        if want.code in {c.get("code") for c in _codings(cc)} or re.search(
            want.pattern, _words(cc)
        ):
            return True
    return False


def _when(raw: str | None) -> datetime | None:
    try:
        return (
            datetime.fromisoformat((raw or "").replace("Z", "+00:00"))
            if raw and len(raw) > 10
            else None
        )
    except ValueError:
        return None


def _occurrence_ok(resource: dict[str, Any], said: str, now: datetime, tz: tzinfo) -> bool:
    m = re.fullmatch(r"(tomorrow|next) (\d{2}):(\d{2})", said)
    when = _when(
        resource.get("occurrenceDateTime") or (resource.get("occurrencePeriod") or {}).get("start")
    )
    if not m or when is None or when.tzinfo is None:
        return False
    local, here = when.astimezone(tz), now.astimezone(tz)
    at = (int(m.group(2)), int(m.group(3)))
    if m.group(1) == "next":  # "in the morning at 8" asked at 00:05 is this morning's 08:00
        soonest = here.replace(hour=at[0], minute=at[1], second=0, microsecond=0)
        soonest += timedelta(days=1) if soonest <= here else timedelta(0)
        return abs(local - soonest) <= timedelta(minutes=1)
    return local.date() == here.date() + timedelta(days=1) and (local.hour, local.minute) == at


def _effective_ok(resource: dict[str, Any], said: str, now: datetime, tz: tzinfo) -> bool:
    when = _when(resource.get("effectiveDateTime"))
    if when is None or when.tzinfo is None:
        return False
    if said == "now":
        return abs(when - now) <= NOW_SLACK
    day, _, clock = said.rpartition(" ")
    hour, minute = (int(x) for x in clock.split(":"))
    local = now.astimezone(tz)
    at = local.replace(hour=hour, minute=minute, second=0, microsecond=0)
    at -= timedelta(days=1) if day == "yesterday" or at > local else timedelta(0)
    return abs(when - at) <= timedelta(minutes=1)


def _note_ok(resource: dict[str, Any], text: str) -> bool:
    squash = " ".join(text.split()).lower()
    notes = [n.get("text") or "" for n in resource.get("note") or []]
    notes += (
        [resource.get("patientInstruction") or ""]
        if resource.get("resourceType") == "ServiceRequest"
        else []
    )
    return any(squash in " ".join(n.split()).lower() for n in notes)


# R4 names an AllergyIntolerance's patient in `patient`; every other resource written here in
# `subject`
_PATIENT_FIELD = {"AllergyIntolerance": "patient"}


def patient_of(resource: dict[str, Any]) -> str | None:
    """The reference of the patient a written resource is about ("Patient/pt-child")."""
    field = _PATIENT_FIELD.get(str(resource.get("resourceType")), "subject")
    return (resource.get(field) or {}).get("reference")


def problems(
    want: ExpectedWrite, got: dict[str, Any], patient: str, now: datetime, tz: tzinfo
) -> list[str]:
    """Every field of ``want`` that ``got`` does not have (empty: the write is right)."""
    out: list[str] = []

    def need(ok: bool, what: str) -> None:
        if not ok:
            out.append(what)

    need(got.get("resourceType") == want.resourceType, f"resourceType {want.resourceType}")
    whose = _PATIENT_FIELD.get(want.resourceType, "subject")
    need(patient_of(got) == f"Patient/{patient}", f"{whose} Patient/{patient}")
    need(want.status is None or got.get("status") == want.status, f"status {want.status}")
    need(want.intent is None or got.get("intent") == want.intent, f"intent {want.intent}")
    if want.resourceType in ("MedicationRequest", "ServiceRequest"):
        need(bool(got.get("authoredOn")), "authoredOn")
    if want.category:
        cats = {c.get("code") for cc in got.get("category") or [] for c in _codings(cc)}
        need(want.category in cats, f"category {want.category}")
    codes = {f"{c.get('system')}|{c.get('code')}" for c in _codings(_concept(got))}
    need(not want.code or bool(codes & set(want.code)), f"code one of {want.code}")
    need(not want.code_system or any(c.startswith(want.code_system + "|") for c in codes),
         f"a {want.code_system} code")
    need(
        all(w.lower() in _words(_concept(got)) for w in want.code_text),
        f"code text with {want.code_text}",
    )
    if want.dose:
        need(any(_quantity_ok(r.get("doseQuantity"), want.dose) for r in _doses(got)),
             f"dose {want.dose.value} {want.dose.unit}")
    need(not want.route or _route_ok(got, want.route), f"route {want.route}")
    need(
        want.duration_hours is None or _duration_ok(got, want.duration_hours),
        f"over {want.duration_hours} h",
    )
    need(
        not want.occurrence or _occurrence_ok(got, want.occurrence, now, tz),
        f"occurrence {want.occurrence}",
    )
    need(not want.note_contains or _note_ok(got, want.note_contains), "note text verbatim")
    for comp in want.components:
        system, _, code = comp.code.partition("|")
        parts = [
            c
            for c in got.get("component") or []
            if any(
                x.get("system") == system and x.get("code") == code for x in _codings(c.get("code"))
            )
        ]
        need(
            any(
                _quantity_ok(c.get("valueQuantity"), Quantity(value=comp.value, unit=comp.unit))
                for c in parts
            ),
            f"component {comp.code} = {comp.value} {comp.unit}",
        )
    need(
        not want.value or _quantity_ok(got.get("valueQuantity"), want.value), f"value {want.value}"
    )
    need(
        not want.effective or _effective_ok(got, want.effective, now, tz),
        f"effective {want.effective}",
    )
    return out


def check_writes(
    expected: list[ExpectedWrite],
    written: list[dict[str, Any]],
    patient: str,
    now: datetime,
    tz: tzinfo,
) -> list[str]:
    """What is wrong with ``written`` against ``expected``: each expected resource matched by a
    distinct written one, nothing more written. [] when all is right."""
    left, wrong = list(written), []
    for want in expected:
        scored = sorted(((problems(want, got, patient, now, tz), i) for i, got in enumerate(left)),
                        key=lambda p: len(p[0]))
        if scored and not scored[0][0]:
            left.pop(scored[0][1])
        else:
            closest = scored[0][0] if scored else ["nothing written"]
            wrong.append(f"{want.resourceType}: " + ", ".join(closest))
    wrong += [f"unexpected {r.get('resourceType')}/{r.get('id')}" for r in left]
    return wrong
