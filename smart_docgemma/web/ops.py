"""Operations endpoints for load balancers and monitoring: ``/healthz``, ``/readyz``, ``/metrics``.

- ``/healthz``: the process answers (liveness: always 200, never waits on a dependency); it
  also says which part is down (``down``: database, ehr, model) from the last background
  probe, taken at most every ``PARTS_EVERY_S`` seconds per worker; ``/metrics`` has the same
  as ``docgemma_part_up{part}``.
- ``/readyz``: 200 when the database answers ``SELECT 1``, else 503. The FHIR servers the
  app trusts and the model endpoint are reported but do not decide readiness: without them
  the app still serves its pages and degrades (a load balancer must not drop every worker
  because the EHR or vLLM is restarting).
- ``/metrics``: Prometheus exposition of ``smart_docgemma.metrics`` (all workers' samples), with
  every known series at zero from start-up and every request counted by route and status class.
No session, no CSRF and nothing patient-related: the endpoints are safe to expose to a probe.
"""
from __future__ import annotations

import logging
import threading
import time
import weakref

import requests
from flask import Blueprint, Response, current_app, g, jsonify
from sqlalchemy import text

from .. import inputs, metrics
from ..agent.state import ROUTES
from ..extensions import get_storage
from ..tools import catalog
from ..tools.sources.http import SOURCES
from .modelstatus import get_model

bp = Blueprint("ops", __name__)
log = logging.getLogger(__name__)

PARTS_EVERY_S = 5.0
# The probe stops when nobody has read it for this long (the next reader starts it again) or
# when its app is gone: a worker no probe asks, or an app a test made and dropped, probes nothing.
PARTS_IDLE_S = 60.0
PROBE_TIMEOUT_S = (1.0, 2.0)  # connect, read: a probe answers fast or reports "down"


@bp.record_once
def _prime(state) -> None:
    """Every known series at zero (the routes are all registered: this blueprint comes last)."""
    app = state.app
    routes = sorted({(rule.rule, method) for rule in app.url_map.iter_rules()
                     for method in rule.methods - {"HEAD", "OPTIONS"}})
    tools = {name: "fhir" if spec.scopes else "knowledge" for name, spec in catalog.specs().items()}
    model = get_model(app)
    metrics.prime(
        routes, tools, list(SOURCES), model.base_url if model is not None else None, ROUTES
    )


@bp.before_app_request
def _started() -> None:
    g.docgemma_started = time.monotonic()


@bp.after_app_request
def _answered(response: Response) -> Response:
    started = g.pop("docgemma_started", None)
    if started is not None:
        metrics.http_request(
            inputs.route(), inputs.method(), response.status_code, time.monotonic() - started
        )
    return response


@bp.get("/healthz")
def healthz():
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    parts = app.extensions.setdefault("docgemma.parts", _Parts()).latest(app)
    return jsonify({"status": "ok", "parts": parts,
                    "down": sorted(k for k, v in parts.items() if v == "down")})


class _Parts:
    """Each part's last known state, probed in a background thread of this worker (started
    by the first reader: after gunicorn's fork), so a paused EHR never holds up a probe."""

    def __init__(self):
        self.state: dict[str, str] = {}
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._read_at = time.monotonic()

    def latest(self, app) -> dict[str, str]:
        with self._lock:
            self._read_at = time.monotonic()
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, args=(weakref.ref(app),),
                                                daemon=True, name="docgemma-parts")
                self._thread.start()
        return dict(self.state) or {"database": "unknown", "ehr": "unknown", "model": "unknown"}

    def _run(self, app_ref) -> None:
        while time.monotonic() - self._read_at < PARTS_IDLE_S:
            app = app_ref()
            if app is None:
                return
            with app.app_context():
                self.state = _probe_parts()
            del app  # the sleep holds no reference: a dropped app can be collected
            time.sleep(PARTS_EVERY_S)


def _probe_parts() -> dict[str, str]:
    model = _model()
    ehr = [_probe(f"{iss.rstrip('/')}/metadata", server_errors_down=True)["up"]
           for iss in current_app.config.get("ISS_ALLOWLIST") or []]
    found = {"database": _database()["up"], "ehr": any(ehr) if ehr else None,
             "model": model["up"] if model["configured"] else None}
    for part, up in found.items():
        if up is not None:
            metrics.part_up(part, up)
    return {part: "not configured" if up is None else ("up" if up else "down")
            for part, up in found.items()}



@bp.get("/readyz")
def readyz():
    database = _database()
    body = {"status": "ready" if database["up"] else "not ready", "database": database,
            "fhir": [_probe(f"{iss.rstrip('/')}/metadata") | {"url": iss}
                     for iss in current_app.config.get("ISS_ALLOWLIST") or []],
            "model": _model()}
    return jsonify(body), 200 if database["up"] else 503


@bp.get("/metrics")
def scrape():
    data, content_type = metrics.scrape()
    return Response(data, content_type=content_type)


def _database() -> dict:
    started = time.monotonic()
    try:
        with get_storage().engine.connect() as conn:
            conn.execute(text("SELECT 1"))
    # any driver error means "not reachable"; the reason is logged, not shown
    except Exception as exc:
        log.warning("database unreachable: %s", type(exc).__name__)
        return {"up": False}
    return {"up": True, "ms": round((time.monotonic() - started) * 1000, 1)}


def _model() -> dict:
    model = get_model()
    if model is None:
        return {"configured": False, "up": False}
    return {"configured": True, **_probe(f"{model.base_url}/models"),
            "circuit": model.circuit.status()}


def _probe(url: str, server_errors_down: bool = False) -> dict:
    """Any HTTP answer counts as up (an auth error is still a running server); with
    ``server_errors_down`` a 5xx does not (a FHIR proxy answering for an EHR that is down)."""
    started = time.monotonic()
    try:
        res = requests.get(url, timeout=PROBE_TIMEOUT_S)
    except requests.RequestException as exc:
        return {"up": False, "error": type(exc).__name__}
    if server_errors_down and res.status_code >= 500:
        return {"up": False, "error": f"HTTP {res.status_code}"}
    return {"up": True, "ms": round((time.monotonic() - started) * 1000, 1)}
