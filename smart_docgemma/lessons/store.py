"""Ratings, signals and the lessons table: what clinicians said, and what was learned.

Nothing learned is used until a person approves it: ``harvest`` only creates
*pending* lessons, ``approve`` makes one retrievable, ``drop`` retires it.
A lesson keeps the question and the tools with their arguments — never the
answer text, the chart or a token — so reviewing it shows exactly what the
assistant would imitate.
"""
from __future__ import annotations

import builtins
import json
import uuid

from sqlalchemy import delete, insert, select, update

from .. import errors
from ..agent.lesson_search import Lesson, terms
from ..agent.state import Turn
from ..extensions import get_storage
from ..storage import lessons, now, proposals, turn_ratings
from ..turns.store import TurnStore
from ..turns.stored import StoredTurn

REASON_MAX = 500
STATUSES = ("pending", "approved", "dropped")
# read before every turn: built once
_APPROVED = select(lessons).where(lessons.c.status == "approved")


class LessonStore:
    def __init__(self, storage):
        self.storage = storage
        self.turns = TurnStore(storage)  # the one reader of the turns table

    # ------------------------------------------------------------ signals
    def rate(self, turn_id: str, sid: str, useful: bool, reason: str = "") -> None:
        """Record the clinician's rating of a finished turn of their own session."""
        owner = self.turns.owner(turn_id)
        if owner is None or owner[0] != sid:
            raise errors.NotFound("No such turn in this session.")
        if owner[1] != "done":
            raise errors.Conflict("Only a finished answer can be rated.")
        with self.storage.begin() as conn:
            conn.execute(delete(turn_ratings).where(turn_ratings.c.turn_id == turn_id))
            conn.execute(insert(turn_ratings).values(
                turn_id=turn_id, sid=sid, useful=int(bool(useful)),
                reason=(reason or "").strip()[:REASON_MAX] or None, created_at=now()))

    def ratings(self, sid: str) -> dict[str, bool]:
        """turn id → useful, for the session's rated turns (the page shows the rating)."""
        with self.storage.begin() as conn:
            rows = conn.execute(select(turn_ratings.c.turn_id, turn_ratings.c.useful)
                                .where(turn_ratings.c.sid == sid)).all()
        return {r.turn_id: bool(r.useful) for r in rows}

    def signals(self) -> dict:
        """Counts of every kind of feedback (for ``docgemma-lessons stats``)."""
        with self.storage.begin() as conn:
            rated = conn.execute(select(turn_ratings.c.useful)).scalars().all()
            decided = conn.execute(select(proposals.c.status)).scalars().all()
        return {"rated_useful": sum(rated), "rated_not_useful": len(rated) - sum(rated),
                "proposals_approved": decided.count("approved"),
                "proposals_rejected": decided.count("rejected")}

    # ------------------------------------------------------------ harvest
    def harvest(self) -> list[str]:
        """Pending lessons from verified turns not harvested before; returns their ids."""
        # unreadable rows (before turns were typed) skipped
        finished, _ = self.turns.of_status("done")
        with self.storage.begin() as conn:
            verified = self._verified(conn, finished)
            done = set(conn.execute(select(lessons.c.turn_id)).scalars())
            created = []
            for turn_id, (turn, outcome) in verified.items():
                runs = tool_runs(turn)
                if turn_id in done or not runs:
                    continue
                lesson_id = uuid.uuid4().hex
                conn.execute(insert(lessons).values(
                    id=lesson_id, turn_id=turn_id, status="pending", question=turn.message,
                    tools=json.dumps(runs), outcome=outcome, created_at=now()))
                created.append(lesson_id)
        return created

    def _verified(self, conn, finished: list[StoredTurn]) -> dict[str, tuple[Turn, str]]:
        """turn id → (turn, why it counts as verified): rated useful, or a proposal approved."""
        useful = {r.turn_id: r.reason for r in conn.execute(
            select(turn_ratings).where(turn_ratings.c.useful == 1))}
        unuseful = set(
            conn.execute(select(turn_ratings.c.turn_id).where(turn_ratings.c.useful == 0)).scalars()
        )
        approved = {r.id: r.result_ref for r in conn.execute(
            select(proposals.c.id, proposals.c.result_ref).where(proposals.c.status == "approved"))}
        out = {}
        for row in finished:
            if row.id in unuseful:
                # a clinician said it was not useful: never a lesson, whatever
                # else happened
                continue
            turn = row.turn
            refs = [approved[p] for p in turn.proposals if p in approved]
            if row.id in useful:
                out[row.id] = (
                    turn,
                    "rated useful" + (f": {useful[row.id]}" if useful[row.id] else ""),
                )
            elif refs:
                out[row.id] = (turn, "proposal approved: " + ", ".join(r or "?" for r in refs))
        return out

    # ------------------------------------------------------------ review
    def list(self, status: str | None = None) -> list[dict]:
        query = select(lessons).order_by(lessons.c.created_at)
        if status:
            query = query.where(lessons.c.status == status)
        with self.storage.begin() as conn:
            return [dict(r._mapping, tools=json.loads(r.tools)) for r in conn.execute(query)]

    def decide(self, lesson_id: str, status: str, by: str = "") -> None:
        """Approve or drop a lesson (a dropped lesson can be approved again later)."""
        if status not in ("approved", "dropped"):
            raise errors.BadRequest("A lesson is approved or dropped.")
        with self.storage.begin() as conn:
            changed = conn.execute(update(lessons).where(lessons.c.id == lesson_id).values(
                status=status, decided_at=now(), decided_by=by or None)).rowcount
        if not changed:
            raise errors.NotFound(f"No lesson {lesson_id}.")

    def approved(self) -> builtins.list[Lesson]:
        """The lessons the agent may use (approved by a person)."""
        with self.storage.read() as conn:
            rows = conn.execute(_APPROVED).all()
        return [Lesson(id=r.id, question=r.question, tools=tuple(json.loads(r.tools)),
                       outcome=r.outcome, words=tuple(terms(r.question))) for r in rows]


def tool_runs(turn: Turn) -> list[dict]:
    """The tools a stored turn ran, with their arguments, in order (errors left out)."""
    return [
        {"tool": run.tool, "args": run.args}
        for run in turn.tool_runs
        if run.result.status != "error"
    ]


def lesson_store(app=None) -> LessonStore:
    return LessonStore(get_storage(app))
