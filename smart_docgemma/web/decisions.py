"""A decision on a card as the audit trail and the EHR have it: the decision's audit record
(``audit_decision``), and a card whose create has no known outcome settled with what the EHR
holds before it is shown (``settled``, ``as_the_ehr_has_it``), by the cards' blueprint and by
every turn that shows the card (``turnview.py``)."""
from __future__ import annotations

from typing import Any

from .. import errors
from ..proposals import inflight
from ..proposals.store import Proposal, proposal_store
from ..session import launches as sessions


def audit_decision(launch: Any, kind: str, p: Proposal, **facts: Any) -> None:
    """The decision's audit record: the proposal, its version and what it wrote (if anything)."""
    refs = [f"urn:docgemma:proposal:{p.id}"] + ([p.result_ref] if p.result_ref else [])
    launch.audit.action(kind, patient=p.patient_id, resources=refs, proposal=p.id,
                        version=p.version, status=p.status, **facts)


def settled(p: Proposal, launch: Any) -> Proposal:
    """``p`` reconciled with the EHR when its last create has no known outcome; a create that
    landed late gets the audit record its approval could not write then."""
    after = proposal_store().settle(p, launch)
    if after.status != p.status and after.status in ("approved", "pending", "failed"):
        audit_decision(launch, "proposal-approved", after,
                       settled="landed-late" if after.status == "approved" else "nothing-written")
    return after


def as_the_ehr_has_it(card: Proposal) -> Proposal:
    """A card whose create has no known outcome, looked up in the EHR before it is shown."""
    if not inflight.in_doubt(card):
        return card
    try:
        return settled(card, sessions.current_launch())
    except errors.DocGemmaError:  # no launch here (a stream's follow-up): shown as stored
        return card
