"""An approval whose create has no known outcome, settled with what the EHR holds.

A create that timed out, lost its connection after sending, or met a 5xx may
still land: a paused or overloaded server keeps the request and writes it when
it runs again, long after the app gave up. Such a proposal is ``unconfirmed``,
never ``failed``, and nothing is sent again until the EHR has been asked what
it holds: a search by the proposal's identifier (``urn:docgemma:proposal|<id>``),
read fresh. Settling happens before a retry and whenever the card is read:

- the resource is there → ``approved`` with its Provenance (written now if the
  earlier attempt never got that far); the caller writes the audit record;
- the EHR does not answer → still ``unconfirmed`` (nothing is sent);
- the EHR answers and holds nothing → only after a second empty search at
  least ``SETTLE_S`` after the first: a server that was paused accepts the
  queued create before the search that proves it answers again, and writes it
  within a moment, so one empty answer is not yet proof. Then the proposal is
  ``pending`` again (approve retries; the retry searches first too) or, after
  ``MAX_ATTEMPTS``, ``failed`` — said only once the EHR confirmed nothing was written.

A claim (``executing``) older than ``STALE_CLAIM_S`` belongs to a worker that
died mid-create: it is settled the same way.
"""
from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any

from .. import errors
from ..approval.types import Launch
from ..storage import now

if TYPE_CHECKING:
    from .store import Proposal, ProposalStore

log = logging.getLogger(__name__)
SETTLE_S = 5.0
STALE_CLAIM_S = 60
MAY_LAND = ("The write may still reach the chart: this card shows what the EHR holds once it "
            "answers. Approving again first checks the chart, so it is never written twice.")
NOT_ANSWERING = ("The EHR's FHIR server is not answering, so whether the earlier approval was "
                 "written is not known yet. Nothing more was sent. " + MAY_LAND)
CONFIRMED_NOTHING = "The EHR confirms the earlier approval wrote nothing."


def in_doubt(p: Proposal) -> bool:
    """Whether ``p``'s last create may have landed without the app knowing."""
    if p.status == "unconfirmed":
        return True
    return p.status == "executing" and (p.decided_at or 0) < now() - STALE_CLAIM_S


def settle(store: ProposalStore, p: Proposal, launch: Launch, *, wait: bool = False) -> Proposal:
    """``p`` after asking the EHR what its create did (unchanged when it is not in doubt, or
    another request is settling it). ``wait``: an approval waits out the settling time
    instead of leaving the proposal unconfirmed (the clinician asked to write it)."""
    if not in_doubt(p) or not store.claim_doubt(p):
        return store.get(p.id)
    try:
        found, clear_since = _ask(p, launch, wait)
    except errors.DocGemmaError as exc:
        log.info("proposal %s still unconfirmed: %s", p.id, exc.error)
        return store.release_doubt(p, clear_since=None, message=NOT_ANSWERING)
    if found:
        return store.landed(p, launch, found[0])
    if clear_since is not None and now() - clear_since >= SETTLE_S:
        return store.confirmed_nothing(p, CONFIRMED_NOTHING)
    return store.release_doubt(p, clear_since=clear_since or now(),
                               message=p.error or NOT_ANSWERING)


def _ask(p: Proposal, launch: Launch, wait: bool) -> tuple[list[dict[str, Any]], float | None]:
    """What the EHR holds under ``p``'s identifier, and since when it has answered empty."""
    from .store import IDENTIFIER_SYSTEM
    found = launch.fhir.by_identifier(p.resource_type, IDENTIFIER_SYSTEM, p.id)
    if found:
        return found, None
    clear_since = (p.summary.get("unconfirmed") or {}).get("clear_since") or now()
    remaining = SETTLE_S - (now() - clear_since)
    if wait and remaining > 0:
        time.sleep(remaining)
        found = launch.fhir.by_identifier(p.resource_type, IDENTIFIER_SYSTEM, p.id)
    return found, clear_since
