"""A prescription's words as coded FHIR dosage: timing, as needed (with its reason), route,
dose, duration and quantity to dispense.

Reads what clinicians write — ``tds``, ``bd``, ``od``, ``qds``, ``nocte``, ``mane``, ``stat``,
``prn``/``as needed for pain``, ``8/8h``/``q8h``/``every 8 hours``, ``for 5/7``, ``x 7 days``,
``for 2/52``, ``dispense 20`` / ``#20`` — into ``Dosage.timing.repeat`` (frequency, period,
``when``, ``boundsDuration``, ``count``), ``asNeededBoolean``/``asNeededCodeableConcept``,
``route`` (SNOMED CT), ``doseAndRate`` (UCUM) and the MedicationRequest's
``dispenseRequest`` (``expectedSupplyDuration``, ``quantity``). What does not parse stays in
the text, never guessed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .. import frequency

SNOMED = "http://snomed.info/sct"
UCUM = "http://unitsofmeasure.org"
UNITS = {
    "mg": "mg",
    "g": "g",
    "mcg": "ug",
    "µg": "ug",
    "ug": "ug",
    "ml": "mL",
    "l": "L",
    "units": "[iU]",
    "unit": "[iU]",
    "iu": "[iU]",
    "meq": "meq",
    "mmol": "mmol",
}
DOSE = re.compile(r"(\d+(?:\.\d+)?)\s*(mg|g|mcg|µg|ug|ml|l|units?|iu|meq|mmol)\b", re.I)
AS_NEEDED = re.compile(
    r"\b(?:prn|p\.r\.n\.?|as needed|as required|when required|if needed)\b"
    r"(?:\s+for\s+(?!\d)([a-z][a-z '\-]{1,40}?))?(?=\s*$|\s*[,;.)]|\s+for\s+\d|\s+x\s*\d|"
    r"\s+(?:up to|max|maximum|dispense|qty|supply)\b)",
    re.I,
)
STAT = re.compile(r"\bstat\b|\bonce only\b|\bsingle dose\b", re.I)
DURATION = re.compile(
    r"(?:\bx\s*|\bfor\s+|\bduration\s+)(\d+)\s*(d\b|days?|w\b|wks?|weeks?|months?|/7|/52|/12)", re.I
)
DURATION_UNITS = {
    "d": ("days", "d"),
    "w": ("weeks", "wk"),
    "m": ("months", "mo"),
    "/7": ("days", "d"),
    "/52": ("weeks", "wk"),
    "/12": ("months", "mo"),
}
QUANTITY = re.compile(
    r"(?:\bdispense|\bqty|\bquantity|\bsupply|#)\s*:?\s*(\d+)\s*(tablets?|tabs?|capsules?|caps?|"
    r"ml|inhalers?|patches?|sachets?)?",
    re.I,
)
ROUTES = [
    (r"\b(?:oral(?:ly)?|by mouth|po|p\.o\.)\b", "26643006", "Oral route"),
    (r"\b(?:iv|intravenous(?:ly)?)\b", "47625008", "Intravenous route"),
    (r"\b(?:im|intramuscular(?:ly)?)\b", "78421000", "Intramuscular route"),
    (r"\b(?:sc|sq|subcut|subcutaneous(?:ly)?)\b", "34206005", "Subcutaneous route"),
    (r"\b(?:inhaled|inh|neb|nebulised|nebulized|puffs?)\b", "447694001", "Respiratory tract route"),
    (r"\b(?:topical(?:ly)?|top)\b", "6064005", "Topical route"),
    (r"\b(?:pr|rectal(?:ly)?)\b", "37161004", "Rectal route"),
    (r"\b(?:sl|sublingual(?:ly)?)\b", "37839007", "Sublingual route"),
]


@dataclass
class Order:
    """The coded parts of one prescription's words."""

    dosage: dict[str, Any]
    dispense: dict[str, Any] = field(default_factory=dict)


def parse_dose(text: str) -> dict[str, Any] | None:
    m = DOSE.search(text or "")
    if not m:
        return None
    value = float(m.group(1))
    return {
        "value": int(value) if value.is_integer() else value,
        "unit": m.group(2),
        "system": UCUM,
        "code": UNITS[m.group(2).lower()],
    }


def parse_timing(text: str) -> dict[str, Any] | None:
    """Timing.repeat from the words, in any language of ``frequencies/`` (None when none parse)."""
    return frequency.repeat(text)


def parse_duration(text: str) -> dict[str, Any] | None:
    """``for 5 days`` / ``x 7 days`` / ``for 5/7`` → a UCUM Duration."""
    m = DURATION.search(text or "")
    if not m:
        return None
    raw = m.group(2).lower()
    unit, code = DURATION_UNITS[raw if raw.startswith("/") else raw[0]]
    return {"value": int(m.group(1)), "unit": unit, "system": UCUM, "code": code}


def parse_route(text: str) -> dict[str, Any] | None:
    for pattern, code, display in ROUTES:
        if re.search(pattern, (text or "").lower()):
            return {
                "coding": [{"system": SNOMED, "code": code, "display": display}],
                "text": display,
            }
    return None


def as_needed(text: str) -> dict[str, Any]:
    """``{"asNeededCodeableConcept": …}`` (the reason, coded when ``frequencies/`` knows it:
    "prn for pain", "si douleur", "se dor", "si dolor"), ``{"asNeededBoolean": True}``, ``{}``."""
    m = AS_NEEDED.search(text or "")
    reason = (m.group(1) or "").strip() if m else ""
    if reason:
        return {"asNeededCodeableConcept": frequency.concept(reason, reason) or {"text": reason}}
    said = frequency.as_needed(text)
    if said and said.reason:
        return {"asNeededCodeableConcept": said.reason}
    return {"asNeededBoolean": True} if m or said else {}


def order(dosage: str, frequency: str, notes: str | None) -> Order:
    """Dosage (text always, coded parts where they parse) and the dispense request."""
    words = " ".join(t for t in (dosage, frequency, notes or "") if t)
    inst: dict[str, Any] = {
        "text": f"{dosage} {frequency}".strip() + (f". {notes}" if notes else "")
    }
    repeat = parse_timing(f"{frequency} {notes or ''}") or {}
    if STAT.search(words):
        repeat = {
            "count": 1,
            **({} if repeat else {"frequency": 1, "period": 1, "periodUnit": "d"}),
            **repeat,
        }
    duration = parse_duration(words)
    if duration and not repeat.get("count"):
        repeat["boundsDuration"] = duration
    if repeat:
        inst["timing"] = {"repeat": repeat}
    inst.update(as_needed(words))
    route = parse_route(words)
    if route:
        inst["route"] = route
    dose = parse_dose(dosage) or parse_dose(words)
    if dose:
        inst["doseAndRate"] = [{"doseQuantity": dose}]
    return Order(inst, _dispense(words, duration))


def _dispense(words: str, duration: dict[str, Any] | None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if duration:
        out["expectedSupplyDuration"] = duration
    m = QUANTITY.search(words)
    if m:
        unit = (m.group(2) or "").lower().rstrip("s") or "unit"
        out["quantity"] = {"value": int(m.group(1)), "unit": unit}
    return out
