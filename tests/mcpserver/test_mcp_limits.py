"""Per-client limits on MCP calls, on SQLite and PostgreSQL: one client calling a tool 300 times
as fast as it can meets its limit (429 with Retry-After and a JSON-RPC error), the count is the
database's (two app instances on one database share it), another client is unaffected, and
nothing answers 5xx. Real sandbox tokens (dynamic registration, PKCE, resource indicator), real
HAPI behind the token exchange, the apps on real ports, the ``mcp`` SDK's client reading the error.
"""

from __future__ import annotations

import re
import time
from concurrent.futures import ThreadPoolExecutor

import httpx2
import pytest
import requests
from mcp import Client, MCPError
from mcp.client.streamable_http import streamable_http_client
from smart_docgemma import create_app
from smart_docgemma.extensions import get_storage
from smart_docgemma.mcpserver import quota as quota_module
from smart_docgemma.mcpserver.quota import Quota

from tests.support.mcp_oauth import authorize_token, register, run_async
from tests.support.postgres import BOTH_DATABASES
from tests.support.servers import free_port, serve

pytestmark = BOTH_DATABASES
READS = "launch/patient openid fhirUser patient/*.rs"
PER_CLIENT, PER_SUBJECT = 120, 300  # the documented defaults (config.py)
WINDOW_LEFT = 55  # the burst must fit in one minute for the count to be exact


@pytest.fixture(scope="module")
def sandbox_for_mcp(fhir_base):
    """The sandbox, told that two MCP URLs (two app instances) are served by ``docgemma``."""
    from launch.sandbox import create_sandbox

    ports = free_port(), free_port()
    port = free_port()
    urls = [f"http://127.0.0.1:{p}/mcp" for p in ports]
    sandbox = create_sandbox({"FHIR_UPSTREAM": fhir_base, "PORT": port,
                              "PUBLIC_URL": f"http://127.0.0.1:{port}",
                              "PROTECTED_RESOURCES": {url: "docgemma" for url in urls}})
    with serve(sandbox, port) as server:
        yield server.url, ports


@pytest.fixture
def instances(sandbox_for_mcp, database, sources, tmp_path):
    """Two app instances (as two gunicorn workers or hosts would be) on one database."""
    sandbox_url, ports = sandbox_for_mcp
    apps = [create_app({"SECRET_KEY": "limits-secret", "DATABASE_URL": database, "ENDPOINT": None,
                        "CACHE_PATH": str(tmp_path / f"cache{i}"), "ISS_ALLOWLIST": [f"{sandbox_url}/fhir"],
                        "MCP_URL": f"http://127.0.0.1:{port}/mcp", **sources})
            for i, port in enumerate(ports)]
    with serve(apps[0], ports[0]), serve(apps[1], ports[1]):
        yield sandbox_url, [f"http://127.0.0.1:{port}/mcp" for port in ports], apps


def call(url: str, token: str, request_id: int, tool: str = "identify_drug", arguments=None) -> requests.Response:
    body = {"jsonrpc": "2.0", "id": request_id, "method": "tools/call",
            "params": {"name": tool, "arguments": arguments or {"drug_name": "warfarin 5 mg"}}}
    return requests.post(url, json=body, timeout=120, headers={
        "Authorization": f"Bearer {token}", "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": "2025-06-18"})


def tokens_for(sandbox_url: str, urls: list[str], name: str) -> list[str]:
    """One registered client's tokens, one per app instance (same user, same client id)."""
    client = register(sandbox_url, name)
    return [authorize_token(sandbox_url, client, READS, url, "pt-warfarin")["access_token"] for url in urls]


def test_300_rapid_calls_from_one_client_meet_its_limit_and_another_client_is_unaffected(instances):
    sandbox_url, urls, apps = instances
    looping, other = tokens_for(sandbox_url, urls, "Looping agent"), tokens_for(sandbox_url, urls, "Desktop client")
    assert call(urls[0], looping[0], 0, "get_patient_chart", {"patient_id": "pt-warfarin"}).status_code == 200

    def one(i: int) -> requests.Response:  # alternately to either instance, as a load balancer would
        return call(urls[i % 2], looping[i % 2], i)

    started = time.monotonic()
    with ThreadPoolExecutor(4) as pool:  # as many at once as a client may run per instance: only the rate counts
        answers = list(pool.map(one, range(1, 300)))
    elapsed = time.monotonic() - started
    statuses = [a.status_code for a in answers]
    assert set(statuses) <= {200, 429}, sorted(set(statuses))
    assert statuses.count(200) == PER_CLIENT - 1 and elapsed < WINDOW_LEFT, (statuses.count(200), elapsed)
    for i, refused in enumerate(answers, start=1):
        if refused.status_code != 429:
            continue
        wait = int(refused.headers["Retry-After"])
        error = refused.json()
        assert refused.headers["Content-Type"] == "application/json" and error["id"] == i
        assert error["error"]["data"] == {"retry_after": wait, "limit": PER_CLIENT, "reason": "client_rate"}
        assert 1 <= wait <= 61 and "Too many MCP calls" in error["error"]["message"]
    mine = [call(urls[i % 2], other[i % 2], 1000 + i) for i in range(10)]
    assert [a.status_code for a in mine] == [200] * 10
    assert all(a.json()["result"]["structuredContent"]["status"] == "ok" for a in mine)
    metrics = requests.get(urls[0].removesuffix("/mcp") + "/metrics", timeout=30).text
    refused = re.search(r'docgemma_mcp_refused_total\{reason="client_rate"\} (\S+)', metrics)
    assert refused and float(refused.group(1)) >= 300 - PER_CLIENT


