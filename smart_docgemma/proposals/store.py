"""Proposed chart writes and their approval: the only path by which the app writes to the EHR.

A write tool never writes; it stores a validated FHIR resource here as a
*proposal*, so nothing reaches the chart unseen. The clinician sees it as a card and
approves or rejects it. Rows live in the ``proposals`` SQL table, so a
restart loses nothing.

Lifecycle::

    pending ──approve(version)──▶ executing ──create ok──▶ approved  (result_ref = Type/id)
     │  ▲                           ├──refused / never sent──▶ pending (attempts+1) | failed
     │  │                           └──no answer / 5xx──▶ unconfirmed ──settled──▶ approved
     │  │                           (``inflight.py``)         or ──settled──▶ pending | failed
     │  └──edit(version)── version+1 (``editing.py``: re-validated, safety checks re-run)
     └──reject(reason)──▶ rejected

Approve names the version the clinician saw, and the claim is conditional on
it, so what is written is exactly what was shown: an edit that lands first
makes the approval a Conflict, an approval that lands first makes the edit one.

Exactly once: approval claims the row with a conditional UPDATE
(``WHERE status='pending'``), so of two concurrent approvals one wins and the
other sees the outcome. The resource carries an identifier
(``urn:docgemma:proposal|<id>``) and is created with
``If-None-Exist: identifier=urn:docgemma:proposal|<id>`` (FHIR R4 §3.1.0.8.1
conditional create), so a crash between the create and our bookkeeping, then
a retry, still makes one resource. A create whose outcome is unknown is never
called failed and never sent again before the EHR has been searched for it
(``inflight.py``), so a server without conditional create gets one resource too.

Approval re-checks on the server, never trusting the browser: same session,
same patient as the launch, and a SMART scope that allows the create. After
the create a Provenance names the practitioner (author) and the assistant
(assembler) (FHIR R4 Provenance, W3C PROV roles).

Callers pass the launch: an object with ``sid``, ``patient_id``, ``user``
(fhirUser reference), ``scopes`` (``GrantedScopes``) and ``fhir`` (a
``FhirGateway`` with the launch token); ``web/proposals.py`` is the blueprint.
"""
from __future__ import annotations

import json
import logging
import time
import uuid
from collections.abc import Collection
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask

from sqlalchemy import Connection, and_, func, or_, select, true, update

from .. import errors, knowledge, metrics
from ..approval.types import (
    CANCELLED_IN_CONVERSATION,
    REPLACED_BY_REDRAFT,
    Launch,
    PendingCard,
    PendingOrder,
    ProposalSummary,
    SecondLook,
)
from ..checks import prescriber
from ..extensions import get_storage
from ..fhir import Created
from ..storage import Storage, app_sessions, now
from ..storage import proposals as table
from . import inflight
from .describe import action_sentence
from .provenance import provenance_for

log = logging.getLogger(__name__)
IDENTIFIER_SYSTEM = "urn:docgemma:proposal"
MAX_ATTEMPTS = 3
REASON_MAX = 500
# one request's cards are drafted in one go (a protocol's order and its recheck, two readings of
# one line): the cards drafted within this many seconds of the newest pending one are its cards
DRAFTED_TOGETHER_S = 5.0
MCP_OWNER = "mcp:"  # the sid prefix of proposals made by MCP clients (mcpserver/tools.py)



@dataclass
class Proposal:
    """One row of ``proposals``, with the JSON columns parsed."""

    id: str
    sid: str
    patient_id: str
    tool: str
    status: str
    resource: dict[str, Any]
    summary: ProposalSummary
    created_at: float
    decided_at: float | None = None
    decided_by: str | None = None
    reason: str | None = None
    result_ref: str | None = None
    attempts: int = 0
    error: str | None = field(default=None)
    version: int = 1

    @property
    def resource_type(self) -> str:
        """The type written: a transaction's is that of the entry it creates (a dose change
        creates the new MedicationRequest and stops the old one in one transaction)."""
        return written_type(self.resource)

    @property
    def action(self) -> str:
        """What Approve will do, in one sentence read from the resource."""
        return action_sentence(self.resource)

    def to_dict(self) -> dict[str, Any]:
        """JSON view for the API (Accept: application/json)."""
        keys = (
            "id",
            "patient_id",
            "tool",
            "status",
            "version",
            "action",
            "resource",
            "summary",
            "created_at",
            "decided_at",
            "decided_by",
            "reason",
            "result_ref",
            "attempts",
            "error",
        )
        return {**{k: getattr(self, k) for k in keys}, "summary": summary_json(self.summary)}


