"""Fuzz the app's surfaces added after the first fuzz round, over real HTTP: the MCP endpoint
(JSON-RPC with odd bodies, batches, content types, methods, headers and tokens: real ones from
the sandbox, forged, expired, for another audience, of a user at their limit) and the operator's
``/admin/audit`` (odd queries and credentials). Every answer below 500, MCP's refusals in their
documented shape (401 with its challenge, 405 with ``Allow``, 429 with ``Retry-After``), nothing
logged at ERROR. A few hundred requests per surface by default (``FUZZ_MCP_REQUESTS``,
``FUZZ_AUDIT_REQUESTS`` for more); seeded by ``FUZZ_SEED``."""
from __future__ import annotations

import json

import requests
from hypothesis import strategies as st

from tests.fuzz.operations import ANY_JSON, from_schema, mistyped, nested
from tests.fuzz.protocols import HEADER, LATIN1, LIMITED_CLIENT, LIMITED_USER, OPERATOR, TEXT, basic, budget, run, sent

METHODS = ["initialize", "notifications/initialized", "tools/list", "tools/call", "tools/call", "tools/call",
           "ping", "resources/list", "prompts/list", "completion/complete", "logging/setLevel",
           "notifications/cancelled", "sampling/createMessage", "tasks/list"]
INITIALIZE = st.fixed_dictionaries({"protocolVersion": st.sampled_from(["2025-06-18", "2025-11-25", "1999-01-01", ""]),
                                    "capabilities": st.one_of(st.just({}), ANY_JSON),
                                    "clientInfo": st.one_of(st.just({"name": "fuzz", "version": "1"}), ANY_JSON)})


def tool_calls(tools: list[dict]) -> st.SearchStrategy:
    def arguments(tool):
        schema = tool["inputSchema"]
        return st.one_of(from_schema(schema, schema), from_schema(schema, schema), mistyped(schema, schema), ANY_JSON)
    named = st.sampled_from(tools).flatmap(lambda t: st.fixed_dictionaries({"name": st.just(t["name"]),
                                                                           "arguments": arguments(t)}))
    return st.one_of(named, named, named, st.fixed_dictionaries({"name": TEXT, "arguments": ANY_JSON}))


def messages(tools: list[dict]) -> st.SearchStrategy:
    params = st.one_of(tool_calls(tools), INITIALIZE, st.just({}), ANY_JSON)
    member = {"jsonrpc": st.sampled_from(["2.0", "2.0", "2.0", "1.0", 2]),
              "id": st.one_of(st.integers(-2**70, 2**70), TEXT, st.none(), st.booleans(), st.floats(), ANY_JSON),
              "method": st.one_of(st.sampled_from(METHODS), TEXT, ANY_JSON), "params": params}
    return st.fixed_dictionaries({"method": member["method"]}, optional={k: v for k, v in member.items()
                                                                           if k != "method"})


def well_formed(tools: list[dict]) -> st.SearchStrategy:
    """One JSON-RPC request as a client sends it, its parameters fuzzed (the tools' own schemas)."""
    params = {"tools/call": tool_calls(tools), "initialize": INITIALIZE}
    def message(method: str) -> st.SearchStrategy:
        fields = {"jsonrpc": st.just("2.0"), "method": st.just(method), "params": params.get(method, st.just({}))}
        if not method.startswith("notifications/"):  # a notification has no id and gets no answer
            fields["id"] = st.integers(0, 10**6)
        return st.fixed_dictionaries(fields)
    return st.sampled_from(METHODS).flatmap(message).map(json.dumps)


def bodies(tools: list[dict]) -> st.SearchStrategy:
    one = messages(tools).map(json.dumps)
    batch = st.lists(messages(tools), min_size=0, max_size=5).map(json.dumps)
    return st.one_of(one, one, one, one, batch, ANY_JSON.map(json.dumps), nested(), st.binary(max_size=300),
                     st.text(max_size=200), st.just(""), st.just("[]"), st.just("null"))


