"""A stored turn as the page shows it: the transcript, a reloaded turn and the ``done`` event
of a question's or a follow-up's stream all render it from ``turn_view``."""
from __future__ import annotations

from dataclasses import asdict
from typing import Any

from flask import current_app, render_template

from .. import errors
from ..agent.state import to_dict
from ..proposals.store import proposal_store
from ..turns.stored import StoredTurn
from ..turns.worker import bounded
from .decisions import as_the_ehr_has_it
from .markup import markdown_html, safe_url
from .trace import trace_steps


def turn_view(stored: StoredTurn, rating: bool | None = None) -> dict[str, Any]:
    """A stored turn as the template shows it (answer as safe HTML, trace, live cards): the
    turn's JSON (``to_dict``, as it is stored) with the row's fields and what is computed."""
    store, turn = proposal_store(), stored.turn
    cards = []
    for proposal_id in turn.proposals:
        try:
            cards.append(as_the_ehr_has_it(store.get(proposal_id)))
        except errors.NotFound:
            continue
    limit = current_app.config["ANSWER_MAX_CHARS"]
    shown = turn.cited_answer or turn.answer  # with numbered citations (grounding/)
    return {**to_dict(turn), "id": stored.id, "sid": stored.sid, "status": stored.status,
            "created_at": stored.created_at, "rating": rating,
            "answer_html": markdown_html(bounded(shown, limit)),
            "sources": [asdict(s) for s in turn.sources if safe_url(s.url)],
            "cited": [{**asdict(c), "url": safe_url(c.url)} for c in turn.citations],
            "unsupported": sum(1 for check in turn.grounding if check.verdict == "unsupported"),
            "trace": trace_steps(turn.events, turn.tool_runs),
            "cards": cards}


def rendered(stored: StoredTurn) -> str:
    """The turn's HTML (``chat/_turn.html``)."""
    return render_template("chat/_turn.html", turn=turn_view(stored))
