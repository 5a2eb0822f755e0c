"""Chat turns of a launch session: the transcript, the rate limit, one turn at a time.

A turn row is written *before* the agent starts (``status='running'``) and
updated when it ends (``done``, ``failed``, ``cancelled`` by the clinician, or ``paused`` on a
proposal until the clinician decides, then ``resuming`` while the follow-up is written), so a reload
during a turn shows it as in progress and a restart loses no finished answer. Rows live in the
``turns`` table (``storage.py``); the JSON ``state`` column holds the agent's ``Turn`` itself
(``agent.state.dumps``): the page renders its fields (question, answer, sources, trace events,
proposal ids, model calls) and a paused turn is read back whole (``load``) to be resumed. A turn
becomes JSON here, and in the stream's ``finished`` event (``worker.py``).

A running turn holds a *lease*: its worker renews ``updated_at`` every few seconds
(``beat_all``, from the worker's ``worker.Leases``). A worker that dies (``kill -9``, the OOM
killer, a deploy) stops renewing it; once the lease is ``lease_s`` old the turn is swept
(``sweep``, on every read of the session's turns and before a new one starts): stored
``failed`` with an "interrupted, ask again" message, the session's one-turn lock released,
and the proposals it prepared withdrawn (never left approvable unseen; nothing of theirs
was written to the chart).

``start`` is one conditional INSERT, so two tabs of the same session cannot
both start a turn, and a session cannot start more than ``per_minute`` turns
in any 60 s window (the model server is shared by every clinician):

- another turn still running → ``Conflict`` (409);
- too many in the last minute → ``RateLimited`` (429, with ``retry_after``).
"""
from __future__ import annotations

import uuid
from dataclasses import replace

from sqlalchemy import (
    Float,
    Integer,
    String,
    Text,
    and_,
    bindparam,
    exists,
    func,
    literal,
    select,
    update,
)

from .. import errors, metrics
from ..agent.state import Turn, dumps, route_of
from ..extensions import get_storage
from ..languages import N_, message
from ..proposals.store import proposal_store
from ..storage import now
from ..storage import turns as table
from .stored import StoredTurn, TurnStatus, stored_turn

WINDOW_S = 60
LEASE_S = 30  # a running turn not renewed for this long lost its worker (config TURN_LEASE_S)
RUNNING_STALE_S = LEASE_S
HEARTBEAT_S = 5  # how often a live worker renews its turns' leases
SILENT_S = 2 * HEARTBEAT_S + 2  # a lease not renewed for this long missed two renewals
INTERRUPTED = ("The answer was interrupted: the server process working on it stopped. "
               "Nothing was written to the chart. Please ask again.")
HISTORY_TURNS = 3
COLUMNS = ["id", "sid", "created_at", "state", "status", "updated_at"]


def _param(name: str, kind=String):
    return bindparam(name, type_=kind())


# The statements of every turn, built once: building a statement costs the worker more CPU
# than the database takes to run it.
_SAME_SID = table.c.sid == _param("sid")
_LIVE = and_(
    _SAME_SID, table.c.status == "running", table.c.updated_at > _param("stale_before", Float)
)
_START = (
    table.insert()
    .from_select(
        COLUMNS,
        select(
            _param("id"),
            _param("sid"),
            _param("t", Float),
            _param("state", Text),
            literal("running"),
            _param("t", Float),
        ).where(
            and_(
                ~exists().where(_LIVE),
                select(func.count())
                .select_from(table)
                .where(and_(_SAME_SID, table.c.created_at > _param("window_from", Float)))
                .scalar_subquery()
                < _param("per_minute", Integer),
            )
        ),
    )
    .returning(table.c.id)
)
_STALE = select(table).where(and_(_SAME_SID, table.c.status == "running",
                                  table.c.updated_at <= _param("stale_before", Float)))
_DONE = (select(table).where(and_(_SAME_SID, table.c.status == "done"))
         .order_by(table.c.created_at.desc()).limit(_param("limit", Integer)))
_FINISH = update(table).where(and_(
    table.c.id == _param("turn_id"), table.c.status.notin_(("cancelled", "failed")),
)).values(state=_param("state", Text), status=_param("status"), updated_at=_param("t", Float))
_STATUS = select(table.c.status).where(table.c.id == _param("turn_id"))
_OWNER = select(table.c.sid, table.c.status).where(table.c.id == _param("turn_id"))
_BEAT_ALL = update(table).where(and_(
    table.c.id.in_(bindparam("turn_ids", expanding=True)), table.c.status == "running",
)).values(updated_at=_param("t", Float))

__all__ = ["StoredTurn", "TurnStatus", "TurnStore", "turn_store"]


