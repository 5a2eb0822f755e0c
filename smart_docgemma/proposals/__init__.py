"""Proposed chart writes and their approval: the store (exactly-once claim,
Provenance), editing and the one-sentence description; the approval cards'
blueprint is ``web/proposals.py``."""
from .provenance import provenance_for  # noqa: F401
from .store import Proposal, ProposalStore, proposal_store  # noqa: F401
