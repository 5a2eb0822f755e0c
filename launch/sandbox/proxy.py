"""The sandbox FHIR endpoint ``{sandbox}/fhir/*``: bearer-token check, SMART access
policy (``policy.py``), then a pass-through to HAPI.

- No, invalid or expired token -> 401 with ``WWW-Authenticate: Bearer`` (RFC 6750 §3)
  and an OperationOutcome; a request the grant does not allow -> 403 OperationOutcome.
- Method, query string, body and the FHIR-relevant headers are forwarded; the
  upstream base is rewritten to the sandbox FHIR base in bodies and in
  ``Location``/``Content-Location`` (and the reverse in request bodies), so
  ``fullUrl`` and paging links point at the proxy. Non-JSON/XML bodies stream.
- The path is classified by the FHIR grammar in ``paths.py`` from the raw
  request URI (percent-encoding and dot segments -> 400 OperationOutcome) and the
  upstream path is rebuilt from its parts: the raw or decoded path is never
  forwarded. JSON request bodies are forwarded as the policy parsed (and, for
  transactions and ``If-None-Exist``, rewrote) them.
- Unless the token has user-level read+search on all types, every response is
  screened (``visibility.py``): resources outside what the grant may see are
  dropped from Bundles, and a single one is replaced by a 403; a non-JSON
  success body, which cannot be screened, is refused (502).
- Paging: HAPI's ``_getpages`` continuation ids are recorded with the patient
  compartment of the search that produced them; a page fetch must come from a
  token with the same patient (or user-level scopes) and carry only paging
  parameters.
"""
from __future__ import annotations

import json
import time
from urllib.parse import parse_qs, urlencode, urlsplit

import requests
from flask import Blueprint, Response, request

from .authserver import normalise_base, state
from .keys import InvalidJWT
from .paths import Malformed
from .policy import LETTER, FhirRequest, Forbidden, Grant, authorize, classify
from .visibility import screen

bp = Blueprint("sandbox_fhir", __name__)
# Cache-Control: the app's one-page searches say no-store, so HAPI does not keep their result set
FORWARD_HEADERS = ("Accept", "Cache-Control", "Content-Type", "If-Match", "If-None-Match",
                   "If-Modified-Since", "Prefer", "X-Request-Id")
PAGE_PARAMS = {"_getpages", "_getpagesoffset", "_count", "_pretty", "_bundletype", "_format"}
DROP_RESPONSE_HEADERS = {"connection", "keep-alive", "transfer-encoding", "content-length",
                         "content-encoding", "server", "x-powered-by"}
FHIR_JSON = "application/fhir+json;charset=utf-8"


class Unauthorized(Exception):
    """Missing, malformed, foreign or expired bearer token (401)."""


def outcome(status: int, code: str, message: str, headers: dict | None = None) -> Response:
    body = {"resourceType": "OperationOutcome",
            "issue": [{"severity": "error", "code": code, "diagnostics": message}]}
    return Response(json.dumps(body), status=status, content_type=FHIR_JSON, headers=headers or {})


def token_grant() -> tuple[Grant, dict]:
    """Verify the bearer access token (signature, iss, aud, exp) into a Grant."""
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized("An access token is required (Authorization: Bearer).")
    try:
        claims = state().key.verify(token.strip())
    except InvalidJWT as exc:
        raise Unauthorized("The access token is not valid.") from exc
    base = normalise_base(state().fhir_base)
    if normalise_base(claims.get("aud")) != base or normalise_base(claims.get("iss")) != base:
        raise Unauthorized("The access token was not issued for this FHIR server.")
    if int(claims.get("exp", 0)) <= time.time():
        raise Unauthorized("The access token has expired.")
    return Grant.from_claims(claims.get("scope", ""), claims.get("patient")), claims


@bp.route("/fhir", methods=["GET", "POST"], strict_slashes=False)
@bp.route("/fhir/<path:path>", methods=["GET", "POST", "PUT", "PATCH", "DELETE"])
def fhir(path: str = ""):
    """``path`` is Flask's percent-decoded copy; the grammar reads the raw one (``_raw_path``)."""
    try:
        grant, _claims = token_grant()
    except Unauthorized as exc:
        challenge = f'Bearer realm="{state().fhir_base}", error="invalid_token"'
        return outcome(401, "login", str(exc), {"WWW-Authenticate": challenge})
    params = list(request.args.items(multi=True))
    try:
        raw = _raw_path()
        if request.method == "POST" and raw.rstrip("/").endswith("/_search"):
            params += list(request.form.items(multi=True))
        if (
            not raw.strip("/")
            and request.method == "GET"
            and any(k == "_getpages" for k, _ in params)
        ):
            return _forward(FhirRequest("page"), params, grant, _check_page(params, grant))
        req = classify(
            request.method, raw, params, _request_json(), request.headers.get("If-None-Exist")
        )
        extra = authorize(req, grant, state().upstream.fetch)
    except Malformed as exc:
        return outcome(400, "invalid", str(exc))
    except Forbidden as exc:
        return outcome(403, "forbidden", str(exc))
    return _forward(req, req.params + extra, grant, _compartment(req, grant))


def _raw_path() -> str:
    """The path under ``/fhir`` exactly as the client sent it (not percent-decoded)."""
    raw = request.environ.get("RAW_URI") or request.environ.get("REQUEST_URI") or request.path
    path = urlsplit(raw).path
    prefix = f"{request.script_root}/fhir"
    if path != prefix and not path.startswith(prefix + "/"):
        raise Malformed("The request path is not under the FHIR base.")
    return path[len(prefix):]


