"""What a proposed chart write and its approval card are made of, shared by the write tools
(``tools/writes/orders.py``, ``tools/chart/safety.py``), the approval lifecycle (``proposals/``),
the agent and the pages: the card's safety flags and second look, the clinician's edits and
decision, and what the store reads of a launch. Below the tools and the proposals, so both name
them.
"""
from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol, Required

from typing_extensions import TypedDict

from ..fhir import FhirGateway
from ..smart.scopes import GrantedScopes


class SafetyFlag(TypedDict, total=False):
    """One finding of a write's safety checks, shown on its card (and read by the second look)."""

    severity: Required[Literal["critical", "warning", "info"]]
    kind: Required[str]  # a safety-check topic (allergy, drug-interaction, drug-disease, renal…),
    # or duplicate | boxed_warning | unchecked
    text: Required[str]
    source: dict[str, str]  # {"label", "url"} when a source backs it
    terms: list[list[str]]  # words an answer must hold to have stated it (checks.mentions)
    # the text language-neutral (languages.message): shown in the page's language
    message: dict[str, Any]


@dataclass(frozen=True)
class SecondLook:
    """The second look a card keeps (``agent/second_look.py`` makes it): a high one blocks
    Approve until the clinician acknowledges it. Stored in the summary's JSON as a plain object
    with these keys (``to_json``, ``of_json``)."""

    severity: str = "none"  # none | low | high
    findings: tuple[str, ...] = ()
    reviewed_by: str = "deterministic"  # deterministic | deterministic+model
    note: str = ""  # e.g. why the model part did not run
    acknowledged_by: str | None = None  # who read a high one

    @property
    def blocks_approval(self) -> bool:
        return self.severity == "high" and not self.acknowledged_by

    def to_json(self) -> dict[str, Any]:
        return {
            "severity": self.severity,
            "findings": list(self.findings),
            "reviewed_by": self.reviewed_by,
            "note": self.note,
            "acknowledged_by": self.acknowledged_by,
        }

    @classmethod
    def of_json(cls, data: Mapping[str, Any]) -> SecondLook:
        """A stored look; keys a row written before one of them existed take their default."""
        return cls(
            severity=data.get("severity") or "none",
            findings=tuple(data.get("findings") or ()),
            reviewed_by=data.get("reviewed_by") or "deterministic",
            note=data.get("note") or "",
            acknowledged_by=data.get("acknowledged_by"),
        )


class Change(TypedDict, total=False):
    """One clinician edit of a card's field, listed on the card and in the follow-up."""

    field: Required[str]  # the field's label (editing.FIELD_LABELS)
    before: Required[str]
    after: Required[str]
    version: int  # the version the edit made


class Approval(TypedDict, total=False):
    """The clinician's decision on a proposal, which a paused turn is resumed with
    (``web/followups.decision``); with the card's outcome the follow-up states what was done."""

    proposal_id: Required[str]
    decision: Required[str]  # approved | rejected
    action: str  # the card's one sentence
    result_ref: str | None  # e.g. MedicationRequest/77
    provenance: str | None
    reason: str | None
    changes: list[Change]  # the clinician's edits, before -> after


class ProposalSummary(TypedDict, total=False):
    """What the card shows beside the FHIR resource; stored as JSON with the proposal. The write
    tool makes it; an edit, the second look, the approval and a failed write each add their part."""

    title: Required[str]
    kind: str  # medication | allergy | note
    fields: Sequence[Sequence[str]]  # (label, value) pairs, in order (lists once stored as JSON)
    flags: list[SafetyFlag]
    preview: str  # a note's text, shortened
    changes: list[Change]  # the clinician's edits, oldest first
    edited_by: str | None
    second_look: SecondLook  # the draft's review, when it earned one
    provenance: str | None  # the Provenance written with the resource, or why it was not
    last_error: str | None  # why the last approval could not write
    unconfirmed: dict[str, float | None]  # a create with no known outcome: since, clear_since
    via: dict[str, str]  # who proposed it when not this app's agent: kind, client, client_id
    draft: dict[
        str, Any
    ]  # a drafted document's request (tools/writes/drafting.py), to draft it again
    # a medication order's or a reading's words as drafted (a follow-up re-drafts them)
    request: dict[str, str | None]


