"""Clinicians' languages for understanding without a model: French, Portuguese and Spanish.

The rules per language are data (``agent/rules/<lang>.yaml``), merged into the English rules
of ``data/rules.yaml`` (lists extend, tables add entries), so every task pattern, frequency,
route and unsupported action reads the same way in each language. Text is matched accent
folded ("kaliémie" = "kaliemie", "l'ibuprofène" = "l ibuprofene"), as clinicians often type
without accents.

Drug names as written in each language are the knowledge core's (``knowledge/spellings.py``,
``knowledge/data/drug_words.yaml``): what a drug is called is a clinical fact, what the
clinician asks for is this module's.
"""
from __future__ import annotations

import re
import unicodedata
from functools import cache, lru_cache
from typing import Any

from ..datafiles import safe_yaml

# The run-time half (the answer language, the answers files, order frequencies) is on the base
# floor, where the tools can use it too; re-exported here for the agent's modules.
from ..languages import (
    ANSWERED,
    RULES,
    UNDERSTOOD,
    answer_language,
    answer_text,
    answering,
    answers,
    fold,
    frequency,
    instruction,
)
from ..tools.words.dosing import NUMBER

__all__ = ["ANSWERED", "UNDERSTOOD", "answer_language", "answer_text", "answering", "answers",
           "as_needed", "fold", "instruction"]


@cache
def language_rules(lang: str) -> dict[str, Any]:
    """``rules/<lang>.yaml`` parsed once, every string accent folded, with the language's
    frequencies of ``languages/frequencies/<lang>.yaml`` as words to read as written."""
    table: dict[str, Any] = _folded(
        safe_yaml((RULES / f"{lang}.yaml").read_text(encoding="utf-8")) or {}
    )
    table["frequencies"] = {
        **(table.get("frequencies") or {}),
        **dict.fromkeys(_frequency_words(lang)),
    }
    return table


def _frequency_words(lang: str) -> list[str]:
    """A language's timings and as-needed words (``languages/frequencies/<lang>.yaml``): one table
    for reading an order as written and for coding it."""
    own = frequency.table(lang)
    return [words for words, _ in own.get("timings") or []] + [
        re.escape(w) for w in sorted(own.get("as_needed") or {}, key=len, reverse=True)]


def as_needed(text: str) -> str | None:
    """"si besoin", "se dor", "según necesidad" …: the as-needed words (folded), else None."""
    said = frequency.as_needed(text)
    return said.words if said else None


def _folded(value: Any) -> Any:
    if isinstance(value, str):
        return fold(value)
    if isinstance(value, list):
        return [_folded(v) for v in value]
    if isinstance(value, dict):
        return {_folded(k) if isinstance(k, str) else k: _folded(v) for k, v in value.items()}
    return value


def merged(base: dict[str, Any]) -> dict[str, Any]:
    """The English rules with every language's rules added (a new dict; ``base`` untouched)."""
    out = _merge({}, base)
    for lang in UNDERSTOOD:
        out = _merge(out, language_rules(lang))
    return out


