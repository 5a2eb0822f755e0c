"""FHIR access for one launch: fhirclient's server, the launch token, typed errors.

``FhirGateway`` wraps ``fhirclient.server.FHIRServer`` (its request signing,
its status-to-exception mapping, and ``fhirclient.models`` for typed reads)
and adds what the app needs and fhirclient lacks: request timeouts, paging
that follows ``next`` links with a hard cap, conditional create
(``If-None-Exist``) and one mapping of failures onto ``errors``.

A gateway is built per request from the session's token; there is no
module-level client.
"""
from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode, urljoin

import requests
from fhirclient import server as fhir_server
from fhirclient.auth import FHIROAuth2Auth
from requests.adapters import HTTPAdapter
from urllib3.exceptions import NewConnectionError

from . import errors, metrics

log = logging.getLogger(__name__)
_REF = re.compile(r"([A-Za-z]+/[A-Za-z0-9\-.]{1,64})(/_history/[^/]+)?/?$")

FHIR_JSON = "application/fhir+json"
# A one-page search asks the server not to keep its result set for paging: HAPI then runs it
# synchronously instead of storing the matches for later pages (about half the time of a chart
# section on the local HAPI, docs/evaluation-and-performance.md); other servers may ignore it.
ONE_PAGE = {"Cache-Control": "no-store"}
FRESH = {"Cache-Control": "no-cache, no-store"}


Params = dict | list[tuple[str, str]] | None  # search parameters, as urlencode takes them

class _TimeoutSession(requests.Session):
    """A requests session with a default timeout (fhirclient sets none)."""

    def __init__(self, timeout: float):
        super().__init__()
        self.timeout = timeout

    def request(self, method, url, **kwargs):
        kwargs.setdefault("timeout", self.timeout)
        return super().request(method, url, **kwargs)


@dataclass(frozen=True)
class Created:
    """What a create wrote: its type and id ("" when the server named none), whether it is new
    (False: a conditional create matched a resource already there), and the resource as the
    server returned it."""

    type: str
    id: str
    created: bool
    resource: dict[str, Any]

    @property
    def reference(self) -> str:
        """``Type/id``, the reference the approval and its Provenance name."""
        return f"{self.type}/{self.id}"


