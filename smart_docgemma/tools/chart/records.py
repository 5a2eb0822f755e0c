"""Reading chart resources into what a clinician scans: problems sorted (disorders first,
social findings apart), medications with dose and frequency, allergies, result series with
trends, encounters and immunisations.

Pure functions over FHIR JSON (no fetching); the code and word lists are data
(``data/chart_terms.yaml``). Real charts (Synthea-generated ones in the sandbox) record
employment, education and stressors as Conditions, decades of history, and medication
references to ``Medication`` resources; the fixtures have none of these, so each is read here.
"""

from __future__ import annotations

import base64
import re
from dataclasses import asdict, replace
from datetime import date
from functools import lru_cache
from pathlib import Path
from typing import Any

from ...datafiles import safe_yaml
from ...knowledge import analytes, reference_intervals
from .chartdata import (
    ChartAllergy,
    ChartEncounter,
    ChartImmunization,
    ChartMed,
    ChartNote,
    ChartPatient,
    ChartPoint,
    ChartProblem,
    ChartSeries,
)

# the chart's numbers as written, here for the tools that read records
from .chartdata import num as num

# Newest first, ties broken by id: a window cut among results of the same date is then the same
# on every read (sorted by date alone, HAPI returns a different subset of the tied results).
SORT_NEWEST = "-date,_id"

DATA = Path(__file__).parents[1] / "data"  # the tools' tables, one folder
SERIES_POINTS = 20  # per code, for the UI's trend plots
_TAG = re.compile(r"\s*\(([a-z /]+)\)\s*$")
_INSTRUCTION_LIKE = re.compile(
    r"\b(ignore|disregard|forget)\b.{0,40}\b(instructions?|prompts?|rules)\b|\bsystem prompt\b|"
    r"\byou are (now )?(an? )?(ai|assistant|language model)\b",
    re.I,
)
_PERIOD_UNITS = {
    "s": "second",
    "min": "minute",
    "h": "hour",
    "d": "day",
    "wk": "week",
    "mo": "month",
    "a": "year",
}


@lru_cache(maxsize=1)
def terms() -> dict[str, Any]:
    """``chart_terms.yaml``, with ``key_labs`` (name -> LOINC codes, in scanning order) from the
    one analyte table (``knowledge/data/analytes.yaml``)."""
    data: dict[str, Any] = safe_yaml((DATA / "chart_terms.yaml").read_text())
    data["key_labs"] = {a.name: list(a.codes) for a in analytes.table().values() if not a.vital}
    return data


@lru_cache(maxsize=1)
def short_names() -> dict[str, str]:
    """LOINC code → short name ("6298-4" → "Potassium", "41653-7" → "Capillary glucose") for key
    labs (the narrowest analyte of each code) and vitals."""
    t = terms()
    labs = {code: found.name for code in {c for codes in t["key_labs"].values() for c in codes}
            if (found := analytes.of_code(code))}
    return {**labs, **{code: name for name, codes in t["vitals"].items() for code in codes}}


# ------------------------------------------------------------------ plain FHIR values
def concept_text(cc: dict[str, Any] | None) -> str:
    """The human text of a CodeableConcept: its text, else the first coding's display or code."""
    cc = cc or {}
    coding: dict[str, Any] = next(iter(cc.get("coding") or []), {})
    return cc.get("text") or coding.get("display") or coding.get("code") or "unnamed"


def code_of(cc: dict[str, Any] | None) -> str:
    return next((c.get("code") for c in (cc or {}).get("coding") or [] if c.get("code")), "")


def day(value: str | None) -> str:
    return (value or "")[:10]


def untagged(text: str) -> tuple[str, str]:
    """``("Essential hypertension", "disorder")`` from SNOMED's "Essential hypertension
    (disorder)"."""
    m = _TAG.search(text)
    return (text[: m.start()].strip(), m.group(1)) if m else (text, "")


def age_on(birth: str, on: date | None = None) -> int | None:
    try:
        born, today = date.fromisoformat(birth[:10]), on or date.today()
    except ValueError:
        return None
    return today.year - born.year - ((today.month, today.day) < (born.month, born.day))


def patient_facts(patient: dict[str, Any]) -> dict[str, Any]:
    """``chart_patient`` as the plain values of a patient search's matches."""
    return asdict(chart_patient(patient))


def chart_patient(patient: dict[str, Any]) -> ChartPatient:
    """Name, sex, birth date, age and MRN of a Patient resource (for text, cards and lists)."""
    name: dict[str, Any] = next(iter(patient.get("name") or []), {})
    full = name.get("text") or " ".join([*name.get("given", []), name.get("family", "")]).strip()
    birth = patient.get("birthDate", "")
    mrn = next(
        (
            i.get("value")
            for i in patient.get("identifier") or []
            if code_of(i.get("type")) == "MR" or "mrn" in (i.get("system") or "").lower()
        ),
        None,
    )
    died = day(patient.get("deceasedDateTime")) or None
    end = date.fromisoformat(died) if died else None
    return ChartPatient(
        id=patient.get("id"),
        name=full or "Unnamed patient",
        gender=patient.get("gender", ""),
        birth_date=birth,
        age=age_on(birth, end),
        mrn=mrn,
        deceased=died,
    )


