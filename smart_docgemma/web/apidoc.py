"""``GET /openapi.json``: the app's HTTP API as an OpenAPI 3.1 document, for EHR integrators.

The document is data (``openapi.yaml`` beside this module), written by hand and kept
honest by a test that compares it with the routes the app registers; the fuzz
suite builds its requests from it.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from flask import Blueprint, jsonify

from ..datafiles import safe_yaml

bp = Blueprint("apidoc", __name__)


@lru_cache(maxsize=1)
def document() -> dict:
    """The OpenAPI document (loaded once)."""
    return safe_yaml(Path(__file__).with_name("openapi.yaml").read_text())


@bp.get("/openapi.json")
def openapi():
    return jsonify(document())