class FhirGateway:
    """Read, search and create FHIR resources on one server with one token."""

    def __init__(
        self,
        base_url: str,
        access_token: str | Callable[[], str] | None,
        timeout: float = 15,
        renew=None,
        connections: HTTPAdapter | None = None,
        audit=None,
    ):
        """``access_token``: the token, or a function that looks it up when the first request is
        sent (a question answered without the chart never unseals the session's tokens).
        ``renew()`` returns a new access token; it is called once when the server answers 401.
        ``connections``: a connection pool shared by the app's gateways
        (``extensions.get_fhir_pool``), so a request reuses an open connection to the FHIR server
        instead of opening one; each gateway keeps its own session (cookies, token), only sockets
        are shared. ``audit``: an ``audit.AuditTrail``; every read, search and create is reported to
        it after the server answered and before the data is returned (its policy may withhold the
        data)."""
        self.base_url = base_url.rstrip("/")
        self.audit = audit
        self._renew = renew
        self.connections = connections
        self.server = fhir_server.FHIRServer(None, base_uri=self.base_url)
        self.server.session = _TimeoutSession(timeout)
        if connections is not None:
            self.server.session.mount("https://", connections)
            self.server.session.mount("http://", connections)
        self.server.auth = _BearerAuth(access_token)

    def twin(self) -> FhirGateway:
        """A gateway of its own for another thread (a ``requests.Session`` is not documented as
        thread-safe): same server, token, connection pool and audit trail."""
        return FhirGateway(self.base_url, self.server.auth.access_token,
                           timeout=getattr(self.server.session, "timeout", 15), renew=self._renew,
                           connections=self.connections, audit=self.audit)

    # -- reads ---------------------------------------------------------------
    def read(self, resource_type: str, resource_id: str) -> dict:
        """GET ``Type/id`` as JSON."""
        return self._audited("read", resource_type, lambda: self._call(
            self.server.request_json, f"{resource_type}/{resource_id}", "read"), rid=resource_id)

    def read_model(self, model_cls, resource_id: str):
        """Typed read through ``fhirclient.models`` (lenient parsing of server data)."""
        data = self.read(model_cls.resource_type, resource_id)
        if not isinstance(data, dict) or data.get("resourceType") != model_cls.resource_type:
            raise errors.FHIRError(
                f"The EHR's FHIR server returned something other than a {model_cls.resource_type}."
            )
        try:
            return model_cls(data, strict=False)
        except Exception as exc:  # fhirclient raises several types on malformed JSON
            raise errors.FHIRError(
                f"The EHR's FHIR server returned a malformed {model_cls.resource_type}."
            ) from exc

    def search_page(self, resource_type: str, params: Params = None) -> dict:
        """One search Bundle for ``Type?params``."""
        return self._audited(
            "search-type",
            resource_type,
            lambda: self._page(resource_type, params),
            params=params,
            found=_matches,
        )

    def search(self, resource_type: str, params: Params = None, max_pages: int = 5,
               included: list[dict] | None = None, fresh: bool = False) -> list[dict]:
        """All matching resources (``mode=match``), following ``next`` up to ``max_pages``;
        ``_include``d resources (``mode=include``) are appended to ``included`` when given.
        The audit record names both (an included Medication is patient data too). ``fresh``:
        the first page is asked with ``Cache-Control: no-cache``, so no cached result set is
        reused (HAPI keeps one for 60 s: a list read just after an approval must hold it)."""
        extra: list[dict] = []
        found = self._audited("search-type", resource_type,
                              lambda: self._search(resource_type, params, max_pages, extra,
                                                   fresh),
                              params=params, found=lambda matched: matched + extra)
        if included is not None:
            included.extend(extra)
        return found

    def by_identifier(self, resource_type: str, system: str, value: str) -> list[dict]:
        """The resources carrying ``system|value``, read fresh: no cached search result, so a
        write that landed a moment ago is seen (HAPI reuses a search's result for 60 s)."""
        path = f"{resource_type}?" + urlencode({"identifier": f"{system}|{value}"})
        return self._audited("search-type", resource_type, lambda: _matches(self._call(
            lambda p: self.server._get(p, headers=FRESH).json(), path, "search")),
            params={"identifier": f"{system}|{value}"}, found=lambda matched: matched)

    def _page(self, resource_type: str, params: Params, one_page: bool = False,
              fresh: bool = False) -> dict:
        path = resource_type + ("?" + urlencode(params, doseq=True) if params else "")
        if fresh:
            return self._call(lambda p: self.server._get(p, headers=FRESH).json(), path,
                              "search")
        if one_page:  # fhirclient's request_json takes no headers; its _get signs and checks
            return self._call(lambda p: self.server._get(p, headers=ONE_PAGE).json(), path,
                              "search")
        return self._call(self.server.request_json, path, "search")

    def _search(self, resource_type: str, params: Params, max_pages: int,
                included: list[dict], fresh: bool = False) -> list[dict]:
        bundle = self._page(resource_type, params, one_page=max_pages == 1, fresh=fresh)
        found = _matches(bundle, included)
        for _ in range(max_pages - 1):
            nxt = next(
                (link["url"] for link in bundle.get("link", []) if link.get("relation") == "next"),
                None,
            )
            if not nxt:
                break
            bundle = self._call(self.server.request_json, self._relative(nxt), "page")
            found.extend(_matches(bundle, included))
        return found

    def _audited(self, interaction: str, rtype: str, do, *, rid=None, params=None, found=None):
        """Run ``do`` and report it to the trail (outcome and what came back) before returning."""
        if self.audit is None:
            return do()
        try:
            result = do()
        except errors.DocGemmaError as exc:
            self.audit.fhir(interaction, rtype, rid=rid, params=params, error=exc)
            raise
        shown = found(result) if found else result
        self.audit.fhir(interaction, rtype, rid=rid, params=params, result=shown)
        return result

    # -- writes --------------------------------------------------------------
    def create(self, resource: dict, if_none_exist: str | None = None) -> Created:
        """POST a resource; with ``if_none_exist`` HAPI returns the existing match (then
        ``Created.created`` is False)."""
        headers = {"Content-Type": FHIR_JSON, "Accept": FHIR_JSON,
                   "Prefer": "return=representation"}
        if if_none_exist:
            headers["If-None-Exist"] = if_none_exist
        url = f"{self.base_url}/{resource['resourceType']}"

        def post() -> Created:
            res = self._send("post", url, headers, resource)
            body = res.json() if res.content else {}
            rid = body.get("id") or _id_from_location(res.headers.get("Location", ""))
            return Created(type=resource["resourceType"], id=rid or "",
                           created=res.status_code == 201, resource=body)
        return self._audited("create", resource["resourceType"], post,
                             found=lambda c: {**resource, **c.resource, "id": c.id})

    def transaction(self, bundle: dict, created_type: str) -> Created:
        """POST a transaction Bundle to the base: every entry is written or none is (FHIR R4
        §3.1.0.11.2). Returns the entry of ``created_type`` that was created (a conditional
        create's match too), with the server's answer to each entry in ``resource``."""
        headers = {"Content-Type": FHIR_JSON, "Accept": FHIR_JSON}
        posted = [e for e in bundle.get("entry", [])
                  if (e.get("request") or {}).get("method") == "POST"]
        at = next((n for n, e in enumerate(bundle.get("entry", []))
                   if e in posted and e["resource"]["resourceType"] == created_type), None)

        def post() -> Created:
            res = self._send("post", self.base_url, headers, bundle)
            body = res.json() if res.content else {}
            answers = body.get("entry") or []
            answer = (answers[at].get("response") or {}) if at is not None and at < len(
                answers) else {}
            rid = _id_from_location(answer.get("location", "")) or ""
            return Created(type=created_type, id=rid,
                           created=str(answer.get("status", "")).startswith("201"),
                           resource=body)
        return self._audited("transaction", created_type, post,
                             found=lambda c: {"resourceType": created_type, "id": c.id})

    # -- plumbing ------------------------------------------------------------
    def _send(self, method: str, url: str, headers: dict, body: dict):
        def send():
            signed = (
                self.server.auth.signed_headers(dict(headers))
                if self.server.auth.access_token
                else headers
            )
            res = getattr(self.server.session, method)(url, headers=signed, data=json.dumps(body))
            self.server.raise_for_status(res)
            return res
        return self._attempt(send, "create")

    def _call(self, fn, path: str, interaction: str):
        data = self._attempt(lambda: fn(path), interaction)
        if not isinstance(data, dict):  # a garbled answer must not reach code expecting a resource
            raise errors.FHIRError(
                "The EHR's FHIR server returned something other than a FHIR resource."
            )
        return data

    def _attempt(self, do, interaction: str):
        """Run ``do``; a 401 renews the token once (when the gateway can) and tries again.
        Each HTTP request is counted and timed under ``interaction`` (``/metrics``)."""
        renewed = False
        while True:
            started = time.perf_counter()
            try:
                return do()
            except fhir_server.FHIRUnauthorizedException as exc:
                if renewed or self._renew is None:
                    raise _map(exc) from exc
                self.server.auth.access_token, renewed = self._renew(), True
            except Exception as exc:  # mapped in one place
                raise _map(exc) from exc
            finally:
                metrics.fhir_request(interaction, time.perf_counter() - started)

    def _relative(self, url: str) -> str:
        # HAPI's next links are absolute; keep them on our base (never follow off-server).
        base = self.base_url + "/"
        if url.startswith(base):
            return url[len(base):]
        if "?" in url:
            return url[url.index("?"):]
        raise errors.FHIRError("The FHIR server returned a paging link to another server")


