"""The audit trail in the app's own database (the ``audit_events`` table of ``storage.py``).

Rows are only ever inserted; the listing reads a patient's accesses over a period, newest
last. The row keeps the indexed facts (when, whose data, what kind, outcome, who, client,
session) beside the full AuditEvent, so a listing needs no JSON parsing to filter.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import and_, select, update

from ..storage import audit_events as table
from .events import Access, to_audit_event

OUTCOMES = {"0": "ok", "4": "refused", "8": "failed"}  # AuditEvent.outcome, as listed


@dataclass(frozen=True)
class AuditRow:
    """One stored record as the listing shows it."""

    id: str
    recorded: float
    patient_id: str | None
    kind: str
    outcome: str
    who: str | None
    client: str | None
    sid: str | None
    event: dict
    ehr_ref: str | None = None

    @property
    def resources(self) -> list[str]:
        return [
            e["what"]["reference"]
            for e in self.event.get("entity", [])
            if e.get("role", {}).get("code") == "4" and "reference" in e.get("what", {})
        ]

    def detail(self) -> dict[str, str]:
        return {
            d["type"]: d["valueString"]
            for e in self.event.get("entity", [])
            for d in e.get("detail", [])
        }


_APPEND = table.insert()  # built once


class AuditStore:
    """Append and list audit records over the app's storage."""

    def __init__(self, storage):
        self.storage = storage

    def append(self, access: Access) -> dict:
        """Store ``access``; returns its AuditEvent. Raises whatever the database raises."""
        event = to_audit_event(access)
        self.storage.write(
            _APPEND,
            {  # one statement, one round trip: every FHIR read writes one
                "id": access.id,
                "recorded": access.recorded,
                "patient_id": access.patient,
                "kind": access.kind,
                "outcome": access.outcome,
                "who": access.actor.who,
                "client": access.actor.client,
                "sid": access.actor.sid,
                "event": json.dumps(event),
            },
        )
        return event

    def sent_to_ehr(self, record_id: str, ref: str) -> None:
        with self.storage.begin() as conn:
            conn.execute(update(table).where(table.c.id == record_id).values(ehr_ref=ref))

    def accesses(
        self,
        patient: str | None = None,
        since: float | None = None,
        until: float | None = None,
        kinds: tuple[str, ...] = (),
        sid: str | None = None,
        limit: int = 10000,
    ) -> list[AuditRow]:
        """Records matching every filter given, oldest first."""
        where = []
        if patient is not None:
            where.append(table.c.patient_id == patient)
        if since is not None:
            where.append(table.c.recorded >= since)
        if until is not None:
            where.append(table.c.recorded < until)
        if kinds:
            where.append(table.c.kind.in_(kinds))
        if sid is not None:
            where.append(table.c.sid == sid)
        query = (
            select(table)
            .where(and_(True, *where))
            .order_by(table.c.recorded, table.c.id)
            .limit(limit)
        )
        with self.storage.read() as conn:
            return [_row(r) for r in conn.execute(query)]


def _row(r) -> AuditRow:
    return AuditRow(
        id=r.id,
        recorded=r.recorded,
        patient_id=r.patient_id,
        kind=r.kind,
        outcome=r.outcome,
        who=r.who,
        client=r.client,
        sid=r.sid,
        event=json.loads(r.event),
        ehr_ref=r.ehr_ref,
    )


def instant(text: str | None, end: bool = False) -> float | None:
    """A day (``2026-11-25``) or an ISO instant as epoch seconds; a day given as --until
    covers the whole day. Raises ValueError, saying why, for anything else."""
    if not text:
        return None
    try:
        when = datetime.fromisoformat(text)
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        if end and len(text) == 10:
            when += timedelta(days=1)
        return when.timestamp()
    except (ValueError, OverflowError):
        raise ValueError(f"{text!r} is not a date (YYYY-MM-DD) or an ISO date-time") from None
