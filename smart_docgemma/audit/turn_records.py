"""The audit records of a finished turn: the answer shown and the proposals it made.

Called by whoever ends a turn (the chat's worker, a resumed turn) *before* the turn is
stored and streamed, so under the ``refuse`` policy an answer whose record could not be
stored is replaced by a statement saying so: no answer reaches the clinician unrecorded.
"""

from __future__ import annotations

from dataclasses import replace

from .. import errors
from ..fhir import local_ref

NOT_RECORDED = (
    "The answer could not be recorded in the audit trail, so it is not shown. "
    "Nothing was written to the chart. Please ask again."
)


def record_turn(trail, turn_id: str, turn, status: str, before: tuple[str, ...] = ()):
    """Record the turn's new proposals and its answer; returns ``(turn, status)`` to store
    (the answer withheld and the status ``failed`` when the trail refused the record)."""
    if trail is None:
        return turn, status
    try:
        for proposal_id in turn.proposals:
            if proposal_id not in before:
                trail.action(
                    "proposal-created",
                    resources=(f"urn:docgemma:proposal:{proposal_id}",),
                    proposal=proposal_id,
                    turn=turn_id,
                )
        if turn.answer:
            trail.action(
                "answer-shown",
                resources=cited(turn),
                question=turn.message,
                turn=turn_id,
                status=status,
                degraded=turn.degraded or None,
                unsupported=_unsupported(turn) or None,
            )
    except errors.AuditUnavailable:
        return replace(turn, answer=None, error=NOT_RECORDED), "failed"
    return turn, status


def cited(turn) -> tuple[str, ...]:
    """What the answer rests on: FHIR references (Type/id) and the other sources' labels."""
    refs = []
    for c in turn.citations:
        refs.append(c.ref)
    for s in turn.sources:
        refs.append(local_ref(s.url) if "/fhir" in s.url and local_ref(s.url) else s.label)
    return tuple(dict.fromkeys(r for r in refs if r))


def _unsupported(turn) -> int:
    return sum(1 for s in turn.grounding if s.verdict == "unsupported")