def _compartment(req: FhirRequest, grant: Grant) -> str | None:
    """The patient compartment the request is confined to (None: user-level)."""
    letter = LETTER.get(req.interaction)
    user_level = bool(
        letter and req.type and grant.levels(req.type, letter, req.params) & {"user", "system"}
    )
    return None if user_level or grant.all_access() else grant.patient


def _check_page(params: list, grant: Grant) -> str | None:
    """A continuation page is served only in the compartment its search was confined to."""
    keys = [k for k, _ in params]
    if len(set(keys)) != len(keys) or any(
        k not in PAGE_PARAMS or (k == "_format" and "json" not in v) for k, v in params
    ):
        raise Forbidden(
            "A page request carries only the parameters of "
            "the server's paging links, once each (JSON)."
        )
    owner = state().pages.get(dict(params)["_getpages"])
    if owner is None:
        raise Forbidden("Unknown or expired page; repeat the search.")
    if owner["patient"] is None:
        if not any(s.level in ("user", "system") for s in grant.scopes):
            raise Forbidden("This page belongs to a user-level search.")
    elif owner["patient"] != grant.patient:
        raise Forbidden("This page belongs to a search in another patient's context.")
    return owner["patient"]


def _request_json():
    """The request body as JSON (upstream-rewritten), or None when it is not JSON."""
    if not request.content_length:
        return None
    try:
        return json.loads(_to_upstream(request.get_data()))
    except ValueError:
        return None


def _forward(req: FhirRequest, params: list, grant: Grant, compartment: str | None) -> Response:
    sandbox = state()
    headers = {h: request.headers[h] for h in FORWARD_HEADERS if h in request.headers}
    headers["Accept-Encoding"] = "identity"
    if req.if_none_exist is not None:
        headers["If-None-Exist"] = urlencode(req.if_none_exist)
    if not grant.all_access():
        headers["Accept"] = FHIR_JSON  # only JSON can be screened
    data = _body(req) if request.method in ("POST", "PUT", "PATCH") else None
    if req.route.shape == "type-search":
        data = None  # form params were folded into ``params`` (already authorized)
        headers.pop("Content-Type", None)
    url = f"{sandbox.config['FHIR_UPSTREAM']}/{req.route.upstream()}".rstrip("/")
    try:
        upstream = sandbox.upstream.http.request(
            request.method, url, params=params, data=data, headers=headers, stream=True,
            allow_redirects=False, timeout=float(sandbox.config["UPSTREAM_TIMEOUT_S"]))
    except requests.RequestException:
        return outcome(502, "transient", "The EHR's FHIR server did not answer.")
    if grant.all_access():
        return _response(upstream, compartment)
    return _screened(upstream, grant, compartment)


def _body(req: FhirRequest) -> bytes:
    """The JSON the policy checked (re-serialised), else the raw body (refused unless
    all-access)."""
    if req.resource is not None:
        return json.dumps(req.resource).encode()
    return _to_upstream(request.get_data())


def _response(upstream: requests.Response, compartment: str | None) -> Response:
    content_type = upstream.headers.get("Content-Type", "")
    if "json" in content_type or "xml" in content_type or "html" in content_type:
        text = to_public(upstream.content)
        if "json" in content_type:
            _record_pages(text, compartment)
        return Response(text, status=upstream.status_code, headers=_headers(upstream))
    return Response(
        upstream.iter_content(64 * 1024), status=upstream.status_code, headers=_headers(upstream)
    )


def _screened(upstream: requests.Response, grant: Grant, compartment: str | None) -> Response:
    """The upstream answer with every resource the grant may not see removed (``visibility``)."""
    content = upstream.content
    if not content:
        return Response(b"", status=upstream.status_code, headers=_headers(upstream))
    try:
        body = json.loads(content)
    except ValueError:
        if upstream.status_code >= 400:
            return outcome(
                upstream.status_code, "exception", "The EHR's FHIR server refused the request."
            )
        return outcome(502, "exception", "The EHR's answer was not JSON and could not be checked.")
    kept = screen(body, grant, state().upstream.fetch)
    if kept is None:
        return outcome(
            403, "forbidden", "The result lies outside the launch patient's compartment."
        )
    text = to_public(json.dumps(kept).encode())
    _record_pages(text, compartment)
    return Response(text, status=upstream.status_code, headers=_headers(upstream))


def _headers(upstream: requests.Response) -> list:
    return [(k, to_public(v) if k.lower() in ("location", "content-location") else v)
            for k, v in upstream.headers.items() if k.lower() not in DROP_RESPONSE_HEADERS]


def _record_pages(text: bytes, compartment: str | None) -> None:
    """Remember which patient compartment each continuation page id belongs to."""
    if b"_getpages" not in text:
        return
    try:
        links = json.loads(text).get("link") or []
    except (ValueError, AttributeError):
        return
    for link in links:
        for page_id in parse_qs(urlsplit(link.get("url", "")).query).get("_getpages", []):
            state().pages.put({"patient": compartment}, key=page_id)


def to_public(value):
    sandbox = state()
    old, new = sandbox.config["FHIR_UPSTREAM"], sandbox.fhir_base
    if isinstance(value, bytes):
        return value.replace(old.encode(), new.encode())
    return value.replace(old, new)


def _to_upstream(data: bytes) -> bytes:
    sandbox = state()
    return data.replace(sandbox.fhir_base.encode(), sandbox.config["FHIR_UPSTREAM"].encode())
