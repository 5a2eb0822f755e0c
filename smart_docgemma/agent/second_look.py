"""The second look: a review of what matters before the clinician sees it.

Two drafts earn a second look: a write proposal, and an answer that
recommends a change of therapy (start, stop, switch, dose change). Plain
questions never pay for it; ``needs_second_look`` decides in code.

Deterministic checks come first and need no model: a critical safety flag the
knowledge checks already raised on a proposal, and a safety check that could
not run. Then one constrained call (``SecondLookReview``) reviews the draft
against the tool results only: it may point at claims the results do not
support, contradictions with the chart and checks that were not done — it
never adds facts, and its findings are shown as such ("Second look: …").
Without a model only the deterministic part runs, and the review says so.
"""
from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from ..approval.types import DraftedCard, SafetyFlag, SecondLook
from ..errors import ModelError
from .model import BoundModel
from .nodes import Deps
from .prompts import system, template
from .schemas import SecondLookReview
from .state import SecondLookOutcome, Turn, TurnReview, Update

# A recommendation to change therapy: a therapy verb (base or -ing form, so that
# "aspirin increases bleeding risk" is a finding, not advice) at the start of a
# sentence or bullet, or after words that make it advice ("consider reducing").
_VERB = (r"(?:start|initiat|begin|stop|discontinu|switch|chang|increas|decreas|reduc|lower|titrat|"
         r"withhold|hold|add|replac|substitut|prescrib|avoid|cease)(?:e|es|ing)?")
_LEAD = (r"(?:^|[.;:!?]\s+|^\s*(?:[-*\u2022]|\d+[.)])\s*|"
         r"\b(?:recommend(?:ed|s)?|consider(?:ing)?|should|suggest(?:ed|s)?|advis(?:e|ed|able)|"
         r"may want to|need(?:s)? to|must|please|would)\s+(?:to\s+)?(?:be\s+)?)")
_THERAPY_CHANGE = re.compile(_LEAD + r"(" + _VERB + r")\b", re.I | re.M)
SEVERITIES = ("none", "low", "high")


def _higher(severity: str, other: str) -> str:
    """The more serious of two severities."""
    return max(severity, other, key=SEVERITIES.index)


def needs_second_look(answer: str | None, proposals: list[Any]) -> bool:
    """A write proposal, or an answer recommending a therapy change (code decides, never the
    model)."""
    return bool(proposals) or recommends_change(answer or "")


def recommends_change(answer: str) -> bool:
    return bool(_THERAPY_CHANGE.search(answer))


def deterministic(flags: list[SafetyFlag]) -> SecondLook:
    """What the knowledge checks already know: critical findings and checks that did not run."""
    findings: list[str] = []
    severity = "none"
    for flag in flags:
        if flag.get("kind") == "unchecked":
            findings.append("A safety check did not run (see the findings above); "
                            "do not read its silence as safe.")
            severity = _higher(severity, "low")
        elif flag.get("severity") == "critical":
            findings.append(f"The critical {flag.get('kind') or 'safety'} finding above applies to "
                            "this order: approve only if you have weighed it.")
            severity = _higher(severity, "high")
    return SecondLook(severity=severity, findings=tuple(findings))


_MODEL_FINDINGS = ("Not supported by the sources: ", "Contradicts the chart: ", "Check not done: ")


def after_edit(before: SecondLook, flags: list[SafetyFlag], version: int) -> SecondLook:
    """The second look of a proposal the clinician edited, for the version that will be written.

    The deterministic checks run again on the edited order's flags; the model's findings are
    kept, labelled as a review of the version before (it is not asked again inside the
    clinician's request), and keep their severity. A high result must be acknowledged again:
    an acknowledgement was given for the version the clinician saw then."""
    look = deterministic(flags)
    earlier = tuple(f for f in before.findings if f.startswith(_MODEL_FINDINGS))
    if earlier:
        look = replace(look, severity=_higher(look.severity, before.severity),
                       findings=look.findings + earlier, reviewed_by=before.reviewed_by)
    note = (
        f"Checked again after the edit (version {version}): the knowledge checks ran on the edited "
        "order"
        + (
            f"; the model's findings are from its review of version {version - 1}."
            if earlier
            else "."
        )
    )
    return replace(look, note=note)


