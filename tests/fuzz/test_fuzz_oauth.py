"""Fuzz the sandbox's authorization server over real HTTP: dynamic registration, the token
endpoint (every grant, token exchange included, with valid, wrong, unreadable and missing client
credentials) and the Client ID Metadata Documents it fetches (served here, fuzzed: statuses,
types, sizes, members). Never a 5xx; the token and registration endpoints answer OAuth JSON
(an ``error`` member on every refusal, ``invalid_client`` on every 401, never HTML); the
authorization page never shows Werkzeug's page or a traceback. ``FUZZ_OAUTH_REQUESTS`` per
surface (a few hundred by default); seeded by ``FUZZ_SEED``."""
from __future__ import annotations

import itertools
import json

from hypothesis import strategies as st
from werkzeug.wrappers import Response

from tests.fuzz.operations import ANY_JSON, nested
from tests.fuzz.protocols import HEADER, LATIN1, TEXT, basic, budget, run, sent
from tests.support.mcp_oauth import REDIRECT, register
from tests.support.servers import serve

EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange"
ACCESS = "urn:ietf:params:oauth:token-type:access_token"
URIS = st.one_of(st.sampled_from([REDIRECT, "http://127.0.0.1:1/cb", "https://app.example/cb", "http://evil.example/cb",
                                  "javascript:alert(1)", "https://a.example/cb#frag", "http://[::1/cb", "", "x" * 600,
                                  "http://localhost:99999/cb"]), TEXT)


def metadata(uri_count: int = 3) -> st.SearchStrategy:
    member = {"redirect_uris": st.one_of(st.lists(URIS, max_size=uri_count), ANY_JSON),
              "token_endpoint_auth_method": st.one_of(st.sampled_from(["none", "client_secret_basic",
                                                                       "client_secret_post", "private_key_jwt"]), TEXT),
              "grant_types": st.one_of(st.lists(st.sampled_from(["authorization_code", "refresh_token", EXCHANGE,
                                                                 "client_credentials"]), max_size=3), ANY_JSON),
              "response_types": st.one_of(st.just(["code"]), ANY_JSON), "client_name": st.one_of(TEXT, ANY_JSON),
              "scope": st.one_of(TEXT, ANY_JSON)}
    return st.fixed_dictionaries({}, optional=member)


def check_oauth_json(res, expect_json: bool = True) -> str | None:
    if res.status_code >= 500:
        return f"HTTP {res.status_code}"
    if not expect_json:
        return None
    if res.headers.get("Content-Type", "").split(";")[0] != "application/json":
        return f"{res.status_code} answered as {res.headers.get('Content-Type')}"
    body = res.json()
    if res.status_code >= 400 and not isinstance(body.get("error"), str):
        return "an error without an OAuth error code"
    if res.status_code == 401 and body.get("error") != "invalid_client":
        return f"401 with {body.get('error')}"
    return None


def test_dynamic_registration_answers_fuzzed_metadata_in_oauth_json(protocol_stack):
    url = f"{protocol_stack.sandbox_url}/auth/register"
    valid = {"redirect_uris": [REDIRECT], "token_endpoint_auth_method": "none", "grant_types": ["authorization_code"],
             "response_types": ["code"], "client_name": "Fuzzed"}
    one_changed = metadata().flatmap(lambda m: st.sampled_from(sorted(m) or ["client_name"]).map(
        lambda k: {**valid, **({k: m[k]} if k in m else {})}))  # a client's request with one member fuzzed
    bodies = st.one_of(one_changed.map(json.dumps), one_changed.map(json.dumps), metadata().map(json.dumps),
                       ANY_JSON.map(json.dumps), nested(), st.binary(max_size=200), st.text(max_size=100))
    requests_ = st.tuples(st.sampled_from(["POST"] * 8 + ["GET", "PUT"]), bodies,
                          st.sampled_from(["application/json", "text/plain", "application/x-www-form-urlencoded", ""]))

    def check(request):
        method, body, kind = request
        res = sent(method, url, data=body.encode() if isinstance(body, str) else body,
                   headers={"Content-Type": kind} if kind else {})
        return (0, None) if res is None else (res.status_code, check_oauth_json(res))

    tally = run(budget("OAUTH", 300), requests_, check, "registration fuzz")
    assert not tally.failures, tally.failures[:5]
    assert {201, 400, 405} <= set(tally.statuses), tally.statuses


