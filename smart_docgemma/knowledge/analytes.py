"""Laboratory analytes: what a result measures, whatever code it was reported under.

One table (``data/analytes.yaml``): per analyte its LOINC codes with the specimen each names,
the unit answers and protocols use, conversions from the other units results arrive in, and
the words clinicians write for it. A capillary glucose (41653-7) and a serum glucose (2345-7)
are then the same analyte, and a magnesium in mmol/L compares with a protocol in mg/dL.

    analyte("Magnesium") -> Analyte;  of_code("41653-7") -> Analyte (the narrowest)
    named_in("latest finger-prick glucose?") -> Analyte | None
    convert(1.2, "mmol/L", analyte("Magnesium")) -> 2.917  (mg/dL)

Pure data and functions: no FHIR, no Flask.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from ..datafiles import safe_yaml

DATA = Path(__file__).with_name("data") / "analytes.yaml"


@dataclass(frozen=True)
class Analyte:
    """One thing measured: its name, codes (code -> specimen), unit and conversions."""

    name: str
    codes: dict[str, str]
    unit: str
    # unit key -> (factor, offset)
    convert: dict[str, tuple[float, float]] = field(default_factory=dict)
    # the broader analyte to fall back to ("Capillary glucose" -> "Glucose")
    family: str | None = None
    words: tuple[str, ...] = ()
    patterns: tuple[str, ...] = ()
    # unit key -> the decimals a value converted to that unit is reported with (1 otherwise)
    decimals: dict[str, int] = field(default_factory=dict)
    # a vital sign read as a series (temperature, heart rate): asked only with a window, a
    # statistic or a threshold, never one of the chart summary's key labs
    vital: bool = False

    @property
    def focus(self) -> str:
        """The chart question's focus for this analyte (``tools/answers``)."""
        return f"lab:{self.name}"

    def specimen(self, code: str) -> str:
        return self.codes.get(code, "")

    def __hash__(self) -> int:
        return hash(self.name)


def _pair(value: float | list[float]) -> tuple[float, float]:
    return (float(value[0]), float(value[1])) if isinstance(value, list) else (float(value), 0.0)


@lru_cache(maxsize=1)
def table() -> dict[str, Analyte]:
    """Every analyte by name, in the table's order (the order a clinician scans a chart)."""
    raw = safe_yaml(DATA.read_text(encoding="utf-8"))["analytes"]
    return {
        name: Analyte(
            name=name,
            codes={str(k): v for k, v in a["codes"].items()},
            unit=a["unit"],
            convert={unit_key(u): _pair(f) for u, f in (a.get("convert") or {}).items()},
            family=a.get("family"),
            words=tuple(a.get("words") or ()),
            patterns=tuple(a.get("patterns") or ()),
            decimals={unit_key(u): int(n) for u, n in (a.get("decimals") or {}).items()},
            vital=bool(a.get("vital")),
        )
        for name, a in raw.items()
    }


def analyte(name: str) -> Analyte:
    """The analyte called ``name`` (case-insensitive); KeyError for an unknown one."""
    found = table().get(name) or next(
        (a for a in table().values() if a.name.lower() == name.lower()), None
    )
    if found is None:
        raise KeyError(name)
    return found


def names() -> list[str]:
    return list(table())


def of_code(code: str) -> Analyte | None:
    """The narrowest analyte reporting under ``code`` (capillary glucose before glucose)."""
    hits = [a for a in table().values() if code in a.codes]
    return next((a for a in hits if a.family), hits[0] if hits else None)


def codes_with_family(a: Analyte) -> list[str]:
    """The codes a search for ``a`` reads: its own, then its family's (the fallback)."""
    own = list(a.codes)
    wider = list(table()[a.family].codes) if a.family in table() else []
    return list(dict.fromkeys(own + wider))


