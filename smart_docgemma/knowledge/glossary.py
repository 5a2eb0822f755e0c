"""English effect and management for an ANSM thesaurus entry, derived from the reviewed glossary.

The thesaurus is French. Its texts are built from a small set of recurring clinical phrases
("syndrome sérotoninergique", "adaptation de la posologie"), so the English is assembled from
those phrases only (``data/glossary.yaml``) plus the entry's own drug names: nothing is machine
translated, and a text whose phrases the glossary does not know yields the level's own English
("Avoid the combination.") rather than French. The French stays beside it as the source quote.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from .tables import load

LEVEL_ACTION = {
    "contraindicated": "Do not combine (contraindicated).",
    "avoid": "Avoid the combination.",
    "precaution": "Combine only with precautions.",
    "take into account": "Take the interaction into account.",
}
NO_EFFECT = "Interaction listed by the ANSM thesaurus"
_SAID_BY_LEVEL = {"contraindicated": ("do not combine", "avoid"), "avoid": ("avoid",)}


@dataclass(frozen=True)
class English:
    effect: str  # "Serotonin syndrome; raised blood levels of methadone."
    management: str  # "Avoid the combination. ECG monitoring; adjust the dose."
    derived: bool  # the effect came from glossary phrases (not only the level's default)
    managed: bool = (
        True  # the management text, when there is one, gave at least one glossary phrase
    )


def fold(text: str) -> str:
    """Lower case, accents off, one kind of apostrophe — what the glossary is matched against."""
    text = unicodedata.normalize("NFKD", text or "").replace("’", "'").replace("œ", "oe")
    return "".join(c for c in text if not unicodedata.combining(c)).lower()


@lru_cache(maxsize=1)
def _patterns() -> dict[str, list[tuple[re.Pattern[str], str]]]:
    data = load("glossary.yaml")
    return {
        kind: [
            (re.compile(fr.replace(" ", r"\s*").replace("'", r"'?\s*")), en)
            for fr, en in data[kind]
        ]
        for kind in ("effects", "actions")
    }


def phrases(text: str, kind: str, names: dict[str, str] | None = None) -> list[str]:
    """The English of every glossary phrase in ``text``, in order of appearance, each once.

    ``names`` maps a folded stem of a drug as the French text spells it to its English name,
    used for ``{drug}`` right after a phrase."""
    folded = fold(text)
    taken: list[tuple[int, int]] = []
    found: list[tuple[int, str]] = []
    for pattern, en in _patterns()[kind]:
        for m in pattern.finditer(folded):
            if m.end() == m.start() or any(m.start() < e and s < m.end() for s, e in taken):
                continue
            taken.append((m.start(), m.end()))
            found.append((m.start(), _fill(en, m, folded, names or {})))
    said = list(dict.fromkeys(en for _, en in sorted(found) if en))
    return [en for en in said if not any(en != other and en in other for other in said)]


def _fill(en: str, m: re.Match[str], folded: str, names: dict[str, str]) -> str:
    values = {
        k: (v or "").replace(",", ".") for k, v in m.groupdict().items()
    }  # alternatives: one is set
    if "{drug}" in en:
        drug = _named_after(folded, m.end(), names)
        en = en.replace("{drug}", drug) if drug else re.sub(r"\s*(?:of|by)? \{drug\}", "", en)
    try:
        return en.format(**values)
    except KeyError:
        return ""


def _named_after(folded: str, at: int, names: dict[str, str]) -> str:
    window = folded[at : at + 40].replace(" ", "")
    if window.startswith(
        "par"
    ):  # "... de son absorption par le vérapamil": the agent, not the drug affected
        return ""
    hits = [(window.find(stem), name) for stem, name in names.items() if stem and stem in window]
    return min(hits)[1] if hits else ""


def stems(french_label: str, english: str) -> dict[str, str]:
    """How a French text may spell a drug: the first letters of each long word of its label."""
    words = [w for w in re.split(r"[^a-z0-9]+", fold(french_label)) if len(w) >= 5]
    return {w[:6]: english for w in words[:2]}


@lru_cache(maxsize=8192)
def english(
    mechanism: str, management: str, level: str, names: tuple[tuple[str, str], ...] = ()
) -> English:
    """The English of one entry: effect from the mechanism text, management from the level and
    the management text (``names``: the entry's drugs as (French label, English name))."""
    spelled = {k: v for fr, en in names for k, v in stems(fr, en).items()}
    facts, advice = _advice_apart(mechanism)
    effects = phrases(facts, "effects", spelled)
    said = _SAID_BY_LEVEL.get(level, ())
    actions = [a for a in phrases(f"{advice} {management}", "actions", spelled) if a not in said]
    effect = _sentence(effects) if effects else NO_EFFECT + "."
    manage = LEVEL_ACTION.get(level, "")
    if actions:
        manage = f"{manage} {_sentence(actions)}".strip()
    return English(effect, manage, bool(effects), bool(actions) or not management.strip())


_ADVICE = re.compile(
    r"\b(?:commencer|surveiller|controler|reduire|adapter|eviter|hydrater|reconsiderer|utiliser|"
    r"preferer|dans tous les cas)\b"
)


def _advice_apart(mechanism: str) -> tuple[str, str]:
    """Some entries put advice in the mechanism text ("commencer par une dose très faible d'IEC"):
    its sentences that advise are read as management, the others as the effect."""
    sentences = re.split(r"(?<=[.;])\s+", mechanism or "")
    advice = [s for s in sentences if _ADVICE.search(fold(s))]
    return " ".join(s for s in sentences if s not in advice), " ".join(advice)


def _sentence(parts: list[str]) -> str:
    """Phrases joined by "; " (a phrase ending in ":" introduces the next one)."""
    text = "".join(p + (" " if p.endswith(":") else "; ") for p in parts).rstrip("; :")
    return text[:1].upper() + text[1:] + "."


FRENCH_MARKERS = re.compile(
    r"\b(?:de la|du|des|avec|risque|surveillance|posologie|association|par|pendant|"
    r"l'|d'|et|est|une|les|le|la)\b",
    re.I,
)


def looks_french(text: str) -> bool:
    """Two or more common French words: the test that no English text carries French."""
    return len(FRENCH_MARKERS.findall(fold(text).replace("'", "' "))) >= 2
