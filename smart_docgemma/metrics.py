"""Prometheus metrics: every metric the app exports, defined once, names ``docgemma_*``.

prometheus-client's usual pattern: metric objects are module-level definitions on its
default registry (a definition opens no connection and starts no thread; the only side
effect of importing this module). The app records through the small functions below so
callers never build label sets by hand.

Several gunicorn workers: each is its own process with its own counters. When
``PROMETHEUS_MULTIPROC_DIR`` is set (``docgemma`` sets it before forking its workers),
prometheus-client writes every sample to a file in that folder and ``/metrics`` sums
them over all workers (``scrape``). The one gauge (circuit state, 0 or 1) is summed as the
maximum over live workers: "open in any worker" is what an operator alerts on.

Every series whose label values are known in advance (model nodes and outcomes, tools,
sources, CDS services, the app's endpoints) is created with a zero value when the app starts
(``prime``), so a scrape right after start-up already lists it and an alert on a rate of
zero has a series to look at.
"""
from __future__ import annotations

import os

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)

# Model calls take 0.1-60 s; CDS hooks answer in milliseconds to a few seconds.
_MODEL_BUCKETS = (0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 40, 60, float("inf"))
# one FHIR request: a read in milliseconds, a large search in tens to hundreds of milliseconds
_FHIR_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, float("inf"))
FHIR_INTERACTIONS = ("read", "search", "page", "create")
_CDS_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, float("inf"))

TURNS = Counter("docgemma_turns", "Finished assistant turns", ["outcome", "route"])
RATE_LIMITED = Counter(
    "docgemma_rate_limited", "Questions refused: rate limit or a turn already running", ["reason"]
)
MODEL_CALLS = Counter("docgemma_model_calls", "Model HTTP attempts", ["node", "outcome"])
MODEL_SECONDS = Histogram("docgemma_model_call_seconds", "Model call latency", ["node"],
                          buckets=_MODEL_BUCKETS)
MODEL_PREFILL = Histogram(
    "docgemma_model_prefill_seconds",
    "Time the model server spent on a call's "
    "prompt before its first answer token (servers that report timings: the "
    "embedded server, llama-server)",
    ["node"],
    buckets=_MODEL_BUCKETS,
)
MODEL_PROMPT_TOKENS = Counter(
    "docgemma_model_prompt_tokens",
    "Prompt tokens of model calls: computed for the call, or reused from the server's prompt cache",
    ["node", "part"],
)
TOOL_CALLS = Counter("docgemma_tool_calls", "Tool runs by the tool's source", ["source", "tool"])
TOOL_ERRORS = Counter("docgemma_tool_errors", "Tool runs that failed, by source and kind",
                      ["source", "kind"])
CDS_SECONDS = Histogram("docgemma_cds_hook_seconds", "CDS service call latency", ["service"],
                        buckets=_CDS_BUCKETS)
CDS_CARDS = Counter("docgemma_cds_cards", "CDS cards returned", ["service", "indicator"])
CDS_CARDS_PER_CALL = Histogram(
    "docgemma_cds_cards_per_call",
    "CDS cards in one hook response",
    ["service"],
    buckets=(0, 1, 2, 3, 5, 8, float("inf")),
)
CDS_QUIETED = Counter(
    "docgemma_cds_quieted",
    "patient-view problems not shown again (unchanged or overridden)",
    ["reason"],
)
AUDITED = Counter("docgemma_audit_records", "Audit records stored, by kind", ["kind"])
AUDIT_FAILURES = Counter(
    "docgemma_audit_failures", "Audit records not stored or not sent", ["kind"]
)
GROUNDING = Counter(
    "docgemma_grounding_sentences", "Answer sentences checked against the turn's reads", ["verdict"]
)
LANGUAGE_REPLACED = Counter("docgemma_answer_language_replaced",
                            "Model answers not in the clinician's language, replaced by the "
                            "templated answer", ["expected", "found"])
DECISIONS = Counter("docgemma_proposal_decisions", "Clinician decisions on proposals", ["decision"])
_HTTP_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, float("inf"))
FHIR_REQUESTS = Counter("docgemma_fhir_requests", "HTTP requests to the EHR's FHIR server "
                        "(answered or failed), by interaction", ["interaction"])
FHIR_SECONDS = Histogram("docgemma_fhir_request_seconds", "FHIR server request latency",
                         ["interaction"], buckets=_FHIR_BUCKETS)
HTTP_REQUESTS = Counter(
    "docgemma_http_requests",
    "HTTP requests answered, by endpoint and status class",
    ["endpoint", "method", "status"],
)
HTTP_SECONDS = Histogram("docgemma_http_request_seconds",
                         "HTTP request latency until the response starts (a streamed answer "
                         "counts to its first byte)", ["endpoint"], buckets=_HTTP_BUCKETS)
