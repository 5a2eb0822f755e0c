"""CDS Hooks 2.0 service: the assistant in the EHR's sidebar.

Endpoints (all JSON, CORS-enabled, preflight answered without a JWT):

- ``GET  /cds-services``                     discovery (services.yaml)
- ``POST /cds-services/<id>``                patient-view, order-select, order-sign
- ``POST /cds-services/<id>/feedback``       accepted / overridden outcomes

Cards are deterministic (``rules``): no model call sits on a hook's path, so
responses stay inside the EHR's latency budget; the model is one click away
behind the SMART link card. Every call is authenticated with the EHR's signed
JWT (``auth``); the FHIR access token a hook may carry is used for that
request's fetches only, never stored or logged.
"""
from __future__ import annotations

import json
import logging
import time
from datetime import datetime

from flask import Blueprint, current_app, jsonify
from sqlalchemy import delete, insert, select

from .. import errors, inputs, languages, metrics
from ..audit import for_cds_call
from ..audit.events import outcome_of
from ..checks import context, hooks
from ..extensions import get_storage
from ..languages import choices
from ..storage import cds_cards, cds_feedback, now
from . import auth, gaps

log = logging.getLogger(__name__)

bp = Blueprint("cds", __name__, url_prefix="/cds-services")


@bp.after_request
def _cors(response):
    allowed = current_app.config.get("CDS_CORS_ORIGINS", "*")
    origin = inputs.header("Origin")
    if allowed == "*" or (origin and origin in allowed):
        response.headers["Access-Control-Allow-Origin"] = "*" if allowed == "*" else origin
        response.headers["Access-Control-Allow-Methods"] = "GET, POST, OPTIONS"
        response.headers["Access-Control-Allow-Headers"] = "Authorization, Content-Type"
        response.headers["Access-Control-Max-Age"] = "600"
        if allowed != "*":
            response.headers["Vary"] = "Origin"
    return response


@bp.route("", methods=["OPTIONS"])
@bp.route("/<service_id>", methods=["OPTIONS"])
@bp.route("/<service_id>/feedback", methods=["OPTIONS"])
def preflight(service_id=None):
    """CORS preflight: browsers send it without credentials, so no JWT is required."""
    return "", 204


@bp.get("")
def discovery():
    _authenticate()
    return jsonify({"services": list(context.services().values())})


@bp.post("/<service_id>")
def call(service_id: str):
    # before the service lookup: an unknown id tells an unauthenticated caller nothing
    claims = _authenticate()
    service = _service(service_id)
    _json_only()
    body = _hook_request(inputs.json_body(error=errors.CDSError))
    if body["hook"] != service["hook"]:
        raise errors.CDSError(f"This service handles the {service['hook']} hook.")
    if body.get("fhirAuthorization") and not body.get("fhirServer"):
        raise errors.CDSError("fhirAuthorization requires fhirServer (cds-r-1).")
    started, trail = time.monotonic(), for_cds_call(claims, body)
    try:
        data = context.gather(body, service.get("prefetch", {}), hooks.REQUIRED[service["hook"]],
                              audit=trail)
    except errors.DocGemmaError as exc:
        trail.action("cds-hook", outcome=outcome_of(exc), description=exc.description,
                     service=service_id)
        raise
    language = _language(body)
    if service["id"] == gaps.SERVICE_ID:  # the care gaps read fhirServer themselves (every code)
        cards = gaps.cards_for(body, trail)
    else:
        cards = hooks.cards_for(service["hook"], body, data, _app_launch_url(), language)
    _remember_cards(service_id, cards)
    metrics.cds_call(service_id, time.monotonic() - started, cards)
    trail.action("cds-hook", service=service_id, hook=body["hook"],
                 hook_instance=body.get("hookInstance"), cards=len(cards),
                 prefetched=",".join(sorted(data.resources)) or None)
    return jsonify({"cards": cards})


def _language(body: dict) -> str:
    """The cards' language: CDS Hooks 2.0 has no language field, so the request's
    Accept-Language, else the language the practitioner (the hook's userId) chose on the page,
    else DOCGEMMA_LANGUAGE; one of the answered languages (en, fr, pt, es), else English."""
    asked = inputs.best_language(list(languages.ANSWERED))
    user = (body.get("context") or {}).get("userId")
    said = asked or (choices.remembered(user) if isinstance(user, str) and user else None)
    said = said or choices.default_language()
    return said if said in languages.ANSWERED else "en"


def _json_only() -> None:
    """CDS Hooks requests are JSON: any other declared type is refused before the body is read."""
    if inputs.mimetype() != "application/json":
        raise errors.UnsupportedMedia("CDS Hooks calls must be sent as application/json.")


def _hook_request(body: dict) -> dict:
    """The hook request's members with the JSON types CDS Hooks 2.0 gives them (else 400)."""
    def check(obj, name, kind, required=False):
        return inputs.field(obj, name, kind, required=required, error=errors.CDSError)

    check(body, "hook", "string", required=True)
    check(body, "hookInstance", "string")
    check(body, "fhirServer", "string")
    check(body, "prefetch", "object")
    auth_ = check(body, "fhirAuthorization", "object") or {}
    check(auth_, "access_token", "string")
    ctx = check(body, "context", "object", required=True)
    if not check(ctx, "patientId", "string", required=True):
        raise errors.CDSError("context.patientId is required.")
    for name in ("userId", "encounterId"):
        check(ctx, name, "string")
    drafts = check(ctx, "draftOrders", "object") or {}
    entries = check(drafts, "entry", "array") or []
    for entry in entries:
        resource = entry.get("resource") if isinstance(entry, dict) else None
        if isinstance(resource, dict) and (where := context.shape_problem(resource)):
            raise errors.CDSError(f"context.draftOrders is not valid FHIR at {where}.")
    selections = check(ctx, "selections", "array") or []
    if not all(isinstance(s, str) for s in selections):
        raise errors.CDSError("context.selections must be an array of strings.")
    return body


