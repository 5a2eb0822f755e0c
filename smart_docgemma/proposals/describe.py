"""A proposal in one sentence a clinician would say, read from the FHIR resource itself.

The sentence is derived from the resource that will be written (not from the
words the clinician typed), so after an edit the card says what Approve
will now create: "Start amoxicillin 500 mg by mouth three times daily for 7 days". The words
are in the page's language (gettext; English outside a request or in English).
"""
from __future__ import annotations

import base64
import binascii
from typing import Any

from flask_babel import gettext, ngettext

from ..languages import N_
from ..tools.words.dosing import route_key


def _(text: str, **fields: Any) -> str:
    """``text`` in the page's language (English outside a request)."""
    return str(gettext(text, **fields))


_TIMES_DAILY = {1: N_("once daily"), 2: N_("twice daily"), 3: N_("three times daily"),
                4: N_("four times daily"), 5: N_("five times daily"), 6: N_("six times daily")}
_TIMES_WEEKLY = {1: N_("once weekly"), 2: N_("twice weekly"), 3: N_("three times weekly")}
_EVERY = {"h": N_("every %(n)s hours"), "d": N_("every %(n)s days"), "wk": N_("every %(n)s weeks"),
          "mo": N_("every %(n)s months")}
# How the card says a route (keys of tools/words/dosing.py's ROUTES; another route shows its SNOMED
# display).
_ROUTE_WORDS = {
    "oral": N_("by mouth"),
    "intravenous": N_("intravenously"),
    "intramuscular": N_("intramuscularly"),
    "subcutaneous": N_("subcutaneously"),
    "inhaled": N_("by inhalation"),
    "topical": N_("topically"),
}
NO_KNOWN_ALLERGY = "716186003"  # SNOMED CT "No known allergy" (tools/data/write_codes.yaml)
# as-needed reasons (frequencies/en.yaml)
_REASONS = {"22253000": N_("pain"), "386661006": N_("fever")}
_UCUM_SHOWN = {"ug": "mcg", "[iU]": "units"}


def _num(value: float | int | str) -> str:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value)


def quantity_text(q: dict[str, Any] | None) -> str:
    """``{"value": 500, "unit": "mg"}`` → ``500 mg`` (UCUM codes shown as clinicians write them)."""
    if not q or q.get("value") is None:
        return ""
    code = q.get("code") or ""
    unit = q.get("unit") or _UCUM_SHOWN.get(code, code)
    return f"{_num(q['value'])} {unit}".strip()


def frequency_text(repeat: dict[str, Any] | None) -> str:
    """Timing.repeat → ``three times daily`` / ``every 8 hours`` / ``once weekly``."""
    if not repeat or not repeat.get("frequency"):
        return ""
    freq, period, unit = repeat["frequency"], repeat.get("period", 1), repeat.get("periodUnit", "d")
    if freq == 1 and period != 1 and unit in _EVERY:
        return _(_EVERY[unit], n=_num(period))
    if freq == 1 and unit == "h":
        return _("every hour")
    if period == 1 and unit == "d":
        return _(_TIMES_DAILY[freq]) if freq in _TIMES_DAILY else _("%(n)s times daily", n=freq)
    if period == 1 and unit == "wk" and freq in _TIMES_WEEKLY:
        return _(_TIMES_WEEKLY[freq])
    if period == 1 and unit == "mo" and freq == 1:
        return _("once monthly")
    return _("%(n)s times every %(period)s %(unit)s", n=freq, period=_num(period), unit=unit)


def route_text(route: dict[str, Any] | None) -> str:
    key = route_key(route)
    return (
        _(_ROUTE_WORDS[key]) if key in _ROUTE_WORDS else ((route or {}).get("text") or "").lower()
    )


def duration_text(resource: dict[str, Any]) -> str:
    """``for 7 days`` from the dispense's expected supply duration (or a bounds duration)."""
    supply = (resource.get("dispenseRequest") or {}).get("expectedSupplyDuration")
    if not supply:
        inst = (resource.get("dosageInstruction") or [{}])[0]
        supply = ((inst.get("timing") or {}).get("repeat") or {}).get("boundsDuration")
    if not supply or supply.get("value") is None:
        return ""
    unit = supply.get("unit") or supply.get("code") or "days"
    if unit in ("d", "day", "days"):
        return str(ngettext("for %(num)s day", "for %(num)s days", int(supply["value"])))
    return _("for %(n)s %(unit)s", n=_num(supply["value"]), unit=unit)


def as_needed_text(inst: dict[str, Any]) -> str:
    """``as needed`` / ``as needed for pain`` (a coded reason in the page's language, else the
    reason as written)."""
    concept = inst.get("asNeededCodeableConcept")
    if concept:
        coded = next((_REASONS[c.get("code")] for c in concept.get("coding") or []
                      if c.get("code") in _REASONS), None)
        reason = _(coded) if coded else concept.get("text") or ""
        return _("as needed for %(reason)s", reason=reason) if reason else _("as needed")
    return _("as needed") if inst.get("asNeededBoolean") else ""


