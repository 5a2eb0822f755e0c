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
import re
import time

import requests
from flask import Flask, current_app

from ..agent.model import ModelClient, model_from_config

log = logging.getLogger(__name__)

MODEL = "docgemma.model"
STATUS = "docgemma.model_status"
TIMEOUT_S = (1.0, 2.0)  # connect, read
# The plumbing models the tests and a laptop run (SmolLM2-135M, Gemma 3 270M): their answers are
# not clinical answers, and the page says so.
SMALL_TEST_MODEL = re.compile(r"smollm|270m|135m|360m|tinyllama|qwen2?\.?5?-0\.5b", re.I)


def get_model(app: Flask | None = None) -> ModelClient | None:
    """The app's model client, or None in degraded mode (one per app: the dialect probe runs
    once)."""
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
    checked: tuple[float, bool] | None = app.extensions.get(STATUS)
    fresh = checked is not None and checked[0] > model.circuit.changed_at
    if (
        checked is not None
        and fresh
        and time.monotonic() - checked[0] < float(app.config["MODEL_CHECK_TTL_S"])
    ):
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


def model_label(app: Flask) -> str | None:
    """The name of the model that answers ("… (small test model)" for a plumbing model), or None
    in degraded mode."""
    if get_model(app) is None:
        return None
    name = str(app.config.get("MODEL") or "unnamed model")
    return f"{name} (small test model)" if SMALL_TEST_MODEL.search(name) else name
