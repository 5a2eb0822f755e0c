"""Proposed chart writes and their approval: the store (exactly-once claim,
Provenance) and the approval cards' blueprint."""
from .store import Proposal, ProposalStore, local_ref, proposal_store, provenance_for  # noqa: F401
