"""The approval cards' blueprint: show, edit, approve and reject a proposal (``/proposals``).

Every decision is re-checked by the store against the session's launch
(same session, same patient, a scope that allows the create). Edit and
approve name the version the clinician saw (form or JSON ``version``): an
approval of a version that has since changed is refused (409).
"""
from __future__ import annotations

from flask import Blueprint, redirect, render_template, url_for

from .. import errors, inputs
from ..agent.second_look import after_edit
from ..audit.events import outcome_of
from ..checks import prescriber
from ..proposals import editing
from ..proposals.store import MCP_OWNER, Proposal, proposal_store
from ..session.launches import current_launch
from .decisions import audit_decision, settled
from .errorpages import wants_json
from .resuming import resume_after
from .snapshots import snapshot_store

bp = Blueprint("proposals", __name__, url_prefix="/proposals")
FIELD_MAX_CHARS = editing.NOTE_MAX_CHARS


def _respond(p: Proposal, status: int = 200):
    """JSON, the card partial for the page's script, or (a form posted without
    JavaScript) a 303 back to the page at the card."""
    if wants_json():
        return p.to_dict(), status
    if inputs.method() == "POST" and not inputs.header("X-Requested-With"):
        if p.sid.startswith(MCP_OWNER):  # an MCP client's proposal is decided on its own page
            return redirect(url_for("proposals.show", proposal_id=p.id), code=303)
        return redirect(url_for("chat.app_page") + f"#proposal-{p.id}", code=303)
    if inputs.method() == "GET" and not inputs.header("X-Requested-With"):
        return render_template("proposals/page.html", p=p), status  # the link an MCP client returns
    return render_template("proposals/card.html", p=p), status


def _version() -> int:
    """The version the clinician saw (a form field or a JSON number)."""
    value = inputs.field(inputs.json_body(), "version", "number") if inputs.is_json() \
        else inputs.text("version", max_chars=12, json_allowed=False)
    if value in (None, ""):
        raise errors.BadRequest(
            "Say which version of the proposal you reviewed (version); reload the card."
        )
    text = str(value).strip()
    if isinstance(value, float) and value.is_integer():
        text = str(int(value))
    if not (text.isascii() and text.isdigit()) or len(text) > 9:
        raise errors.BadRequest("The version must be a whole number; reload the card.")
    return int(text)


def _submitted(names) -> dict[str, str | None]:
    """The edit's fields as text (absent: None, left unchanged)."""
    if inputs.is_json():
        body = inputs.json_body()
        values = {n: inputs.field(body, n, "string") for n in names}
    else:
        values = {n: inputs.form_value(n) for n in names}
    for name, value in values.items():
        if value is not None and len(value) > FIELD_MAX_CHARS:
            raise errors.BadRequest(
                f"{name} is {len(value)} characters long; the limit is {FIELD_MAX_CHARS}."
            )
    return values


@bp.app_context_processor
def _card_editing():
    return {"editing": editing, "may_approve": _may_approve}


def _may_approve(p: Proposal) -> prescriber.Verdict:
    """Whether this login may approve ``p`` (a prescription needs a prescriber)."""
    if p.resource_type not in prescriber.PRESCRIPTIONS:
        return prescriber.Verdict(True, "")
    try:
        launch = current_launch()
    # no session to judge: the form stays, the server decides on approve
    except errors.DocGemmaError:
        return prescriber.Verdict(True, "")
    return prescriber.verdict(launch)


@bp.get("/<proposal_id>")
def show(proposal_id: str):
    """The approval card (HTML partial) or the proposal as JSON; an unconfirmed write is
    looked up in the EHR first, so the card says what the chart holds."""
    launch = current_launch()
    return _respond(settled(proposal_store().visible(proposal_id, launch), launch))


@bp.post("/<proposal_id>/edit")
def edit(proposal_id: str):
    """Change the proposal's clinical fields; re-validated and re-checked, stored as the next
    version."""

    launch, store = current_launch(), proposal_store()
    p = store.visible(proposal_id, launch)
    version = _version()
    submitted = _submitted(editing.FIELDS.get(p.resource_type, {}))
    edited = editing.edit_proposal(
        store, proposal_id, launch, version, submitted, launch.tool_context(), relook=after_edit
    )
    changed = ",".join(sorted(k for k, v in submitted.items() if v))
    audit_decision(launch, "proposal-edited", edited, fields=changed)
    return _respond(edited)


@bp.post("/<proposal_id>/approve")
def approve(proposal_id: str):
    """Approve the version the clinician saw: execute once, then show the created resource's id."""
    store, launch = proposal_store(), current_launch()
    version = _version()
    try:
        p = store.approve(proposal_id, launch, version)
    except errors.UpstreamError as exc:
        audit_decision(launch, "proposal-approved", store.get(proposal_id), outcome=outcome_of(exc),
               description=exc.description)
        return _respond(store.get(proposal_id), exc.status)
    finally:
        # the chart changed (or may have): the next question reads it
        snapshot_store().forget(launch.sid)
    audit_decision(launch, "proposal-approved", p)
    resume_after(p, launch)
    return _respond(p)


@bp.post("/<proposal_id>/acknowledge")
def acknowledge(proposal_id: str):
    """The clinician has read the second look's serious finding; Approve is enabled again."""
    launch = current_launch()
    p = proposal_store().acknowledge(proposal_id, launch)
    audit_decision(launch, "proposal-acknowledged", p)
    return _respond(p)


@bp.post("/<proposal_id>/reject")
def reject(proposal_id: str):
    """Reject with a reason (form field or JSON ``reason``); nothing is written."""
    reason, launch = inputs.text("reason"), current_launch()
    p = proposal_store().reject(proposal_id, launch, reason)
    audit_decision(
        launch, "proposal-rejected", p
    )  # the reason stays with the proposal, not in the trail
    resume_after(p, launch)
    return _respond(p)
