"""Cite and check each sentence of an answer against the records the turn read.

For every sentence with checkable facts (numbers with units, dates, drug names, and in a turn
that analysed an image, the imaging findings it affirms or denies: ``image_findings.py``):

1. the records it cites are the ones it names (``Observation/…``, ``PMID …``, ``NCT…``), else
   the fewest records read in this turn that hold its facts and share a word with it (the
   potassium result for a potassium sentence), chosen by code — the model is not the judge;
2. every fact must be in one of those records; a fact found nowhere, or a cited record the
   turn never read, makes the sentence *unsupported*: it is marked "not found in the cited
   record" (or removed, by policy) and counted;
3. a finding the sentence affirms must be affirmed by the image's findings, and one it denies
   must not be affirmed there ("there is a consolidation" against "no focal consolidation" is
   unsupported; so is a pneumothorax no finding mentions). Denying a finding the image does not
   mention is not checked; a hedge ("consider a CT to exclude a pneumothorax") claims nothing.

Citations become numbered links (``[1]`` → the resource or source) after the sentence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..languages import answer_language
from .computed import worked_out
from .evidence import Evidence
from .facts import Facts, facts_of
from .image_findings import bears_out, contradicts, mentions

_NONE: frozenset = frozenset()
MAX_CITES = 6  # a sentence naming more records than this is a list; it cites its first six
MARK = "*(not found in the cited record)*"
MARK_UNCITED = "*(not found in any record read for this answer)*"
MARK_COMPUTED = "*(computed: {sums})*"
# a sentence starts with a capital, accented too ("É visível…"), or an opening ¿ / ¡
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-ZÀ-ÖØ-Þ\[(*\"“¿¡])")
_EXISTING = re.compile(r"\s*\[\d{1,3}\](?:\([^)]*\))?")


@dataclass(frozen=True)
class Citation:
    """A numbered citation of the answer: the record and where a clinician opens it."""

    n: int
    key: str  # Observation/abc | PMID:123 | NCT01234567 | label:<set id>#<section> | run:<n>
    label: str
    url: str | None = None
    date: str | None = None

    @property
    def ref(self) -> str:
        return self.key


@dataclass(frozen=True)
class SentenceCheck:
    """One sentence's verdict: supported, computed (a figure worked out from figures the
    records hold), unsupported, or uncheckable (nothing to check)."""

    text: str
    cites: tuple[int, ...]
    verdict: str
    missing: tuple[str, ...] = ()


@dataclass(frozen=True)
class Grounded:
    answer: str  # the answer as written (without unsupported sentences when they are removed)
    shown: str  # the same with numbered citation links and marks: what the page renders
    citations: list[Citation]
    checks: list[SentenceCheck]

    def count(self, verdict: str) -> int:
        return sum(1 for c in self.checks if c.verdict == verdict)


def ground(answer: str, evidence: list[Evidence], mode: str = "mark", keep=frozenset()) -> Grounded:
    """The answer with citations (and marks, or without unsupported sentences), and its checks.
    Lines in ``keep`` (the app's own notes, with or without a list dash) are left as they are."""
    numbering: dict[str, Citation] = {}
    checks: list[SentenceCheck] = []
    plain, shown = [], []
    for line in answer.split("\n"):
        if line.strip() in keep or line.strip().removeprefix("- ") in keep:
            plain.append(line)
            shown.append(line)
            continue
        kept, marked = [], []
        for sentence in split(line):
            text, check = _one(sentence, evidence, numbering)
            checks.append(check)
            if not (mode == "remove" and check.verdict == "unsupported"):
                kept.append(sentence)
                marked.append(text)
        removed = len(kept) < len(split(line))
        plain.append(" ".join(kept) if removed else line)
        shown.append(" ".join(marked) if marked or not line.strip() else "")
    return Grounded("\n".join(plain), "\n".join(shown), list(numbering.values()), checks)


def split(line: str) -> list[str]:
    """Sentences of one line (a decimal point or "e.g." does not end one)."""
    return [s for s in _SENTENCE.split(line) if s] if line.strip() else []


def _one(sentence: str, evidence: list[Evidence], numbering: dict) -> tuple[str, SentenceCheck]:
    bare = _EXISTING.sub("", sentence)
    facts = facts_of(bare)
    chosen: list[Evidence] = []
    missing: list[str] = []
    unknown: list[str] = []
    if facts.checkable or facts.refs:
        chosen, missing, unknown = _cite(facts, evidence)
    recalled = [e for e in chosen if not e.coarse] if facts.dates or facts.refs else []
    seen = _imaged(bare, evidence, recalled)
    if not facts.checkable and not facts.refs and seen is None:
        return bare, SentenceCheck(bare, (), "uncheckable")
    if seen is not None:
        chosen += [e for e in seen[0] if e not in chosen]
        missing += seen[1]
    missing, sums = _computed(bare, missing)
    numbers = tuple(_number(numbering, e) for e in chosen)
    verdict = "unsupported" if missing or unknown else "computed" if sums else "supported"
    text = _with_marks(bare, numbering, numbers, verdict, cited=bool(chosen))
    if verdict == "computed":
        text += " " + MARK_COMPUTED.format(sums="; ".join(sums))
    return text, SentenceCheck(bare, numbers, verdict, tuple(missing + unknown))


def _computed(sentence: str, missing: list[str]) -> tuple[list[str], list[str]]:
    """(the facts still found in no record, the sums that ground the others): a figure the
    sentence works out from its other figures ("15 mg/kg × 20.1 kg = 301.5 mg") is grounded by
    them; they are checked against the records like any other figure."""
    sums = worked_out(sentence)
    if not sums or not missing:
        return missing, []
    results = {w.result for w in sums}
    left = [m for m in missing if _figure(m) not in results]
    return left, [w.shown for w in sums if w.result in {_figure(m) for m in missing}]


def _figure(shown: str) -> float | None:
    try:
        return float(shown.split()[0])
    except (ValueError, IndexError):
        return None


def _cite(facts: Facts, evidence: list[Evidence]) -> tuple[list[Evidence], list[str], list[str]]:
    """(records cited, facts found in none of them, cited references the turn never read)."""
    wanted = _wanted(facts)
    if facts.refs:
        named = [
            e
            for e in evidence
            if e.key in facts.refs
            or e.key.split("#")[0] in facts.refs
            or any(r in e.refs for r in facts.refs)
        ]
        keys = {e.key.split("#")[0] for e in named} | {r for e in named for r in e.refs}
        # a reference a tool's result states (the resource an approval created, a listed PMID)
        stated = [
            e
            for e in evidence
            if e.coarse and any(r not in keys and r.lower() in e.lower for r in facts.refs)
        ]
        named += stated
        unknown = [
            f"{r} (not read in this answer)"
            for r in facts.refs
            if r not in keys and not any(r.lower() in e.lower for e in stated)
        ]
        chosen = _cover(wanted, [e for e in named if not e.coarse] or named, anchored=False)
        if not chosen and named:
            chosen = named[:1]
        return chosen, [_show(f) for f in wanted if not any(_holds(e, f) for e in chosen)], unknown
    chosen = _cover(wanted, [e for e in evidence if not e.coarse], anchored=True, facts=facts)
    left = [f for f in wanted if not any(_holds(e, f) for e in chosen)]
    if left:
        chosen += _cover(left, [e for e in evidence if e.coarse], anchored=True, facts=facts)
    return chosen, [_show(f) for f in wanted if not any(_holds(e, f) for e in chosen)], []


def _imaged(
    sentence: str, evidence: list[Evidence], recalled: list[Evidence]
) -> tuple[list[Evidence], list[str]] | None:
    """(records cited, findings they do not bear out) for the imaging findings the sentence
    affirms or denies; None when the turn read no image or the sentence states none that can
    be checked. A finding may also be borne out by ``recalled``: the records the sentence's
    own dates or references cite ("the note of 2024-03-01 described an effusion")."""
    images = [e for e in evidence if e.image]
    said = mentions(sentence, answer_language()) if images else []
    cited: list[Evidence] = []
    missing: list[str] = []
    for m in (m for m in said if m.polarity != "hedged"):
        holding = [e for e in images + recalled if bears_out(e.stated.get(m.finding, _NONE), m)]
        against = any(contradicts(e.stated.get(m.finding, _NONE), m) for e in images)
        if m.polarity == "denied" and not holding and not against:
            continue  # denies what the image does not mention (on that side): not checked
        cited += [e for e in (holding or images[:1]) if e not in cited]
        if not holding:
            missing.append(m.shown())
    return (cited, missing) if cited else None


def _wanted(facts: Facts) -> list[tuple]:
    return (
        [("num", v, u) for v, u in facts.numbers]
        + [("date", d) for d in facts.dates]
        + [("drug", name, surface) for name, surface in facts.drugs]
    )


def _cover(
    wanted: list[tuple], pool: list[Evidence], anchored: bool, facts: Facts | None = None
) -> list[Evidence]:
    """Greedy: the record holding most of the facts still uncovered, until none holds another.
    With ``anchored``, a record must share a word or a drug with the sentence, or hold two facts.
    Between records that hold as much, the newest: a chart repeats a value (the same height at
    every visit) and an answer states the latest."""
    chosen: list[Any] = []
    left = list(wanted)
    while left and len(chosen) < MAX_CITES:
        best, best_score = None, (0, 0, "")
        for e in pool:
            if e in chosen:
                continue
            held = sum(1 for f in left if _holds(e, f))
            tied = (
                len(facts.anchors & e.anchors)
                + sum(1 for f in wanted if f[0] == "drug" and _holds(e, f))
                if facts
                else 1
            )
            specific = any(_holds(e, f) and _specific(f) for f in left)
            if (
                held
                and (not anchored or tied or held >= 2 or specific)
                and (held, tied, e.date or "") > best_score
            ):
                best, best_score = e, (held, tied, e.date or "")
        if best is None:
            break
        chosen.append(best)
        left = [f for f in left if not _holds(best, f)]
    return chosen


def _specific(fact: tuple) -> bool:
    """A date, or a number with its unit, is specific enough to find its record without a
    shared word; a bare number ("3.4") needs the word that says what it measures."""
    return fact[0] == "date" or (fact[0] == "num" and fact[2] is not None)


def _holds(e: Evidence, fact: tuple) -> bool:
    kind = fact[0]
    if kind == "num":
        _, value, unit = fact
        return value in e.numbers and (
            unit is None or unit in e.units or unit in e.lower.replace(" ", "")
        )
    if kind == "date":
        return fact[1] in e.dates
    _, name, surface = fact
    if any(_bounded(w).search(e.lower) for w in {name, surface, *name.split("/")} if w):
        return True
    words = {
        " ".join(re.findall(r"[a-z0-9]+", w.lower())) for w in {name, surface, *name.split("/")}
    }
    return any(f" {w} " in e.plain for w in words if w)


@lru_cache(maxsize=4096)
def _bounded(word: str) -> re.Pattern[str]:
    """A drug or analyte's name as a whole word, compiled once per name."""
    return re.compile(rf"\b{re.escape(word)}\b")


def _show(fact: tuple) -> str:
    if fact[0] == "num":
        return f"{fact[1]:g}" + (f" {fact[2]}" if fact[2] else "")
    return str(fact[-1])


def _number(numbering: dict[str, Citation], e: Evidence) -> int:
    key = e.key
    if key not in numbering:
        numbering[key] = Citation(len(numbering) + 1, key, e.label, e.url, e.date)
    return numbering[key].n


def _with_marks(
    sentence: str, numbering: dict, numbers: tuple[int, ...], verdict: str, cited: bool
) -> str:
    by_n = {c.n: c for c in numbering.values()}
    links = "".join(f"[\\[{n}\\]]({by_n[n].url})" if by_n[n].url else f"\\[{n}\\]" for n in numbers)
    mark = "" if verdict in ("supported", "computed") else " " + (
        MARK if cited else MARK_UNCITED)
    return f"{sentence.rstrip()}{(' ' + links) if links else ''}{mark}"
