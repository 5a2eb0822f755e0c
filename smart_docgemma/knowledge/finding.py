"""The one typed result of every knowledge check (interaction, dose, kidney, age).

A ``Finding`` is what a prescriber reads: how serious (``severity`` in the card
vocabulary, ``level`` in the interaction sources' own), a short English
``summary`` that says what to do, the English ``effect`` and ``management``, the
``sources`` that agree on it, and — when the source is the French ANSM
thesaurus — its original text as ``quote`` (what francophone clinicians read and
what the English was derived from). Callers (the agent's tools, approval cards,
CDS) show these fields; none of them re-derives severity or text.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

SEVERITIES = ("critical", "warning", "info")
LEVELS = ("contraindicated", "avoid", "precaution", "take into account")
LEVEL_SEVERITY = {
    "contraindicated": "critical",
    "avoid": "critical",
    "precaution": "warning",
    "take into account": "info",
}


@dataclass(frozen=True)
class Source:
    """A citation: what it is and where a clinician can check it (the package's one Source:
    the tools, the cards and the MCP server cite with it too)."""

    label: str
    url: str = ""


@dataclass(frozen=True)
class Finding:
    """One problem the knowledge found with a drug (or a pair or trio of drugs)."""

    topic: str  # interaction | combination | dose | renal | age
    severity: str  # critical | warning | info
    drugs: tuple[str, ...]  # generic names concerned, the checked drug first
    summary: str  # English, one sentence under 140 characters, says what to do
    effect: str  # English: what can happen
    management: str  # English: what to do, with numbers where a source gives them
    sources: tuple[Source, ...]  # every source that agrees, most severe first
    level: str = ""  # interactions: contraindicated | avoid | precaution | take into account
    quote: str = ""  # French original (ANSM) the English was derived from; "" for English sources
    evidence: tuple[str, ...] = ()  # the patient's own data behind it ("eGFR 24 on 2026-11-01")
    key: str = ""  # stable id of the rule or pair ("class:qt_known_risk", "dose:acetaminophen")
    # renal: the label's daily dose at the patient's kidney band ("400-1400 mg a day …"), or ""
    band: str = ""
    # renal: the rule's own risk ("NSAIDs worsen kidney function"), the card's words when the
    # rule changes no dose
    risk: str = ""
    # a dose-capped pair: the label's most a day of the capped drug beside the other (mg), and
    # whether the dose ordered is over it (None: not compared, no dose stated)
    cap_mg: float | None = None
    over_cap: bool | None = None

    @property
    def critical(self) -> bool:
        return self.severity == "critical"

    @property
    def source_labels(self) -> tuple[str, ...]:
        return tuple(s.label for s in self.sources)


def by_severity(findings: Iterable[Finding]) -> list[Finding]:
    """Most severe first; order otherwise kept."""
    return sorted(findings, key=lambda f: SEVERITIES.index(f.severity))