def unit_key(unit: str) -> str:
    """A unit compared loosely: case, spaces, UCUM braces and micro signs aside ("µmol/L" =
    "umol/l")."""
    text = unicodedata.normalize("NFKC", unit or "").replace("\u00b5", "u").replace("\u03bc", "u")
    return re.sub(r"[\s{}_]", "", text).lower()


def convert(value: float, unit: str, a: Analyte) -> float | None:
    """``value`` in ``unit`` expressed in the analyte's unit; None when the unit is not known
    for it (never a guessed conversion)."""
    key = unit_key(unit)
    if key in ("", unit_key(a.unit)):
        return float(value)
    if key not in a.convert:
        return None
    factor, offset = a.convert[key]
    return float(value) * factor + offset


def fold(text: str) -> str:
    """Lowercased, accents dropped ("kaliémie" -> "kaliemie")."""
    plain = "".join(
        c for c in unicodedata.normalize("NFKD", text or "") if not unicodedata.combining(c)
    )
    return plain.lower()


@lru_cache(maxsize=1)
def _matchers() -> tuple[tuple[Analyte, re.Pattern[str]], ...]:
    """One pattern per analyte: any of its words as whole words, or any of its patterns. A
    narrower analyte (capillary glucose) is tried before its family (glucose)."""
    order = sorted(table().values(), key=lambda a: 0 if a.family else 1)
    out = []
    for a in order:
        # a word in the plural too ("glycémies", "glicemias"): clinicians ask for the series
        parts = [rf"(?<![a-z0-9]){re.escape(fold(w))}{'s?' if w[-1:].isalpha() else ''}(?![a-z0-9])"
                 for w in a.words] + list(a.patterns)
        out.append((a, re.compile("|".join(parts))))
    return tuple(out)


def named_in(text: str) -> Analyte | None:
    """The laboratory analyte a question names, the narrowest first; None when it names none
    (a vital sign asked as a series is ``vitals_named_in``'s)."""
    low = fold(text)
    return next((a for a, pattern in _matchers() if not a.vital and pattern.search(low)), None)


def vitals_named_in(text: str) -> tuple[Analyte, ...]:
    """Every vital sign a question asks as a series, each whether or not its words overlap
    another's ("temp and pulse in the last 24h": both)."""
    low = fold(text)
    return tuple(a for a, pattern in _matchers() if a.vital and pattern.search(low))


def all_named_in(text: str) -> tuple[Analyte, ...]:
    """Every analyte a question names, in the order written ("K, Na, creat": potassium, sodium,
    creatinine); of two readings of the same words the longer ("albumin creatinine ratio" is the
    ratio, not creatinine), of a narrower analyte and its family the narrower."""
    low = fold(text)
    found: list[tuple[int, int, Analyte]] = []
    for a, pattern in _matchers():
        if a.vital:
            continue  # a vital sign's series is asked alone (vitals_named_in)
        found += [(m.start(), m.end(), a) for m in pattern.finditer(low) if m.end() > m.start()]
    kept: list[tuple[int, int, Analyte]] = []
    for start, end, a in sorted(found, key=lambda f: (f[0], -(f[1] - f[0]))):
        inside = any(s <= start and end <= e for s, e, _ in kept)
        if not inside and a not in [k[2] for k in kept]:
            kept.append((start, end, a))
    named = [a for _, _, a in kept]
    # "latest finger-prick glucose": the capillary glucose, not glucose beside it
    return tuple(a for a in named if not any(n.family == a.name for n in named))


@lru_cache(maxsize=1)
def _panels() -> dict[str, tuple[str, ...]]:
    raw = safe_yaml(DATA.read_text(encoding="utf-8")).get("panels") or {}
    return {str(k): tuple(v) for k, v in raw.items()}


def panel(test: str) -> tuple[Analyte, ...]:
    """The analytes a panel reports (``test``: an orderable test's name, "lipid panel"); () for
    a test that is no panel."""
    return tuple(analyte(n) for n in _panels().get(test, ()))
