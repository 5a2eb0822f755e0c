"""How orders write a frequency, in every language: the one table
(``languages/frequencies/<lang>.yaml``) the order's coding (``tools/words/dosing.py``), the dose
check (``knowledge/dose.py``) and the agent's reading of an order's words (``agent/languages.py``)
share.

``repeat`` turns the words into FHIR ``Timing.repeat`` ("tds", "3x/j", "de 8/8h", "cada 12
horas", "nocte"); ``per_day`` is the same reading as administrations a day; ``as_needed`` finds
the words that make an order as needed and the reason they give ("si douleur" → pain, coded).
English first, then French, Portuguese and Spanish; text is read accent folded, lower case.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from ..datafiles import safe_yaml
from . import fold

FOLDER = Path(__file__).with_name("frequencies")
LANGUAGES = ("en", "fr", "pt", "es")
SNOMED = "http://snomed.info/sct"
_DAYS = {"h": 1 / 24, "d": 1.0, "wk": 7.0, "mo": 30.0}


@dataclass(frozen=True)
class Timing:
    """One row of a language's ``timings``."""

    pattern: re.Pattern[str]
    frequency: int
    period: int
    unit: str
    when: str | None = None


@dataclass(frozen=True)
class AsNeeded:
    """The words that made an order as needed, as written, and its coded reason (or None)."""

    words: str
    reason: dict[str, Any] | None = None


@cache
def table(lang: str) -> dict[str, Any]:
    """``languages/frequencies/<lang>.yaml`` as parsed."""
    text = (FOLDER / f"{lang}.yaml").read_text(encoding="utf-8")
    found: dict[str, Any] = safe_yaml(text) or {}
    return found


@lru_cache(maxsize=1)
def timings() -> tuple[Timing, ...]:
    """Every language's timings, English first, each bounded so "od" is not read in "food"."""
    rows = []
    for lang in LANGUAGES:
        for words, (freq, period, unit, *when) in table(lang).get("timings") or []:
            bounded = re.compile(rf"(?<![a-z])(?:{words})(?![a-z])")
            rows.append(Timing(bounded, freq, period, unit, when[0] if when else None))
    return tuple(rows)


@lru_cache(maxsize=1)
def _numbers() -> dict[str, int]:
    return {k: v for lang in LANGUAGES for k, v in (table(lang).get("numbers") or {}).items()}


def written(text: str) -> str | None:
    """The frequency as the clinician wrote it (folded), None when no timing reads it."""
    low = fold(text or "").lower()
    return next((m.group(0) for row in timings() if (m := row.pattern.search(low))), None)


def repeat(text: str) -> dict[str, Any] | None:
    """FHIR Timing.repeat of the first timing the words match, else None (never guessed)."""
    low = fold(text or "").lower()
    for row in timings():
        m = row.pattern.search(low)
        if m:
            return _repeat(row, {k: v for k, v in m.groupdict().items() if v})
    return None


def _repeat(row: Timing, said: dict[str, str]) -> dict[str, Any]:
    n = next((v for k, v in said.items() if k.startswith("n")), None)
    hours = next((v for k, v in said.items() if k.startswith("h")), None)
    freq = int(n) if n and n.isdigit() else _numbers().get(n or "", row.frequency)
    period = int(hours) if hours else row.period
    out: dict[str, Any] = {"frequency": freq, "period": period, "periodUnit": row.unit}
    if row.when:
        out["when"] = [row.when]
    return out


def per_day(text: str) -> float | None:
    """Administrations a day the words say (0.14 for weekly, 3 for every 8 hours), else None."""
    rep = repeat(text)
    if not rep or not rep["period"]:
        return None
    return rep["frequency"] / (rep["period"] * _DAYS[rep["periodUnit"]])


@lru_cache(maxsize=1)
def _as_needed_words() -> tuple[tuple[re.Pattern[str], str | None], ...]:
    rows = [(words, reason) for lang in LANGUAGES
            for words, reason in (table(lang).get("as_needed") or {}).items()]
    rows.sort(key=lambda r: len(r[0]), reverse=True)  # "si douleurs" before "si douleur"
    return tuple((re.compile(rf"(?<![a-z]){re.escape(w)}(?![a-z])"), reason) for w, reason in rows)


def as_needed(text: str) -> AsNeeded | None:
    """"si besoin", "se dor", "si dolor", "prn pain" …: the as-needed words and their reason."""
    low = fold(text or "").lower()
    for pattern, reason in _as_needed_words():
        m = pattern.search(low)
        if m:  # the reason's text as written, accents kept, where folding kept the length
            said = text[m.start():m.end()] if len(low) == len(text) else m.group(0)
            return AsNeeded(m.group(0), concept(reason, said) if reason else None)
    return None


def concept(reason: str, text: str) -> dict[str, Any] | None:
    """The CodeableConcept of a reason key or word ("pain", "fever"), the words kept as text."""
    coded = (table("en").get("reasons") or {}).get(reason.strip().lower())
    if not coded:
        return None
    return {"coding": [{"system": SNOMED, "code": coded["code"], "display": coded["display"]}],
            "text": text}