def mcp_requests(stack, tools: list[dict]) -> st.SearchStrategy:
    signed = {"signed": lambda: stack.sign(), "expired": lambda: stack.sign(exp=1_000_000),
              "other-audience": lambda: stack.sign(aud=stack.fhir_url),
              "other-issuer": lambda: stack.sign(iss="http://127.0.0.1:1/fhir"),
              "limited": lambda: stack.sign(sub=LIMITED_USER, client_id=LIMITED_CLIENT),
              "other-patient": lambda: stack.sign(patient="pt-ckd-elder")}

    @st.composite
    def build(draw):
        if draw(st.booleans()):  # a client's request, with the tool arguments fuzzed
            token = stack.real["writes"] if draw(st.integers(0, 9)) == 0 else stack.sign(
                scope="launch/patient openid fhirUser patient/*.rs patient/MedicationRequest.c")
            return "POST", {"Accept": "application/json, text/event-stream", "Content-Type": "application/json",
                            "MCP-Protocol-Version": "2025-06-18", "Authorization": f"Bearer {token}"}, \
                draw(well_formed(tools))
        kind = draw(st.sampled_from(["reads", "writes", "fhir", *signed, "garbage", "none", "basic"]))
        headers = {"Accept": draw(st.sampled_from(["application/json, text/event-stream", "application/json",
                                                   "text/event-stream", "*/*", "text/html", ""])),
                   "Content-Type": draw(st.sampled_from(["application/json", "application/json; charset=utf-8",
                                                         "text/plain", "application/x-www-form-urlencoded",
                                                         "multipart/form-data", ""]))}
        if kind in stack.real:
            headers["Authorization"] = f"Bearer {stack.real[kind]}"
        elif kind in signed:
            headers["Authorization"] = f"Bearer {signed[kind]()}"
        elif kind == "garbage":
            headers["Authorization"] = draw(st.sampled_from(["Bearer ", "Bearer", "bearer x.y.z"])) + draw(HEADER)
        elif kind == "basic":
            headers["Authorization"] = basic(draw(LATIN1), draw(LATIN1))
        for name in draw(st.lists(st.sampled_from(["MCP-Protocol-Version", "Mcp-Session-Id", "Last-Event-ID",
                                                   "Origin", "Host"]), max_size=2, unique=True)):
            headers[name] = draw(st.one_of(HEADER, st.sampled_from(["2025-06-18", "2025-11-25", stack.app_url])))
        method = draw(st.sampled_from(["POST"] * 12 + ["GET", "PUT", "DELETE", "HEAD", "OPTIONS", "PATCH"]))
        return method, {k: v for k, v in headers.items() if v != ""}, draw(bodies(tools))
    return build()


def check_mcp(stack):
    def check(request):
        method, headers, body = request
        res = sent(method, stack.mcp_url, headers=headers, data=body.encode() if isinstance(body, str) else body)
        if res is None:
            return 0, None
        problem = None
        if res.status_code >= 500:
            problem = f"HTTP {res.status_code}"
        elif res.status_code == 401 and "resource_metadata=" not in res.headers.get("WWW-Authenticate", ""):
            problem = "401 without the resource metadata challenge"
        elif res.status_code == 405 and res.headers.get("Allow") != "POST":
            problem = "405 without Allow: POST"
        elif res.status_code == 429 and not (res.headers.get("Retry-After", "").isdigit()
                                             and "error" in res.json()):
            problem = "429 without Retry-After and a JSON-RPC error"
        return res.status_code, problem
    return check


def test_the_mcp_endpoint_answers_fuzzed_json_rpc_without_5xx(protocol_stack):
    stack = protocol_stack
    listed = requests.post(stack.mcp_url, timeout=60, json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
                           headers={"Authorization": f"Bearer {stack.real['writes']}",
                                    "Accept": "application/json, text/event-stream"}).json()["result"]["tools"]
    tally = run(budget("MCP", 400), mcp_requests(stack, listed), check_mcp(stack), "mcp fuzz")
    assert not tally.failures, tally.failures[:5]
    assert {200, 202, 401, 405, 429} <= set(tally.statuses), tally.statuses  # every path was reached


def audit_requests() -> st.SearchStrategy:
    dates = st.one_of(st.dates().map(str), st.sampled_from(["2026-11-01", "2026-13-45", "yesterday", "", "0",
                                                            "2026-11-01T00:00:00Z", "9999-12-31"]), TEXT)
    query = st.fixed_dictionaries({}, optional={
        "patient": st.one_of(st.sampled_from(["pt-warfarin", "Patient/pt-warfarin", "x" * 300]), TEXT),
        "since": dates, "until": dates,
        "kind": st.lists(st.one_of(st.sampled_from(["read", "search-type", "answer-shown"]), TEXT), max_size=3),
        "format": TEXT, "page": TEXT})

    @st.composite
    def build(draw):
        kind = draw(st.sampled_from(["basic", "bearer", "basic-wrong", "bearer-wrong", "basic-bytes", "garbage",
                                     "none"]))
        auth = {"basic": basic(b"operator", OPERATOR.encode()), "bearer": f"Bearer {OPERATOR}",
                "basic-wrong": basic(b"operator", b"guess"), "bearer-wrong": "Bearer " + draw(TEXT),
                "basic-bytes": basic(draw(LATIN1), draw(LATIN1)), "garbage": draw(HEADER), "none": ""}[kind]
        headers = {"Accept": draw(st.sampled_from(["text/html", "application/json", "*/*", "text/csv"]))}
        if auth:
            headers["Authorization"] = auth
        method = draw(st.sampled_from(["GET"] * 8 + ["POST", "HEAD", "DELETE"]))
        return method, draw(query), headers
    return build()


def test_the_operator_audit_page_answers_fuzzed_queries_and_credentials_without_5xx(protocol_stack):
    stack = protocol_stack

    def check(request):
        method, params, headers = request
        res = sent(method, f"{stack.app_url}/admin/audit", params=params, headers=headers)
        if res is None:
            return 0, None
        right = headers.get("Authorization") in (f"Bearer {OPERATOR}", basic(b"operator", OPERATOR.encode()))
        if res.status_code >= 500:
            return res.status_code, f"HTTP {res.status_code}"
        if not right and method == "GET" and res.status_code not in (401, 403):
            return res.status_code, "a request without the operator credential was not refused"
        return res.status_code, None

    tally = run(budget("AUDIT", 300), audit_requests(), check, "audit fuzz")
    assert not tally.failures, tally.failures[:5]
    assert {200, 400, 401, 403} <= set(tally.statuses), tally.statuses