class _BearerAuth(FHIROAuth2Auth):
    """fhirclient's bearer-token auth, the token looked up at most once, when first needed."""

    _token: str | None
    _lookup: Callable[[], str] | None

    def __init__(self, token: str | Callable[[], str] | None):
        self._lookup = token if callable(token) else None
        super().__init__()
        self.access_token = None if callable(token) else token

    @property
    def access_token(self) -> str | None:
        if self._lookup is not None:
            self._token, self._lookup = self._lookup(), None
        return self._token

    @access_token.setter
    def access_token(self, value: str | None) -> None:
        self._token = value


def _matches(bundle: dict, included: list[dict] | None = None) -> list[dict]:
    entries = bundle.get("entry") or []
    if not isinstance(entries, list):
        raise errors.FHIRError("The EHR's FHIR server returned a malformed search Bundle.")
    found = []
    for e in entries:
        if not (isinstance(e, dict) and isinstance(e.get("resource"), dict)):
            continue
        mode = _search_mode(e)
        if mode == "match":
            found.append(e["resource"])
        elif mode == "include" and included is not None:
            included.append(e["resource"])
    return found


def _search_mode(entry: dict) -> str:
    search = entry.get("search")
    return str(search.get("mode", "match")) if isinstance(search, dict) else "match"