CIRCUIT_OPEN = Gauge("docgemma_model_circuit_open", "1 while the model endpoint's circuit is open "
                     "(calls skipped, background probe running)", ["endpoint"],
                     multiprocess_mode="livemax")
PART_UP = Gauge("docgemma_part_up", "1 while a part the app depends on answers (database, ehr: "
                "the FHIR servers it trusts, model), 0 while it is down; the minimum over workers",
                ["part"], multiprocess_mode="livemin")
CIRCUIT_CHANGES = Counter("docgemma_model_circuit_transitions", "Model circuit opened / closed",
                          ["endpoint", "state"])
CIRCUIT_PROBES = Counter("docgemma_model_circuit_probes", "Background probes of an open circuit",
                         ["endpoint", "outcome"])
MODEL_FALLBACKS = Counter(
    "docgemma_model_fallback_turns",
    "Turns answered in no-model mode because the configured model failed or its circuit was open",
    ["reason"],
)
KNOWLEDGE = Counter("docgemma_knowledge_responses", "Knowledge-source answers by where they came "
                    "from: network, cache (fresh), stale (source unreachable, copy within the age "
                    "limit), too_old (shown as clearly stale), error", ["source", "served"])
MCP_REFUSED = Counter(
    "docgemma_mcp_refused",
    "MCP requests refused before any tool ran, by "
    "reason: method (GET and other non-POST), too_large, worker_busy, client_busy, "
    "client_rate, subject_rate",
    ["reason"],
)
STREAMS_REFUSED = Counter(
    "docgemma_streams_refused",
    "Answer streams refused before a turn started: the session's or the worker's streams all open",
    ["reason"],
)
STREAMS_DETACHED = Counter(
    "docgemma_streams_detached",
    "Answer streams ended at STREAM_MAX_S while "
    "their turn went on (the page reads the stored turn)",
)
MCP_REFUSALS = ("method", "too_large", "worker_busy", "client_busy", "client_rate", "subject_rate")
TURNS_INTERRUPTED = Counter("docgemma_turns_interrupted", "Running turns whose worker stopped "
                            "(lease expired) and were stored as failed")

# Label values known before any traffic (``prime``).
MODEL_NODES = ("intent_classify", "tool_select", "tool_args", "result_classify", "retry_strategy",
               "synthesize", "vision", "second_look")
MODEL_OUTCOMES = ("ok", "timeout", "unreachable", "http_5xx", "http_4xx", "invalid", "circuit_open")
TURN_OUTCOMES = ("done", "failed", "cancelled")
KNOWLEDGE_SERVED = ("network", "cache", "stale", "too_old", "error")
CDS_SERVICES = ("docgemma-patient-view", "docgemma-order-select", "docgemma-order-sign")


def turn_finished(outcome: str, route: str) -> None:
    # The route label is the route the turn took (agent.state.Route: direct, tool, proposal,
    # ask, error): five values, never the question.
    TURNS.labels(outcome=outcome, route=route).inc()


def refused(reason: str) -> None:
    RATE_LIMITED.labels(reason=reason).inc()


def stream_refused(reason: str) -> None:
    STREAMS_REFUSED.labels(reason=reason).inc()


def stream_detached() -> None:
    STREAMS_DETACHED.inc()


def mcp_refused(reason: str) -> None:
    MCP_REFUSED.labels(reason=reason).inc()


def model_call(node: str, seconds: float, outcome: str) -> None:
    MODEL_CALLS.labels(node=node, outcome=outcome).inc()
    MODEL_SECONDS.labels(node=node).observe(seconds)


def model_prefill(node: str, seconds: float, computed: int, cached: int) -> None:
    MODEL_PREFILL.labels(node=node).observe(seconds)
    MODEL_PROMPT_TOKENS.labels(node=node, part="computed").inc(computed)
    MODEL_PROMPT_TOKENS.labels(node=node, part="cached").inc(cached)


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


def language_replaced(expected: str, found: str) -> None:
    LANGUAGE_REPLACED.labels(expected=expected, found=found).inc()


def model_outcome(node: str, outcome: str) -> None:
    """A call that ended without an HTTP attempt being timed (circuit open, invalid output)."""
    MODEL_CALLS.labels(node=node, outcome=outcome).inc()


def circuit_state(endpoint: str, is_open: bool, changed: bool = True) -> None:
    CIRCUIT_OPEN.labels(endpoint=endpoint).set(1 if is_open else 0)
    if changed:
        CIRCUIT_CHANGES.labels(endpoint=endpoint, state="open" if is_open else "closed").inc()


