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
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from ... import knowledge
from ...datafiles import safe_yaml
from ...languages import frequency

SNOMED = "http://snomed.info/sct"
UCUM = "http://unitsofmeasure.org"
DATA = Path(__file__).parents[1] / "data"  # the tools' tables, one folder


@lru_cache(maxsize=1)
def dose_units() -> dict[str, str | None]:
    """Unit word → UCUM code (None for a count: puffs, tablets), from ``data/write_codes.yaml``."""
    units: dict[str, str | None] = safe_yaml((DATA / "write_codes.yaml").read_text())[
        "dose_units"
    ]
    return units


# A number as a dose is written: "2.5", "2,5" (a decimal comma: one or two digits after it),
# "0,125" (a decimal comma after a zero, however many digits: a thousands group never starts with
# 0, so "digoxine 0,125 mg" is never 125 mg), "1,000" (thousands: three digits after each comma),
# "1.200.000" (thousands with points, as French, Portuguese and Spanish write them: two groups at
# least, never a decimal); ``amount`` gives its value's digits
# Thousands are also written with a space ("héparine 5 000 UI", "vitamine D 100 000 UI"): groups of
# three before an international unit ("daltéparine 2 500 UI"), or of zeros before any unit
# ("paracetamol 1 000 mg"); and with one point in Spanish and Portuguese ("heparina 5.000 UI",
# "amoxicilina 1.000 mg"): one group of three zeros, read as thousands (a trailing ".000" is
# never a decimal a prescriber may write), never "5.5" or "0.125"
_UI = r"(?:ui|iu|u\.i\.|units?|unites?|unidades?|unidad)"
NUMBER = (r"([1-3][/⁄][234](?![\d/])|[½¼¾]"
          rf"|[1-9]\d{{0,2}}(?:[ \u00a0\u202f]\d{{3}})+(?=\s*{_UI}\b)"
          r"|[1-9]\d{0,2}(?:[ \u00a0\u202f]000)+(?![\d,.])|[1-9]\d{0,2}\.000(?![\d.,])"
          r"|0,\d{1,4}(?![\d,])|[1-9]\d{0,2}(?:,\d{3})+(?![\d,])"
          r"|\d{1,3}(?:\.\d{3}){2,}(?![\d.])"
          r"|\d+(?:\.\d+|,\d{1,2}(?!\d))?)")
_FRACTIONS = {"1/2": "0.5", "1/4": "0.25", "3/4": "0.75", "1/3": "0.33", "2/3": "0.67",
              "½": "0.5", "¼": "0.25", "¾": "0.75", "1⁄2": "0.5", "1⁄4": "0.25", "3⁄4": "0.75"}


def amount(said: str) -> str:
    """A number as written, as digits with a decimal point: "2,5" → "2.5", "1,000" → "1000",
    "1/2" (of a tablet) → "0.5"."""
    if said in _FRACTIONS:
        return _FRACTIONS[said]
    said = re.sub(r"(?<=\d)[ \u00a0\u202f](?=\d{3})", "", said)  # "5 000" → "5000"
    if re.fullmatch(r"[1-9]\d{0,2}\.000", said):
        return said.replace(".", "")
    if re.fullmatch(r"[1-9]\d{0,2}(?:,\d{3})+", said):
        return said.replace(",", "")
    if re.fullmatch(r"\d{1,3}(?:\.\d{3}){2,}", said):
        return said.replace(".", "")
    return said.replace(",", ".")


@lru_cache(maxsize=4)
def range_pattern(counts: tuple[str, ...] = ()) -> re.Pattern[str]:
    """A dose written as a range ("2.5-5 mg", "5 to 10mg", "1 à 2 cp"): both ends, one unit of
    ``dose_units`` or of ``counts`` (a language's count words: "cp", "comprimidos")."""
    words = sorted({*dose_units(), *counts}, key=len, reverse=True)
    return re.compile(
        rf"(?<![\w.,/⁄]){NUMBER}\s*(?:-|–|to|a|à)\s*{NUMBER}\s*"
        rf"({'|'.join(re.escape(w) for w in words)})(?![a-z])", re.I
    )


def dose_range(text: str) -> dict[str, Any] | None:
    """A range's ends as UCUM quantities (``Dosage.doseAndRate.doseRange``); None for one dose
    or a count ("1-2 tabs" is said in the text, not coded)."""
    m = range_pattern().search(text or "")
    code = ucum(m.group(3)) if m else None
    if m is None or code is None:
        return None
    ends = [float(amount(m.group(i))) for i in (1, 2)]
    return {key: {"value": int(v) if v.is_integer() else v, "unit": m.group(3), "system": UCUM,
                  "code": code} for key, v in zip(("low", "high"), ends, strict=True)}