def review(model: BoundModel | None, draft: str, evidence: list[str],
           flags: list[SafetyFlag] | None = None) -> SecondLook:
    """Deterministic checks, then one constrained model call when a model is available."""
    look = deterministic(flags or [])
    if model is None:
        return replace(look, note="Model unavailable: only the deterministic checks ran.")
    messages = [
        {"role": "system", "content": system("second_look")},
        {
            "role": "user",
            "content": template("second_look_user").format(
                draft=draft[:2000],
                evidence="\n\n".join(e[:1500] for e in evidence)[:6000] or "(none)",
            ),
        },
    ]
    try:
        verdict = model.structured("second_look", messages, SecondLookReview)
    except ModelError as exc:
        return replace(
            look, note=f"The model part of the second look did not run ({exc.title.lower()})."
        )
    return _merge(look, verdict)


def _merge(look: SecondLook, verdict: SecondLookReview) -> SecondLook:
    found = (*(f"Not supported by the sources: {c}" for c in verdict.unsupported_claims),
             *(f"Contradicts the chart: {c}" for c in verdict.contradictions),
             *(f"Check not done: {c}" for c in verdict.missing_checks))
    return replace(
        look,
        reviewed_by="deterministic+model",
        severity=_higher(look.severity, verdict.severity),
        findings=look.findings + found,
    )


# ------------------------------------------------------------------ the node
def second_look(state: Turn, deps: Deps) -> Update[SecondLookOutcome]:
    """SECOND_LOOK: review new proposals and a therapy-changing answer; attach the result.

    Runs after SYNTHESIZE and before a turn pauses on a proposal, so a card is
    never shown without its review. Proposals reviewed earlier in the turn are
    not reviewed again after a resume.
    """
    pause: SecondLookOutcome = "pause" if state.answer is None else "done"
    before = state.second_look or TurnReview()
    new = [proposal_id for proposal_id in state.proposals if proposal_id not in before.proposals]
    answer = state.answer if state.answer and recommends_change(state.answer) else ""
    if not new and (not answer or before.answer_reviewed):
        return {"outcome": pause}
    store = deps.ctx.proposals if deps.ctx is not None else None
    cards = [store.get(proposal_id) for proposal_id in new] if store is not None else []
    flags = [f for card in cards for f in card.summary.get("flags") or []]
    draft = "\n".join([*(_card_text(c) for c in cards), answer]).strip()
    evidence = [
        f"{r.label}: {r.result.text}" for r in state.tool_runs if r.result.status != "proposal"
    ]
    model = deps.model.bound(deps.stats) if deps.model is not None and not state.degraded else None
    look = review(model, draft, evidence, flags)
    for card in cards:
        assert store is not None  # cards came from it
        store.attach_second_look(card.id, look)
    result = TurnReview(
        severity=look.severity,
        findings=look.findings,
        reviewed_by=look.reviewed_by,
        note=look.note,
        proposals=(*before.proposals, *new),
        answer_reviewed=bool(answer) or before.answer_reviewed,
    )
    deps.emit({"type": "second_look", "severity": look.severity, "findings": len(look.findings)})
    return {"second_look": result, "outcome": pause}


def _card_text(card: DraftedCard) -> str:
    summary = card.summary
    raw: Any = summary.get("fields") or []  # (label, value) pairs; a mapping is read the same way
    pairs = raw.items() if isinstance(raw, dict) else raw
    fields = "; ".join(f"{k}: {v}" for k, v in pairs)
    return f"Proposed: {summary.get('title', card.tool)}" + (f" ({fields})" if fields else "")