def test_the_token_endpoint_answers_fuzzed_grants_and_credentials_in_oauth_json(protocol_stack):
    stack = protocol_stack
    public = register(stack.sandbox_url, "Fuzzed public client")
    subjects = {"mcp": stack.real["reads"], "fhir": stack.real["fhir"], "expired": stack.sign(exp=1_000_000),
                "other-audience": stack.sign(aud="http://127.0.0.1:1/mcp"), "garbage": "x.y.z", "empty": ""}

    exchange = {"grant_type": EXCHANGE, "subject_token": subjects["mcp"], "subject_token_type": ACCESS,
                "resource": stack.fhir_url}

    @st.composite
    def build(draw):
        if draw(st.booleans()):  # the MCP server's own exchange, one parameter fuzzed or dropped
            form = dict(exchange)
            name = draw(st.sampled_from([*sorted(exchange), "scope", "none"]))
            if name in form and draw(st.booleans()):
                del form[name]
            elif name != "none":
                form[name] = draw(st.one_of(TEXT, st.sampled_from(["patient/*.rs", "patient/Patient.rs",
                                                                   stack.mcp_url, ACCESS])))
            return "POST", {"Authorization": basic(b"docgemma", b"docgemma-dev-secret")}, form
        grant = draw(st.one_of(st.sampled_from(["authorization_code", "refresh_token", EXCHANGE, EXCHANGE,
                                                "client_credentials", "password"]), TEXT))
        form = draw(st.fixed_dictionaries({"grant_type": st.just(grant)}, optional={
            "code": TEXT, "redirect_uri": URIS, "code_verifier": TEXT, "refresh_token": TEXT,
            "subject_token": st.sampled_from(sorted(subjects)).map(subjects.get),
            "subject_token_type": st.sampled_from([ACCESS, ACCESS, "urn:ietf:params:oauth:token-type:jwt", ""]),
            "requested_token_type": st.sampled_from([ACCESS, "urn:ietf:params:oauth:token-type:refresh_token"]),
            "resource": st.sampled_from([stack.fhir_url, stack.mcp_url, "http://127.0.0.1:1/fhir", ""]),
            "audience": TEXT, "scope": st.one_of(st.sampled_from(["patient/*.rs", "patient/*.rs user/*.cruds",
                                                                   "launch/patient openid"]), TEXT)}))
        auth = draw(st.sampled_from(["basic", "basic", "basic-wrong", "basic-bytes", "basic-odd", "post",
                                     "public", "none"]))
        headers = {}
        if auth == "basic":
            headers["Authorization"] = basic(b"docgemma", b"docgemma-dev-secret")
        elif auth == "basic-wrong":
            headers["Authorization"] = basic(b"docgemma", draw(TEXT).encode())
        elif auth == "basic-bytes":
            headers["Authorization"] = basic(draw(LATIN1), draw(LATIN1))
        elif auth == "basic-odd":
            headers["Authorization"] = draw(st.sampled_from(["Basic", "Basic ", "basic  ", "Basic !!", "Bearer x"])) \
                + draw(HEADER)
        elif auth == "post":
            form.update(client_id="docgemma", client_secret=draw(st.sampled_from(["docgemma-dev-secret", "wrong"])))
        elif auth == "public":
            form["client_id"] = public
        encoded = draw(st.sampled_from(["form", "form", "json", "bytes"]))
        body = {"form": form, "json": json.dumps(form), "bytes": draw(st.binary(max_size=100))}[encoded]
        return draw(st.sampled_from(["POST"] * 10 + ["GET"])), headers, body

    def check(request):
        method, headers, body = request
        res = sent(method, f"{stack.sandbox_url}/auth/token", headers=headers, data=body)
        return (0, None) if res is None else (res.status_code, check_oauth_json(res))

    tally = run(budget("OAUTH", 300), build(), check, "token fuzz")
    assert not tally.failures, tally.failures[:5]
    assert {200, 400, 401} <= set(tally.statuses), tally.statuses  # exchanges succeeded, others refused


class Documents:
    """Client ID Metadata Documents served on a real port: each path answers what the fuzzer put there."""

    def __init__(self):
        self.answers: dict[str, tuple[int, str, bytes]] = {}
        self.paths = itertools.count()

    def __call__(self, environ, start_response):
        status, kind, body = self.answers.get(environ["PATH_INFO"], (404, "text/plain", b"no"))
        headers = {"Location": "http://127.0.0.1:1/elsewhere.json"} if 300 <= status < 400 else {}
        return Response(body, status=status, content_type=kind, headers=headers)(environ, start_response)


def test_fuzzed_client_metadata_documents_never_break_authorization_or_token(protocol_stack):
    stack, documents = protocol_stack, Documents()

    with serve(documents) as server:
        @st.composite
        def build(draw):
            path = f"/client-{next(documents.paths)}.json"
            url = server.url + path
            doc = draw(metadata(2))
            if draw(st.integers(0, 3)):  # most documents name themselves, as they must
                doc["client_id"] = url
            if draw(st.booleans()):
                doc["redirect_uris"] = [REDIRECT]
            shape = draw(st.sampled_from(["doc", "doc", "doc", "json", "text", "huge", "deep"]))
            body = {"doc": json.dumps(doc), "json": json.dumps(draw(ANY_JSON)), "text": draw(st.text(max_size=100)),
                    "huge": json.dumps({**doc, "client_name": "x" * 30_000}), "deep": draw(nested())}[shape]
            status = draw(st.sampled_from([200, 200, 200, 200, 404, 302, 500]))
            kind = draw(st.sampled_from(["application/json", "application/json", "text/html", "text/plain"]))
            documents.answers[path] = (status, kind, body.encode())
            return url, draw(st.sampled_from(["authorize", "authorize", "token"])), draw(TEXT)

        def check(request):
            url, endpoint, code = request
            if endpoint == "token":
                res = sent("POST", f"{stack.sandbox_url}/auth/token", data={
                    "grant_type": "authorization_code", "client_id": url, "code": code, "redirect_uri": REDIRECT,
                    "code_verifier": "v" * 43})
                return (0, None) if res is None else (res.status_code, check_oauth_json(res))
            res = sent("GET", f"{stack.sandbox_url}/auth/authorize", params={
                "response_type": "code", "client_id": url, "redirect_uri": REDIRECT, "state": "s",
                "scope": "launch/patient openid patient/*.rs", "resource": stack.mcp_url,
                "code_challenge": "c" * 43, "code_challenge_method": "S256"})
            if res is None:
                return 0, None
            shown = res.text
            problem = check_oauth_json(res, expect_json=False) or (
                "Werkzeug's page or a traceback" if "Traceback" in shown or "Werkzeug" in shown else None)
            return res.status_code, problem

        tally = run(budget("OAUTH", 300), build(), check, "metadata document fuzz")
    assert not tally.failures, tally.failures[:5]
    assert {200, 302, 400, 401} & set(tally.statuses) >= {200, 400}, tally.statuses  # picker shown, refusals
