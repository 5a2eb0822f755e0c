"""An FDA drug label read: the safety sections (``LabelSafety``: boxed warning, contraindications,
warnings, pregnancy, each bounded), the newest label of each set, the label that names the drug,
and where a label's interaction text mentions another drug (``label_mentions``). No network:
the openFDA client is ``openfda.py``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from ... import knowledge
from ...datafiles import safe_yaml
from ..base import Source

DATA = Path(__file__).parents[1] / "data"  # the tools' tables, one folder
DISCLAIMER = "openFDA: do not rely on openFDA to make decisions regarding medical care."
DAILYMED = "https://dailymed.nlm.nih.gov/dailymed/drugInfo.cfm?setid="


# (field, heading shown, character budget) — the 4B model reads this text.
SAFETY_SECTIONS = (
    ("boxed_warning", "Boxed warning", 700),
    ("contraindications", "Contraindications", 500),
    ("warnings_and_cautions", "Warnings and precautions", 700),
    ("warnings", "Warnings", 700),
    ("pregnancy", "Pregnancy", 300),
)


INTERACTION_FIELDS = (
    ("drug_interactions", "Drug Interactions"),
    ("contraindications", "Contraindications"),
    ("boxed_warning", "Boxed Warning"),
)


_NO_EFFECT = re.compile(r"\bno (clinically (important|significant|relevant)|dose adjustment|"
                        r"significant|meaningful)\b", re.I)


_SENTENCE_END = re.compile(r"(?<!\be\.g)(?<!\bi\.e)[.;]\s+(?=[A-Z(\[])")


_HEADING = re.compile(r"^\s*(\d+(\.\d+)*\s+)?(warnings and precautions|contraindications|warnings|"
                      r"drug interactions|pregnancy|precautions)\s*[:.]?\s*", re.I)


@dataclass
class LabelSafety:
    """The safety-relevant parts of one FDA label, compact and citable."""

    query: str
    set_id: str
    effective_time: str  # YYYYMMDD
    generic_names: list[str]
    brand_names: list[str]
    sections: dict[str, str]  # heading -> compact text (bounded)
    texts: dict[str, str] = field(default_factory=dict)  # interaction-relevant sections, whole
    other_set_ids: list[str] = field(default_factory=list)

    @property
    def url(self) -> str:
        return DAILYMED + self.set_id

    @property
    def name(self) -> str:
        generic = ", ".join(self.generic_names) or self.query.upper()
        return f"{generic} ({', '.join(self.brand_names[:2])})" if self.brand_names else generic

    @property
    def effective(self) -> str:
        t = self.effective_time
        return f"{t[:4]}-{t[4:6]}-{t[6:8]}" if len(t) == 8 else t

    @property
    def source(self) -> Source:
        return Source(
            f"FDA label: {self.name}, effective {self.effective} (DailyMed set id {self.set_id})",
            self.url,
        )


def newest_per_set(labels: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One label per ``set_id`` (the newest ``effective_time``), newest first."""
    best: dict[str, dict[str, Any]] = {}
    for label in labels:
        sid = label.get("set_id") or label.get("id") or ""
        if sid not in best or label.get("effective_time", "") > best[sid].get("effective_time", ""):
            best[sid] = label
    return sorted(best.values(), key=lambda lb: lb.get("effective_time", ""), reverse=True)


def _name_match(label: dict[str, Any], terms: list[str]) -> int:
    """2 = a harmonised name equals a term, 1 = starts with it (salt form), 0 = other product."""
    names = [n.lower() for key in ("generic_name", "brand_name", "substance_name")
             for n in (label.get("openfda") or {}).get(key, [])]
    if any(n in terms for n in names):
        return 2
    return int(any(n.startswith(t + " ") for n in names for t in terms))


def summarise(drug: str, terms: list[str], labels: list[dict[str, Any]]) -> LabelSafety:
    ranked = sorted(newest_per_set(labels), key=lambda lb: _name_match(lb, terms), reverse=True)
    label, openfda = ranked[0], ranked[0].get("openfda") or {}
    sections = {heading: compact(label.get(key), budget) for key, heading, budget in SAFETY_SECTIONS
                if label.get(key)}
    texts = {
        heading: _joined(label.get(key)) for key, heading in INTERACTION_FIELDS if label.get(key)
    }
    return LabelSafety(
        query=drug,
        set_id=label.get("set_id", ""),
        effective_time=label.get("effective_time", ""),
        generic_names=openfda.get("generic_name", [])[:2],
        brand_names=openfda.get("brand_name", [])[:2],
        sections=sections,
        texts=texts,
        other_set_ids=[lb.get("set_id", "") for lb in ranked[1:]],
    )


def _joined(parts: list[str] | None) -> str:
    return re.sub(r"\s+", " ", " ".join(parts or [])).strip()


def compact(parts: list[str] | None, budget: int) -> str:
    """Section text without its numbered heading, cut at a sentence end within ``budget``."""
    text = _HEADING.sub("", _joined(parts), count=1)
    if len(text) <= budget:
        return text
    cut = text[:budget]
    end = max(cut.rfind(". "), cut.rfind("; "))
    return (cut[: end + 1] if end > budget // 2 else cut.rstrip()) + " …"


@dataclass(frozen=True)
class LabelMention:
    """Drug A's label names drug B (or B's class) in one of its sections."""

    label: LabelSafety
    section: str
    term: str
    sentence: str  # the whole sentence naming the term
    excerpt: str  # the sentence, cut around the term to a bounded length

    @property
    def reassuring(self) -> bool:
        """The sentence says there is no clinically important interaction (labels list those
        too)."""
        return bool(_NO_EFFECT.search(self.sentence))


@lru_cache(maxsize=1)
def _class_terms() -> dict[str, list[str]]:
    terms: dict[str, list[str]] = safe_yaml((DATA / "class_terms.yaml").read_text())
    return terms


def terms_for(generic: str, info: LabelSafety | None) -> list[str]:
    """Words a label would use for this drug: its names and its classes' names."""
    names = {generic} | {n.lower() for n in (info.generic_names + info.brand_names if info else [])}
    names |= {
        t.lower() for cls in knowledge.drug_classes(generic) for t in _class_terms().get(cls, [])
    }
    return sorted(n for n in names if len(n) > 2)


def label_mentions(info: LabelSafety, terms: list[str]) -> LabelMention | None:
    """Where ``info``'s interaction-relevant sections name any of ``terms``, with the sentence.

    A warning beats a "no clinically important interaction" statement, which labels also list.
    """
    found = []
    for section, text in info.texts.items():
        for term in terms:
            for m in re.finditer(rf"\b{re.escape(term)}s?\b", text, re.I):
                sentence = _sentence(text, m.start(), m.end())
                at = sentence.lower().find(m.group(0).lower())
                hit = LabelMention(info, section, term, sentence, _excerpt(sentence, at))
                if not hit.reassuring:
                    return hit
                found.append(hit)
    return found[0] if found else None


def _sentence(text: str, start: int, end: int) -> str:
    """The sentence around ``text[start:end]`` ("e.g." and "i.e." do not end a sentence)."""
    ends = [m.end() for m in _SENTENCE_END.finditer(text)]
    left = max([e for e in ends if e <= start], default=0)
    right = min([e for e in ends if e > end], default=len(text))
    return text[left:right].strip()


def _excerpt(sentence: str, term_at: int, budget: int = 300) -> str:
    if len(sentence) <= budget:
        return sentence
    left = max(0, min(term_at - budget // 2, len(sentence) - budget))
    tail = " …" if left + budget < len(sentence) else ""
    return ("… " if left else "") + sentence[left:left + budget].strip() + tail