@lru_cache(maxsize=1)
def dose_pattern() -> re.Pattern[str]:
    """A dose as written: a number and a unit word of ``dose_units`` (longest first, so
    "mg/kg" is not read as "mg"); the one dose pattern of the package."""
    words = sorted(dose_units(), key=len, reverse=True)
    return re.compile(
        rf"(?<![\w.,/⁄]){NUMBER}\s*({'|'.join(re.escape(w) for w in words)})(?![a-z])", re.I
    )


def ucum(unit: str) -> str | None:
    """The UCUM code of a dose unit word ("mcg" → "ug"), None for a count or an unknown word."""
    return dose_units().get(unit.lower())
AS_NEEDED = re.compile(
    r"\b(?:prn|p\.r\.n\.?|as needed|as required|when required|if needed)\b"
    r"(?:\s+for\s+(?!\d)([a-z][a-z '\-]{1,40}?))?(?=\s*$|\s*[,;.)]|\s+for\s+\d|\s+x\s*\d|"
    r"\s+(?:up to|max|maximum|dispense|qty|supply)\b|"
    # the order's last word a switch or a consequence ("paracetamol 1g qds prn instead", "…
    # prn then"): the as-needed still said
    r"\s+(?:instead|then|rather|pls|please)\s*[.!]?\s*$)",
    re.I,
)
STAT = re.compile(r"\bstat\b|\bonce only\b|\bsingle dose\b", re.I)
# An infusion's length ("1 g IV over 1 hour", "over 30 min"): a single dose given over that time
INFUSION = re.compile(r"\bover\s+(\d+(?:\.\d+)?)\s*(h|hrs?|hours?|min|mins|minutes?)\b", re.I)
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


@dataclass(frozen=True)
class RouteOfAdministration:
    """A route of administration: the package's one vocabulary for it. ``key`` is the card's
    edit form value (and the HTTP API's ``route``), ``code``/``display`` the SNOMED CT coding a
    MedicationRequest carries, ``pattern`` the words a clinician writes for it."""

    key: str
    code: str
    display: str
    pattern: str


ROUTES = (
    RouteOfAdministration(
        "oral", "26643006", "Oral route", r"\b(?:oral(?:ly)?|by mouth|po|p\.o\.)\b"
    ),
    RouteOfAdministration(
        "intravenous", "47625008", "Intravenous route", r"\b(?:iv|intravenous(?:ly)?)\b"
    ),
    RouteOfAdministration(
        "intramuscular", "78421000", "Intramuscular route", r"\b(?:im|intramuscular(?:ly)?)\b"
    ),
    RouteOfAdministration(
        "subcutaneous",
        "34206005",
        "Subcutaneous route",
        r"\b(?:sc|sq|subcut|subcutaneous(?:ly)?)\b",
    ),
    RouteOfAdministration(
        "inhaled",
        "447694001",
        "Respiratory tract route",
        r"\b(?:inhaled|inh|neb|nebulised|nebulized|puffs?)\b",
    ),
    RouteOfAdministration("topical", "6064005", "Topical route", r"\b(?:topical(?:ly)?|top)\b"),
    RouteOfAdministration("rectal", "37161004", "Rectal route", r"\b(?:pr|rectal(?:ly)?)\b"),
    RouteOfAdministration(
        "sublingual", "37839007", "Sublingual route", r"\b(?:sl|sublingual(?:ly)?)\b"
    ),
)
ROUTE_KEYS = tuple(route.key for route in ROUTES)


@dataclass
class Order:
    """The coded parts of one prescription's words."""

    dosage: dict[str, Any]
    dispense: dict[str, Any] = field(default_factory=dict)


def parse_dose(text: str) -> dict[str, Any] | None:
    """``500 mg`` → a UCUM doseQuantity; None without a dose, or for a count ("2 puffs")."""
    m = dose_pattern().search(text or "")
    code = ucum(m.group(2)) if m else None
    if m is None or code is None:
        return None
    value = float(amount(m.group(1)))
    return {
        "value": int(value) if value.is_integer() else value,
        "unit": m.group(2),
        "system": UCUM,
        "code": code,
    }


def parse_timing(text: str) -> dict[str, Any] | None:
    """Timing.repeat from the words, in any language of ``languages/frequencies/`` (None when none
    parse)."""
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
    """The route the words name, as a coded CodeableConcept (None when they name none)."""
    found = next((r for r in ROUTES if re.search(r.pattern, (text or "").lower())), None)
    return route_coding(found.key) if found else None