def circuit_probe(endpoint: str, up: bool) -> None:
    CIRCUIT_PROBES.labels(endpoint=endpoint, outcome="up" if up else "down").inc()


def model_fallback(reason: str) -> None:
    MODEL_FALLBACKS.labels(reason=reason).inc()


def knowledge_served(source: str, served: str) -> None:
    KNOWLEDGE.labels(source=source, served=served).inc()


def turn_interrupted() -> None:
    TURNS_INTERRUPTED.inc()


_METHODS = {"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"}


def http_request(endpoint: str, method: str, status: int, seconds: float) -> None:
    method = method if method in _METHODS else "other"  # a client chooses it: keep the set bounded
    HTTP_REQUESTS.labels(endpoint=endpoint, method=method, status=f"{status // 100}xx").inc()
    HTTP_SECONDS.labels(endpoint=endpoint).observe(seconds)


def fhir_request(interaction: str, seconds: float) -> None:
    FHIR_REQUESTS.labels(interaction=interaction).inc()
    FHIR_SECONDS.labels(interaction=interaction).observe(seconds)


def prime(endpoints: list[tuple[str, str]], tools: dict[str, str], sources: list[str],
          model_endpoint: str | None, turn_routes: tuple[str, ...] = ()) -> None:
    """Create every known series at zero. ``endpoints``: (endpoint, method) of the app's routes;
    ``tools``: tool name -> source; ``sources``: knowledge source names; ``turn_routes``: the
    routes a turn can take (``agent.state.ROUTES``)."""
    for endpoint, method in endpoints:
        HTTP_SECONDS.labels(endpoint=endpoint)
        for status in ("2xx", "3xx", "4xx", "5xx"):
            HTTP_REQUESTS.labels(endpoint=endpoint, method=method, status=status)
    for node in MODEL_NODES:
        MODEL_SECONDS.labels(node=node)
        MODEL_PREFILL.labels(node=node)
        for part in ("computed", "cached"):
            MODEL_PROMPT_TOKENS.labels(node=node, part=part)
        for outcome in MODEL_OUTCOMES:
            MODEL_CALLS.labels(node=node, outcome=outcome)
    for tool, source in tools.items():
        TOOL_CALLS.labels(source=source, tool=tool)
    for interaction in FHIR_INTERACTIONS:
        FHIR_REQUESTS.labels(interaction=interaction)
        FHIR_SECONDS.labels(interaction=interaction)
    for source in ("fhir", "knowledge"):
        for kind in ("unreachable", "timeout", "not_found", "invalid", "forbidden", "rate_limited",
                     "unsupported", "exception"):
            TOOL_ERRORS.labels(source=source, kind=kind)
    for source in sources:
        for served in KNOWLEDGE_SERVED:
            KNOWLEDGE.labels(source=source, served=served)
    for outcome in TURN_OUTCOMES:
        for route in turn_routes:
            TURNS.labels(outcome=outcome, route=route)
    for reason in ("turn running", "rate limit"):
        RATE_LIMITED.labels(reason=reason)
    for reason in MCP_REFUSALS:
        MCP_REFUSED.labels(reason=reason)
    for reason in ("session", "worker"):
        STREAMS_REFUSED.labels(reason=reason)
    STREAMS_DETACHED.inc(0)
    for kind in ("approved", "rejected"):
        DECISIONS.labels(decision=kind)
    for service in CDS_SERVICES:
        CDS_SECONDS.labels(service=service)
        CDS_CARDS_PER_CALL.labels(service=service)
        for indicator in ("info", "warning", "critical"):
            CDS_CARDS.labels(service=service, indicator=indicator)
    for reason in ("overridden", "unchanged"):
        CDS_QUIETED.labels(reason=reason)
    for reason in ("failed", "circuit_open"):
        MODEL_FALLBACKS.labels(reason=reason)
    TURNS_INTERRUPTED.inc(0)
    for verdict in ("supported", "unsupported", "uncheckable"):
        GROUNDING.labels(verdict=verdict)
    if model_endpoint:
        circuit_state(model_endpoint, False, changed=False)
        for state in ("open", "closed"):
            CIRCUIT_CHANGES.labels(endpoint=model_endpoint, state=state)
        for outcome in ("up", "down"):
            CIRCUIT_PROBES.labels(endpoint=model_endpoint, outcome=outcome)


def scrape() -> tuple[bytes, str]:
    """The exposition text: this process's registry, or every worker's when multiprocess."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        return generate_latest(registry), CONTENT_TYPE_LATEST
    from prometheus_client import REGISTRY
    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST


def part_up(part: str, up: bool) -> None:
    """What the last probe of ``part`` found (``web/ops.py`` probes every few seconds)."""
    PART_UP.labels(part=part).set(1 if up else 0)
