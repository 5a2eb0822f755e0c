"""Is the configured model server answering? The page's "Model unavailable" label.

A configured endpoint can be down (a stopped vLLM, a crashed llama.cpp server);
the page says so up front instead of letting the clinician find out from a
degraded answer. The check is one ``GET {endpoint}/v1/models`` with a short
timeout, remembered for ``MODEL_CHECK_TTL_S`` so a page load costs nothing
most of the time. Any HTTP answer counts as reachable (an auth error is still a
server); only a refused connection or a timeout counts as down. An open circuit
(agent/circuit.py) is down without a check, and a circuit that opened or closed since the last
check makes it stale.
"""
from __future__ import annotations

import logging
import time

import requests
from flask import Flask, current_app

from ..agent import ModelClient, model_from_config

log = logging.getLogger(__name__)

MODEL = "docgemma.model"
STATUS = "docgemma.model_status"
TIMEOUT_S = (1.0, 2.0)  # connect, read


def get_model(app: Flask | None = None) -> ModelClient | None:
    """The app's model client, or None in degraded mode (one per app: the dialect probe runs once)."""
    app = app or current_app._get_current_object()  # type: ignore[attr-defined]
    if MODEL not in app.extensions:
        app.extensions[MODEL] = model_from_config(app.config)
    model: ModelClient | None = app.extensions[MODEL]
    return model


def model_available(app: Flask) -> bool:
    """False when no model is configured (degraded mode) or its server does not answer."""
    model = get_model(app)
    if model is None:
        return False
    if model.circuit.is_open:
        return False
    checked = app.extensions.get(STATUS)
    fresh = checked and checked[0] > model.circuit.changed_at
    if fresh and time.monotonic() - checked[0] < float(app.config["MODEL_CHECK_TTL_S"]):
        return checked[1]
    up = _reachable(model.base_url)
    app.extensions[STATUS] = (time.monotonic(), up)
    return up


def _reachable(base_url: str) -> bool:
    try:
        requests.get(f"{base_url}/models", timeout=TIMEOUT_S)
        return True
    except requests.RequestException as exc:
        log.warning("model server at %s unreachable: %s", base_url, type(exc).__name__)
        return False