# ------------------------------------------------------------------ problems
def is_social(res: dict[str, Any]) -> bool:
    t = terms()
    cats = {code_of(c) for c in res.get("category") or []}
    text = concept_text(res.get("code")).lower()
    return bool(
        cats & {"sdoh", "social-history"}
        or code_of(res.get("code")) in t["social_codes"]
        or any(w in text for w in t["social_words"])
    )


def problem(res: dict[str, Any]) -> ChartProblem:
    text, tag = untagged(concept_text(res.get("code")))
    onset = day(
        res.get("onsetDateTime")
        or (res.get("onsetPeriod") or {}).get("start")
        or res.get("recordedDate")
    )
    kind = (
        "social"
        if is_social(res)
        else ("finding" if tag in terms()["finding_tags"] else "disorder")
    )
    return ChartProblem(text=text, tag=tag, onset=onset, ref=f"Condition/{res['id']}", kind=kind)


def problems(conditions: list[dict[str, Any]]) -> list[ChartProblem]:
    """Active problems: disorders by clinical weight (``problem_weight``: ischaemic heart disease
    before gingivitis), newest first within a weight, then findings/history, then social
    findings; one entry per problem text (a chronic problem re-recorded at each visit shows
    once)."""
    seen, out = set(), []
    for p in sorted(map(problem, conditions), key=lambda p: p.onset, reverse=True):
        if p.text.lower() not in seen:
            seen.add(p.text.lower())
            out.append(p)
    order = {"disorder": 0, "finding": 1, "social": 2}
    return sorted(out, key=lambda p: (order[p.kind], weight(p.text)))  # stable: newest first


def weight(text: str) -> int:
    """0 serious, 1 other, 2 minor (``problem_weight`` of ``data/chart_terms.yaml``)."""
    low = text.lower()
    if _weight_words("serious").search(low):
        return 0
    if _weight_words("minor").search(low):
        return 2
    return 0 if re.search(r"\bchronic\b", low) else 1


@lru_cache(maxsize=2)
def _weight_words(key: str) -> re.Pattern[str]:
    words = sorted(terms()["problem_weight"][key], key=len, reverse=True)
    return re.compile(r"(?<![a-z])(?:" + "|".join(map(re.escape, words)) + r")(?![a-z])")


# ------------------------------------------------------------------ medications
def medication(res: dict[str, Any], included: dict[str, dict[str, Any]] | None = None) -> ChartMed:
    """Name, dose and frequency of a MedicationRequest (a referenced Medication is looked up in
    ``included``, the search's ``_include`` results)."""
    if "medicationCodeableConcept" in res:
        concept = res["medicationCodeableConcept"]
    else:
        ref = res.get("medicationReference") or {}
        found = (included or {}).get(ref.get("reference", ""))
        concept = (
            found.get("code")
            if found
            else {"text": ref.get("display") or "medication (referenced)"}
        )
    return ChartMed(
        text=concept_text(concept),
        dosage=dosage(res.get("dosageInstruction") or []),
        authored=day(res.get("authoredOn")),
        concept=concept,
        ref=f"MedicationRequest/{res['id']}",
        reasons=tuple(
            [untagged(concept_text(r))[0] for r in res.get("reasonCode") or []]
            + [r.get("display") or r.get("reference", "") for r in res.get("reasonReference") or []]
        ),
    )


def dosage(instructions: list[dict[str, Any]]) -> str:
    """ "1 dose once per day" / the prescriber's text; empty when the order says nothing."""
    parts = []
    for d in instructions:
        if d.get("text") and not d.get("timing"):
            parts.append(d["text"].rstrip("."))
            continue
        dose = next(
            (r.get("doseQuantity") for r in d.get("doseAndRate") or [] if r.get("doseQuantity")),
            None,
        )
        amount = f"{num(dose['value'])} {dose.get('unit') or 'dose'}".strip() if dose else ""
        words = [
            w
            for w in (
                amount,
                _frequency((d.get("timing") or {}).get("repeat") or {}),
                "as needed" if d.get("asNeededBoolean") else "",
            )
            if w
        ]
        parts.append(" ".join(words) or (d.get("text") or "").rstrip("."))
    return "; ".join(p for p in parts if p)


def _frequency(rep: dict[str, Any]) -> str:
    freq, period, unit = rep.get("frequency"), rep.get("period"), rep.get("periodUnit")
    if not (freq and period and unit):
        return ""
    every = _PERIOD_UNITS.get(unit, unit)
    per = f"per {every}" if period == 1 else f"every {num(period)} {every}s"
    times = {1: "once", 2: "twice"}.get(freq, f"{num(freq)} times")
    return f"{times} {per}"


# ------------------------------------------------------------------ allergies
@lru_cache(maxsize=1)
def no_known_codes() -> frozenset[str]:
    """SNOMED CT codes that record "no known allergy" (``write_codes.yaml`` no_known_allergy)."""
    codes = safe_yaml((DATA / "write_codes.yaml").read_text())["no_known_allergy"]["codes"]
    return frozenset(codes)


