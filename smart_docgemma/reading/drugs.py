"""A drug named in the chart of the patient in context is about her: safety by content.

Whatever the verb, the mood or the language ("aspirine pour la fièvre chez ce petit ?", "INR 3,4 -
suspendo a varfarina?"), a message that names a drug in her chart and makes no other request runs
the one safety check of that drug against her chart — unless it asks general knowledge of the drug
("how does warfarin work?", "demi-vie de l'apixaban ?": ``data/requests.yaml``).
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import yaml

DATA = Path(__file__).with_name("data")


@lru_cache(maxsize=1)
def _general() -> re.Pattern[str]:
    said = yaml.safe_load((DATA / "requests.yaml").read_text())["general_knowledge"]
    phrases = sorted({str(p).lower() for ps in said.values() for p in ps}, key=len, reverse=True)
    return re.compile(r"(?<![\w])(?:" + "|".join(re.escape(p) for p in phrases) + r")(?![\w])")


def asks_general_knowledge(folded: str) -> bool:
    """The message (accent folded) asks about the drug in general, not for this patient."""
    low = folded.lower()
    return bool(_general().search(low) or _WHAT_IT_DOES.search(low))


# "What do ACE inhibitors do?", "what does metformin do?": what a drug does, asked of the drug;
# "what do I do?", "what should we do?" ask for a plan for her and stay hers
_WHAT_IT_DOES = re.compile(r"\bwhat (?:do|does) (?!i\b|we\b|you\b)[\w\s-]{2,40}\bdo\s*\?")


def ordered_drug(folded: str, mentions: list[tuple[str, str]], dose: str | None) -> str | None:
    """The drug an order with several drugs named orders: the one written right before the dose
    ("add losartan 50mg od, bp still high on the lisinopril" orders losartan; lisinopril is what
    she is on). ``mentions``: (generic name, surface as written, normalised); None when no dose
    is written or no drug stands before it."""
    low = re.sub(r"[^\w.,/]+", " ", folded.lower())
    number = re.search(r"\d", low)
    if not dose or not number:
        return None
    before = low[: number.start()]
    placed = [(before.rfind(surface), name) for name, surface in mentions
              if surface and surface in before]
    return max(placed)[1] if placed else None
