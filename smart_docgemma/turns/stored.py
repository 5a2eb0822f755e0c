"""A turn as the turn store keeps it: ``StoredTurn`` (its row and the agent's ``Turn``), the
row's ``TurnStatus``, and ``stored_turn``, the one reader of a ``turns`` row."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from ..agent.state import Turn, loads

# A turn row's life: running -> done | paused | failed | cancelled; paused -> resuming -> done ...
TurnStatus = Literal["running", "paused", "resuming", "done", "failed", "cancelled"]


@dataclass(frozen=True)
class StoredTurn:
    """A turn as the chat's turn store keeps it: its row (id, session, status, start time) and
    the ``Turn`` itself. The one stored-turn value: the page, the follow-up, the experience
    library and the evaluation of stored turns all read this, never the row's JSON."""

    id: str
    sid: str
    status: TurnStatus
    created_at: float
    turn: Turn


def stored_turn(row: Any) -> StoredTurn:
    """A ``turns`` row (``storage.turns``: id, sid, status, created_at, state) as a
    ``StoredTurn``; raises pydantic's ``ValidationError`` for a state that is not a turn."""
    return StoredTurn(id=row.id, sid=row.sid, status=row.status or "done",
                      created_at=row.created_at, turn=loads(row.state))