class TurnStore:
    """The ``turns`` table for one app (built per call over the app's storage)."""

    def __init__(self, storage, lease_s: float = LEASE_S, proposals=None):
        self.storage = storage
        self.lease_s = float(lease_s)
        self.proposals = proposals  # a ProposalStore: a swept turn's proposals are withdrawn

    def start(self, sid: str, turn: Turn, *, per_minute: int) -> str:
        """Insert a running turn, or raise Conflict / RateLimited (atomically)."""
        self.sweep(sid)
        turn_id, t = uuid.uuid4().hex, now()
        params = {
            "id": turn_id,
            "sid": sid,
            "t": t,
            "state": dumps(turn),
            "stale_before": t - self.lease_s,
            "window_from": t - WINDOW_S,
            "per_minute": per_minute,
        }
        with self.storage.begin() as conn:
            self.storage.serialize(conn, f"turn:{sid}")
            # RETURNING, not rowcount: SQLAlchemy reports -1 for INSERT … SELECT on psycopg.
            inserted = conn.execute(_START, params).first()
        if inserted is None:
            self._refuse(sid, t)
        return turn_id

    def _refuse(self, sid: str, t: float) -> None:
        with self.storage.begin() as conn:
            renewed = conn.execute(select(func.max(table.c.updated_at)).where(and_(
                table.c.sid == sid, table.c.status == "running",
                table.c.updated_at > t - self.lease_s))).scalar()
            oldest = conn.execute(select(func.min(table.c.created_at)).where(and_(
                table.c.sid == sid, table.c.created_at > t - WINDOW_S))).scalar()
        metrics.refused("turn running" if renewed else "rate limit")
        if renewed:
            raise self._still_running(t - renewed)
        wait = max(1, int((oldest or t) + WINDOW_S - t) + 1)
        exc = errors.RateLimited(f"Too many questions in the last minute. Try again in {wait} s.")
        exc.retry_after = wait
        raise exc

    def _still_running(self, silent_s: float) -> errors.Conflict:
        """The refusal of a question while the session's last one runs. A turn whose worker
        has missed its lease renewals (``SILENT_S``) may have lost its process: the clinician
        is told when the session is free again (the lease runs out), as ``Retry-After``."""
        if silent_s < SILENT_S:
            return errors.Conflict(message=message(N_(
                "The assistant is still answering your previous question. "
                "Wait for it to finish, then ask again.")))
        wait = max(1, int(self.lease_s - silent_s) + 1)
        exc = errors.Conflict(message=message(N_(
            "The assistant's previous answer has stopped reporting (its server process may "
            "have been restarted). You can ask again in %(wait)s s."), wait=wait))
        exc.retry_after = wait
        return exc

    def beat_all(self, turn_ids: list[str]) -> int:
        """Renew the leases of running turns in one statement; returns how many of them were
        still running (an ended, cancelled or swept turn is not renewed)."""
        return self.storage.write(_BEAT_ALL, {"turn_ids": turn_ids, "t": now()})

    def sweep(self, sid: str) -> list[str]:
        """Store the session's running turns whose lease expired as failed (interrupted);
        withdraw what they proposed. Returns their ids."""
        t = now()
        with self.storage.read() as conn:
            rows = conn.execute(_STALE, {"sid": sid, "stale_before": t - self.lease_s}).all()
        swept = [row.id for row in rows if self._interrupt(row, t)]
        for row in rows:
            if row.id in swept and self.proposals is not None:
                self.proposals.withdraw(sid, since=row.created_at, reason=INTERRUPTED)
        return swept

    def _interrupt(self, row, t: float) -> bool:
        turn = replace(stored_turn(row).turn, error=INTERRUPTED)
        with self.storage.begin() as conn:  # only if no worker renewed or ended it meanwhile
            done = conn.execute(update(table).where(and_(
                table.c.id == row.id, table.c.status == "running",
                table.c.updated_at <= t - self.lease_s)).values(
                state=dumps(turn), status="failed", updated_at=t)).rowcount == 1
        if done:
            metrics.turn_interrupted()
            metrics.turn_finished("failed", route_of(turn))
        return done

    def paused_with(self, sid: str, proposal_id: str) -> str | None:
        """The session's turn paused on ``proposal_id``, if any."""
        for t in reversed(self.for_session(sid)):
            if t.status == "paused" and proposal_id in t.turn.proposals:
                return t.id
        return None

    def claim_paused(self, turn_id: str) -> bool:
        """paused → resuming, atomically: of two decisions one resumes the turn."""
        with self.storage.begin() as conn:
            return (
                conn.execute(
                    update(table)
                    .where(and_(table.c.id == turn_id, table.c.status == "paused"))
                    .values(status="resuming", updated_at=now())
                ).rowcount
                == 1
            )

    def finish(self, turn_id: str, turn: Turn, status: TurnStatus = "done") -> TurnStatus:
        """Store the final turn (``done``, ``paused`` or ``failed``); returns the status stored.

        A turn the clinician cancelled while it ran stays ``cancelled`` whatever its
        worker reached by then (the state is kept for the record). A turn swept as interrupted
        (its lease ran out: ``sweep``) stays ``failed``: its proposals were withdrawn and the
        clinician was told to ask again, so a worker that comes back late changes nothing."""
        state = dumps(turn)
        # one statement in the common case; a turn cancelled or swept meanwhile stays so (those
        # two statuses are final), and only its state is stored, below
        stored = self.storage.write(
            _FINISH, {"turn_id": turn_id, "state": state, "status": status, "t": now()}
        )
        if not stored:
            with self.storage.begin() as conn:
                current = conn.execute(_STATUS, {"turn_id": turn_id}).scalar()
                if current == "failed":
                    return "failed"  # counted when it was swept
                status = "cancelled"
                conn.execute(
                    update(table).where(table.c.id == turn_id).values(state=state, updated_at=now())
                )
        # a paused turn ends later (resumed, or cancelled): counted once, then
        if status != "paused":
            metrics.turn_finished(status, route_of(turn))
        return status

    def cancel(self, turn_id: str, sid: str) -> bool:
        """running → cancelled for a turn of ``sid`` (its worker stops at its next step); False
        when it had already ended. NotFound for another session's turn."""
        if self.get(turn_id).sid != sid:
            raise errors.NotFound("No such turn in this session.")
        with self.storage.begin() as conn:
            return (
                conn.execute(
                    update(table)
                    .where(and_(table.c.id == turn_id, table.c.status == "running"))
                    .values(status="cancelled", updated_at=now())
                ).rowcount
                == 1
            )

    def cancelled(self, turn_id: str) -> bool:
        with self.storage.read() as conn:
            return conn.execute(_STATUS, {"turn_id": turn_id}).scalar() == "cancelled"

    def get(self, turn_id: str) -> StoredTurn:
        """One stored turn (a running one whose lease ran out is swept first)."""
        row = self._row(turn_id)
        if row.status == "running" and self.sweep(row.sid):
            row = self._row(turn_id)
        return stored_turn(row)

    def load(self, turn_id: str) -> Turn:
        """One turn as the agent resumes it (no sweep: a paused turn holds no lease)."""
        return stored_turn(self._row(turn_id)).turn

    def _row(self, turn_id: str):
        with self.storage.read() as conn:
            row = conn.execute(select(table).where(table.c.id == turn_id)).first()
        if row is None:
            raise errors.NotFound("No such turn.")
        return row

    def owner(self, turn_id: str) -> tuple[str, str] | None:
        """The session and status of one turn, or None when there is no such turn (no sweep:
        a rating only asks whose turn it is and whether it finished)."""
        with self.storage.read() as conn:
            row = conn.execute(_OWNER, {"turn_id": turn_id}).first()
        return (row.sid, row.status) if row is not None else None

    def of_status(self, *statuses: TurnStatus) -> tuple[list[StoredTurn], int]:
        """Every session's turns of these statuses, oldest first, and how many rows of them are
        not a turn (stored before turns were typed): the experience library's harvest and the
        evaluation of stored turns read them, and skip the unreadable ones."""
        with self.storage.read() as conn:
            rows = conn.execute(select(table).where(table.c.status.in_(statuses))
                                .order_by(table.c.created_at)).all()
        readable = []
        for row in rows:
            try:
                readable.append(stored_turn(row))
            except ValueError:  # pydantic's ValidationError is a ValueError
                continue
        return readable, len(rows) - len(readable)

    def for_session(self, sid: str) -> list[StoredTurn]:
        """The session's turns, oldest first (the transcript)."""
        self.sweep(sid)
        with self.storage.read() as conn:
            rows = conn.execute(
                select(table).where(table.c.sid == sid).order_by(table.c.created_at)
            ).all()
        return [stored_turn(r) for r in rows]

    def history(self, sid: str, turns: int = HISTORY_TURNS) -> list[dict]:
        """The last finished exchanges as chat messages, for the agent's context (the newest
        finished turns only are read: a long session does not parse its whole transcript)."""
        with self.storage.read() as conn:
            rows = conn.execute(_DONE, {"sid": sid, "limit": turns * 4}).all()
        done = [t.turn for t in map(stored_turn, reversed(rows)) if t.turn.answer]
        messages = []
        for turn in done[-turns:]:
            # what the model read (agent/prompts.conversation)
            asked = {"asked": turn.asked} if turn.asked else {}
            messages += [{"role": "user", "content": turn.message, **asked},
                         {"role": "assistant", "content": turn.answer or ""}]
        return messages


def turn_store(app=None) -> TurnStore:
    from flask import current_app


    config = (app or current_app).config
    return TurnStore(get_storage(app), lease_s=config.get("TURN_LEASE_S") or LEASE_S,
                     proposals=proposal_store(app))
