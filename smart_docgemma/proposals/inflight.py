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

from typing import Protocol

from ..storage import now


class Doubtful(Protocol):
    """What says whether a proposal's create is in doubt (``store.Proposal``)."""

    @property
    def status(self) -> str: ...

    @property
    def decided_at(self) -> float | None: ...


SETTLE_S = 5.0
STALE_CLAIM_S = 60
MAY_LAND = ("The write may still reach the chart: this card shows what the EHR holds once it "
            "answers. Approving again first checks the chart, so it is never written twice.")
NOT_ANSWERING = ("The EHR's FHIR server is not answering, so whether the earlier approval was "
                 "written is not known yet. Nothing more was sent. " + MAY_LAND)
CONFIRMED_NOTHING = "The EHR confirms the earlier approval wrote nothing."


def in_doubt(p: Doubtful) -> bool:
    """Whether ``p``'s last create may have landed without the app knowing."""
    if p.status == "unconfirmed":
        return True
    return p.status == "executing" and (p.decided_at or 0) < now() - STALE_CLAIM_S
