"""The follow-up's stream: ``GET /app/turns/<id>/follow-up`` relays the words of the follow-up a
decision earns (``web/resuming.py`` starts it) as they are written, then the turn's HTML
(``done``), like a question's stream (``web/relay.py``)."""
from __future__ import annotations

from flask import Blueprint, Response, stream_with_context

from .. import errors
from ..session import launches as sessions
from ..turns.store import turn_store
from .relay import stream
from .resuming import live
from .streams import deadline, held, stream_slots
from .turnview import rendered

bp = Blueprint("followups", __name__)


@bp.get("/app/turns/<turn_id>/follow-up")
def follow_up(turn_id: str) -> Response:
    """The follow-up's tokens as they are written, then the turn's HTML (``done``)."""
    launch, turns = sessions.current_launch(), turn_store()
    if turns.get(turn_id).sid != launch.sid:
        raise errors.NotFound("No such turn in this session.")
    slot = stream_slots().take(launch.sid)
    events = held(stream(turn_id, live(turn_id), rendered, turns, until=deadline(),
                         announce=False), slot)
    response = Response(stream_with_context(events), mimetype="text/event-stream",
                        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
    response.call_on_close(slot.release)
    return response
