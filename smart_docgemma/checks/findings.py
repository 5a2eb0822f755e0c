"""Findings (one problem a rule found) and their grouping into one card per problem.

A rule returns ``Finding``s: a severity, a summary that says what to do, the
mechanism and management from the knowledge, the patient's own evidence
(latest INR with its date, eGFR, the allergy's reaction and criticality) and
the sources. Findings that share a ``problem`` key become one ``Problem`` —
one card — whose severity is the highest finding's and whose sources are all
of theirs: on an order, every finding about one draft is one problem (an
interaction and a boxed warning never offer to remove the same draft twice).
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from ..knowledge.finding import Source  # the one citation type (tools, cards, MCP, knowledge)

SUMMARY_MAX = 139  # CDS Hooks: one sentence under 140 characters
RANK = {"critical": 0, "warning": 1, "info": 2}


@dataclass
class Finding:
    """One problem a deterministic rule found, before it becomes a card."""

    # grouping key: "draft:MedicationRequest/d1", "pair:aspirin+warfarin",
    # "monitor:warfarin-inr"
    problem: str
    severity: str  # info | warning | critical
    summaries: list[str]  # what to do, longest first; the first under 140 characters is used
    topic: str
    mechanism: str = ""
    management: str = ""
    evidence: list[str] = field(default_factory=list)  # the patient's own data behind the finding
    sources: list[Source] = field(default_factory=list)
    draft: dict | None = None  # the draft MedicationRequest a suggestion may delete or replace
    active: dict | None = None  # an active MedicationRequest a suggestion may stop (patient-view)
    alternative: dict | None = None  # {"display", "rxnorm"}: a safer drug the knowledge names
    fingerprint_of: tuple = ()  # what makes this finding new (e.g. the latest result's id)
    quote: str = ""  # the French source text (ANSM) the English was derived from
    # what to do, language-neutral (languages.message): the approval card shows it in the page's
    # language; ``summaries`` stay the English of CDS cards, the model and logs
    message: dict | None = None
    # a note that a check ran and found the order within its limits (the kidney dose within the
    # label's band): on the assistant's card, never a CDS card of its own
    quiet: bool = False

    @property
    def summary(self) -> str:
        return fit_summary(self.summaries)


@dataclass
class Problem:
    """The findings about one problem: one card."""

    key: str
    findings: list[Finding]

    @property
    def lead(self) -> Finding:
        return min(self.findings, key=lambda f: RANK[f.severity])

    @property
    def severity(self) -> str:
        return self.lead.severity

    @property
    def sources(self) -> list[Source]:
        return list(dict.fromkeys(s for f in self.findings for s in f.sources))

    @property
    def draft(self) -> dict | None:
        return next((f.draft for f in self.findings if f.draft), None)

    @property
    def active(self) -> dict | None:
        return next((f.active for f in self.findings if f.active), None)

    @property
    def alternative(self) -> dict | None:
        return next((f.alternative for f in sorted(self.findings, key=lambda f: RANK[f.severity])
                     if f.alternative), None)

    @property
    def fingerprint(self) -> str:
        """Changes when the problem changes (severity, a new result), not on every call."""
        parts = sorted(f"{f.topic}|{f.severity}|{f.fingerprint_of}" for f in self.findings)
        return hashlib.sha256("\n".join([self.key, *parts]).encode()).hexdigest()[:32]


def group(findings: list[Finding]) -> list[Problem]:
    """One problem per key, most severe first (ties keep the rules' order)."""
    by_key: dict[str, Problem] = {}
    for finding in findings:
        by_key.setdefault(finding.problem, Problem(finding.problem, [])).findings.append(finding)
    for problem in by_key.values():
        problem.findings.sort(key=lambda f: RANK[f.severity])
    return sorted(by_key.values(), key=lambda p: RANK[p.severity])


def fit_summary(candidates: list[str]) -> str:
    """The first candidate under 140 characters; never cut mid-sentence with an ellipsis.

    Rules give a short last candidate ("Avoid ketorolac with warfarin"); if even
    that is too long the sentence ends at the last whole word that fits.
    """
    cleaned = [" ".join(c.split()) for c in candidates if c and c.strip()]
    for text in cleaned:
        if len(text) <= SUMMARY_MAX:
            return text
    return cleaned[-1][:SUMMARY_MAX].rsplit(" ", 1)[0].rstrip(" ,;:—-")


def capital(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text
