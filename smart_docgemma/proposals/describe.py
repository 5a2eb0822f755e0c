"""A proposal in one sentence a clinician would say, read from the FHIR resource itself.

The sentence is derived from the resource that will be written (not from the
words the clinician typed), so after an edit the card says what Approve
will now create: "Start amoxicillin 500 mg by mouth three times daily for 7 days".
"""
from __future__ import annotations

from typing import Any

import base64
import binascii

_TIMES = {1: "once", 2: "twice", 3: "three times", 4: "four times", 5: "five times", 6: "six times"}
_PERIODS = {"h": "hour", "d": "day", "wk": "week", "mo": "month"}
_DAILY = {"d": "daily", "wk": "weekly", "mo": "monthly"}
_ROUTE_WORDS = {"26643006": "by mouth", "47625008": "intravenously", "78421000": "intramuscularly",
                "34206005": "subcutaneously", "447694001": "by inhalation", "6064005": "topically"}
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
    if freq == 1 and period != 1:
        return f"every {_num(period)} {_PERIODS.get(unit, unit)}s"
    if freq == 1 and unit == "h":
        return "every hour"
    if period == 1 and unit in _DAILY:
        return f"{_TIMES.get(freq, f'{freq} times')} {_DAILY[unit]}"
    return f"{_TIMES.get(freq, f'{freq} times')} every {_num(period)} {_PERIODS.get(unit, unit)}s"


def route_text(route: dict[str, Any] | None) -> str:
    codes = [c.get("code") for c in (route or {}).get("coding") or []]
    word = next((_ROUTE_WORDS[c] for c in codes if c in _ROUTE_WORDS), None)
    return word or ((route or {}).get("text") or "").lower()


def duration_text(resource: dict[str, Any]) -> str:
    """``for 7 days`` from the dispense's expected supply duration (or a bounds duration)."""
    supply = (resource.get("dispenseRequest") or {}).get("expectedSupplyDuration")
    if not supply:
        inst = (resource.get("dosageInstruction") or [{}])[0]
        supply = ((inst.get("timing") or {}).get("repeat") or {}).get("boundsDuration")
    if not supply or supply.get("value") is None:
        return ""
    unit = supply.get("unit") or supply.get("code") or "days"
    return f"for {_num(supply['value'])} {unit}"


def medication_sentence(r: dict[str, Any]) -> str:
    inst = (r.get("dosageInstruction") or [{}])[0]
    dose = quantity_text(((inst.get("doseAndRate") or [{}])[0]).get("doseQuantity"))
    drug = (r.get("medicationCodeableConcept") or {}).get("text") or "a medication"
    parts = [f"Start {drug}", dose, route_text(inst.get("route")),
             frequency_text((inst.get("timing") or {}).get("repeat")),
             "as needed" if inst.get("asNeededBoolean") else "", duration_text(r)]
    supply = quantity_text((r.get("dispenseRequest") or {}).get("quantity"))
    sentence = " ".join(p for p in parts if p)
    if not dose and inst.get("text"):
        sentence += f" ({inst['text']})"
    return sentence + (f"; dispense {supply}" if supply else "")


def allergy_sentence(r: dict[str, Any]) -> str:
    substance = (r.get("code") or {}).get("text") or "an unnamed substance"
    reaction = (r.get("reaction") or [{}])[0]
    manifestations = ", ".join(m.get("text") or "" for m in reaction.get("manifestation") or [] if m.get("text"))
    detail = ", ".join(x for x in (manifestations, reaction.get("severity")) if x)
    kind = " ".join(x for x in (r.get("criticality") and f"{r['criticality']}-criticality",
                                 ", ".join(r.get("category") or [])) if x)
    return f"Record a {kind + ' ' if kind else ''}allergy to {substance}" + (f" ({detail})" if detail else "")


def note_text(r: dict[str, Any]) -> str:
    """The note's text (the DocumentReference holds it base64-encoded)."""
    data = (((r.get("content") or [{}])[0]).get("attachment") or {}).get("data") or ""
    try:
        return base64.b64decode(data).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        return ""


def note_sentence(r: dict[str, Any]) -> str:
    kind = ((r.get("type") or {}).get("text") or "note").lower()
    return f"Save a {kind} ({len(note_text(r))} characters) to the chart"


def action_sentence(resource: dict[str, Any]) -> str:
    """The proposal as one sentence; the FHIR type as a fallback for anything else."""
    rtype = resource.get("resourceType")
    describe = {"MedicationRequest": medication_sentence, "AllergyIntolerance": allergy_sentence,
                "DocumentReference": note_sentence}.get(rtype or "")
    return describe(resource) if describe else f"Create a {rtype}"
