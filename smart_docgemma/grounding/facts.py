"""What a sentence claims that code can check: numbers with their units, dates and drug names.

A fact is checkable when it can be looked up verbatim (after normalising) in a record:
``5.6 mmol/L`` needs the number 5.6 and the unit mmol/L; ``2026-01-10`` (or "10 January
2026", "10 janvier 2026", "10 de enero de 2026") needs that date; "Coumadin" needs warfarin
or Coumadin. Identifiers (FHIR ids, PMIDs, NCT numbers, DailyMed set ids) and the counts the
app's own summaries print are not facts.
Anchors are the sentence's other words of four letters or more: they tie a sentence to the
record it is about (the potassium result, not the sodium one) but are not themselves checked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from pathlib import Path

from ..datafiles import safe_yaml
from ..knowledge.mentions import find_drugs
from ..languages import local_date_pattern, local_months

MONTHS = {
    m: i
    for i, m in enumerate(
        ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1
    )
}
_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})(?:T[\d:.+\-Z]*)?\b")
_DMY = re.compile(
    r"\b(\d{1,2}) (jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? (\d{4})\b", re.I
)
_MDY = re.compile(
    r"\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? (\d{1,2}),? (\d{4})\b", re.I
)
# a FHIR type is CamelCase ("Observation/…"), so a unit such as "MG/ACTUAT" is not a reference
REF = re.compile(r"\b(?:[A-Z][a-z][A-Za-z]*/[A-Za-z0-9\-.]{1,64}|PMID:? ?\d{1,9}|NCT\d{8})\b")
_ID_LIKE = re.compile(
    r"\b(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[\w]+(?:-[\w]+)+\b|\bset id [\w-]+|\bid [\w.-]+|"
    r"\bMRN [\w-]+",
    re.I,
)
_NUMBER = re.compile(r"(?<![\w.\-/])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(?![\w\-]|\.\d)")
_WORD = re.compile(r"[a-zA-Z][a-zA-Z\-]{3,}")


@lru_cache(maxsize=1)
def words() -> dict:
    return safe_yaml((Path(__file__).parent / "data" / "words.yaml").read_text())


def unit_key(text: str) -> str:
    """A unit as compared: lower case, no brackets, braces, spaces or underscores; ² → 2."""
    return re.sub(r"[\[\]{}\s_]", "", text.lower().replace("²", "2").replace("µ", "u"))


@lru_cache(maxsize=1)
def unit_pattern() -> re.Pattern:
    units = sorted(words()["units"], key=len, reverse=True)
    return re.compile(r"\s?(" + "|".join(re.escape(u) for u in units) + r")(?![A-Za-z0-9])")


@dataclass(frozen=True)
class Facts:
    """What one sentence (or one record) states, normalised for comparison."""

    numbers: tuple[tuple[float, str | None], ...] = ()  # (value, unit key or None)
    dates: tuple[str, ...] = ()  # ISO days
    drugs: tuple[tuple[str, str], ...] = ()  # (canonical name, as written)
    anchors: frozenset[str] = frozenset()
    refs: tuple[str, ...] = ()  # explicit citations written in the text (Type/id, PMID n, NCT…)

    @property
    def checkable(self) -> int:
        return len(self.numbers) + len(self.dates) + len(self.drugs)


def iso_dates(text: str) -> tuple[list[str], str]:
    """ISO days in ``text`` (ISO, "3 March 2026", "March 3, 2026", and as French, Portuguese
    and Spanish write them: "3 mars 2026", "3 de março de 2026") and the text without them."""
    found: list[str] = []

    def keep(y, m, d, whole):
        try:
            found.append(date(int(y), int(m), int(d)).isoformat())
        except ValueError:
            return whole
        return " "

    text = _ISO.sub(lambda m: keep(m[1], m[2], m[3], m[0]), text)
    local = local_months()
    text = local_date_pattern().sub(lambda m: keep(m[3], local[m[2].lower()], m[1], m[0]), text)
    text = _DMY.sub(lambda m: keep(m[3], MONTHS[m[2][:3].lower()], m[1], m[0]), text)
    text = _MDY.sub(lambda m: keep(m[3], MONTHS[m[1][:3].lower()], m[2], m[0]), text)
    return found, text


def normal_ref(ref: str) -> str:
    """``PMID 123`` / ``PMID:123`` → ``PMID:123``; other references as written."""
    m = re.fullmatch(r"PMID:? ?(\d+)", ref)
    return f"PMID:{m[1]}" if m else ref


def numbers(text: str) -> list[tuple[float, str | None]]:
    """Numbers with the unit written right after them (counts of search results left out)."""
    counts = "|".join(words()["count_words"])
    text = re.sub(rf"\b\d+ (?:{counts})\b", " ", text, flags=re.I)
    text = re.sub(r"\b(\d{2,3})/(\d{2,3})\b", r"\1 / \2", text)  # a blood pressure: two values
    out, units = [], unit_pattern()
    for m in _NUMBER.finditer(text):
        unit = units.match(text, m.end())
        value = float(m[1].replace(",", ""))
        out.append((value, unit_key(unit[1]) if unit else None))
    return out


_ACRONYM = re.compile(r"\b[A-Z][A-Z0-9]{1,4}\b")  # INR, BP, CKD, LDL


def anchors(text: str) -> frozenset[str]:
    """Words that tie a sentence to a record, cut to their first five letters so that
    hypertension meets hypertensive and weighs meets weight."""
    stop = set(words()["stopwords"])
    found = {w.lower() for w in _WORD.findall(text) if w.lower() not in stop}
    found |= {w.lower() for w in _ACRONYM.findall(text)}
    return frozenset(w[:5] for w in found)


def drugs_in(text: str) -> list[tuple[str, str]]:
    return [
        (d.name, d.surface) for d in find_drugs(text) if d.match == "exact" and d.name
    ]


def facts_of(sentence: str) -> Facts:
    """The checkable facts of one sentence of an answer."""
    refs = tuple(normal_ref(r) for r in REF.findall(sentence))
    text = REF.sub(" ", sentence)
    text = re.sub(r"\[\d{1,3}\]", " ", text)  # citation markers already present
    found_dates, text = iso_dates(text)
    text = _ID_LIKE.sub(" ", text)
    text = re.sub(r"^\s*(?:\d{1,2}[.)]|[-*•])\s+", "", text)  # a list item's own number
    return Facts(
        numbers=tuple(numbers(text)),
        dates=tuple(found_dates),
        drugs=tuple(drugs_in(text)),
        anchors=anchors(text),
        refs=refs,
    )