def allergy(res: dict[str, Any]) -> ChartAllergy | None:
    status = code_of(res.get("verificationStatus"))
    if status in ("refuted", "entered-in-error") or code_of(res.get("clinicalStatus")) in (
        "inactive",
        "resolved",
    ):
        return None
    manifest = [
        untagged(concept_text(m))[0]
        for r in res.get("reaction") or []
        for m in r.get("manifestation") or []
    ]
    severity = next(
        (r.get("severity") for r in res.get("reaction") or [] if r.get("severity")), None
    )
    return ChartAllergy(
        no_known=bool(
            no_known_codes() & {c.get("code") for c in (res.get("code") or {}).get("coding") or []}
        ),
        substance=untagged(concept_text(res.get("code")))[0],
        reaction=", ".join(dict.fromkeys(manifest)),
        severity=severity,
        criticality=res.get("criticality"),
        verification=status,
        category=", ".join(res.get("category") or []),
        ref=f"AllergyIntolerance/{res['id']}",
    )


# ------------------------------------------------------------------ results
def when(res: dict[str, Any]) -> str:
    return day(
        res.get("effectiveDateTime")
        or (res.get("effectivePeriod") or {}).get("start")
        or res.get("issued")
    )


def series(observations: list[dict[str, Any]]) -> dict[str, ChartSeries]:
    """Observations (components expanded) grouped by code, with latest value and trend."""
    found: dict[str, tuple[str, str, list[ChartPoint]]] = {}  # code -> (name, unit, points)
    names = short_names()
    for res in observations:
        taken = when(res)
        for part in [res] + [dict(c, id=res["id"]) for c in res.get("component") or []]:
            qty = part.get("valueQuantity")
            if not qty or qty.get("value") is None:
                continue
            code = code_of(part.get("code"))
            name = names.get(code) or untagged(concept_text(part.get("code")))[0][:40]
            entry = found.setdefault(code, (name, qty.get("unit") or qty.get("code") or "", []))
            entry[2].append(ChartPoint(taken, qty["value"], f"Observation/{res['id']}",
                                       reference_intervals.own_range(part.get("referenceRange")),
                                       reference_intervals.flag_of(part.get("interpretation"))))
    out = {code: _series(code, name, unit, points) for code, (name, unit, points) in found.items()}
    by_name: dict[str, list[ChartSeries]] = {}
    for one in out.values():
        by_name.setdefault(one.name, []).append(one)
    for same in by_name.values():  # two codes, one name (serum and blood sodium): say which
        for other in sorted(same, key=lambda e: -e.count)[1:]:
            out[other.code] = replace(other, name=f"{other.name} [LOINC {other.code}]")
    return out


def _series(code: str, name: str, unit: str, points: list[ChartPoint]) -> ChartSeries:
    newest = sorted(points, key=lambda p: p.date, reverse=True)
    return ChartSeries(
        code=code,
        name=name,
        unit=unit,
        count=len(newest),
        direction=direction(newest),
        latest=newest[0],
        series=tuple(reversed(newest[:SERIES_POINTS])),
    )  # oldest → newest, for plots


def direction(points: list[ChartPoint]) -> str:
    """↑ ↓ → comparing the newest value with the one before (within 1 % is steady)."""
    if len(points) < 2:
        return ""
    new, old = points[0].value, points[1].value
    if abs(new - old) <= abs(old) * 0.01:
        return "→"
    return "↑" if new > old else "↓"


# ------------------------------------------------------------------ other sections
def note(res: dict[str, Any]) -> ChartNote:
    text = ""
    for content in res.get("content") or []:
        att = content.get("attachment") or {}
        if (att.get("contentType") or "").startswith("text/plain") and att.get("data"):
            text = base64.b64decode(att["data"]).decode("utf-8", errors="replace")
            break
    author = ", ".join(a.get("display") or a.get("reference", "") for a in res.get("author") or [])
    return ChartNote(
        date=day(res.get("date")),
        type=concept_text(res.get("type")),
        author=author,
        text=text[:1200],
        untrusted=True,
        instruction_like=bool(_INSTRUCTION_LIKE.search(text)),
        ref=f"DocumentReference/{res['id']}",
    )


def encounter(res: dict[str, Any]) -> ChartEncounter:
    reason = ", ".join(untagged(concept_text(r))[0] for r in res.get("reasonCode") or [])
    kind = (
        untagged(concept_text(next(iter(res.get("type") or []), None)))[0]
        if res.get("type")
        else ""
    )
    klass = (res.get("class") or {}).get("code", "")
    period = res.get("period") or {}
    return ChartEncounter(
        date=day(period.get("start")),
        end=day(period.get("end")),
        type=kind,
        reason=reason,
        status=res.get("status"),
        klass=klass,
        admission=terms()["admission_classes"].get(klass),
        ref=f"Encounter/{res['id']}",
    )


def immunization(res: dict[str, Any]) -> ChartImmunization:
    return ChartImmunization(date=day(res.get("occurrenceDateTime") or res.get("recorded")),
                             vaccine=concept_text(res.get("vaccineCode")), status=res.get("status"),
                             ref=f"Immunization/{res['id']}")