@bp.post("/<service_id>/feedback")
def feedback(service_id: str):
    # the service URL is also a fair aud
    claims = _authenticate(also=_public_url().rsplit("/feedback", 1)[0])
    _service(service_id)
    _json_only()
    items = inputs.field(
        inputs.json_body(error=errors.CDSError), "feedback", "array", error=errors.CDSError
    )
    if not items:
        raise errors.CDSError("feedback must be a non-empty array.")
    rows = [_feedback_row(service_id, item) for item in items]
    _check_issued(service_id, {row["card"] for row in rows})
    with get_storage().begin() as conn:
        conn.execute(insert(cds_feedback), rows)
    for row in rows:  # the card a clinician acted on, linked by its uuid
        for_cds_call(claims, {}).action("cds-feedback", service=service_id, card=row["card"],
                                        outcome_code=row["outcome"])
    return jsonify({"stored": len(rows)})


def _feedback_row(service_id: str, item) -> dict:
    """One feedback item (CDS Hooks 2.0 §Feedback) checked member by member (else 400)."""
    if not isinstance(item, dict) or not isinstance(item.get("card"), str) or not item["card"] \
            or item.get("outcome") not in ("accepted", "overridden"):
        raise errors.CDSError("Each feedback item needs card and outcome accepted|overridden.")
    stamp = inputs.field(item, "outcomeTimestamp", "string", required=True, error=errors.CDSError)
    try:
        datetime.fromisoformat(stamp)
    except ValueError as exc:
        raise errors.CDSError("outcomeTimestamp must be an ISO 8601 instant.") from exc
    accepted = inputs.field(item, "acceptedSuggestions", "array", error=errors.CDSError)
    if item["outcome"] == "accepted" and not (accepted and all(
            isinstance(s, dict) and isinstance(s.get("id"), str) and s["id"] for s in accepted)):
        raise errors.CDSError("Accepted feedback must list acceptedSuggestions, each with an id.")
    reason = inputs.field(item, "overrideReason", "object", error=errors.CDSError)
    if item["outcome"] == "overridden" and reason is not None and not _override_given(reason):
        raise errors.CDSError(
            "overrideReason must carry a reason (code and system) or a userComment."
        )
    detail = {k: item[k] for k in ("acceptedSuggestions", "overrideReason") if k in item}
    return {"service_id": service_id, "card": item["card"][:64], "outcome": item["outcome"],
            "detail": json.dumps(detail), "outcome_at": stamp[:64], "created_at": now()}


def _override_given(reason: dict) -> bool:
    coding = reason.get("reason")
    coded = isinstance(coding, dict) and all(isinstance(coding.get(k), str) and coding[k].strip()
                                             for k in ("code", "system"))
    comment = reason.get("userComment")
    return coded or (isinstance(comment, str) and bool(comment.strip()))


def _remember_cards(service_id: str, cards: list[dict]) -> None:
    """Record the uuids of the cards issued, so feedback can only name cards this service sent."""
    rows = [
        {
            "uuid": c["uuid"],
            "service_id": service_id,
            "expires_at": now() + current_app.config["CDS_CARD_MEMORY_S"],
        }
        for c in cards
        if c.get("uuid")
    ]
    with get_storage().begin() as conn:
        conn.execute(delete(cds_cards).where(cds_cards.c.expires_at < now()))
        if rows:
            conn.execute(insert(cds_cards), rows)


def _check_issued(service_id: str, uuids: set[str]) -> None:
    with get_storage().begin() as conn:
        known = set(conn.execute(select(cds_cards.c.uuid).where(
            cds_cards.c.uuid.in_(uuids), cds_cards.c.service_id == service_id,
            cds_cards.c.expires_at >= now())).scalars())
    if uuids - known:
        raise errors.CDSError("Feedback names a card this service did not issue.")


def _service(service_id: str) -> dict:
    service = context.services().get(service_id)
    if service is None:
        raise errors.NotFound("No CDS service with that id.")
    return service


def _authenticate(also: str | None = None) -> dict:
    """Verify the CDS client's JWT against the public URL of this endpoint (or ``also``).

    The reason a token failed is logged here and never sent back (a bare 401)."""
    cfg = current_app.config
    header = inputs.header("Authorization", max_chars=16384)
    token = header[7:].strip() if header[:7].lower() == "bearer " else None
    try:
        audience = (_public_url(), also) if also else _public_url()
        return auth.verify(token, audience, auth.get_cds_keys(), get_storage(),
                           int(cfg["CDS_JTI_WINDOW_S"]), int(cfg["CDS_JWT_MAX_LIFETIME_S"]))
    except errors.Unauthorized as exc:
        log.info("CDS client refused on %s: %s", inputs.path(), exc.description)
        raise errors.Unauthorized() from exc


def _public_url() -> str:
    base = current_app.config.get("PUBLIC_URL")
    return (base.rstrip("/") + inputs.path()) if base else inputs.base_url()


def _app_launch_url() -> str:
    base = current_app.config.get("PUBLIC_URL") or inputs.host_url()
    return base.rstrip("/") + "/launch"