def summary_json(summary: ProposalSummary) -> dict[str, Any]:
    """The summary as JSON data: what the ``summary`` column and the API hold."""
    look = summary.get("second_look")
    return {**summary, "second_look": look.to_json()} if look is not None else dict(summary)


def _dumps(summary: ProposalSummary) -> str:
    return json.dumps(summary_json(summary))


def _summary(text: str) -> ProposalSummary:
    summary: ProposalSummary = json.loads(text)
    look: Any = summary.get("second_look")
    if look:
        summary["second_look"] = SecondLook.of_json(look)
    else:
        summary.pop("second_look", None)
    return summary


def _row(r: Any) -> Proposal:
    summary = _summary(r.summary)
    return Proposal(
        id=r.id,
        sid=r.sid,
        patient_id=r.patient_id,
        tool=r.tool,
        status=r.status,
        resource=json.loads(r.resource),
        summary=summary,
        created_at=r.created_at,
        decided_at=r.decided_at,
        decided_by=r.decided_by,
        reason=r.reason,
        result_ref=r.result_ref,
        attempts=r.attempts or 0,
        error=summary.get("last_error"),
        version=r.version or 1,
    )


def _card(p: Proposal) -> PendingCard:
    return PendingCard(p.id, p.tool, str(p.summary.get("kind") or ""), p.summary["title"],
                       dict(p.summary.get("request") or {}), bool(p.summary.get("changes")))


def _as_order(p: Proposal) -> PendingOrder | None:
    """A pending medication card as it was drafted (None when its words were not kept)."""
    request = p.summary.get("request") or {}
    if not request.get("medication_name"):
        return None
    name = str(request["medication_name"])
    return PendingOrder(
        p.id,
        p.patient_id,
        name,
        knowledge.generic(name),
        str(request.get("dosage") or ""),
        str(request.get("frequency") or ""),
        request.get("notes"),
        p.tool if p.tool == "change_dose" else "prescribe_medication",
        critical=any(f.get("severity") == "critical" for f in p.summary.get("flags") or []),
    )