def _merge(into: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    out = dict(into)
    for key, value in extra.items():
        have = out.get(key)
        if isinstance(have, dict) and isinstance(value, dict):
            out[key] = _merge(have, value)
        elif isinstance(have, list) and isinstance(value, list):
            out[key] = have + [v for v in value if v not in have]
        else:
            out[key] = dict(value) if isinstance(value, dict) else value
    return out


@lru_cache(maxsize=1)
def _own() -> dict[str, Any]:
    """Every language's rules merged, without the English ones (what this module reads)."""
    out: dict[str, Any] = {}
    for lang in UNDERSTOOD:
        out = _merge(out, language_rules(lang))
    return out


@lru_cache(maxsize=1)
def name_pattern() -> re.Pattern[str]:
    """Two or three capitalised words after a language's "de", "pour", "para" … (an article
    between them is read through: "para o Samuel Okoro", "de la Sra. …" has its title rule)."""
    words = "|".join(
        re.escape(w) for w in sorted(_own().get("name_words", ()), key=len, reverse=True)
    )
    name = r"[A-Z][a-z'\-]+"
    article = r"(?:(?:o|a|el|la|le|los|las|os|as)\s+)?"  # "para o Samuel Okoro"
    return re.compile(rf"\b(?:{words})\s+{article}({name}(?:\s+{name}){{1,2}})")


@lru_cache(maxsize=1)
def titles() -> frozenset[str]:
    """The language rules' titles, lower case, with and without a full stop ("mme", "sra.")."""
    words = [t.lower() for t in _own().get("titles", ())]
    return frozenset(words + [w + "." for w in words])


@lru_cache(maxsize=1)
def title_pattern() -> re.Pattern[str]:
    """A surname after a title ("Mme Thompson", "Sra. Adeyemi", "Dona Amara"), matched on the
    accent-folded message ("señora" as "senora"). A title of three letters or more is read in
    any case and may precede a name written in lower case ("la señora thompson"); a short or
    ambiguous one ("M", "Sr", "Don", "Seu": also "my", "his" in Portuguese) only before a
    capitalised name ("e o seu Robert", never "seu INR"). The name is group ``name`` (or
    ``cap``)."""
    said = [str(t) for t in _own().get("titles", ())]
    free = [t for t in said if len(t) >= 3 and t.lower() not in _CASED_TITLES]
    cased = [t for t in said if t not in free]
    # a word ends the name's word ("HbA1c" after a name is no "Hb" of it); "O'Brien",
    # "McAllister", "N'Diaye" are one word
    cap = r"(?:[A-Z]['\u2019])?[A-Z][a-z'\-]+(?:[A-Z][a-z'\-]+)?(?![\w])"
    anycase = r"[A-Za-z][a-z'\-]+(?![\w])"
    # "Mme van der Berg", "a Sra. dos Santos": the particles belong to a capitalised surname
    # ("la señora de la cama 3" names no one)
    lead = rf"(?:(?:{_alternation(_particles())})\s+){{0,2}}"
    # a title right after a number is a unit ("walk 100 m. Background: …" names no one)
    unit = r"(?<!\d)(?<!\d\s)"
    return re.compile(
        rf"{unit}\b(?i:{_alternation(free)})\.?\s+"
        rf"(?P<name>{lead}{cap}(?:\s+{cap})?|{anycase}(?:\s+{cap})?)"
        rf"|{unit}\b(?i:{_alternation(cased)})\.?\s+(?P<cap>{lead}{cap}(?:\s+{cap})?)"
        # "el sr. quispe de la 9", "o sr silva": "Sr" after an article of Spanish or Portuguese
        # is the title, never "SR" (sinus rhythm), so its name may be in lower case
        rf"|(?<![\w'])(?i:el|al|del|o|ao|do|pelo)\s+(?i:sr|snr)\.?\s+(?P<low>{anycase})"
    )


@lru_cache(maxsize=1)
def surname_particles() -> frozenset[str]:
    """The small words a surname may begin with ("van der", "dos", "bin")."""
    from ..reading.people import people_data

    return frozenset(str(w) for w in people_data()["surname_particles"])


def _particles() -> list[str]:
    return [w for w in surname_particles() if not w.endswith("'")]


# titles that are also ordinary words when not capitalised (pt "seu": his, her; fr "dame": a
# lady, "la dame du lit 4", "la dame âgée", a title only before a capitalised surname)
_CASED_TITLES = frozenset({"seu", "don", "dame"})


def _alternation(words: list[str]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True)) or "(?!)"


@lru_cache(maxsize=1)
def _join_pattern() -> re.Pattern[str]:
    words = "|".join(re.escape(w) for w in _own().get("join_words", ()))
    return re.compile(rf"(?<![a-z])(?:{words})(?![a-z])", re.I)


def joined(text: str) -> bool:
    """Two drugs joined by "et", "avec", "e", "com", "y", "con" …"""
    return bool(_join_pattern().search(fold(text)))


def duration(text: str) -> str | None:
    """"pendant 5 jours", "pdt 7j", "por 7 días", "x 5 dias" → "5 days", "durante una semana" →
    "1 weeks" (None if not said)."""
    units = _own()["duration_units"]
    for pattern in _own().get("durations", ()):
        m = re.search(pattern, fold(text), re.I)
        if m and m.group(2).lower() in units:
            # "durante una semana", "pendant un mois": the article is one
            count = "1" if m.group(1).lower() in _ONE else m.group(1)
            return f"{count} {units[m.group(2).lower()]}"
    return None


_ONE = frozenset({"un", "une", "um", "uma", "uno", "una"})


@lru_cache(maxsize=1)
def _dose_pattern() -> re.Pattern[str]:
    units = "|".join(
        re.escape(u) for u in sorted(_own().get("dose_units", ()), key=len, reverse=True)
    )
    return re.compile(rf"(?<![\w.,/⁄]){NUMBER}\s*({units})(?![a-z])", re.I)


def dose(text: str) -> re.Match[str] | None:
    """A dose in a language's units as written ("2 bouffées", "1 comprimido", "20 gotas")."""
    return _dose_pattern().search(fold(text))


def as_written(found: dict[str, Any] | None, folded: str, said: str) -> dict[str, Any] | None:
    """The dose and frequency read on the folded text, given back with the clinician's accents
    ("2 bouffées", "se necessário"); unchanged where the folding changed the text's length."""
    if not found or len(folded) != len(unicodedata.normalize("NFC", said)):
        return found
    said, low = unicodedata.normalize("NFC", said), folded.lower()
    out = dict(found)
    for key in ("dose", "frequency"):
        value = out.get(key)
        if isinstance(value, str) and low.find(value) >= 0:
            at = low.find(value)
            out[key] = said[at:at + len(value)].lower()
    return out
