"""A dose change said in words: a verb of raising or lowering, the one drug, its new dose
("increase amlodipine to 10mg od", "bump her amlodipine up to 7.5mg daily", "monte l'amlodipine
à 10", "reduzir varfarina para 2,5 mg/dia"), read on the folded message with the words of
``data/requests.yaml`` (``dose_change``). A dose without its unit is in mg ("à 10"); a question
changes nothing ("should I increase the amlodipine?"); the frequency is the one said, or None
(the order keeps its own).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..datafiles import safe_yaml
from ..languages import frequency
from .people import DATA


@dataclass(frozen=True)
class DoseChange:
    """The drug whose dose changes, its new dose and the frequency said with it."""

    drug: str  # the generic name
    dosage: str  # "10 mg"; "" for a factor of her current dose, until the chart gives it
    frequency: str | None = None
    factor: float | None = None  # "reduz a metformina pra metade": 0.5 of the dose on her list


@lru_cache(maxsize=1)
def _words() -> dict[str, Any]:
    said: dict[str, Any] = safe_yaml((DATA / "requests.yaml").read_text())["dose_change"]
    return said


def _alt(key: str) -> str:
    return "|".join(re.escape(str(w)) for w in sorted(_words()[key], key=len, reverse=True))


@lru_cache(maxsize=1024)  # per drug named: more patterns than re keeps compiled
def _pattern(surface: str) -> re.Pattern[str]:
    article, to = rf"(?:(?:{_alt('articles')})\s+)?", rf"(?:(?:{_alt('to')})\s+)?"
    dose_of = rf"(?:(?:{_alt('dose_words')})\s+(?:{_alt('of')})\s+{article})?"
    return re.compile(
        rf"(?<![\w])(?:{_alt('verbs')})\s+{article}{dose_of}{re.escape(surface)}(?![\w])"
        rf"(?:\s+(?:up|down))?\s+{to}(?P<n>\d+(?:[.,]\d+)?)\s*(?P<unit>mg|g|mcg|ug|units?|ui|iu)?"
        rf"(?![\w.])(?P<rest>[^,;.?!]*)")


# "metformin 500mg bd -> 850mg bd", "amlodipine 5 → 10": the old dose, an arrow, the new one
# (a range, "5 to 10 mg prn", is one dose of a range: only an arrow reads as a change)
_ARROW = re.compile(r"\s*(?:-+>|=+>|\u2192|\u21d2|\u27f6)\s*")
_TO_WORD = "xarrowx"
_NUMBER = r"\d+(?:[.,]\d+)?"


@lru_cache(maxsize=1024)  # per drug named: more patterns than re keeps compiled
def _arrow(surface: str) -> re.Pattern[str]:
    return re.compile(
        rf"(?<![\w]){re.escape(surface)}\s+{_NUMBER}\s*(?:mg|g|mcg|ug|units?|ui|iu)?"
        rf"(?:\s+[a-z/0-9]+){{0,2}}?\s+{_TO_WORD}\s+(?P<n>{_NUMBER})\s*"
        rf"(?P<unit>mg|g|mcg|ug|units?|ui|iu)?(?![\w.])(?P<rest>[^,;.?!]*)")


@lru_cache(maxsize=1024)  # per drug named: more patterns than re keeps compiled
def _after_drug(surface: str) -> re.Pattern[str]:
    return re.compile(
        rf"(?<![\w]){re.escape(surface)}\s+(?:{_alt('after_drug')})\s+(?P<n>{_NUMBER})\s*"
        rf"(?P<unit>mg|g|mcg|ug|units?|ui|iu)?(?![\w.])"
        rf"(?!(?:[^,;.?!]*?)\b(?:{_alt('not_after_drug')}))(?P<rest>[^,;.?!]*)")


@lru_cache(maxsize=1024)  # per drug named: more patterns than re keeps compiled
def _by_factor(surface: str) -> re.Pattern[str]:
    """A verb of changing, the drug, then a factor of its dose in words ("reduz a metformina pra
    metade", "baja el enalapril a la mitad", "diminue l'amlodipine de moitié", "cut the
    metformin by half", "dobra a metformina")."""
    article = rf"(?:(?:{_alt('articles')})\s+)?"
    dose_of = rf"(?:(?:{_alt('dose_words')})\s+(?:{_alt('of')})\s+{article})?"
    def alt(words: list[str]) -> str:
        return "|".join(re.escape(str(w)) for w in sorted(words, key=len, reverse=True))
    factors = "|".join(rf"(?P<f{n}>{alt(words)})"
                       for n, words in enumerate(_words()["factors"].values()))
    return re.compile(
        rf"(?<![\w])(?:{_alt('verbs')}|{_alt('factor_verbs')})\s+{article}{dose_of}{re.escape(surface)}"
        rf"(?![\w])\s+(?:(?:{_alt('factor_to')})\s+)?(?:{factors})(?![\w])")


def _factor(m: re.Match[str]) -> float:
    values = list(_words()["factors"])
    return float(next(values[n] for n in range(len(values)) if m.group(f"f{n}")))


def dose_change(low: str, mentions: list[tuple[str, str]]) -> DoseChange | None:
    """The dose change ``low`` (folded, lower case) says of the one drug it names
    (``mentions``: generic name and surface), or None."""
    named = {name for name, _ in mentions if name}
    if len(named) != 1 or "?" in low:
        return None
    low = re.sub(r"[^\w.,/]+", " ", _ARROW.sub(f" {_TO_WORD} ", low))
    for name, surface in mentions:
        m = (_pattern(surface).search(low) or _arrow(surface).search(low)
             or _after_drug(surface).search(low)) if surface else None
        if m:
            unit = m.group("unit") or "mg"
            dose = f"{m.group('n').replace(',', '.')} {unit}"
            return DoseChange(name, dose, _frequency(m.group("rest")))
        m = _by_factor(surface).search(low) if surface else None
        if m:  # the dose is her order's times the factor, read with the chart (extraction)
            return DoseChange(name, "", None, _factor(m))
    return None


def _frequency(rest: str) -> str | None:
    """The frequency written after the new dose ("od", "12/12h", "twice a day"), never what
    else follows it ("for 8 weeks" is a course: the old order's frequency is kept)."""
    said = " ".join(rest.split())[:40]
    if not said:
        return None
    if re.fullmatch(rf"(?:{_alt('a_day')})", said):
        return "once daily"
    return frequency.written(said)


# the dose at the head of an order's dosage ("5 mg by mouth once daily", "500 MG twice daily")
_ORDER_DOSE = re.compile(r"^\s*(?P<n>\d+(?:[.,]\d+)?)\s*(?P<unit>mg|g|mcg|units?)\b", re.I)


def _order_dose(dosage: str) -> tuple[float, str] | None:
    m = _ORDER_DOSE.search(dosage or "")
    return (float(m.group("n").replace(",", ".")), m.group("unit").lower()) if m else None


def _as_written(value: float) -> str:
    return f"{value:g}"


def scaled(low: str, mentions: list[tuple[str, str]],
           doses: dict[str, str]) -> DoseChange | None:
    """A dose scaled by a word of the one drug named, on her list (``doses``: generic name to
    the order's dosage as the chart states it): "halve the amlodipine" on 5 mg is 2.5 mg,
    "double his metformin" on 500 mg twice daily is 1000 mg (its frequency kept). A question
    ("should we halve it?"), a drug not on her list or with no dose stated changes nothing."""
    named = {name for name, _ in mentions if name}
    if len(named) != 1 or "?" in low:
        return None
    name = next(iter(named))
    old = _order_dose(doses.get(name, ""))
    if old is None:
        return None
    percent = "%" in low  # "reduce metformin by 20%": a share, never a step of 20 mg
    low = re.sub(r"[^\w.,/]+", " ", low)
    article = rf"(?:(?:{_alt('articles')})\s+)?"
    dose_of = rf"(?:(?:{_alt('dose_words')})\s+(?:{_alt('of')})\s+{article})?"
    for _, surface in mentions:
        if not surface:
            continue
        drug = re.escape(" ".join(re.sub(r"[^\w.,/]+", " ", surface).split()))
        for word, factor in sorted(_words()["scaled_verbs"].items(), key=lambda kv: -len(kv[0])):
            if re.search(rf"(?<![\w]){re.escape(word)}\s+{article}{dose_of}{drug}(?![\w])", low):
                return DoseChange(name, f"{_as_written(old[0] * factor)} {old[1]}")
        verb = rf"(?<![\w])(?:{_alt('verbs')})\s+{article}{dose_of}{drug}"
        shares = {**_words()["scaled_by"], **(_words()["scaled_by_percent"] if percent else {})}
        for word, factor in sorted(shares.items(), key=lambda kv: -len(kv[0])):
            if re.search(rf"{verb}\s+{re.escape(word)}(?![\w])", low):
                return DoseChange(name, f"{_as_written(old[0] * factor)} {old[1]}")
        for key, sign in () if percent else (("step_up", 1), ("step_down", -1)):
            m = re.search(rf"(?<![\w])(?:{_alt(key)})\s+{article}{dose_of}{drug}\s+by\s+"
                          rf"(?P<n>\d+(?:[.,]\d+)?)\s*(?P<unit>mg|mcg|g)?(?![\w.%])", low)
            if m and (m.group("unit") or old[1]) == old[1]:
                new = old[0] + sign * float(m.group("n").replace(",", "."))
                return DoseChange(name, f"{_as_written(new)} {old[1]}") if new > 0 else None
        for word, factor in sorted(_words()["scaled_after"].items(), key=lambda kv: -len(kv[0])):
            dose_word = rf"(?:(?:{_alt('dose_words')})\s+)?"
            if re.search(rf"(?<![\w]){drug}\s+{dose_word}{re.escape(word)}(?![\w])", low):
                return DoseChange(name, f"{_as_written(old[0] * factor)} {old[1]}")
    return None


def bare(low: str, mentions: list[tuple[str, str]], doses: dict[str, str]) -> DoseChange | None:
    """The whole message a drug of her list and a number ("amlodipine 10", "amlo 10mg pls") when
    her order of it states another dose: the new dose of that order, its frequency kept. A
    frequency, a verb or anything else said (a new order written in full: "amlodipine 10 mg/24h"),
    the same dose as the order's, or a drug not on her list is no change."""
    named = {name for name, _ in mentions if name}
    if len(named) != 1:
        return None
    name = next(iter(named))
    old = _order_dose(doses.get(name, ""))
    if old is None:
        return None
    tail = rf"(?:\s+(?:{_alt('bare_tail')}))*"
    for _, surface in mentions:
        if not surface:
            continue
        m = re.fullmatch(rf"\s*{re.escape(surface)}\s+(?P<n>\d+(?:[.,]\d+)?)\s*(?P<unit>mg|mcg|g)?"
                         rf"{tail}\s*[.!]?\s*", low)
        if not m:
            continue
        unit = m.group("unit") or old[1]
        value = float(m.group("n").replace(",", "."))
        if unit == old[1] and value == old[0]:
            return None
        return DoseChange(name, f"{_as_written(value)} {unit}")
    return None
