"""The chart a session read last, in brief and whole, for the next question's prompt.

Opening the assistant reads the whole chart (the chart at a glance); the first
question usually follows within seconds and needs the same chart in brief for
the model's context. Reading it again costs the FHIR server about as much as
the page did, and with many clinicians asking at once those reads, not the
model, set the pace. So a question asked within ``CHART_FRESH_S`` of the
session's last read reuses it.

What bounds the staleness:
- a snapshot is the session's own read, with the session's token and for the
  session's patient; it is never shared between sessions;
- a write approved in the session drops it (the next question reads again);
- only the prompt's context uses it: the safety checks of a proposal and the
  chart tool read FHIR afresh every time.

Rows live in ``chart_snapshots`` (``storage.py``), sealed like tokens, so any
worker can use the read another worker made.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from flask import current_app
from pydantic import TypeAdapter
from sqlalchemy import Float, String, and_, bindparam, delete, select
from sqlalchemy.exc import IntegrityError

from ..extensions import get_storage
from ..storage import chart_snapshots as table
from ..storage import now
from ..tools.chart.chart import Chart as ToolChart
from ..tools.chart.in_context import ChartInContext

_CHART = TypeAdapter(ChartInContext)

# read before every turn: built once
_FRESH = select(table.c.brief).where(
    and_(
        table.c.sid == bindparam("sid", type_=String()),
        table.c.patient_id == bindparam("patient_id", type_=String()),
        table.c.read_at > bindparam("since", type_=Float()),
    )
)


@dataclass(frozen=True)
class ChartRead:
    """One read of the chart: for the model in brief (every node) and whole (the answer), and
    typed for the reading of the question (``tools/chart/in_context.py``)."""

    brief: str
    text: str
    chart: ChartInContext = field(default_factory=ChartInContext)

    @classmethod
    def of(cls, read: ToolChart) -> ChartRead:
        """The chart tool's read, as a snapshot keeps it."""
        return cls(read.brief, read.text, read.in_context)


class ChartSnapshots:
    """The ``chart_snapshots`` table for one app (built per call over the app's storage)."""

    def __init__(self, storage, fresh_s: float):
        self.storage = storage
        self.fresh_s = fresh_s

    def fresh(self, sid: str, patient_id: str) -> ChartRead | None:
        """The session's chart read if made within ``fresh_s`` for this patient, else None."""
        if self.fresh_s <= 0:
            return None
        with self.storage.read() as conn:
            row = conn.execute(_FRESH, {"sid": sid, "patient_id": patient_id,
                                        "since": now() - self.fresh_s}).first()
        sealed = self.storage.unseal(row.brief) if row else None
        if not sealed or "brief" not in sealed or "chart" not in sealed:
            return None  # a snapshot kept before the chart was typed is read again
        return ChartRead(sealed["brief"], sealed.get("text") or "",
                         _CHART.validate_python(sealed["chart"]))

    def keep(self, sid: str, patient_id: str, read: ChartRead) -> None:
        """Remember a read just made (and forget every snapshot too old to be used)."""
        if self.fresh_s <= 0:
            return
        t = now()
        try:
            with self.storage.begin() as conn:
                conn.execute(
                    delete(table).where((table.c.sid == sid) | (table.c.read_at < t - self.fresh_s))
                )
                conn.execute(
                    table.insert().values(
                        sid=sid,
                        patient_id=patient_id,
                        read_at=t,
                        brief=self.storage.seal({"brief": read.brief, "text": read.text,
                                                 "chart": _CHART.dump_python(read.chart,
                                                                             mode="json")}),
                    )
                )
        except IntegrityError:
            pass  # the session's other read (page and question at once) landed first: as fresh

    def forget(self, sid: str) -> None:
        """Drop the session's snapshot: the chart changed (an approved write) or the session
        ended."""
        with self.storage.begin() as conn:
            conn.execute(delete(table).where(table.c.sid == sid))


def snapshot_store(app=None) -> ChartSnapshots:
    return ChartSnapshots(get_storage(app), float((app or current_app).config["CHART_FRESH_S"]))
