"""The care-gap service: the same gaps the assistant reports (``tools/writes/caregaps.py``), as
``patient-view`` cards, one per programme with open gaps, each suggesting the orders that close
its overdue labs (a ``create`` of the ServiceRequest the assistant would propose).

The gaps are read from ``fhirServer`` with the hook's ``fhirAuthorization`` (every code of each
analyte is searched, which no prefetch template can hold); without FHIR access the service
answers 412 rather than an empty list that would read as "no gaps".
"""
from __future__ import annotations

import uuid
from typing import Any

from .. import errors
from ..fhir import FhirGateway
from ..tools.base import ToolContext
from ..tools.words import ward_words
from ..tools.writes import caregaps
from ..tools.writes.ward_orders import LAB_CATEGORY, lab_code

SERVICE_ID = "docgemma-care-gaps"
SUMMARY_MAX = 140


def _gateway(body: dict[str, Any], audit: Any = None) -> FhirGateway:
    server = body.get("fhirServer")
    if not isinstance(server, str) or not server.startswith(("http://", "https://")):
        raise errors.PreconditionFailed(
            "Care gaps are read from fhirServer, which this call did not give."
        )
    token = (body.get("fhirAuthorization") or {}).get("access_token")
    return FhirGateway(server, token, timeout=5, audit=audit)


def cards_for(body: dict[str, Any], audit: Any = None) -> list[dict[str, Any]]:
    """One card per programme with open gaps; 412 when the chart cannot be read."""
    patient = body["context"]["patientId"]
    ctx = ToolContext(patient_id=patient, scopes=None, fhir=_gateway(body, audit))
    try:
        rep = caregaps.report(ctx)
    except errors.DocGemmaError as exc:
        raise errors.PreconditionFailed(
            "The chart could not be read, so care gaps were not checked."
        ) from exc
    return [
        c
        for c in (
            _card(p, [g for g in rep.gaps if g.programme is p], patient) for p in rep.programmes
        )
        if c
    ]


def _card(p: caregaps.Programme, gaps: list[caregaps.Gap], patient: str) -> dict[str, Any] | None:
    opened = [g for g in gaps if g.open]
    unknown = [g for g in gaps if g.status == "unknown"]
    if not opened and not unknown:
        return None
    names = ", ".join(g.check.label for g in opened) or "none confirmed"
    summary = f"{p.title}: {len(opened)} care gap(s) open — {names}"
    if len(summary) > SUMMARY_MAX:
        summary = summary[:SUMMARY_MAX - 1].rstrip(" ,") + "…"
    detail = "\n".join(
        f"- **{g.check.label}**: {g.status.replace('_', ' ')}, {g.detail}" for g in gaps
    )
    out: dict[str, Any] = {
        "uuid": str(uuid.uuid4()),
        "summary": summary,
        "indicator": "warning" if opened else "info",
        "source": {"label": p.cited},
        "detail": detail + f"\n\nSource: {p.cited}.",
    }
    suggestions = [_suggestion(key, found, patient) for kind, key, found in caregaps.orders_for(
        caregaps.GapReport((p,), tuple(gaps)), labs_only=True) if kind == "lab"]
    if suggestions:
        out["suggestions"] = suggestions
        out["selectionBehavior"] = "any"
    return out


def _suggestion(key: str, found: list[caregaps.Gap], patient: str) -> dict[str, Any]:
    why = "; ".join(f"{g.check.label} {g.detail}" for g in found)[:300]
    test = ward_words.lab_test(key)
    resource = {
        "resourceType": "ServiceRequest",
        "status": "draft",
        "intent": "proposal",
        "category": [{"coding": [LAB_CATEGORY]}],
        "code": lab_code(key),
        "subject": {"reference": f"Patient/{patient}"},
        "reasonCode": [{"text": f"Care gap: {why}"}],
    }
    return {
        "label": f"Order {test['display']}",
        "uuid": str(uuid.uuid4()),
        "actions": [
            {"type": "create", "description": f"Order {key} (care gap)", "resource": resource}
        ],
    }
