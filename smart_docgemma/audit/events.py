"""One audited action as a typed ``Access``, and its FHIR ``AuditEvent`` shape.

The shape follows the IHE Basic Audit Log Patterns (BALP) for RESTful access: who (the
practitioner as the requesting agent, the app or CDS client as the second agent), what (the
patient entity, the resources read or written, the search as a query entity), when
(``recorded``) and the outcome. Actions of the app itself (an answer shown, a proposal and its
decision, a CDS hook call, clinician feedback) use the same shape with a type from this app's
own code system, so one listing covers both.

Nothing here touches storage or the network: ``to_audit_event`` is a pure function, and
``redact`` is the one place where the trail's text is cleaned of secrets.
"""

from __future__ import annotations

import base64
import hashlib
import re
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

APP_SYSTEM = "urn:docgemma:audit"
REST = {
    "system": "http://terminology.hl7.org/CodeSystem/audit-event-type",
    "code": "rest",
    "display": "RESTful Operation",
}
INTERACTION = "http://hl7.org/fhir/restful-interaction"
ENTITY_TYPE = "http://terminology.hl7.org/CodeSystem/audit-entity-type"
OBJECT_ROLE = "http://terminology.hl7.org/CodeSystem/object-role"
DCM = "http://dicom.nema.org/resources/ontology/DCM"
ACTIONS = {"read": "R", "search-type": "E", "create": "C"}  # BALP: a search is an Execute
OUTCOMES = {"success": "0", "minor": "4", "serious": "8"}
MAX_REFS = 100  # resources named per record; a larger result says how many more
_SECRET = re.compile(
    r"(?i)\b(bearer\s+)[\w\-.~+/=]+|\beyJ[\w-]+\.[\w-]+\.[\w-]*|"
    r"((?:access|refresh|id)_token|client_secret|api_key|"
    r"password)([\"']?\s*[=:]\s*[\"']?)[^\s&\"',}]+"
)


@dataclass(frozen=True)
class Actor:
    """Who acts: the practitioner (``who``), through which client, in which session."""

    who: str | None  # Practitioner/id (fhirUser) or the CDS request's userId
    client: str  # the SMART client id, or the CDS client's issuer
    sid: str | None = None  # the app session (None for a CDS call)
    patient: str | None = None  # the patient in context
    server: str | None = None  # the FHIR base the data came from


@dataclass(frozen=True)
class Access:
    """One audited action, before it becomes an AuditEvent."""

    kind: str  # read | search-type | create | answer-shown | proposal-created | … | cds-hook
    actor: Actor
    patient: str | None
    outcome: str = "0"
    resources: tuple[str, ...] = ()  # Type/id of what was read, written or cited
    more: int = 0  # resources beyond MAX_REFS, counted but not named
    query: str | None = None  # the search (Type?params); never a token
    description: str | None = None  # outcome text, or what the action was about
    detail: dict = field(default_factory=dict)  # small extra facts (turn id, service, card count…)
    id: str = field(default_factory=lambda: uuid.uuid4().hex)
    recorded: float = field(default_factory=lambda: datetime.now(UTC).timestamp())


def outcome_of(error) -> str:
    """AuditEvent.outcome for a failed action: a refusal or absence is minor, else serious."""
    return OUTCOMES["minor"] if getattr(error, "status", 500) < 500 else OUTCOMES["serious"]


def redact(text: str | None) -> str | None:
    """``text`` with anything that looks like a token, key or password replaced."""
    if not text:
        return text
    return _SECRET.sub(
        lambda m: (m.group(1) or "") + (m.group(2) or "") + (m.group(3) or "") + "[redacted]", text
    )


def question_detail(question: str | None, policy: str) -> dict:
    """The clinician's question as the policy allows: omitted, a SHA-256, or the text itself."""
    if not question or policy == "omit":
        return {}
    if policy == "hash":
        return {"question-sha256": hashlib.sha256(question.encode()).hexdigest()}
    return {"question": redact(question)}


def to_audit_event(access: Access) -> dict:
    """The FHIR R4 AuditEvent for ``access``."""
    rest = access.kind in ACTIONS
    event: dict[str, Any] = {
        "resourceType": "AuditEvent",
        "id": access.id,
        "type": REST if rest else {"system": APP_SYSTEM, "code": access.kind},
        "subtype": [{"system": INTERACTION, "code": access.kind}] if rest else [],
        "action": ACTIONS.get(access.kind, "E"),
        "recorded": datetime.fromtimestamp(access.recorded, UTC).isoformat(
            timespec="milliseconds"
        ),
        "outcome": access.outcome,
        "agent": _agents(access.actor),
        "source": {
            "observer": {"display": "DocGemma Connect"},
            "type": [
                {
                    "system": "http://terminology.hl7.org/CodeSystem/security-source-type",
                    "code": "4",
                    "display": "Application Server",
                }
            ],
        },
        "entity": _entities(access),
    }
    if access.description:
        event["outcomeDesc"] = redact(access.description)
    return event


def _agents(actor: Actor) -> list[dict]:
    app = {
        "type": {"coding": [{"system": DCM, "code": "110150", "display": "Application"}]},
        "who": {"identifier": {"value": actor.client}},
        "requestor": False,
    }
    if actor.server:
        app["network"] = {"address": actor.server, "type": "5"}  # 5: a URI
    user = {
        "type": {
            "coding": [
                {
                    "system": "http://terminology.hl7.org/CodeSystem/v3-ParticipationType",
                    "code": "IRCP",
                    "display": "information recipient",
                }
            ]
        },
        "who": _who(actor.who),
        "requestor": True,
    }
    if actor.sid:
        user["altId"] = actor.sid
    return [user, app]


def _who(who: str | None) -> dict:
    if who and re.fullmatch(r"[A-Za-z]+/[A-Za-z0-9\-.]{1,64}", who):
        return {"reference": who}
    return {"display": who or "unknown user"}


def _entities(access: Access) -> list[dict]:
    out: list[dict[str, Any]] = []
    if access.patient:
        out.append(
            {
                "what": {"reference": f"Patient/{access.patient}"},
                "type": {"system": ENTITY_TYPE, "code": "1", "display": "Person"},
                "role": {"system": OBJECT_ROLE, "code": "1", "display": "Patient"},
            }
        )
    for ref in access.resources:
        out.append(
            {
                "what": {"reference": ref} if "/" in ref else {"display": ref},
                "type": {"system": ENTITY_TYPE, "code": "2", "display": "System Object"},
                "role": {"system": OBJECT_ROLE, "code": "4", "display": "Domain Resource"},
            }
        )
    if access.query:
        out.append(
            {
                "type": {"system": ENTITY_TYPE, "code": "2", "display": "System Object"},
                "role": {"system": OBJECT_ROLE, "code": "24", "display": "Query"},
                "query": base64.b64encode((redact(access.query) or "").encode()).decode(),
            }
        )
    detail = [
        {"type": k, "valueString": redact(str(v))}
        for k, v in access.detail.items()
        if v is not None
    ]
    if access.more:
        detail.append({"type": "more-resources", "valueString": str(access.more)})
    if detail:
        out.append({"what": {"display": access.kind}, "detail": detail})
    return out