def _id_from_location(location: str) -> str | None:
    parts = location.split("/_history")[0].rstrip("/").split("/")
    return parts[-1] if parts and parts[-1] else None


def _map(exc: Exception) -> errors.DocGemmaError:
    """One mapping of transport and status failures to the app's error types."""
    if isinstance(exc, errors.DocGemmaError):
        return exc
    if isinstance(exc, fhir_server.FHIRUnauthorizedException):
        return errors.SessionExpired(
            "The EHR no longer accepts this session's token. Relaunch the app."
        )
    if isinstance(exc, fhir_server.FHIRPermissionDeniedException):
        return errors.Forbidden("The EHR did not grant access to this data.")
    if isinstance(exc, fhir_server.FHIRNotFoundException):
        return errors.NotFound("The EHR has no such record.")
    if isinstance(exc, requests.ConnectTimeout) or _refused(exc):
        return errors.FHIRError("The EHR's FHIR server is unreachable.")  # nothing was sent
    if isinstance(exc, requests.Timeout):
        return _in_doubt("The EHR's FHIR server did not answer in time.")
    if isinstance(exc, requests.ConnectionError):
        return _in_doubt("The EHR's FHIR server dropped the connection.")
    if isinstance(exc, requests.HTTPError) and exc.response is not None:
        status = exc.response.status_code
        log.info("FHIR %s: %s", status, exc.response.text[:300])
        if status in (409, 412):
            return errors.Conflict(
                "The record changed meanwhile or matched more than one resource."
            )
        if status in (400, 422):
            return errors.BadRequest("The EHR rejected the resource as invalid.")
        if status >= 500:  # the server (or a proxy before it) may have written it
            return _in_doubt(f"The EHR's FHIR server answered HTTP {status}.")
        return errors.FHIRError(f"The EHR's FHIR server answered HTTP {status}.")
    return errors.FHIRError("The EHR's FHIR server could not be used.")


def _in_doubt(description: str) -> errors.FHIRError:
    """A failure after the request may have reached the server: a create may still land."""
    error = errors.FHIRError(description)
    error.may_have_landed = True
    return error


def _refused(exc: Exception) -> bool:
    """A connection that was never opened (refused, no route, name unknown): nothing was sent."""
    reason = getattr(exc.args[0], "reason", None) if exc.args else None
    return isinstance(exc, requests.ConnectionError) and isinstance(reason, NewConnectionError)


def local_ref(ref: str | None) -> str | None:
    """``Type/id`` from a relative or absolute reference (HAPI refuses foreign absolute URLs)."""
    m = _REF.search(ref or "")
    return m.group(1) if m else None


def absolute(base_url: str, ref: str) -> str:
    """A FHIR reference (``Patient/1``) as a URL on ``base_url`` (for citations)."""
    return urljoin(base_url.rstrip("/") + "/", ref)