class ProposalStore:
    """Proposals over the app's SQL storage; every state change is one conditional UPDATE."""

    def __init__(self, storage: Storage):
        self.storage = storage

    # -- creating and reading ------------------------------------------------------
    def create(self, *, sid: str, patient_id: str, tool: str, resource: dict[str, Any],
               summary: ProposalSummary) -> str:
        """Store a validated resource as a pending proposal; returns its id.

        The proposal identifier is stamped on the resource here, so the resource
        shown for approval is exactly the one that will be created.
        """
        for each in _written(resource):
            self._check_subject(sid, patient_id, each)
        proposal_id = uuid.uuid4().hex
        resource = stamped(resource, proposal_id)
        with self.storage.begin() as conn:
            conn.execute(
                table.insert().values(
                    id=proposal_id,
                    sid=sid or "",
                    patient_id=patient_id,
                    tool=tool,
                    status="pending",
                    resource=json.dumps(resource),
                    summary=_dumps(summary),
                    created_at=now(),
                    attempts=0,
                    version=1,
                )
            )
        return proposal_id

    def _check_subject(self, sid: str, patient_id: str, resource: dict[str, Any]) -> None:
        """Refuse (Forbidden) a resource about anyone but the session's patient.

        The resource's subject must be ``patient_id``, and when ``sid`` names a
        stored launch session, ``patient_id`` must be that launch's patient. A
        proposal under a session id that names no launch (an offline evaluation)
        can never be approved: approval requires that very session.
        """
        subject = (resource.get("subject") or resource.get("patient") or {}).get("reference")
        if not patient_id or subject != f"Patient/{patient_id}":
            raise errors.Forbidden(
                f"Chart writes are limited to the patient in context; this "
                f"{resource.get('resourceType', 'resource')} is about {subject or 'no patient'}."
            )
        with self.storage.begin() as conn:
            row = conn.execute(
                select(app_sessions.c.context).where(app_sessions.c.sid == sid)
            ).first()
        if row is not None and json.loads(row.context).get("patient") != patient_id:
            raise errors.Forbidden(
                "Chart writes are limited to the patient in context of this session; "
                f"Patient/{patient_id} is a different patient."
            )

    def get(self, proposal_id: str) -> Proposal:
        with self.storage.begin() as conn:
            row = conn.execute(select(table).where(table.c.id == proposal_id)).first()
        if row is None:
            raise errors.NotFound("No such proposal.")
        return _row(row)

    def for_session(self, sid: str) -> list[Proposal]:
        """A session's proposals, oldest first (the chat transcript's cards)."""
        with self.storage.begin() as conn:
            rows = conn.execute(
                select(table).where(table.c.sid == sid).order_by(table.c.created_at)
            ).all()
        return [_row(r) for r in rows]

    def pending_order(
        self, sid: str, patient_id: str, named: Collection[str] = ()
    ) -> PendingOrder | None:
        """The session's newest pending medication card for this patient, as it was drafted —
        or, of several pending, the newest whose drug the follow-up ``named`` ("make the amox
        500" with amoxicillin and paracetamol pending); None when there is none, or when the
        clinician edited it on the card (a re-draft from its words would undo the edit, so a
        follow-up then makes a new order)."""
        with self.storage.begin() as conn:
            rows = conn.execute(
                select(table)
                .where(
                    and_(
                        table.c.sid == sid,
                        table.c.patient_id == patient_id,
                        table.c.status == "pending",
                        # a protocol's oral order keeps its words too (tools/writes/protocols.py)
                        # a dose change is re-drafted as a dose change
                        table.c.tool.in_(("prescribe_medication", "apply_protocol",
                                          "change_dose")),
                    )
                )
                .order_by(table.c.created_at.desc())
            ).all()
        found = [_row(r) for r in rows]
        orders = [(p, _as_order(p)) for p in found]
        chosen = next(((p, o) for p, o in orders if o and o.ingredient in set(named)), None)
        p, order = chosen or (orders[0] if orders else (None, None))
        if p is None or p.summary.get("changes"):
            return None
        return order

    def session_orders(self, sid: str, patient_id: str) -> list[PendingOrder]:
        """The session's pending medication cards for this patient as drafted, oldest first:
        what "the first one", "la deuxième" point at."""
        with self.storage.begin() as conn:
            rows = conn.execute(
                select(table)
                .where(and_(table.c.sid == sid, table.c.patient_id == patient_id,
                            table.c.status == "pending",
                            table.c.tool.in_(("prescribe_medication", "apply_protocol"))))
                .order_by(table.c.created_at)
            ).all()
        found = [_row(r) for r in rows]
        return [o for p in found if not p.summary.get("changes") and (o := _as_order(p))]

    def _newest_first(self, sid: str, patient_id: str, limit: int | None = None) -> list[Proposal]:
        """The session's cards for this patient, newest first (at most ``limit``)."""
        with self.storage.begin() as conn:
            rows = conn.execute(
                select(table)
                .where(and_(table.c.sid == sid, table.c.patient_id == patient_id))
                .order_by(table.c.created_at.desc())
                .limit(limit)
            ).all()
        return [_row(r) for r in rows]

    def last_withdrawn_order(self, sid: str, patient_id: str) -> PendingOrder | None:
        """The medication card the clinician withdrew in the conversation, when that withdrawal
        is the session's last event for this patient (no card drafted since): what "actually
        keep it" or "desfaz" brings back. None otherwise."""
        found = self._newest_first(sid, patient_id)
        withdrawn = [p for p in found if p.status == "rejected" and p.decided_at is not None
                     and p.reason == CANCELLED_IN_CONVERSATION]
        if not withdrawn:
            return None
        last = max(withdrawn, key=lambda p: p.decided_at or 0.0)
        if any(p.created_at > (last.decided_at or 0.0) for p in found):
            return None
        return _as_order(last)

    def last_replaced_order(self, sid: str, patient_id: str) -> PendingOrder | None:
        """The medication card a follow-up's re-draft replaced, when the card that replaced it
        is the session's newest for this patient and still pending ("doxycycline instead" after
        a clarithromycin card): what "no, go back to the first one" brings back in its place.
        None otherwise."""
        found = self._newest_first(sid, patient_id, limit=2)
        if len(found) < 2 or found[0].status != "pending":
            return None
        replaced = found[1]
        if replaced.status != "rejected" or replaced.reason != REPLACED_BY_REDRAFT:
            return None
        return _as_order(replaced)

    def last_order(self, sid: str, patient_id: str) -> PendingOrder | None:
        """The session's newest medication card for this patient as drafted, pending or
        approved (never one withdrawn or refused): what "repeat the last order", "same again"
        draft once more. None when there is none."""
        for p in self._newest_first(sid, patient_id):
            if p.tool == "prescribe_medication" and p.status in ("pending", "approved"):
                return _as_order(p)
        return None

    def last_cards(self, sid: str, patient_id: str) -> list[PendingCard]:
        """The session's pending cards for this patient drafted with the newest one (its last
        request's cards: a protocol's order and its recheck), newest first; [] when none."""
        found = self._pending(sid, patient_id)
        newest = found[0].created_at if found else 0.0
        return [_card(p) for p in found if newest - p.created_at <= DRAFTED_TOGETHER_S]

    def pending_cards(self, sid: str, patient_id: str) -> list[PendingCard]:
        """Every pending card of the session for this patient, newest first: what "cancel the
        INR" names when the INR was ordered a request before."""
        return [_card(p) for p in self._pending(sid, patient_id)]

    def _pending(self, sid: str, patient_id: str) -> list[Proposal]:
        with self.storage.begin() as conn:
            rows = conn.execute(
                select(table)
                .where(and_(table.c.sid == sid, table.c.patient_id == patient_id,
                            table.c.status == "pending"))
                .order_by(table.c.created_at.desc())
            ).all()
        return [_row(r) for r in rows]

    def from_mcp(self, patient_id: str | None) -> list[Proposal]:
        """Pending proposals MCP clients made for this patient, oldest first (the page lists
        them: they belong to no browser session's transcript)."""
        if not patient_id:
            return []
        with self.storage.begin() as conn:
            rows = conn.execute(select(table).where(and_(
                table.c.patient_id == patient_id, table.c.status == "pending",
                table.c.sid.startswith(MCP_OWNER))).order_by(table.c.created_at)).all()
        return [_row(r) for r in rows]

    def visible(self, proposal_id: str, launch: Launch) -> Proposal:
        """The proposal, if it belongs to this launch's session and patient (else 404/403).
        An MCP client's proposal belongs to no browser session: any clinician's launch for
        its patient may review and decide it."""
        p = self.get(proposal_id)
        mcp_made = p.sid.startswith(MCP_OWNER) and p.patient_id == launch.patient_id
        if p.sid != launch.sid and not mcp_made:
            raise errors.NotFound("No such proposal in this session.")
        if p.patient_id != launch.patient_id:
            raise errors.Forbidden(
                "This proposal is for a different patient than the one in context; "
                "it cannot be used here."
            )
        return p

    # -- second look --------------------------------------------------------------------
    def attach_second_look(self, proposal_id: str, look: SecondLook) -> None:
        """Keep the review with the proposal: the card shows it, a high one gates Approve."""
        p = self.get(proposal_id)
        with self.storage.begin() as conn:
            conn.execute(update(table).where(table.c.id == p.id).values(
                summary=_dumps({**p.summary, "second_look": replace(look, acknowledged_by=None)})))

    def acknowledge(self, proposal_id: str, launch: Launch) -> Proposal:
        """The clinician has read a high-severity second look; Approve is possible again."""
        p = self.visible(proposal_id, launch)
        look = p.summary.get("second_look")
        if not look:
            raise errors.Conflict("This proposal has no second look to acknowledge.")
        with self.storage.begin() as conn:
            conn.execute(
                update(table)
                .where(table.c.id == p.id)
                .values(
                    summary=_dumps(
                        {
                            **p.summary,
                            "second_look": replace(
                                look, acknowledged_by=launch.user or "clinician"
                            ),
                        }
                    )
                )
            )
        return self.get(p.id)

    # -- editing ----------------------------------------------------------------------
    def edit(
        self, p: Proposal, version: int, resource: dict[str, Any], summary: ProposalSummary
    ) -> Proposal:
        """Store the clinician's edit as version ``version + 1``, only if ``p`` is still pending
        at ``version`` (one conditional UPDATE: an edit racing an approval or another edit
        has one outcome); else Conflict."""
        with self.storage.begin() as conn:
            done = conn.execute(
                update(table)
                .where(and_(table.c.id == p.id, table.c.status == "pending", _at_version(version)))
                .values(resource=json.dumps(resource), summary=_dumps(summary), version=version + 1)
            ).rowcount
        if not done:
            raise self.conflict(p.id, version, "edited")
        log.info("proposal %s edited -> version %d", p.id, version + 1)
        return self.get(p.id)

    def conflict(self, proposal_id: str, version: int | None, verb: str) -> errors.Conflict:
        """Why the proposal can no longer be ``verb`` at ``version``: changed since, or decided."""
        p = self.get(proposal_id)
        if p.status == "pending" and version is not None and p.version != version:
            return errors.Conflict(
                f"This proposal was changed (it is now version {p.version}; you saw version "
                f"{version}). Review the card again before it is {verb}."
            )
        return errors.Conflict(f"This proposal is already {p.status}; it can no longer be {verb}.")

    # -- deciding ---------------------------------------------------------------------
    def approve(self, proposal_id: str, launch: Launch, version: int | None = None) -> Proposal:
        """Execute the proposal once under the launch's token; returns the approved proposal.

        ``version`` is the version the clinician saw: an approval of any other
        version is refused (Conflict), so what is written is exactly what was shown.
        Raises Forbidden (other session/patient, scope not granted), Conflict
        (stale version, already rejected, failed, or being executed), or the FHIR
        error after recording it (the proposal returns to pending while attempts remain).
        """
        p = self.visible(proposal_id, launch)
        if not launch.scopes.allows(p.resource_type, "c"):
            raise errors.Forbidden(
                f"This session was not granted permission to create {p.resource_type} resources."
            )
        for rtype in _updated(p.resource):  # a dose change also stops the order it replaces
            if not launch.scopes.allows(rtype, "u"):
                raise errors.Forbidden(
                    f"This session was not granted permission to update {rtype} resources."
                )
        if p.status == "approved" and version in (None, p.version):
            return p
        prescriber.require(launch, p.resource_type)  # server-enforced, whatever the page shows
        look = p.summary.get("second_look")
        if look is not None and look.blocks_approval:
            raise errors.Conflict("The second look found a serious problem with this proposal. "
                                  "Read it and acknowledge it before approving.")
        if inflight.in_doubt(p):  # an earlier create may still land: ask the EHR first
            p = self.settle(p, launch, wait=True)
            if p.status == "unconfirmed":
                raise _unconfirmed(p)
            if p.status == "approved":
                return p
        if not self._claim(p.id, launch.user, version):
            return self._settled(p.id, version)
        metrics.decision("approved")
        return self._execute(self.get(p.id), launch)

    def settle(self, p: Proposal, launch: Launch, *, wait: bool = False) -> Proposal:
        """``p`` as the EHR has it: a create in doubt is looked up (``inflight.py``); unchanged
        when it is not in doubt, the stored one when another request is settling it. ``wait``:
        an approval waits out the settling time instead of leaving the proposal unconfirmed
        (the clinician asked to write it)."""
        if not inflight.in_doubt(p):
            return p
        if not self.claim_doubt(p):
            return self.get(p.id)
        try:
            found, clear_since = _held_by_the_ehr(p, launch, wait)
        except errors.DocGemmaError as exc:
            log.info("proposal %s still unconfirmed: %s", p.id, exc.error)
            return self.release_doubt(p, clear_since=None, message=inflight.NOT_ANSWERING)
        if found:
            return self.landed(p, launch, found[0])
        if clear_since is not None and now() - clear_since >= inflight.SETTLE_S:
            return self.confirmed_nothing(p, inflight.CONFIRMED_NOTHING)
        return self.release_doubt(p, clear_since=clear_since or now(),
                                  message=p.error or inflight.NOT_ANSWERING)

    def reject(self, proposal_id: str, launch: Launch, reason: str) -> Proposal:
        """Record the clinician's rejection and reason; nothing is written to the EHR."""
        reason = (reason or "").strip()
        if not reason:
            raise errors.BadRequest("Please give a reason for rejecting this proposal.")
        p = self.visible(proposal_id, launch)
        with self.storage.begin() as conn:
            done = conn.execute(
                update(table)
                .where(and_(table.c.id == p.id, table.c.status == "pending"))
                .values(
                    status="rejected",
                    reason=reason[:REASON_MAX],
                    decided_at=now(),
                    decided_by=launch.user,
                )
            ).rowcount
        if done:
            metrics.decision("rejected")
        p = self.get(p.id)
        if not done and p.status != "rejected":
            raise errors.Conflict(
                f"This proposal is already {p.status}; it can no longer be rejected."
            )
        return p

    def withdraw(self, sid: str, *, since: float, reason: str) -> list[str]:
        """Reject the session's pending proposals created since ``since`` (a cancelled turn's:
        one turn runs at a time per session); returns their ids. Nothing of theirs was written."""
        with self.storage.begin() as conn:
            ids = [r.id for r in conn.execute(select(table.c.id).where(and_(
                table.c.sid == sid, table.c.status == "pending", table.c.created_at >= since)))]
            _reject_pending(conn, ids, reason)
        return ids

    def withdraw_ids(self, proposal_ids: list[str], *, reason: str) -> list[str]:
        """Reject these proposals if still pending (a turn that will not show them); returns
        the ids withdrawn."""
        with self.storage.begin() as conn:
            ids = [r.id for r in conn.execute(select(table.c.id).where(and_(
                table.c.id.in_(list(proposal_ids)), table.c.status == "pending")))]
            _reject_pending(conn, ids, reason)
        return ids

    def _claim(self, proposal_id: str, user: str | None, version: int | None = None) -> bool:
        """pending (at ``version``) → executing, atomically (a stale claim is settled first)."""
        with self.storage.begin() as conn:
            res = conn.execute(
                update(table)
                .where(
                    and_(
                        table.c.id == proposal_id, table.c.status == "pending", _at_version(version)
                    )
                )
                .values(
                    status="executing",
                    decided_at=now(),
                    decided_by=user,
                    attempts=table.c.attempts + 1,
                )
            )
        return bool(res.rowcount == 1)

    # -- settling an unconfirmed create (``inflight.py``) ---------------------------------
    def claim_doubt(self, p: Proposal) -> bool:
        """unconfirmed (or a stale claim) → executing while the EHR is asked; one asker wins."""
        stale = and_(
            table.c.status == "executing", table.c.decided_at < now() - inflight.STALE_CLAIM_S
        )
        with self.storage.begin() as conn:
            res = conn.execute(update(table).where(and_(
                table.c.id == p.id, or_(table.c.status == "unconfirmed", stale))).values(
                status="executing", decided_at=now()))
        return bool(res.rowcount == 1)

    def release_doubt(self, p: Proposal, *, clear_since: float | None, message: str) -> Proposal:
        """Back to unconfirmed: nothing known yet (``clear_since``: the EHR's first empty
        answer)."""
        doubt = {**(p.summary.get("unconfirmed") or {}), "clear_since": clear_since}
        return self._settle_as(
            p, "unconfirmed", {**p.summary, "unconfirmed": doubt, "last_error": message}
        )

    def landed(self, p: Proposal, launch: Launch, found: dict[str, Any]) -> Proposal:
        """The create did land: approved, with its Provenance (written now if it is missing)."""
        ref = f"{p.resource_type}/{found['id']}"
        provenance = self._provenance(p, launch, ref, fresh=False)
        summary = {k: v for k, v in p.summary.items() if k != "unconfirmed"}
        log.info("proposal %s: the create landed after all -> %s", p.id, ref)
        return self._settle_as(
            p, "approved", {**summary, "provenance": provenance, "last_error": None}, result_ref=ref
        )

    def confirmed_nothing(self, p: Proposal, message: str) -> Proposal:
        """The EHR holds nothing of it: retryable, or failed once the attempts are spent."""
        retry = p.attempts < MAX_ATTEMPTS
        summary = {k: v for k, v in p.summary.items() if k != "unconfirmed"}
        message += (
            " You can try approving again." if retry else " Nothing was written to the chart."
        )
        return self._settle_as(
            p, "pending" if retry else "failed", {**summary, "last_error": message}
        )

    def _settle_as(
        self, p: Proposal, status: str, summary: Any, result_ref: str | None = None
    ) -> Proposal:
        values: dict[str, Any] = {"status": status, "summary": _dumps(summary)}
        if result_ref:
            values.update(result_ref=result_ref, decided_at=now())
        with self.storage.begin() as conn:
            conn.execute(
                update(table)
                .where(and_(table.c.id == p.id, table.c.status == "executing"))
                .values(**values)
            )
        return self.get(p.id)

    def _settled(self, proposal_id: str, version: int | None = None) -> Proposal:
        """The losing side of a race: the winner's result, or a Conflict saying why not."""
        p = self.get(proposal_id)
        if p.status == "approved" and version in (None, p.version):
            return p
        if p.status == "executing":
            raise errors.Conflict("This proposal is being approved right now; refresh in a moment.")
        raise self.conflict(p.id, version, "approved")

    def _execute(self, p: Proposal, launch: Launch) -> Proposal:
        try:
            created = self._create_once(p, launch)
        except errors.DocGemmaError as exc:
            self._failed(p, exc)
            raise
        ref = created.reference
        provenance = self._provenance(p, launch, ref, created.created)
        with self.storage.begin() as conn:
            conn.execute(
                update(table)
                .where(and_(table.c.id == p.id, table.c.status == "executing"))
                .values(
                    status="approved",
                    result_ref=ref,
                    decided_at=now(),
                    summary=_dumps({**p.summary, "provenance": provenance, "last_error": None}),
                )
            )
        log.info("proposal %s approved -> %s", p.id, ref)
        return self.get(p.id)

    def _create_once(self, p: Proposal, launch: Launch) -> Created:
        """The create, conditional on the identifier; a retry searches first, so a server
        without conditional create does not get a second resource either."""
        if p.attempts > 1:
            found = launch.fhir.by_identifier(p.resource_type, IDENTIFIER_SYSTEM, p.id)
            if found:
                return Created(type=p.resource_type, id=found[0]["id"], created=False,
                               resource=found[0])
        if p.resource.get("resourceType") == "Bundle":  # all or nothing, conditional on the
            return launch.fhir.transaction(p.resource, p.resource_type)  # identifier too
        return launch.fhir.create(
            p.resource, if_none_exist=f"identifier={IDENTIFIER_SYSTEM}|{p.id}"
        )

    def _failed(self, p: Proposal, exc: errors.DocGemmaError) -> None:
        if getattr(exc, "may_have_landed", False) or isinstance(exc, errors.Conflict):
            self._unconfirmed_after(p, exc)
            return
        retry = isinstance(exc, errors.UpstreamError) and p.attempts < MAX_ATTEMPTS
        message = exc.description + (" You can try approving again." if retry else "")
        with self.storage.begin() as conn:
            conn.execute(
                update(table)
                .where(and_(table.c.id == p.id, table.c.status == "executing"))
                .values(
                    status="pending" if retry else "failed",
                    summary=_dumps({**p.summary, "last_error": message}),
                )
            )
        log.info(
            "proposal %s create failed (%s): %s",
            p.id,
            exc.error,
            "will allow retry" if retry else "failed",
        )

    def _unconfirmed_after(self, p: Proposal, exc: errors.DocGemmaError) -> None:
        """The create was sent and may land: unconfirmed until the EHR is asked (never failed)."""
        message = f"{exc.description} {inflight.MAY_LAND}"
        exc.description = message  # what the clinician is told on this click too
        with self.storage.begin() as conn:
            conn.execute(
                update(table)
                .where(and_(table.c.id == p.id, table.c.status == "executing"))
                .values(
                    status="unconfirmed",
                    summary=_dumps(
                        {
                            **p.summary,
                            "last_error": message,
                            "unconfirmed": {"since": now(), "clear_since": None},
                        }
                    ),
                )
            )
        log.info("proposal %s create unconfirmed (%s): the EHR will be asked", p.id, exc.error)

    def _provenance(self, p: Proposal, launch: Launch, target: str, fresh: bool) -> str | None:
        """Record who did what (Provenance); not fatal: the resource already exists."""
        if not launch.scopes.allows("Provenance", "c"):
            return "not recorded: this session may not create Provenance"
        try:
            # A retry after a crash may find the earlier Provenance; without search
            # permission a second Provenance is better than none.
            if not fresh and launch.scopes.allows("Provenance", "s") and \
                    launch.fhir.search("Provenance", {"target": target}, max_pages=1):
                return "recorded earlier"
            made = launch.fhir.create(
                provenance_for(
                    target,
                    launch.user,
                    p.id,
                    edits=p.summary.get("changes"),
                    via=(p.summary.get("via") or {}).get("client"),
                )
            )
            return made.reference
        except errors.DocGemmaError as exc:
            log.warning("provenance for %s not recorded: %s", target, exc.error)
            return f"not recorded: {exc.description}"


