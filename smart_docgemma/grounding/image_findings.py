"""Imaging findings as facts: which findings a sentence affirms, denies, or only raises.

The words are data (``data/image_findings.yaml``, English, French, Portuguese and Spanish).
A sentence is cut into clauses (at ; : a dash, a bracket and words such as "but" / "mais");
in its clause a finding is

- *hedged* when a recommendation, a test to exclude it or a question frames it ("consider a
  CT to exclude a pneumothorax", "cannot be excluded", a sentence ending in "?"): it claims
  neither the finding nor its absence, and is not checked;
- *denied* when a negation comes within ``NEGATION_REACH`` words before it ("no effusion",
  "sans épanchement", "não há pneumotórax"), after it ("pneumothorax is excluded"), inside it
  ("the heart is not enlarged"), or a phrase denies it ("normal heart size");
- *affirmed* otherwise ("possible consolidation" still claims a consolidation).

The grounding check (``check.py``) compares a sentence's findings with those the turn's image
analysis stated (``evidence.from_image``).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Literal

from ..datafiles import safe_yaml

Polarity = Literal["affirmed", "denied", "hedged"]
ANY = "*"  # cues of every language: the image's own findings (written for an English prompt,
# perhaps in the clinician's language), where "no" is far likelier English than Portuguese
NEGATION_REACH = 8  # words between a negation and the finding it denies ("no ... effusion")
_GAP = r"(?:\s+\S+){0,3}?\s+"  # "..." in a phrase: up to three words


@dataclass(frozen=True)
class Mention:
    """One finding named in a text, with how the text states it."""

    finding: str  # the vocabulary's name: "pleural effusion"
    polarity: Polarity
    surface: str  # as written (accents folded): "derrame pleural"
    sides: frozenset[str] = frozenset()  # "right" and/or "left"; none when the text names none

    def shown(self) -> str:
        """The finding as the check reports it: "no right pneumothorax"."""
        said = " ".join([*sorted(self.sides, reverse=True), self.surface])
        return f"no {said}" if self.polarity == "denied" else said


def fold(text: str) -> str:
    """Lower case, accents off, œ as oe: how words are compared."""
    text = text.lower().replace("œ", "oe")
    return "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))


def _phrase(words: str) -> str:
    parts = [re.escape(w) for w in fold(words).split()]
    joined = r"\s+".join(parts).replace(r"\s+\.\.\.\s+", _GAP)
    return rf"(?<![\w/-]){joined}(?![\w/-])"


def _any(phrases: list[str]) -> re.Pattern:
    ordered = sorted({fold(p) for p in phrases}, key=len, reverse=True)
    return re.compile("|".join(_phrase(p) for p in ordered))


@lru_cache(maxsize=1)
def _data() -> dict:
    return safe_yaml((Path(__file__).parent / "data" / "image_findings.yaml").read_text())


def _cues(key: str, langs: tuple[str, ...]) -> list[str]:
    """A list of cues in ``langs``, less the words that are ordinary words in the answer's
    language (Portuguese "no" is "in the"); with every language (ANY), none is set aside."""
    answer = langs[-1] if len(langs) <= 2 else None
    ordinary = {fold(str(w)) for w in _data()["ordinary_words"].get(answer, [])}
    said = [str(w) for lang, words in _data()[key].items() if lang in langs for w in words]
    return [w for w in said if fold(w) not in ordinary]


@dataclass(frozen=True)
class _Vocabulary:
    terms: re.Pattern  # one group per finding, named f0, f1…
    names: dict[str, tuple[tuple[str, ...], bool]]  # group → (findings, the phrase denies them)
    negation_before: re.Pattern
    negation_after: re.Pattern
    hedge_before: re.Pattern
    hedge_after: re.Pattern
    breaks: re.Pattern


def _phrases() -> dict[str, tuple[tuple[str, ...], bool]]:
    """Each phrase (folded) → the findings it names and whether it denies them; a phrase may
    deny several ("the lungs are clear": no consolidation, opacity or infiltrate)."""
    data = _data()
    named: dict[tuple[str, bool], list[str]] = {}
    for finding, by_lang in data["findings"].items():
        for w in (str(w) for words in by_lang.values() for w in words):
            named.setdefault((fold(w), False), []).append(finding)
    for finding, words in data["denied_by"].items():
        for w in map(str, words):
            named.setdefault((fold(w), True), []).append(finding)
    for w in map(str, data["not_findings"]):
        named.setdefault((fold(w), False), [])
    return {w: (tuple(dict.fromkeys(f)), denies) for (w, denies), f in named.items()}


@lru_cache(maxsize=8)
def vocabulary(lang: str = "en") -> _Vocabulary:
    """The compiled vocabulary for an answer in ``lang``: the findings in every language, the
    cues in English and ``lang`` (longest phrase first, so "pericardial effusion" wins)."""
    every = tuple(_data()["negation_before"])
    langs = every if lang == ANY else tuple(dict.fromkeys(("en", lang)))
    entries = sorted(_phrases().items(), key=lambda e: len(e[0]), reverse=True)
    names = {f"f{i}": named for i, (_, named) in enumerate(entries)}
    terms = "|".join(f"(?P<f{i}>{_phrase(w)})" for i, (w, _) in enumerate(entries))
    breaks = _any(_cues("clause_breaks", langs)).pattern
    return _Vocabulary(
        re.compile(terms),
        names,
        _any(_cues("negation_before", langs)),
        _any(_cues("negation_after", langs)),
        _any(_cues("hedge_before", langs)),
        _any(_cues("hedge_after", langs)),
        re.compile(rf"[;:()\[\]—–]|\s-\s|{breaks}"),
    )


def mentions(text: str, lang: str = "en") -> list[Mention]:
    """The findings ``text`` (in ``lang``, or English) names, each with its polarity, in order."""
    folded, v = fold(text), vocabulary(lang)
    question = folded.rstrip().endswith("?") or "¿" in folded
    out: list[Mention] = []
    for clause in v.breaks.split(folded):
        out += _in_clause(v, clause or "", question)
    return out


def _in_clause(v: _Vocabulary, clause: str, question: bool) -> list[Mention]:
    found = list(v.terms.finditer(clause))
    out = []
    for i, m in enumerate(found):
        findings, denies = v.names[str(m.lastgroup)]
        before = clause[: m.start()]
        after = clause[m.end() : found[i + 1].start() if i + 1 < len(found) else len(clause)]
        polarity = _polarity(v, (before, m[0], after), denies, question)
        own = clause[found[i - 1].end() if i else 0 : m.start()]
        sides = _sides(own, m[0], after, last=i + 1 == len(found))
        out += [Mention(finding, polarity, m[0], sides) for finding in findings]
    return out


@lru_cache(maxsize=1)
def _side_words() -> tuple[dict[str, re.Pattern], re.Pattern]:
    data = _data()
    sides = {side: _any([str(w) for w in words]) for side, words in data["sides"].items()}
    return sides, _any([str(w) for w in data["side_joins"]])


def _sides(own: str, said: str, after: str, last: bool) -> frozenset[str]:
    """The sides named for one finding: in the words before it since the previous finding
    (after their last "and" / "with"), in the finding itself, and in the words after it: up to
    the first "and" / "with" when another finding follows, else all ("à direita e à esquerda")."""
    words, joins = _side_words()
    near = " ".join([joins.split(own)[-1], said, after if last else joins.split(after)[0]])
    named = {side for side, pattern in words.items() if pattern.search(near)}
    if "both" in named:
        named |= {"right", "left"}
    return frozenset(named - {"both"})


def _polarity(
    v: _Vocabulary, around: tuple[str, str, str], denies: bool, question: bool
) -> Polarity:
    before, said, after = around
    if question or v.hedge_before.search(before) or v.hedge_after.search(after):
        return "hedged"
    if denies:  # "normal heart size" denies; "heart size is not normal" does not
        return "affirmed" if v.negation_before.search(said) else "denied"
    near = " ".join(before.split()[-NEGATION_REACH:])
    if (
        v.negation_before.search(near)
        or v.negation_before.search(said)
        or v.negation_after.search(after)
    ):
        return "denied"
    return "affirmed"


Statement = tuple[str, frozenset[str]]  # (polarity, sides)


def stated(text: str, lang: str = "en") -> dict[str, frozenset[Statement]]:
    """Each finding ``text`` names → how it is stated: (polarity, sides), hedges left out."""
    out: dict[str, set[Statement]] = {}
    for m in mentions(text, lang):
        if m.polarity != "hedged":
            out.setdefault(m.finding, set()).add((m.polarity, m.sides))
    return {k: frozenset(v) for k, v in out.items()}


def _said(statements: frozenset[Statement], polarity: str) -> frozenset[str] | None:
    """The sides a record names for a finding stated with ``polarity`` (a restatement without
    a side, "impression: solitary nodule", is the same finding), or None if it never says so."""
    sides = [s for p, s in statements if p == polarity]
    return frozenset().union(*sides) if sides else None


def bears_out(statements: frozenset[Statement], m: Mention) -> bool:
    """Whether a record's statements of a finding say what ``m`` says: the same polarity, on
    the sides the mention names (a record that names no side is not compared on sides)."""
    sides = _said(statements, m.polarity)
    return sides is not None and (not sides or m.sides <= sides)


def contradicts(statements: frozenset[Statement], m: Mention) -> bool:
    """Whether a record affirms a finding ``m`` denies, on a side the mention names (or any)."""
    sides = _said(statements, "affirmed")
    return sides is not None and (not sides or not m.sides or bool(sides & m.sides))
