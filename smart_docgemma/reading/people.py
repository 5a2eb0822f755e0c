"""Who a message names: every run of two or three capitalised words that are not words of the
assistant's vocabulary is a person, wherever it stands in the sentence ("does Grace Adeyemi have
any allergies?", "et Margaret Thompson, elle prend quoi ?").

Reading names this widely is the fail-safe side: a person named who is not shown to be the patient
in context is another patient (``subject.subject_of``), and a question about another patient is
refused, never answered from the chart in context. A capitalised clinical phrase ("Basic Metabolic
Panel") is not a name because its words are the vocabulary's: the rule tables, the ward's test
names, the chart's terms and the analytes, read from their data files.
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import yaml

from ..knowledge.mentions import normalise

DATA = Path(__file__).with_name("data")
PACKAGE = Path(__file__).resolve().parent.parent
# the data files whose words are the assistant's vocabulary (not names)
VOCABULARY_FILES = (
    "agent/data/rules.yaml",
    "tools/data/ward.yaml",
    "tools/data/chart_questions.yaml",
    "tools/data/chart_terms.yaml",
    "tools/data/chart_windows.yaml",
    "tools/data/class_terms.yaml",
    "tools/data/protocols.yaml",
    "knowledge/data/analytes.yaml",
)
_WORD = r"[A-ZÀ-Ý][a-zà-ÿ'\-]+\d*"
_RUN = re.compile(rf"(?<![\w/-])({_WORD}(?:[ \t]+{_WORD})+)(?![\w/-])")


@lru_cache(maxsize=1)
def not_name_words() -> frozenset[str]:
    said = yaml.safe_load((DATA / "people.yaml").read_text())["not_name_words"]
    words = {normalise(str(w)) for ws in said.values() for w in ws}
    for rel in VOCABULARY_FILES:
        words |= {
            normalise(w) for w in re.findall(r"[a-zà-ÿ]{3,}", (PACKAGE / rel).read_text().lower())
        }
    return frozenset(words)


def named_people(text: str, drug_words: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """Two or three consecutive capitalised words none of which is a vocabulary word or a drug
    ("Grace Adeyemi", "Maria Silva"); the possessive "'s" dropped."""
    stop = not_name_words() | {normalise(w) for w in drug_words}
    found: list[str] = []
    for m in _RUN.finditer(text or ""):
        part: list[str] = []
        for word in [*m.group(1).split(), ""]:
            bare = re.sub(r"['\u2019]s?$", "", word)
            if bare and normalise(bare) not in stop:
                part.append(bare)
                continue
            if 2 <= len(part) <= 3:
                found.append(" ".join(part))
            part = []
    return list(dict.fromkeys(found))


_LOWER = r"([a-zà-ÿ][a-zà-ÿ\-]{2,})"
_POSSESSED = re.compile(rf"(?<![\w']){_LOWER}\s+{_LOWER}['\u2019]s\b")


def possessed_people(text: str, drug_words: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """Two words written in lower case before a possessive "'s" ("and grace adeyemi's meds?"),
    neither a vocabulary word nor a drug: a person typed without capitals. Only the possessive
    is read this way: two unknown lower-case words alone may be a typo, a possessive names
    someone."""
    stop = not_name_words() | {normalise(w) for w in drug_words}
    return [
        f"{m.group(1)} {m.group(2)}"
        for m in _POSSESSED.finditer(text or "")
        if not {normalise(m.group(1)), normalise(m.group(2))} & stop
    ]


@lru_cache(maxsize=1)
def _led() -> re.Pattern[str]:
    said = yaml.safe_load((DATA / "people.yaml").read_text())["follow_up_leads"]
    leads = sorted({str(w) for ws in said.values() for w in ws}, key=len, reverse=True)
    lead = "|".join(re.escape(w) for w in leads)
    article = r"(?:(?:o|a|el|la|le|the)\s+)?"
    return re.compile(rf"^[\s¿¡]*(?i:{lead})\s+{article}({_WORD})\s*(?:[?,.!:;]|$)")


def led_people(text: str, drug_words: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """One capitalised word after a follow-up's opening ("and Grace?", "e a Grace?", "¿y
    Grace?"), not a vocabulary word nor a drug: another person, named by first name alone."""
    m = _led().match(text or "")
    if not m:
        return []
    stop = not_name_words() | {normalise(w) for w in drug_words}
    return [] if normalise(m.group(1)) in stop else [m.group(1)]


_POSSESSED_ONE = re.compile(rf"(?:^|\s)([a-zà-ÿ][\w'\u2019]*,?)\s+({_WORD})['\u2019]s\b")


def possessed_one(text: str, drug_words: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """One capitalised word with a possessive after a word in lower case ("how's Kofi's
    weight?"), not a vocabulary word nor a drug: a person named by first name ("Kwame Asante's",
    "St John's", "Dr Smith's" are read whole or not at all)."""
    stop = not_name_words() | {normalise(w) for w in drug_words}
    return [m.group(2) for m in _POSSESSED_ONE.finditer(text or "")
            if normalise(m.group(2)) not in stop]