def route_coding(key: str) -> dict[str, Any]:
    """The CodeableConcept of the route ``key`` (one of ``ROUTE_KEYS``)."""
    route = next(r for r in ROUTES if r.key == key)
    return {
        "coding": [{"system": SNOMED, "code": route.code, "display": route.display}],
        "text": route.display,
    }


def route_key(concept: dict[str, Any] | None) -> str:
    """The key of a coded route ("" when it carries none of ours)."""
    codes = {c.get("code") for c in (concept or {}).get("coding") or []}
    return next((r.key for r in ROUTES if r.code in codes), "")


def as_needed(text: str) -> dict[str, Any]:
    """``{"asNeededCodeableConcept": …}`` (the reason, coded when ``languages/frequencies/`` knows
    it: "prn for pain", "si douleur", "se dor", "si dolor"), ``{"asNeededBoolean": True}``,
    ``{}``."""
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
    dose = per_administration(words) or parse_dose(dosage) or parse_dose(words)
    if dose:
        inst["doseAndRate"] = [{"doseQuantity": dose}]
    ends = dose_range(dosage)
    if ends:  # "2.5-5 mg": the range, never one of its ends
        inst["doseAndRate"] = [{"doseRange": ends}]
    infusion(inst, words)
    return Order(inst, _dispense(words, duration))


def infusion(inst: dict[str, Any], words: str) -> None:
    """"over 2 hours": the dose is given once over that time (``timing.repeat`` count 1 with
    its duration) at dose ÷ duration (``rateQuantity``, e.g. 1 g/h) when the dose has a unit."""
    m = INFUSION.search(words or "")
    if not m:
        return
    value, unit = float(m.group(1)), "min" if m.group(2).lower().startswith("m") else "h"
    length = int(value) if value.is_integer() else value
    repeat = inst.setdefault("timing", {}).setdefault("repeat", {})
    if not repeat.get("frequency"):  # a single dose; "tds over 30 min" keeps its frequency
        repeat.setdefault("count", 1)
    repeat.update({"duration": length, "durationUnit": unit})
    rate = (inst.get("doseAndRate") or [{}])[0]
    dose = rate.get("doseQuantity")
    if dose and dose.get("code") and value:
        per_hour = round(dose["value"] / (value if unit == "h" else value / 60), 3)
        shown = int(per_hour) if float(per_hour).is_integer() else per_hour
        rate["rateQuantity"] = {"value": shown, "unit": f"{dose['unit']}/h", "system": UCUM,
                                "code": f"{dose['code']}/h"}


def per_administration(words: str) -> dict[str, Any] | None:
    """A day's amount in mg/kg ("90mg/kg/day divided bd") as the dose of one administration
    (45 mg/kg): the dose quantity is per administration, and the timing says how many."""
    written = knowledge.read_weight_dose(words)
    per_dose = written.per_dose_mg_per_kg if written else None
    if per_dose is None:
        return None
    value = round(per_dose, 2)
    return {
        "value": int(value) if value.is_integer() else value,
        "unit": "mg/kg",
        "system": UCUM,
        "code": "mg/kg",
    }


def _dispense(words: str, duration: dict[str, Any] | None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if duration:
        out["expectedSupplyDuration"] = duration
    m = QUANTITY.search(words)
    if m:
        unit = (m.group(2) or "").lower().rstrip("s") or "unit"
        out["quantity"] = {"value": int(m.group(1)), "unit": unit}
    return out


# a release form written after the drug: capitals for the abbreviations, since "la", "er", "cd"
# and "sa" are ordinary words in lower case ("nifedipino la 20"); "retard" and the spelled-out
# forms in any case
_FORM_AFTER = re.compile(r"\s+(?:(MR|SR|XL|XR|ER|CR|LA|LP|CD|PR)\b|(?i:(retard|"
                         r"modified[- ]release|prolonged[- ]release|extended[- ]release|"
                         r"lib[ée]ration prolong[ée]e|libera[cç][aã]o prolongada|"
                         r"liberaci[oó]n prolongada)\b))")


def release_form(text: str, drug: str) -> str | None:
    """The release form written right after the drug ("nifedipine MR 20 bd": "MR", "nifedipino
    retard": "retard"), as written; None when none is. Accents are folded to find the drug
    ("nifédipine LP"), which keeps every letter's place."""
    folded = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in folded if not unicodedata.combining(c))
    if len(plain) != len(text):
        plain = text
    name = "".join(c for c in unicodedata.normalize("NFKD", drug) if not unicodedata.combining(c))
    at = re.search(rf"(?<![A-Za-z]){re.escape(name)}(?![A-Za-z])", plain, re.I)
    m = _FORM_AFTER.match(text, at.end()) if at else None
    return (m.group(1) or m.group(2)) if m else None
