"""The question asked of a handover block: what a pasted list of several patients asks of the
patient in context ("Bed 4 Robert Mensah …\nBed 7 Margaret Thompson …\n\ncan you check bed 4's
meds" asks Robert Mensah's medications in his chart).

Read only when the question names her — by a word of her name, or a bed the block or the
question puts beside her name ("Bed 4 Robert Mensah", "bed 4 (Mensah)") — so a question that
names nobody ("her K?") is never taken to be hers, and the whole message is read as written
(another patient named: refused). Her bed in the question is written as "the patient", as her
name is. The words are data (``data/handover.yaml``; beds: ``data/people.yaml``).
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from ..datafiles import safe_yaml
from .people import people_data
from .subject import InContext

_DATA = Path(__file__).with_name("data") / "handover.yaml"


@lru_cache(maxsize=1)
def _own_doing() -> re.Pattern[str]:
    words = safe_yaml(_DATA.read_text())["own_doing"]
    alt = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    return re.compile(rf"(?<![\w'])(?:{alt})(?![\w'])", re.I)


def _beds() -> str:
    return "|".join(re.escape(w) for w in sorted(people_data()["beds"], key=len, reverse=True))


@lru_cache(maxsize=1)
def _bed() -> re.Pattern[str]:
    return re.compile(rf"(?i)\b(?:{_beds()})\s*#?\s*(\d{{1,3}}[a-z]?)\b")


def _as_the_patient(text: str, bed: str) -> str:
    """Her bed written as "the patient" ("bed 4's meds": "the patient's meds"; "bed 4
    (Mensah)": "the patient")."""
    said = re.compile(rf"(?i)\b(?:{_beds()})\s*#?\s*{re.escape(bed)}\b(['\u2019]s\b)?"
                      r"(?:\s*\([^)]*\))?")
    return said.sub(lambda m: "the patient" + ("'s" if m.group(1) else ""), text)


def _her_name(here: InContext) -> str | None:
    """A word of her name as a pattern, any case."""
    # a word of her name of three letters or more, without the digits a generated chart adds
    words = [w for w in (here.name or "").split() if len(w.rstrip("0123456789")) >= 3]
    if not words:
        return None
    alt = "|".join(re.escape(w.rstrip("0123456789")) for w in words)
    return rf"(?<![\w'])(?i:{alt})\d*(?![\w])"


def _her_beds(text: str, hers: str) -> set[str]:
    """The beds said right beside her name ("Bed 4 Robert Mensah", "bed 4 (Mensah)", "I-PASS
    handover, bed 4, Robert Mensah", "Mensah in bed 4"): only punctuation, a title or her given
    name between them, never a word ("bed 4 and Mensah's INR" ties nothing)."""
    # on one line: a bed at a line's end is not the next line's patient's
    after, before = _beside_her_name(hers)
    return {m.group(1).lower() for m in _bed().finditer(text)
            if after.match(text[m.end():m.end() + 60]) or before.search(text[:m.start()])}


@lru_cache(maxsize=256)
def _beside_her_name(hers: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """A bed's place after and before her name (``_her_beds``), compiled once per name."""
    title = r"(?:(?i:mr|mrs|ms|miss|mister|dr)\.?[ \t]+)?"
    return (re.compile(rf"^[ \t]*[,(:\-\u2013]*[ \t]*{title}(?:[A-Z][\w'\-]*[ \t]+)?{hers}"),
            re.compile(rf"{hers}(?:['\u2019]s)?[ \t]*[,():\-\u2013]*[ \t]*(?:(?i:in|at)[ \t]+)?\Z"))


def beds_as_her(text: str, here: InContext) -> str:
    """``text`` with each bed said beside her name written as "the patient"."""
    hers = _her_name(here)
    for bed in _her_beds(text, hers) if hers else ():
        text = _as_the_patient(text, bed)
    return text


def _clauses(line: str) -> list[str]:
    return [c for c in re.split(r"\s*(?:[,;]|\s[-\u2013]\s|\.\s)\s*", line) if c.strip()]


def question_of(text: str, here: InContext) -> str | None:
    """The question a handover block or a clause of the clinician's own doing leaves, with her
    bed written as "the patient"; None when the message is no such block or the question does
    not name her."""
    said = _her_name(here)
    if said is None:
        return None
    hers = re.compile(said)
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    beds = _her_beds(text, said)
    if len(lines) >= 3:
        asked = lines[-1]
    elif len(lines) == 1 and _own_doing().search(text):
        kept = [c for c in _clauses(lines[0]) if not _own_doing().search(c)]
        asked = ", ".join(kept)
    else:
        return None
    for bed in beds:
        asked = _as_the_patient(asked, bed)
    if asked == text or not (hers.search(asked) or "the patient" in asked):
        return None
    return asked
