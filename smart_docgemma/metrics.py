"""Prometheus metrics: every metric the app exports, defined once, names ``docgemma_*``.

prometheus-client's usual pattern: metric objects are module-level definitions on its
default registry (a definition opens no connection and starts no thread; the only side
effect of importing this module). The app records through the small functions below so
callers never build label sets by hand.

Several gunicorn workers: each is its own process with its own counters. When
``PROMETHEUS_MULTIPROC_DIR`` is set (``docgemma`` sets it before forking its workers),
prometheus-client writes every sample to a file in that folder and ``/metrics`` sums
them over all workers (``scrape``); gauges are not used for that reason.
"""
from __future__ import annotations

import os

from prometheus_client import (CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram,
                               generate_latest, multiprocess)

# Model calls take 0.1-60 s; CDS hooks answer in milliseconds to a few seconds.
_MODEL_BUCKETS = (0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 40, 60, float("inf"))
_CDS_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, float("inf"))

TURNS = Counter("docgemma_turns", "Finished assistant turns", ["outcome", "route"])
RATE_LIMITED = Counter("docgemma_rate_limited", "Questions refused: rate limit or a turn already running",
                       ["reason"])
MODEL_CALLS = Counter("docgemma_model_calls", "Model HTTP attempts", ["node", "outcome"])
MODEL_SECONDS = Histogram("docgemma_model_call_seconds", "Model call latency", ["node"],
                          buckets=_MODEL_BUCKETS)
TOOL_CALLS = Counter("docgemma_tool_calls", "Tool runs by the tool's source", ["source", "tool"])
TOOL_ERRORS = Counter("docgemma_tool_errors", "Tool runs that failed, by source and kind",
                      ["source", "kind"])
CDS_SECONDS = Histogram("docgemma_cds_hook_seconds", "CDS service call latency", ["service"],
                        buckets=_CDS_BUCKETS)
CDS_CARDS = Counter("docgemma_cds_cards", "CDS cards returned", ["service", "indicator"])
CDS_CARDS_PER_CALL = Histogram("docgemma_cds_cards_per_call", "CDS cards in one hook response", ["service"],
                               buckets=(0, 1, 2, 3, 5, 8, float("inf")))
CDS_QUIETED = Counter("docgemma_cds_quieted", "patient-view problems not shown again (unchanged or overridden)",
                      ["reason"])
AUDITED = Counter("docgemma_audit_records", "Audit records stored, by kind", ["kind"])
AUDIT_FAILURES = Counter("docgemma_audit_failures", "Audit records that could not be stored or sent", ["kind"])
GROUNDING = Counter("docgemma_grounding_sentences", "Answer sentences checked against what the turn read",
                    ["verdict"])
DECISIONS = Counter("docgemma_proposal_decisions", "Clinician decisions on proposals", ["decision"])


def turn_finished(outcome: str, route: list[str] | tuple) -> None:
    # The route label is the node sequence's shape (fast path, tools, degraded …), bounded by
    # the agent's transition table, never the question.
    TURNS.labels(outcome=outcome, route=">".join(route) or "none").inc()


def refused(reason: str) -> None:
    RATE_LIMITED.labels(reason=reason).inc()


def model_call(node: str, seconds: float, outcome: str) -> None:
    MODEL_CALLS.labels(node=node, outcome=outcome).inc()
    MODEL_SECONDS.labels(node=node).observe(seconds)


def tool_run(tool: str, source: str, status: str, error_kind: str | None) -> None:
    TOOL_CALLS.labels(source=source, tool=tool).inc()
    if status == "error":
        TOOL_ERRORS.labels(source=source, kind=error_kind or "error").inc()


def cds_call(service: str, seconds: float, cards: list[dict]) -> None:
    CDS_SECONDS.labels(service=service).observe(seconds)
    CDS_CARDS_PER_CALL.labels(service=service).observe(len(cards))
    for card in cards:
        CDS_CARDS.labels(service=service, indicator=card.get("indicator", "info")).inc()


def cds_quieted(reason: str) -> None:
    CDS_QUIETED.labels(reason=reason).inc()


def decision(kind: str) -> None:
    DECISIONS.labels(decision=kind).inc()


def audited(kind: str) -> None:
    AUDITED.labels(kind=kind).inc()


def audit_failed(kind: str) -> None:
    AUDIT_FAILURES.labels(kind=kind).inc()


def grounded(verdict: str, n: int = 1) -> None:
    # verdict: supported | unsupported | uncheckable (no number, date or drug name to check)
    if n:
        GROUNDING.labels(verdict=verdict).inc(n)


def scrape() -> tuple[bytes, str]:
    """The exposition text: this process's registry, or every worker's when multiprocess."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        return generate_latest(registry), CONTENT_TYPE_LATEST
    from prometheus_client import REGISTRY
    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST
