"""The operator's audit page: a patient's accesses over a period, behind the operator credential.

    GET /admin/audit?patient=ID&since=2026-11-01&until=2026-11-30[&kind=read&kind=…]

The same query as ``docgemma-audit PATIENT --since --until --kind`` (``AuditStore.accesses``),
for a privacy officer or an auditor who has a browser and not a shell on the server. It is
protected by ``OPERATOR_TOKEN`` (``DOCGEMMA_OPERATOR_TOKEN``), sent as the HTTP Basic password
(the browser asks for it) or as a Bearer token: none sent → 401, a wrong one or none
configured → 403. A clinician's SMART session gives no access. It shows what the CLI's lines
show (when, what, outcome, who, client, resources, turn / proposal / tool) and never a
question, hashed or not, nor a token (the trail holds none). The page is in English, like the
CLI, the logs and the metrics: the operator's tools, not the clinician's.
"""

from __future__ import annotations

import base64
import hmac
from datetime import UTC, datetime

from flask import Blueprint, current_app, render_template
from werkzeug.datastructures import Authorization

from .. import errors, inputs
from ..audit import audit_store
from ..audit.store import OUTCOMES, instant

bp = Blueprint("audit_admin", __name__, url_prefix="/admin", template_folder="templates")

SHOWN = 1000  # rows on the page; the CLI's --json lists every one
DETAIL = ("turn", "proposal", "tool", "status", "service", "cards")


@bp.before_request
def _operator_only() -> None:
    expected = current_app.config.get("OPERATOR_TOKEN")
    given = _credential()
    if not given:
        raise errors.OperatorCredentialRequired(
            "This page lists who accessed a patient's data: it needs the operator credential."
        )
    if not expected or not hmac.compare_digest(given.encode(), str(expected).encode()):
        raise errors.Forbidden("The operator credential is not valid here.")


def _credential() -> str | None:
    auth = Authorization.from_header(inputs.header("Authorization") or None)
    if auth is None:
        return None
    if auth.type == "basic":
        return auth.password or None
    return auth.token if auth.type == "bearer" else None


@bp.get("/audit")
def accesses():
    patient = (inputs.arg("patient", max_chars=256) or "").strip()
    since_text, until_text = inputs.arg("since") or "", inputs.arg("until") or ""
    try:
        since, until = instant(since_text), instant(until_text, end=True)
    except ValueError as exc:
        raise errors.BadRequest(str(exc)) from None
    if since is not None and until is not None and since >= until:
        raise errors.BadRequest("The period ends before it starts (until is before since).")
    kinds = tuple(inputs.arg_list("kind", max_chars=64))
    rows = audit_store(current_app).accesses(patient, since, until, kinds) if patient else []
    page = render_template(
        "audit/accesses.html",
        patient=patient,
        since=since_text,
        until=until_text,
        kinds=" ".join(kinds),
        rows=[_shown(r) for r in rows[:SHOWN]],
        total=len(rows),
        shown=SHOWN,
    )
    return page, 200, {"Cache-Control": "no-store"}


def _query(row) -> list[str]:
    """A search's own query when it named no resource (it found nothing)."""
    return [
        base64.b64decode(e["query"]).decode(errors="replace")
        for e in row.event.get("entity", [])
        if e.get("query") and e.get("role", {}).get("code") == "24"
    ]


def _shown(row) -> dict:
    detail = row.detail()
    return {
        "when": datetime.fromtimestamp(row.recorded, UTC).strftime("%Y-%m-%d %H:%M:%S"),
        "kind": row.kind,
        "outcome": OUTCOMES.get(row.outcome, row.outcome),
        "who": row.who or "-",
        "client": row.client or "-",
        "resources": row.resources or _query(row),
        "detail": {k: detail[k] for k in DETAIL if k in detail},
    }