def medication_sentence(r: dict[str, Any]) -> str:
    inst = (r.get("dosageInstruction") or [{}])[0]
    dose = quantity_text(((inst.get("doseAndRate") or [{}])[0]).get("doseQuantity"))
    drug = (r.get("medicationCodeableConcept") or {}).get("text") or _("a medication")
    if r.get("status") == "stopped":  # a dose change's old order, stopped in its transaction
        return _("Stop %(drug)s (replaced by the order above)", drug=drug)
    repeat = (inst.get("timing") or {}).get("repeat") or {}
    parts = [
        _("Start %(drug)s", drug=drug),
        dose,
        route_text(inst.get("route")),
        frequency_text(repeat) or (_("once") if repeat.get("count") == 1 else ""),
        _("over %(n)s %(unit)s", n=_num(repeat["duration"]), unit=repeat.get("durationUnit", "h"))
        if repeat.get("duration")
        else "",
        as_needed_text(inst),
        duration_text(r),
    ]
    supply = quantity_text((r.get("dispenseRequest") or {}).get("quantity"))
    sentence = " ".join(p for p in parts if p)
    if not dose and inst.get("text"):
        sentence += f" ({inst['text']})"
    return sentence + (_("; dispense %(quantity)s", quantity=supply) if supply else "")


def allergy_sentence(r: dict[str, Any]) -> str:
    if any(c.get("code") == NO_KNOWN_ALLERGY for c in (r.get("code") or {}).get("coding") or []):
        return _("Record no known allergies")
    substance = (r.get("code") or {}).get("text") or _("an unnamed substance")
    reaction = (r.get("reaction") or [{}])[0]
    manifestations = ", ".join(
        m.get("text") or "" for m in reaction.get("manifestation") or [] if m.get("text")
    )
    detail = ", ".join(x for x in (manifestations, reaction.get("severity")) if x)
    kind = " ".join(x for x in (r.get("criticality") and f"{r['criticality']}-criticality",
                                 ", ".join(r.get("category") or [])) if x)
    said = (_("Record a %(kind)s allergy to %(substance)s", kind=kind, substance=substance) if kind
            else _("Record an allergy to %(substance)s", substance=substance))
    return said + (f" ({detail})" if detail else "")


def note_text(r: dict[str, Any]) -> str:
    """The note's text (the DocumentReference holds it base64-encoded)."""
    data = (((r.get("content") or [{}])[0]).get("attachment") or {}).get("data") or ""
    try:
        return base64.b64decode(data).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        return ""


def note_sentence(r: dict[str, Any]) -> str:
    kind = ((r.get("type") or {}).get("text") or _("note")).lower()
    return _("Save a %(kind)s (%(n)s characters) to the chart", kind=kind, n=len(note_text(r)))


def _code_of(concept: dict[str, Any] | None) -> str:
    first = ((concept or {}).get("coding") or [{}])[0]
    return f"{first.get('code', '')}".strip()


def service_request_sentence(r: dict[str, Any]) -> str:
    """"Order basic metabolic panel (LOINC 51990-0), stat, for 2026-11-28T08:00:00-05:00" or
    "Refer: Referral to orthopedic surgeon (SNOMED CT 308481009), for knee pain"."""
    code, what = r.get("code") or {}, (r.get("code") or {}).get("text") or _("a service")
    referral = any(
        c.get("code") == "3457005"
        for cat in r.get("category") or []
        for c in cat.get("coding") or []
    )
    system = "SNOMED CT" if referral else "LOINC"
    said = (
        _("Refer: %(what)s (%(system)s %(code)s)", what=what, system=system, code=_code_of(code))
        if referral
        else _(
            "Order %(what)s (%(system)s %(code)s)", what=what, system=system, code=_code_of(code)
        )
    )
    parts = [said, r.get("priority") or ""]
    if r.get("occurrenceDateTime"):
        parts.append(_("for %(when)s", when=r["occurrenceDateTime"]))
    reason = ((r.get("reasonCode") or [{}])[0]).get("text")
    if referral and reason:
        parts.append(_("for %(reason)s", reason=reason))
    return ", ".join(p for p in parts if p)


def observation_sentence(r: dict[str, Any]) -> str:
    """"Record blood pressure 150/95 mmHg" (the components' values joined)."""
    values = [quantity_text(c.get("valueQuantity")) for c in r.get("component") or []]
    shown = "/".join(v.split()[0] for v in values if v) + (
        f" {values[0].split()[-1]}" if values and values[0] else ""
    )
    value = shown if values else quantity_text(r.get("valueQuantity"))
    return _(
        "Record %(what)s %(value)s",
        what=(r.get("code") or {}).get("text") or _("an observation"),
        value=value,
    )


def action_sentence(resource: dict[str, Any]) -> str:
    """The proposal as one sentence; the FHIR type as a fallback for anything else."""
    rtype = resource.get("resourceType")
    if rtype == "Bundle":  # a transaction: each entry's sentence, in order
        return " ".join(action_sentence(e["resource"]) for e in resource.get("entry", []))
    describe = {"MedicationRequest": medication_sentence, "AllergyIntolerance": allergy_sentence,
                "DocumentReference": note_sentence, "ServiceRequest": service_request_sentence,
                "Observation": observation_sentence}.get(rtype or "")
    return describe(resource) if describe else _("Create a %(type)s", type=rtype)
