"""The stack the protocol fuzzers share: the EHR sandbox (its OAuth server knows the app's MCP URL
as a protected resource) and the app (MCP endpoint, operator page) on real ports, real HAPI
behind them, the recorded knowledge sources; tokens from a real authorization (dynamic
registration, PKCE, resource indicator) and tokens signed with the sandbox's own key for the
claims a real flow would not issue (expired, other audience, a user already at their limit)."""
from __future__ import annotations

import itertools
import logging
import os
import threading
import time
from dataclasses import dataclass, field

import requests
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

from tests.fuzz.test_fuzz_app import ErrorLog
from tests.support.mcp_oauth import authorize_token, register
from tests.support.servers import free_port, serve

SEED = int(os.environ.get("FUZZ_SEED", "13013"))
OPERATOR = "operator-fuzz-credential"
LIMITED_USER, LIMITED_CLIENT, PER_CLIENT = "dr-at-limit", "looping-agent", 40
CLIENTS = itertools.count()  # a signed token's client id: a new one each time (Hypothesis seeds ``random``)


def budget(name: str, default: int) -> int:
    """Requests for one surface: a few hundred by default (CI), more with ``FUZZ_<NAME>_REQUESTS``."""
    return int(os.environ.get(f"FUZZ_{name}_REQUESTS", default))


@dataclass
class ProtocolStack:
    sandbox_url: str
    app_url: str
    mcp_url: str
    sandbox_app: object
    app: object
    real: dict = field(default_factory=dict)  # kind -> token from a real authorization

    @property
    def fhir_url(self) -> str:
        return f"{self.sandbox_url}/fhir"

    def sign(self, **claims) -> str:
        now = int(time.time())
        base = {"iss": self.fhir_url, "aud": self.mcp_url, "sub": "dr-okafor", "iat": now, "exp": now + 3600,
                "client_id": f"fuzz-{next(CLIENTS)}", "scope": "launch/patient openid fhirUser patient/*.rs",
                "patient": "pt-warfarin", "fhirUser": f"{self.fhir_url}/Practitioner/dr-okafor"}
        return self.sandbox_app.extensions["sandbox"].key.sign({**base, **claims})


def start(fhir_base: str, sources: dict, folder) -> tuple[ProtocolStack, list]:
    """The stack, served; returns it and the context managers to close."""
    from launch.sandbox import create_sandbox
    from smart_docgemma import create_app
    from smart_docgemma.extensions import get_storage
    from smart_docgemma.mcpserver.quota import Quota

    app_port, sandbox_port = free_port(), free_port()
    app_url, sandbox_url = f"http://127.0.0.1:{app_port}", f"http://127.0.0.1:{sandbox_port}"
    sandbox_app = create_sandbox({"FHIR_UPSTREAM": fhir_base, "PORT": sandbox_port, "PUBLIC_URL": sandbox_url,
                                  "PROTECTED_RESOURCES": {f"{app_url}/mcp": "docgemma"}})
    app = create_app({"SECRET_KEY": "fuzz-protocols", "DATABASE_URL": f"sqlite:///{folder / 'app.sqlite'}",
                      "CACHE_PATH": str(folder / "cache"), "ENDPOINT": None, "HTTP_TIMEOUT_S": 10,
                      "ISS_ALLOWLIST": [f"{sandbox_url}/fhir"], "MCP_URL": f"{app_url}/mcp",
                      "OPERATOR_TOKEN": OPERATOR, "MCP_CALLS_PER_MIN": PER_CLIENT,
                      "MCP_SUBJECT_CALLS_PER_MIN": 100_000, **sources})
    servers = [serve(sandbox_app, sandbox_port), serve(app, app_port)]
    for server in servers:
        server.__enter__()
    stack = ProtocolStack(sandbox_url, app_url, f"{app_url}/mcp", sandbox_app, app)
    reads, writes = "launch/patient openid fhirUser patient/*.rs", " patient/MedicationRequest.c"
    client = register(sandbox_url, "Fuzzing client")
    stack.real["reads"] = authorize_token(sandbox_url, client, reads, stack.mcp_url, "pt-warfarin")["access_token"]
    stack.real["writes"] = authorize_token(sandbox_url, client, reads + writes, stack.mcp_url,
                                           "pt-warfarin")["access_token"]
    stack.real["fhir"] = authorize_token(sandbox_url, client, reads, stack.fhir_url, "pt-warfarin")["access_token"]
    quota = Quota(get_storage(app), PER_CLIENT, 100_000)
    while quota.take(LIMITED_USER, LIMITED_CLIENT) is None:  # this user's client is at its limit
        pass
    return stack, servers


@dataclass
class Tally:
    """What a fuzz run saw: statuses, and every failure of the checks (with the request)."""

    statuses: dict = field(default_factory=dict)
    failures: list = field(default_factory=list)

    def saw(self, status: int) -> None:
        self.statuses[status] = self.statuses.get(status, 0) + 1


def run(requests_n: int, strategy, check, label: str) -> Tally:
    """Draw ``requests_n`` requests (seeded, no shrinking), send each with ``check(request) ->
    (status, problem | None)``; nothing may be logged at ERROR or escape a thread meanwhile."""
    tally, errors, escaped = Tally(), ErrorLog(), []
    logging.getLogger().addHandler(errors)
    previous, threading.excepthook = threading.excepthook, lambda args: escaped.append(args)

    @settings(max_examples=requests_n, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @seed(SEED)
    @given(strategy)
    def one(request):
        status, problem = check(request)
        tally.saw(status)
        if problem:
            tally.failures.append(f"{problem}: {request!r:.3000} (FUZZ_SEED={SEED})")

    started = time.perf_counter()
    try:
        one()
    finally:
        logging.getLogger().removeHandler(errors)
        threading.excepthook = previous
    print(f"\n{label}: {sum(tally.statuses.values())} requests in {time.perf_counter() - started:.1f} s "
          f"(seed {SEED}); statuses {dict(sorted(tally.statuses.items()))}")
    tally.failures += [f"logged at ERROR: {r.name}: {r.getMessage()[:300]}" for r in errors.records]
    tally.failures += [f"escaped a thread: {e.exc_value!r}" for e in escaped]
    return tally


TEXT = st.text(max_size=40)
HEADER = st.text(st.characters(min_codepoint=32, max_codepoint=255, blacklist_characters="\x7f\x85\xa0"), max_size=60)
LATIN1 = st.binary(min_size=1, max_size=24)


def basic(user: bytes, secret: bytes) -> str:
    import base64

    return "Basic " + base64.b64encode(user + b":" + secret).decode()


def sent(method: str, url: str, **kw) -> requests.Response | None:
    """Send, or None when requests itself refuses to build the request (nothing reached the server)."""
    try:
        return requests.request(method, url, timeout=60, allow_redirects=False, **kw)
    except (ValueError, requests.exceptions.InvalidHeader, requests.exceptions.InvalidURL):
        return None
