"""The approval cards' blueprint: show, approve and reject a proposal (``/proposals``).

Every decision is re-checked by the store against the session's launch
(same session, same patient, a scope that allows the create).
"""
from __future__ import annotations

from flask import Blueprint, redirect, render_template, request, url_for

from .. import errors
from ..smart.sessions import current_launch
from ..web import inputs
from ..web.errorpages import wants_json
from .store import Proposal, proposal_store

bp = Blueprint("proposals", __name__, url_prefix="/proposals")


def _respond(p: Proposal, status: int = 200):
    """JSON, the card partial for the page's script, or (a form posted without
    JavaScript) a 303 back to the page at the card."""
    if wants_json():
        return p.to_dict(), status
    if request.method == "POST" and not request.headers.get("X-Requested-With"):
        return redirect(url_for("chat.app_page") + f"#proposal-{p.id}", code=303)
    return render_template("proposals/card.html", p=p), status


@bp.get("/<proposal_id>")
def show(proposal_id: str):
    """The approval card (HTML partial) or the proposal as JSON."""
    return _respond(proposal_store().visible(proposal_id, current_launch()))


@bp.post("/<proposal_id>/approve")
def approve(proposal_id: str):
    """Approve: execute once, then show the created resource's id."""
    store = proposal_store()
    try:
        return _respond(store.approve(proposal_id, current_launch()))
    except errors.UpstreamError as exc:
        p = store.get(proposal_id)
        return _respond(p, exc.status)


@bp.post("/<proposal_id>/acknowledge")
def acknowledge(proposal_id: str):
    """The clinician has read the second look's serious finding; Approve is enabled again."""
    return _respond(proposal_store().acknowledge(proposal_id, current_launch()))


@bp.post("/<proposal_id>/reject")
def reject(proposal_id: str):
    """Reject with a reason (form field or JSON ``reason``); nothing is written."""
    reason = inputs.text("reason")
    return _respond(proposal_store().reject(proposal_id, current_launch(), reason))
