"""Proposed chart writes and their approval: the store (exactly-once claim,
Provenance), editing and the one-sentence description; the approval cards'
blueprint is ``web/proposals.py``."""
from .store import Proposal, ProposalStore, local_ref, proposal_store, provenance_for  # noqa: F401