def test_a_client_running_more_calls_at_once_than_its_share_gets_429_not_a_held_thread(instances):
    sandbox_url, urls, _ = instances
    token = tokens_for(sandbox_url, urls[:1], "Parallel agent")[0]
    with ThreadPoolExecutor(16) as pool:
        answers = list(pool.map(lambda i: call(urls[0], token, i, "get_patient_chart",
                                               {"patient_id": "pt-warfarin"}), range(16)))
    statuses = [a.status_code for a in answers]
    busy = [a for a in answers if a.status_code == 429]
    assert set(statuses) <= {200, 429} and statuses.count(200) >= 4 and busy, statuses
    assert all(a.headers["Retry-After"] == "1" and a.json()["error"]["data"]["reason"] == "client_busy"
               for a in busy)


def test_the_sdk_client_reads_the_refusal_as_a_jsonrpc_error(instances):
    sandbox_url, urls, apps = instances
    client = register(sandbox_url, "SDK agent")
    token = authorize_token(sandbox_url, client, READS, urls[0], "pt-warfarin")["access_token"]
    apps[0].config["MCP_CALLS_PER_MIN"] = 3  # a small limit (read at start-up: set before the first call)
    errors = []

    async def work():
        headers = {"Authorization": f"Bearer {token}"}
        async with httpx2.AsyncClient(headers=headers, timeout=60) as http, \
                Client(streamable_http_client(urls[0], http_client=http)) as session:
            for _ in range(4):
                try:
                    await session.call_tool("identify_drug", {"drug_name": "aspirin"})
                except MCPError as exc:
                    errors.append(exc)

    run_async(work)
    assert errors and "Too many MCP calls" in str(errors[0]) and "Retry in" in str(errors[0])


def test_one_user_through_many_clients_meets_the_users_own_ceiling(instances, monkeypatch):
    """A client id costs nothing to register: the user's ceiling holds across clients; the
    window slides (a call leaves it 60 s later), and refused calls do not count."""
    _, _, apps = instances
    quota = Quota(get_storage(apps[0]), per_client=3, per_subject=5)
    clock = [1_000_000.0]
    monkeypatch.setattr(quota_module, "now", lambda: clock[0])
    taken = [quota.take("dr-a", f"client-{i % 3}") for i in range(5)]
    assert taken == [None] * 5
    refused = quota.take("dr-a", "client-new")
    assert refused.reason == "subject_rate" and refused.limit == 5 and 59 <= refused.retry_after <= 61
    assert quota.take("dr-b", "client-0") is None  # another user: their own count
    clock[0] += 30
    assert quota.take("dr-a", "client-0").reason == "subject_rate"
    clock[0] += 31  # the first five calls have left the window
    assert [quota.take("dr-a", "client-0") for _ in range(3)] == [None] * 3
    over = quota.take("dr-a", "client-0")
    assert over.reason == "client_rate" and over.limit == 3


def test_a_tool_call_that_outlives_its_deadline_is_answered_and_frees_the_request(instances):
    """openFDA behind a server that accepts connections and never answers (its read timeout is
    30 s here): the call is answered after MCP_CALL_TIMEOUT_S as a timeout, never held."""
    import socket

    sandbox_url, urls, apps = instances
    hole = socket.socket()
    hole.bind(("127.0.0.1", 0))
    hole.listen(16)  # connections complete in the backlog; nothing is ever read or answered
    apps[0].config.update(OPENFDA_URL=f"http://127.0.0.1:{hole.getsockname()[1]}", KNOWLEDGE_READ_TIMEOUT_S=30,
                          MCP_CALL_TIMEOUT_S=2)
    token = tokens_for(sandbox_url, urls[:1], "Patient agent")[0]
    try:
        started = time.monotonic()
        res = call(urls[0], token, 7, "check_drug_safety", {"drug_name": "lisinopril"})
        took = time.monotonic() - started
    finally:
        hole.close()
    result = res.json()["result"]
    assert res.status_code == 200 and 2 <= took < 10, took
    assert result["isError"] and result["structuredContent"]["error_kind"] == "timeout"
    assert "did not finish within 2 s" in result["structuredContent"]["text"]


def test_calls_beyond_the_workers_share_get_503_and_refusals_do_not_count(instances):
    sandbox_url, urls, apps = instances
    apps[0].config["MCP_WORKER_CONCURRENCY"] = 2  # read when the MCP layer starts: before the first call
    tokens = [tokens_for(sandbox_url, urls[:1], f"Agent {i}")[0] for i in range(6)]
    with ThreadPoolExecutor(6) as pool:
        answers = list(pool.map(lambda i: call(urls[0], tokens[i], i, "get_patient_chart",
                                               {"patient_id": "pt-warfarin"}), range(6)))
    statuses = [a.status_code for a in answers]
    full = [a for a in answers if a.status_code == 503]
    assert set(statuses) <= {200, 503} and 2 <= statuses.count(200) and full, statuses
    assert all(a.headers["Retry-After"] == "1" and a.json()["error"]["data"]["reason"] == "worker_busy"
               for a in full)
    assert call(urls[0], tokens[0], 9).status_code == 200  # the slots were given back