@dataclass(frozen=True)
class PendingOrder:
    """The session's pending medication card, as it was drafted: what a follow-up ("make it bd",
    "plutôt 250", "oral, 7 days") re-drafts (``agent/amendments.py``)."""

    proposal_id: str
    patient_id: str
    medication: str
    ingredient: str  # the generic name, to tell the same drug from another one
    dosage: str
    frequency: str
    notes: str | None
    tool: str = "prescribe_medication"  # or "change_dose": a follow-up re-drafts it as such
    # the card carries a critical safety finding: a drug ordered "then" after it takes its place
    # (``agent/amendments.in_its_place``)
    critical: bool = False


# why a card was withdrawn when the clinician cancelled it in the conversation (what "actually
# keep it" may bring back)
CANCELLED_IN_CONVERSATION = "Cancelled by the clinician in the conversation"
# why a card was withdrawn when a follow-up re-drafted it (another dose, or another drug in its
# place): what "no, go back to the first one" may bring back
REPLACED_BY_REDRAFT = "Replaced by the re-drafted order"


@dataclass(frozen=True)
class PendingCard:
    """A pending card of the session's last request, as a follow-up reads it: "cancel that"
    withdraws it whatever it holds; "sorry, it was 150/95" re-drafts a reading
    (``agent/amendments.py``)."""

    proposal_id: str
    tool: str
    kind: str  # the summary's kind: medication, vital_sign, lab_order, referral…
    title: str
    request: dict[str, str | None]  # the words it was drafted from, when the tool keeps them
    edited: bool  # the clinician edited it on the card: a follow-up never re-drafts it


class Launch(Protocol):
    """What the store reads of the session's launch (``session.launches.LaunchContext``, a floor
    above this one: the store names only what it uses)."""

    @property
    def sid(self) -> str: ...
    @property
    def patient_id(self) -> str | None: ...
    @property
    def user(self) -> str | None: ...
    @property
    def scopes(self) -> GrantedScopes: ...
    @property
    def fhir(self) -> FhirGateway: ...


class DraftedCard(Protocol):
    """A stored proposal as the second look reads it (``proposals.store.Proposal``)."""

    @property
    def id(self) -> str: ...

    @property
    def tool(self) -> str: ...

    @property
    def summary(self) -> ProposalSummary: ...


class ProposalSink(Protocol):
    """Where a write tool puts what the clinician approves, and what the turn reads back of it
    (``proposals.store.ProposalStore``): the second look reads its cards and attaches its
    review, a cancelled turn withdraws what it proposed."""

    def create(self, *, sid: str, patient_id: str, tool: str, resource: dict[str, Any],
               summary: ProposalSummary) -> str: ...

    def get(self, proposal_id: str) -> DraftedCard: ...

    def attach_second_look(self, proposal_id: str, look: SecondLook) -> None: ...

    def withdraw(self, sid: str, *, since: float, reason: str) -> list[str]: ...

    def pending_order(
        self, sid: str, patient_id: str, named: Collection[str] = ()
    ) -> PendingOrder | None: ...

    def withdraw_ids(self, proposal_ids: list[str], *, reason: str) -> list[str]: ...

    def last_cards(self, sid: str, patient_id: str) -> list[PendingCard]: ...

    def pending_cards(self, sid: str, patient_id: str) -> list[PendingCard]: ...

    def session_orders(self, sid: str, patient_id: str) -> list[PendingOrder]: ...

    def last_withdrawn_order(self, sid: str, patient_id: str) -> PendingOrder | None: ...

    def last_replaced_order(self, sid: str, patient_id: str) -> PendingOrder | None: ...

    def last_order(self, sid: str, patient_id: str) -> PendingOrder | None: ...
