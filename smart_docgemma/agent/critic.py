"""The second look: a review of what matters before the clinician sees it.

Two drafts earn a second look: a write proposal, and an answer that
recommends a change of therapy (start, stop, switch, dose change). Plain
questions never pay for it; ``needs_second_look`` decides in code.

Deterministic checks come first and need no model: a critical safety flag the
knowledge checks already raised on a proposal, and a safety check that could
not run. Then one constrained call (``CriticReview``) reviews the draft
against the tool results only: it may point at claims the results do not
support, contradictions with the chart and checks that were not done — it
never adds facts, and its findings are shown as such ("Second look: …").
Without a model only the deterministic part runs, and the review says so.
"""
from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field

from ..errors import ModelError
from .prompts import system, template
from .schemas import CriticReview

# A recommendation to change therapy: a therapy verb (base or -ing form, so that
# "aspirin increases bleeding risk" is a finding, not advice) at the start of a
# sentence or bullet, or after words that make it advice ("consider reducing").
_VERB = (r"(?:start|initiat|begin|stop|discontinu|switch|chang|increas|decreas|reduc|lower|titrat|"
         r"withhold|hold|add|replac|substitut|prescrib|avoid|cease)(?:e|es|ing)?")
_LEAD = (r"(?:^|[.;:!?]\s+|^\s*(?:[-*\u2022]|\d+[.)])\s*|\b(?:recommend(?:ed|s)?|consider(?:ing)?|should|"
         r"suggest(?:ed|s)?|advis(?:e|ed|able)|may want to|need(?:s)? to|must|please|would)\s+(?:to\s+)?(?:be\s+)?)")
_THERAPY_CHANGE = re.compile(_LEAD + r"(" + _VERB + r")\b", re.I | re.M)
SEVERITIES = ("none", "low", "high")


@dataclass
class SecondLook:
    """The review shown on a card or under an answer."""

    severity: str = "none"                 # none | low | high (high blocks Approve until acknowledged)
    findings: list[str] = field(default_factory=list)
    reviewed_by: str = "deterministic"     # deterministic | deterministic+model
    note: str = ""                         # e.g. why the model part did not run

    def to_dict(self) -> dict:
        return asdict(self)

    def raise_to(self, severity: str) -> None:
        if SEVERITIES.index(severity) > SEVERITIES.index(self.severity):
            self.severity = severity


def needs_second_look(answer: str | None, proposals: list) -> bool:
    """A write proposal, or an answer recommending a therapy change (code decides, never the model)."""
    return bool(proposals) or recommends_change(answer or "")


def recommends_change(answer: str) -> bool:
    return bool(_THERAPY_CHANGE.search(answer))


def deterministic(flags: list[dict]) -> SecondLook:
    """What the knowledge checks already know: critical findings and checks that did not run."""
    look = SecondLook()
    for flag in flags:
        if flag.get("kind") == "unchecked":
            look.findings.append(f"A safety check did not run: {flag.get('text')}")
            look.raise_to("low")
        elif flag.get("severity") == "critical":
            look.findings.append(f"Critical safety finding: {flag.get('text')}")
            look.raise_to("high")
    return look


def review(model, draft: str, evidence: list[str], flags: list[dict] | None = None) -> SecondLook:
    """Deterministic checks, then one constrained model call when a model is available."""
    look = deterministic(flags or [])
    if model is None:
        look.note = "Model unavailable: only the deterministic checks ran."
        return look
    messages = [{"role": "system", "content": system("critic")},
                {"role": "user", "content": template("critic_user").format(
                    draft=draft[:2000], evidence="\n\n".join(e[:1500] for e in evidence)[:6000] or "(none)")}]
    try:
        verdict = model.structured("critic", messages, CriticReview)
    except ModelError as exc:
        look.note = f"The model part of the second look did not run ({exc.title.lower()})."
        return look
    return _merge(look, verdict)


def _merge(look: SecondLook, verdict: CriticReview) -> SecondLook:
    look.reviewed_by = "deterministic+model"
    look.raise_to(verdict.severity)
    look.findings += [f"Not supported by the sources: {c}" for c in verdict.unsupported_claims]
    look.findings += [f"Contradicts the chart: {c}" for c in verdict.contradictions]
    look.findings += [f"Check not done: {c}" for c in verdict.missing_checks]
    return look
