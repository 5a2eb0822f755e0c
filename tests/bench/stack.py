"""What every benchmark needs, started once: HAPI FHIR with the fixtures and
the knowledge sources served from recorded bodies.

HAPI comes from ``launch.upstream.start_upstream`` (``FHIR_UPSTREAM_URL`` when
set, else Docker, else the project's Java build on a free port).
"""
from __future__ import annotations

import logging
import time
from contextlib import contextmanager
from dataclasses import dataclass

from launch.fixtures import load_fixtures
from launch.upstream import start_upstream

from .knowledge import recorded_sources


@dataclass
class Stack:
    fhir_base: str
    fhir_kind: str
    fhir_start_s: float
    knowledge: dict  # app config keys -> local recorded-source URLs


@contextmanager
def bench_stack():
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    started = time.perf_counter()
    upstream = start_upstream(port=0)
    try:
        load_fixtures(upstream.base_url)
        with recorded_sources() as knowledge:
            yield Stack(upstream.base_url, upstream.kind, round(time.perf_counter() - started, 1), knowledge)
    finally:
        upstream.stop()