def written_type(resource: dict[str, Any]) -> str:
    """The type a proposal writes: its own, or a transaction's created entry's."""
    if resource.get("resourceType") != "Bundle":
        return str(resource["resourceType"])
    made = [e["resource"] for e in resource.get("entry", [])
            if (e.get("request") or {}).get("method") == "POST"]
    return str(made[0]["resourceType"]) if made else "Bundle"


def _updated(resource: dict[str, Any]) -> list[str]:
    """The types a transaction updates (its PUT entries)."""
    return [str(e["resource"]["resourceType"]) for e in resource.get("entry", [])
            if resource.get("resourceType") == "Bundle"
            and (e.get("request") or {}).get("method") == "PUT"]


def _written(resource: dict[str, Any]) -> list[dict[str, Any]]:
    """Each resource a proposal writes (a transaction's entries)."""
    if resource.get("resourceType") != "Bundle":
        return [resource]
    return [e["resource"] for e in resource.get("entry", [])]


def stamped(resource: dict[str, Any], proposal_id: str) -> dict[str, Any]:
    """``resource`` with the proposal identifier on what it creates: the resource itself, or a
    transaction's created entry, then created only if none carries it (``ifNoneExist``), so a
    retry of the whole transaction writes nothing twice."""
    mark = {"system": IDENTIFIER_SYSTEM, "value": proposal_id}
    if resource.get("resourceType") != "Bundle":
        return {**resource, "identifier": [*resource.get("identifier", []), mark]}
    entries = []
    for e in resource.get("entry", []):
        if (e.get("request") or {}).get("method") == "POST":
            made = e["resource"]
            e = {**e, "resource": {**made, "identifier": [*made.get("identifier", []), mark]},
                 "request": {**e["request"],
                             "ifNoneExist": f"identifier={IDENTIFIER_SYSTEM}|{proposal_id}"}}
        entries.append(e)
    return {**resource, "entry": entries}


