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
from functools import lru_cache
from pathlib import Path

import yaml
from flask import Blueprint, current_app, jsonify, request
from sqlalchemy import insert

from .. import errors
from ..extensions import get_cds_keys, get_storage
from ..storage import cds_feedback, now
from . import auth, context, rules

log = logging.getLogger(__name__)

bp = Blueprint("cds", __name__, url_prefix="/cds-services")


@lru_cache(maxsize=1)
def services() -> dict[str, dict]:
    """Discovery entries keyed by service id (loaded once from services.yaml)."""
    data = yaml.safe_load(Path(__file__).with_name("services.yaml").read_text())
    return {entry["id"]: entry for entry in data.values()}


@bp.after_request
def _cors(response):
    allowed = current_app.config.get("CDS_CORS_ORIGINS", "*")
    origin = request.headers.get("Origin")
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
    return jsonify({"services": list(services().values())})


@bp.post("/<service_id>")
def call(service_id: str):
    service = _service(service_id)
    _authenticate()
    body = _json_body()
    if body.get("hook") != service["hook"]:
        raise errors.CDSError(f"This service handles the {service['hook']} hook.")
    if not isinstance(body.get("context"), dict) or not body["context"].get("patientId"):
        raise errors.CDSError("context.patientId is required.")
    if body.get("fhirAuthorization") and not body.get("fhirServer"):
        raise errors.CDSError("fhirAuthorization requires fhirServer (cds-r-1).")
    data = context.gather(body, service.get("prefetch", {}), rules.REQUIRED[service["hook"]])
    cards = rules.cards_for(service["hook"], body, data, _app_launch_url())
    return jsonify({"cards": cards})


@bp.post("/<service_id>/feedback")
def feedback(service_id: str):
    _service(service_id)
    _authenticate()
    items = _json_body().get("feedback")
    if not isinstance(items, list) or not items:
        raise errors.CDSError("feedback must be a non-empty array.")
    rows = [_feedback_row(service_id, item) for item in items]
    with get_storage().begin() as conn:
        conn.execute(insert(cds_feedback), rows)
    return jsonify({"stored": len(rows)})


def _feedback_row(service_id: str, item: dict) -> dict:
    if not isinstance(item, dict) or not item.get("card") or item.get("outcome") not in ("accepted", "overridden"):
        raise errors.CDSError("Each feedback item needs card and outcome accepted|overridden.")
    if item["outcome"] == "accepted" and not item.get("acceptedSuggestions"):
        raise errors.CDSError("Accepted feedback must list acceptedSuggestions.")
    detail = {k: item[k] for k in ("acceptedSuggestions", "overrideReason") if k in item}
    return {"service_id": service_id, "card": str(item["card"])[:64], "outcome": item["outcome"],
            "detail": json.dumps(detail), "outcome_at": str(item.get("outcomeTimestamp", ""))[:64],
            "created_at": now()}


def _service(service_id: str) -> dict:
    service = services().get(service_id)
    if service is None:
        raise errors.NotFound("No CDS service with that id.")
    return service


def _authenticate() -> dict:
    """Verify the CDS client's JWT against the public URL of this endpoint."""
    cfg = current_app.config
    header = request.headers.get("Authorization", "")
    token = header[7:].strip() if header[:7].lower() == "bearer " else None
    return auth.verify(token, _public_url(), get_cds_keys(), get_storage(),
                       int(cfg.get("CDS_JTI_WINDOW_S", 3600)))


def _public_url() -> str:
    base = current_app.config.get("PUBLIC_URL")
    return (base.rstrip("/") + request.path) if base else request.base_url


def _app_launch_url() -> str:
    base = current_app.config.get("PUBLIC_URL") or request.host_url
    return base.rstrip("/") + "/launch"


def _json_body() -> dict:
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        raise errors.CDSError("The request body must be a JSON object.")
    return body
