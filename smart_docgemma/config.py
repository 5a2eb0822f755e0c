"""Configuration: the app's defaults, in one place, and the one reader of settings.

Every key can be overridden by an environment variable ``DOCGEMMA_<KEY>``
(values are parsed as JSON when they parse, so lists and numbers work) or by
the ``config`` mapping given to ``create_app``. ``read`` applies that
precedence for the app, the ``docgemma`` server, the embedded model and the
sandbox (which passes its own defaults and the ``SANDBOX`` prefix). The
documented names (``DOCGEMMA_ENDPOINT``, ``DOCGEMMA_API_KEY``,
``DOCGEMMA_MODEL``, ``DOCGEMMA_HOST``, ``DOCGEMMA_PORT``, see
docs/operations.md) map onto the keys below without the prefix.
"""
from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Any

DEFAULTS: dict[str, Any] = {
    # --- web server -------------------------------------------------------
    "HOST": "127.0.0.1",
    "PORT": 8000,
    "PUBLIC_URL": None,  # external base URL when behind a proxy; default from request
    "SECRET_KEY": None,  # None -> generated once and kept in the instance folder
    "MAX_CONTENT_LENGTH": 12 * 1024 * 1024,  # uploads (images) above this -> 413
    "JSON_MAX_BYTES": 4 * 1024 * 1024,  # JSON bodies (CDS prefetch bundles are the largest) -> 413
    "JSON_MAX_DEPTH": 40,  # nesting of JSON bodies (a FHIR Bundle in a CDS body is ~12) -> 400
    # gunicorn (`docgemma`): worker processes, and threads per worker. A streamed turn holds
    # its thread while it waits on the model (I/O, not CPU), so threads are many and cheap.
    "WORKERS": 1,
    "THREADS": 64,
    # A client that neither reads its answer nor sends its body for this long loses the connection
    # (cli/server.py: gunicorn's socket otherwise blocks its thread without end).
    "CLIENT_IO_TIMEOUT_S": 30,
    "LOG_LEVEL": "INFO",
    "FRAME_ANCESTORS": "'self' http://127.0.0.1:9000 http://localhost:9000",
    "STYLE_SRC_EXTRA": "",  # sources added to the CSP's style-src (web/security.py)
    # --- storage ----------------------------------------------------------
    "DATABASE_URL": None,  # None -> sqlite in the instance folder; any SQLAlchemy URL
    # Database connections kept open per worker process (as many again while busy). Every
    # streamed turn reads and writes briefly, many at once: too few and threads queue for a
    # connection or open and close one each time. Workers × 2 × this ≤ the server's max_connections.
    "DATABASE_POOL_SIZE": 32,
    "TOKEN_KEY": None,  # Fernet key for tokens at rest; None -> derived from SECRET_KEY
    # --- SMART client -------------------------------------------------------
    "ISS_ALLOWLIST": ["http://127.0.0.1:9000/fhir", "http://localhost:9000/fhir"],
    "CLIENT_ID": "docgemma",
    "CLIENT_SECRET": "docgemma-dev-secret",  # empty -> public client
    "SCOPES": (
        "launch openid fhirUser online_access "
        "patient/Patient.rs patient/Condition.rs patient/Observation.crs "
        # "u": a dose change stops the order it replaces (tools/writes/dose_change.py)
        "patient/MedicationRequest.crus patient/AllergyIntolerance.crs "
        "patient/DocumentReference.crs patient/Encounter.rs patient/Immunization.rs "
        # "when was his last colonoscopy?": procedures are read, never written
        "patient/Procedure.rs "
        "patient/Provenance.c patient/ServiceRequest.crs patient/MedicationStatement.crs "
        "user/Practitioner.rs"
    ),
    "STANDALONE_SCOPES": None,  # None -> SCOPES with launch/patient instead of launch
    "ALLOW_NO_PKCE_ISS": [],  # iss values allowed to lack S256 (legacy EHRs)
    "SESSION_LIFETIME_S": 8 * 3600,
    "HTTP_TIMEOUT_S": 15,
    # --- who may approve a prescription (smart_docgemma.checks.prescriber) -----
    # words or codes of a Practitioner's qualification / PractitionerRole that make a prescriber
    "PRESCRIBER_QUALIFICATIONS": [
        "physician",
        "doctor",
        "medicine",
        "surgeon",
        "nurse practitioner",
        "nurse prescriber",
        "physician assistant",
        "pharmacist prescriber",
        "dentist",
        "md",
        "do",
        "309343006",
        "158965000",
        "224535009",
    ],
    "PRESCRIBERS": [],  # fhirUser references vouched for as prescribers (no qualification data)
    # --- ward orders and protocols (tools/writes/ward_orders.py, tools/writes/protocols.py) ----
    # the site's own protocol file (the shape of tools/data/protocols.yaml); None -> the shipped
    # defaults
    "PROTOCOLS_FILE": None,
    # --- model --------------------------------------------------------------
    "ENDPOINT": None,  # OpenAI-compatible base URL; None -> degraded mode
    "API_KEY": "EMPTY",
    "MODEL": "google/medgemma-1.5-4b-it",
    "SCHEMA_DIALECT": "auto",  # auto | json_schema | json_object_schema
    "MODEL_TIMEOUT_S": 60,
    "MODEL_RETRIES": 2,
    "MODEL_CHECK_TTL_S": 30,  # the page's "model unavailable" check is remembered this long
    # Circuit breaker per model endpoint (agent/circuit.py): after this many transport failures
    # in a row (refused, timeout, 5xx) calls stop and turns run in no-model mode; a background
    # probe every COOLDOWN seconds closes it when the server answers again.
    "MODEL_CIRCUIT_FAILURES": 3,
    "MODEL_CIRCUIT_COOLDOWN_S": 15,
    "MODEL_FIRST_TOKEN_S": 10,  # no answer text after this long: said in the progress stream
    # Opening the assistant has the model server compute the answer prompt's fixed part (the
    # chart just read) while the clinician reads the page (web/prefill.py): the first question
    # then costs its own words only, on a server that keeps computed prompts.
    "MODEL_PREFILL_ON_OPEN": True,
    # after each answer, the next turn's prompts (up to its question) computed in the background
    "MODEL_PREFILL_NEXT_TURN": True,
    # The model's context in tokens: requests are cut to fit it (agent/window.py); 0 sends them
    # whole. The embedded server sets it to its own; vLLM's is its --max-model-len.
    "MODEL_CONTEXT_TOKENS": 8192,
    # A running turn renews its lease every few seconds; one not renewed for this long lost its
    # worker (killed, out of memory) and is stored as interrupted (turns/store.py).
    "TURN_LEASE_S": 30,
    "ANSWER_MAX_CHARS": 20000,  # model answers beyond this are cut (stored, streamed, rendered)
    "GGUF": None,  # path to a GGUF model -> start an embedded llama.cpp server
    "MMPROJ": None,
    "EMBEDDED_PORT": None,  # embedded server port; None -> a free loopback port
    # its context (tokens); None -> the prompt budgets' sum within the model's limit
    "EMBEDDED_N_CTX": None,
    "EMBEDDED_THREADS": None,  # None -> all cores
    "EMBEDDED_START_TIMEOUT_S": 300,  # model load time allowed
    # Its prompt cache (modelserver/promptcache.py): computed prompts kept in RAM up to this many MB
    # (0: none) and on disk under EMBEDDED_CACHE_DIR (None -> ~/.cache/smart_docgemma/prompt-cache).
    # 1536 MB holds each node's prompt of a session for a 4B model (~140 KB per token) on 8 GB.
    "EMBEDDED_CACHE_MB": 1536,
    "EMBEDDED_CACHE_DIR": None,
    # Contexts it keeps live, each with its own KV cells (n_ctx × ~140 KB per token for a 4B
    # model, ~0.8 GB at 5,632 tokens): a turn's nodes that call the model each keep their prompt.
    "EMBEDDED_SLOTS": 3,
    # --- tools and knowledge sources --------------------------------------
    "CACHE_PATH": None,  # None -> instance folder
    "OPENFDA_API_KEY": None,
    "NCBI_API_KEY": None,
    "NCBI_EMAIL": None,
    "OPENFDA_URL": "https://api.fda.gov",
    "EUTILS_URL": "https://eutils.ncbi.nlm.nih.gov/entrez/eutils",
    "EUROPEPMC_URL": "https://www.ebi.ac.uk/europepmc/webservices/rest",
    "CTGOV_URL": "https://clinicaltrials.gov/api/v2",
    "RXNAV_URL": "https://rxnav.nlm.nih.gov/REST",
    "IMAGE_MAX_BYTES": 10 * 1024 * 1024,
    "KNOWLEDGE_CONNECT_TIMEOUT_S": 3,  # knowledge sources (tools/sources/http.py)
    "KNOWLEDGE_READ_TIMEOUT_S": 10,
    "KNOWLEDGE_MAX_RETRIES": 2,  # on 429/5xx, GET only, exponential backoff
    # A source that cannot be reached is answered from its cached copy, with the copy's date;
    # a copy older than this is still shown, but only as clearly out of date
    # (tools/sources/http.py).
    "KNOWLEDGE_OFFLINE_MAX_AGE_DAYS": 30,
    # --- chat ---------------------------------------------------------------
    # page and answer language when neither the clinician nor the browser says (en|fr|pt|es)
    "LANGUAGE": "en",
    "CHAT_MAX_CHARS": 4000,
    # The site's IANA time zone: chart answers show result times in it, and "since yesterday",
    # "today" start at its midnight (tools/words/windows.py). Unknown names fall back to UTC.
    "SITE_TIMEZONE": "UTC",
    "CHAT_RATE_PER_MIN": 20,
    # Event streams (an answer, a follow-up) hold a worker thread each (web/streams.py): one lives
    # at most STREAM_MAX_S (then the page reads the stored turn); a session holds at most
    # STREAMS_PER_SESSION in a worker (429 beyond), a worker STREAMS_PER_WORKER (503 beyond) — keep
    # it + MCP_WORKER_CONCURRENCY under THREADS so pages, CDS and /healthz always find a thread.
    "STREAM_MAX_S": 300,
    "STREAMS_PER_SESSION": 2,
    "STREAMS_PER_WORKER": 40,
    # A question asked within this many seconds of the session's last chart read (the page's, or
    # the last turn's) reuses that read for the prompt instead of reading the chart again; 0 reads
    # it for every question. Writes approved in the session drop it; proposal checks always read
    # fresh.
    "CHART_FRESH_S": 60,
    # --- audit (audit/) ---------------------------------------------------------
    # How much of the clinician's question an "answer shown" record keeps: omit | hash | full.
    "AUDIT_QUESTION": "omit",
    # When an audit record cannot be stored: refuse (the data is withheld, 503) | log (the data
    # is shown, the failure is logged and counted in docgemma_audit_failures).
    "AUDIT_ON_FAILURE": "refuse",
    "AUDIT_TO_EHR": False,  # also POST each AuditEvent to the EHR (the grant needs AuditEvent.c)
    # The operator's credential for /admin/audit (a patient's accesses over a period), sent as
    # HTTP Basic password or Bearer token; None -> the page refuses everyone (403).
    "OPERATOR_TOKEN": None,
    # --- grounding (grounding/) ----------------------------------------------------
    # A sentence whose numbers, dates or drug names are not in the record it cites is marked
    # (mark) or dropped from the answer (remove).
    "GROUNDING_UNSUPPORTED": "mark",
    # --- MCP server (mcpserver/; docs/mcp.md) -----------------------------------
    # This server's MCP endpoint, which is also its RFC 8707 resource indicator: tokens must be
    # issued for exactly this URL. None -> PUBLIC_URL + /mcp, else http://HOST:PORT/mcp.
    "MCP_URL": None,
    # The EHR's SMART authorization server (its issuer) that MCP clients get tokens from, and
    # where the server exchanges them for FHIR tokens. None -> the first ISS_ALLOWLIST entry.
    "MCP_AUTHORIZATION_SERVER": None,
    # What the protected resource metadata offers MCP clients (they ask for these scopes).
    "MCP_SCOPES": (
        "launch/patient openid fhirUser patient/*.rs patient/MedicationRequest.c "
        "patient/AllergyIntolerance.c patient/DocumentReference.c patient/ServiceRequest.c "
        "patient/Observation.c"
    ),
    # Limits (mcpserver/guard.py, quota.py; docs/mcp.md "Limits"). Each MCP call holds a worker
    # thread while it runs: a worker runs at most this many at once (the rest of THREADS stay
    # for clinicians, CDS and /healthz; beyond it: 503 with Retry-After).
    "MCP_WORKER_CONCURRENCY": 16,
    # Per client (mcpserver/quota.py): calls in any 60 s by one user (the token's sub) in one client
    # (its client_id), and by one user through all their clients (a client id costs nothing to
    # register); requests of one user in one client running at once in a worker. Beyond: 429
    # with Retry-After. Counted in the database, so all workers share the minute's count.
    "MCP_CALLS_PER_MIN": 120,
    "MCP_SUBJECT_CALLS_PER_MIN": 300,
    "MCP_CLIENT_CONCURRENCY": 4,
    # A tool call still running after this long is answered as an error (its thread is left to
    # finish on its own, holding no request): no MCP request waits longer than this for a tool.
    "MCP_CALL_TIMEOUT_S": 60,
    # --- CDS Hooks ------------------------------------------------------------
    "CDS_ISSUERS": {},  # {iss: {"jwks_url": ...} | {"jwks": {...}}}
    "CDS_JTI_WINDOW_S": 3600,
    "CDS_JWT_MAX_LIFETIME_S": 300,  # exp at most this (+ skew) after iat and now
    "CDS_CARD_MEMORY_S": 30 * 24 * 3600,  # feedback is accepted for cards issued this recently
    "CDS_OVERRIDE_QUIET_S": 30
    * 24
    * 3600,  # patient-view hides an alert overridden with a reason this long
    "CDS_CORS_ORIGINS": "*",
}


def read(overrides: Mapping[str, Any] | None = None, *, defaults: Mapping[str, Any] = DEFAULTS,
         prefix: str = "DOCGEMMA") -> dict[str, Any]:
    """``defaults``, then every ``{prefix}_<KEY>`` environment variable, then ``overrides``.

    An environment value is parsed as JSON when it parses (``8000`` is a number,
    ``["a"]`` a list), else kept as text: the rule Flask's ``from_prefixed_env`` follows.
    """
    values = dict(defaults)
    start = f"{prefix}_"
    for name, raw in os.environ.items():
        if name.startswith(start):
            values[name[len(start):]] = _parse(raw)
    values.update(overrides or {})
    return values


def setting(config: Mapping[str, Any], key: str) -> Any:
    """``config[key]``, or its default here when the mapping lacks it or holds None (code
    handed a partial mapping, such as a test's, reads the same defaults as the app)."""
    value = config.get(key)
    return DEFAULTS[key] if value is None else value


def _parse(raw: str) -> Any:
    try:
        return json.loads(raw)
    except ValueError:
        return raw