def _unconfirmed(p: Proposal) -> errors.FHIRError:
    """An approval that may not send again yet: the EHR has not said what the last create did."""
    error = errors.FHIRError(p.error or inflight.NOT_ANSWERING)
    error.may_have_landed = True
    return error


def _at_version(version: int | None) -> Any:
    """Rows at ``version`` (a row from before versions counts as version 1); any row for None."""
    if version is None:
        return true()
    return func.coalesce(table.c.version, 1) == version



def proposal_store(app: Flask | None = None) -> ProposalStore:
    """The store over the app's storage (per call: no module-level state)."""
    return ProposalStore(get_storage(app))


def _held_by_the_ehr(p: Proposal, launch: Launch,
                     wait: bool) -> tuple[list[dict[str, Any]], float | None]:
    """What the EHR holds under ``p``'s identifier, and since when it has answered empty."""
    found = launch.fhir.by_identifier(p.resource_type, IDENTIFIER_SYSTEM, p.id)
    if found:
        return found, None
    clear_since = (p.summary.get("unconfirmed") or {}).get("clear_since") or now()
    remaining = inflight.SETTLE_S - (now() - clear_since)
    if wait and remaining > 0:
        time.sleep(remaining)
        found = launch.fhir.by_identifier(p.resource_type, IDENTIFIER_SYSTEM, p.id)
    return found, clear_since


def _reject_pending(conn: Connection, ids: list[str], reason: str) -> None:
    """Reject those of ``ids`` still pending, on behalf of no clinician (a withdrawal)."""
    if ids:
        conn.execute(
            update(table)
            .where(and_(table.c.id.in_(ids), table.c.status == "pending"))
            .values(status="rejected", reason=reason[:REASON_MAX], decided_at=now(),
                    decided_by=None)
        )
