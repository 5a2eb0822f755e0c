"""The audit trail: who read or changed which patient's data, when, with what outcome.

- ``events``: the typed ``Access`` and its FHIR AuditEvent shape (IHE BALP), redaction;
- ``store``: the ``audit_events`` table (SQLite or PostgreSQL, as the app's storage);
- ``trail``: ``AuditTrail``, bound to one actor and handed to the FHIR gateway, and the
  policy when a record cannot be stored;
- ``cli``: ``docgemma-audit``, a patient's accesses over a period.

``for_launch`` and ``for_cds_call`` build the trail of a launch session or of one CDS call.
"""

from __future__ import annotations

from flask import current_app

from ..extensions import get_storage
from ..fhir import FhirGateway
from .events import Access, Actor, redact, to_audit_event
from .store import AuditRow, AuditStore
from .trail import AuditTrail, Policy, patient_of

__all__ = [
    "Access",
    "Actor",
    "AuditRow",
    "AuditStore",
    "AuditTrail",
    "Policy",
    "audit_store",
    "for_cds_call",
    "for_launch",
    "for_mcp",
    "patient_of",
    "redact",
    "to_audit_event",
]


def audit_store(app=None) -> AuditStore:
    return AuditStore(get_storage(app))


def for_launch(launch, app=None, token=None) -> AuditTrail:
    """The trail of a launch session: the practitioner and the app's client id. ``token()``
    (the launch's access token) is asked only to send records to the EHR (AUDIT_TO_EHR)."""
    app = app or current_app._get_current_object()  # type: ignore[attr-defined]
    actor = Actor(
        who=launch.user,
        client=app.config["CLIENT_ID"],
        sid=launch.sid,
        patient=launch.patient_id,
        server=launch.iss,
    )
    return AuditTrail(
        audit_store(app),
        actor,
        Policy.from_config(app.config),
        send=_ehr_sender(launch.iss, token, app.config["HTTP_TIMEOUT_S"]),
    )


def for_cds_call(claims: dict, body: dict, app=None) -> AuditTrail:
    """The trail of one CDS hook call: the EHR user named in the context, the client's issuer."""
    app = app or current_app._get_current_object()  # type: ignore[attr-defined]
    context = body.get("context") or {}
    server = body.get("fhirServer") if isinstance(body.get("fhirServer"), str) else None
    actor = Actor(
        who=context.get("userId"),
        client=str(claims.get("iss") or "unknown CDS client"),
        patient=context.get("patientId"),
        server=server,
    )
    token = (body.get("fhirAuthorization") or {}).get("access_token")
    return AuditTrail(
        audit_store(app),
        actor,
        Policy.from_config(app.config),
        send=_ehr_sender(server, token, app.config["HTTP_TIMEOUT_S"]) if server else None,
    )


def for_mcp(grant, server: str, sid: str, app=None) -> AuditTrail:
    """The trail of an MCP client's tool call: the practitioner the grant names, the client."""
    app = app or current_app._get_current_object()  # type: ignore[attr-defined]
    actor = Actor(
        who=grant.user,
        client=f"mcp:{grant.client_id}",
        sid=sid,
        patient=grant.patient_id,
        server=server,
    )
    return AuditTrail(audit_store(app), actor, Policy.from_config(app.config))


def _ehr_sender(base: str | None, token: str | None, timeout: float):
    """POST an AuditEvent to the EHR through a gateway of its own (with no trail: the copy of
    a record is not itself an access to patient data)."""

    def send(event: dict) -> str | None:
        created = FhirGateway(
            base or "", token() if callable(token) else token, timeout=timeout
        ).create(event)
        return created.reference if created.id else None

    return send if base else None
