"""A quiet patient-view: what was shown on this chart, and what the clinician overrode.

patient-view fires on every chart open. A problem is shown again only when
it is critical, or when it changed since it was last shown (``fingerprint``:
a new result, a higher severity). A problem whose card the clinician
overrode with a reason (CDS Hooks feedback, ``cds_feedback``) stays hidden
for ``CDS_OVERRIDE_QUIET_S`` while it is unchanged, even when critical.
Rows live in ``cds_shown``: card uuid → chart, problem, fingerprint, where the
chart is the patient id at that FHIR server (two EHRs may reuse an id).
"""
from __future__ import annotations

import hashlib
import json

from flask import current_app
from sqlalchemy import and_, delete, insert, select

from .. import metrics
from ..extensions import get_storage
from ..storage import cds_feedback, cds_shown, now
from .findings import Problem


def chart_key(body: dict) -> str:
    """The chart a hook call is about: its patient at its FHIR server."""
    server = body.get("fhirServer") or ""
    return hashlib.sha256(f"{server}|{body['context']['patientId']}".encode()).hexdigest()


def keep_new(patient_id: str, problems: list[Problem]) -> list[Problem]:
    """The problems worth a card on this chart open."""
    if not problems:
        return []
    with get_storage().begin() as conn:
        last = _last_shown(conn, patient_id)
        overridden = _overridden(
            conn, patient_id, now() - current_app.config["CDS_OVERRIDE_QUIET_S"]
        )
    keep = []
    for problem in problems:
        if (problem.key, problem.fingerprint) in overridden:
            metrics.cds_quieted("overridden")
        elif problem.severity == "critical" or last.get(problem.key) != problem.fingerprint:
            keep.append(problem)
        else:
            metrics.cds_quieted("unchanged")
    return keep


def remember(patient_id: str, shown) -> None:
    """Record the cards shown on this chart (pairs of card, problem)."""
    rows = [{"card": c["uuid"], "patient_id": patient_id, "problem": p.key[:256],
             "fingerprint": p.fingerprint, "shown_at": now()} for c, p in shown]
    cfg = current_app.config
    keep_s = max(cfg["CDS_OVERRIDE_QUIET_S"], cfg["CDS_CARD_MEMORY_S"])
    with get_storage().begin() as conn:
        conn.execute(delete(cds_shown).where(cds_shown.c.shown_at < now() - keep_s))
        if rows:
            conn.execute(insert(cds_shown), rows)


def _last_shown(conn, patient_id: str) -> dict[str, str]:
    rows = conn.execute(select(cds_shown.c.problem, cds_shown.c.fingerprint)
                        .where(cds_shown.c.patient_id == patient_id).order_by(cds_shown.c.shown_at))
    return {problem: fingerprint for problem, fingerprint in rows}


def _overridden(conn, patient_id: str, since: float) -> set[tuple[str, str]]:
    """(problem, fingerprint) of cards on this chart overridden with a reason since ``since``."""
    rows = conn.execute(
        select(cds_shown.c.problem, cds_shown.c.fingerprint, cds_feedback.c.detail)
        .join(cds_feedback, cds_feedback.c.card == cds_shown.c.card)
        .where(and_(cds_shown.c.patient_id == patient_id, cds_feedback.c.outcome == "overridden",
                    cds_feedback.c.created_at >= since)))
    return {(problem, fingerprint) for problem, fingerprint, detail in rows if _with_reason(detail)}


def _with_reason(detail: str) -> bool:
    try:
        reason = json.loads(detail).get("overrideReason") or {}
    except (ValueError, AttributeError):
        return False
    coding = reason.get("reason") or {}
    return bool(
        (isinstance(coding, dict) and coding.get("code"))
        or str(reason.get("userComment") or "").strip()
    )
