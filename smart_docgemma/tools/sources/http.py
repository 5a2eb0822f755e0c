"""HTTP access to the public knowledge sources (openFDA, RxNav, NCBI E-utilities,
Europe PMC, ClinicalTrials.gov), built once per app.

One ``KnowledgeHttp`` holds a requests-cache ``CachedSession`` on SQLite (a
persistent cache with a TTL per source), connect/read timeouts, bounded
retries with exponential backoff on 429/5xx for GETs only (urllib3 ``Retry``,
honouring ``Retry-After`` up to a small cap) and a client-side token bucket
per source sized to its published limit. The bucket sits in the transport
adapter, so cache hits never spend the budget.

Failures are typed: ``get_json`` raises ``SourceError(kind, source)`` and the
tools turn it into a pre-formatted clinician-facing message (raw errors make
the model answer from memory; formatted ones do not).

Offline copies: a clinic's uplink fails exactly when what it downloaded yesterday is needed.
When a source is unreachable (refused, timed out, 5xx, garbled) and the cache holds an answer
to the same request, however old, that answer is served instead of the failure, and recorded
for the turn (``offline_copies``) with its retrieval date: within ``KNOWLEDGE_OFFLINE_MAX_AGE_DAYS``
it reads "as retrieved on …"; past it, it is shown only as clearly out of date. Requests that
failed otherwise (404, 429, a refused key, a refused query) are never answered from a copy.
``docgemma-offline-pack`` fills the cache while online.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import requests
from requests.adapters import HTTPAdapter
from requests_cache import CachedResponse, CachedSession
from urllib3.util.retry import Retry

from ... import metrics
from ...config import setting
from ...errors import SourceError
from ...extensions import lazy

if TYPE_CHECKING:
    from flask import Flask

HTTP = "docgemma.http"

RETRY_AFTER_CAP_S = 1.0  # never let one tool call sleep longer than this per retry
BACKOFF_FACTOR = 0.5  # urllib3: 0 s before the first retry, 1 s before the second


@dataclass(frozen=True)
class SourceSpec:
    """A knowledge source: its clinician-facing label, config key and limits."""

    label: str
    url_key: str
    ttl: timedelta
    rate: float  # requests per second allowed (published or reported limit)
    burst: int


SOURCES: dict[str, SourceSpec] = {
    # openFDA: 240 requests/min per IP or key (open.fda.gov/apis/authentication).
    "openfda": SourceSpec("FDA drug label service", "OPENFDA_URL", timedelta(hours=24), 4.0, 4),
    # RxNav: 20 requests/s per IP (RxNav terms); names change rarely, cache a week.
    "rxnav": SourceSpec("RxNorm drug name service", "RXNAV_URL", timedelta(days=7), 20.0, 5),
    # NCBI E-utilities: 3/s without an API key, 10/s with one (NLM KA-05317).
    "eutils": SourceSpec("PubMed literature service", "EUTILS_URL", timedelta(hours=6), 3.0, 3),
    # Europe PMC publishes no limit; stay polite.
    "europepmc": SourceSpec(
        "Europe PMC literature service", "EUROPEPMC_URL", timedelta(hours=6), 5.0, 5
    ),
    # ClinicalTrials.gov: ~50 requests/min per IP is widely reported.
    "ctgov": SourceSpec("ClinicalTrials.gov registry", "CTGOV_URL", timedelta(hours=6), 50 / 60, 3),
}


_served = threading.local()  # this thread's offline copies since the last ``offline_copies()``


@dataclass(frozen=True)
class OfflineCopy:
    """A cached answer served because its source could not be reached."""

    source: str
    label: str
    retrieved: datetime  # when the copy was fetched (UTC)
    too_old: bool  # older than the configured age limit

    def note(self) -> str:
        day = self.retrieved.strftime("%Y-%m-%d")
        if self.too_old:
            return (f"OUT OF DATE: the {self.label} could not be reached, and its only copy here "
                    f"was retrieved on {day}, longer ago than this clinic accepts. It is shown "
                    "for reference only; verify it before relying on it.")
        return (f"Offline copy: {self.label} answer as retrieved on {day}; "
                "the service is unreachable now.")


def offline_copies() -> list[OfflineCopy]:
    """The offline copies served on this thread since the last call (then forgotten): a tool
    runs on its turn's thread, so the agent reads what that tool's answer was made of."""
    copies = getattr(_served, "copies", [])
    _served.copies = []
    return list(dict.fromkeys(copies))


class TokenBucket:
    """Thread-safe token bucket: ``rate`` tokens per second, up to ``burst``."""

    def __init__(self, rate: float, burst: int):
        self.rate, self.burst = rate, burst
        self._tokens, self._stamp = float(burst), time.monotonic()
        self._lock = threading.Lock()

    def acquire(self) -> float:
        """Take one token, sleeping until one is available; returns the wait."""
        with self._lock:
            now = time.monotonic()
            self._tokens = min(self.burst, self._tokens + (now - self._stamp) * self.rate)
            self._stamp = now
            wait = 0.0 if self._tokens >= 1 else (1 - self._tokens) / self.rate
            self._tokens -= 1  # may go negative: later callers queue behind this one
        if wait:
            time.sleep(wait)
        return wait


class _Retry(Retry):
    """urllib3 Retry whose Retry-After honour is capped (a 60 s header must not stall a turn)."""

    def parse_retry_after(self, retry_after: str) -> float:
        return min(super().parse_retry_after(retry_after), RETRY_AFTER_CAP_S)


class _ThrottledAdapter(HTTPAdapter):
    """Transport for one source: takes a token before each network send.

    CachedSession answers hits before reaching the adapter, so only real
    requests are throttled.
    """

    def __init__(self, bucket: TokenBucket, **kwargs: Any):
        self.bucket = bucket
        super().__init__(**kwargs)

    def send(  # type: ignore[override]
        self, request: requests.PreparedRequest, **kwargs: Any
    ) -> requests.Response:
        self.bucket.acquire()
        return super().send(request, **kwargs)


def _retry(max_retries: int) -> Retry:
    # Read timeouts are not retried: one 10 s wait is already the tool's deadline.
    return _Retry(
        total=max_retries,
        connect=1,
        read=0,
        status=max_retries,
        status_forcelist=(429, 500, 502, 503, 504),
        allowed_methods=frozenset({"GET"}),
        backoff_factor=BACKOFF_FACTOR,
        respect_retry_after_header=True,
        raise_on_status=False,
    )


class KnowledgeHttp:
    """GET JSON from the knowledge sources with cache, timeouts, retries and limits.

    ``config`` is the app config mapping (base URLs, keys, ``CACHE_PATH``);
    tests point the base URLs at a local server.
    """

    def __init__(self, config: Mapping[str, Any], cache_path: str | Path | None = None):
        self.config = config
        self.urls = {
            name: str(config.get(spec.url_key) or "").rstrip("/") for name, spec in SOURCES.items()
        }
        self.timeout = (float(setting(config, "KNOWLEDGE_CONNECT_TIMEOUT_S")),
                        float(setting(config, "KNOWLEDGE_READ_TIMEOUT_S")))
        path = cache_path or config.get("CACHE_PATH") or "knowledge-cache"
        self.max_age = timedelta(days=float(setting(config, "KNOWLEDGE_OFFLINE_MAX_AGE_DAYS")))
        # api_key/email/tool are left out of cache keys and of what is stored.
        self.session = CachedSession(str(path), backend="sqlite", allowable_codes=(200, 404),
                                     allowable_methods=("GET",), stale_if_error=False,
                                     ignored_parameters=["api_key", "email", "tool"])
        self.session.headers["User-Agent"] = (
            "smart_docgemma/0.1 (clinical assistant; knowledge tools)"
        )
        self.buckets = {}
        retries = int(setting(config, "KNOWLEDGE_MAX_RETRIES"))
        for name, spec in SOURCES.items():
            rate = 10.0 if name == "eutils" and config.get("NCBI_API_KEY") else spec.rate
            self.buckets[name] = TokenBucket(rate, spec.burst)
            if self.urls[name]:
                self.session.mount(
                    self.urls[name] + "/",
                    _ThrottledAdapter(self.buckets[name], max_retries=_retry(retries)),
                )

    def get_json(
        self, source: str, path: str, params: dict[str, Any] | None = None
    ) -> dict[str, Any] | None:
        """GET ``{base}{path}`` and return its JSON; ``None`` when the source says 404.

        Raises ``SourceError`` for everything a clinician cannot act on.
        """
        params = {**(params or {}), **self._credentials(source)}
        url = self.urls[source] + path
        try:
            res = self.session.get(
                url, params=params, timeout=self.timeout, expire_after=SOURCES[source].ttl
            )
            body = self._decode(source, res)
        except requests.RequestException as exc:  # refused, timed out, retries exhausted
            return self._offline(source, url, params, exc)
        except SourceError as exc:
            if exc.kind != "unreachable":
                metrics.knowledge_served(source, "error")
                raise
            return self._offline(source, url, params, exc)
        metrics.knowledge_served(
            source, "cache" if getattr(res, "from_cache", False) else "network"
        )
        return body

    def _offline(self, source: str, url: str, params: dict[str, Any],
                 exc: Exception) -> dict[str, Any] | None:
        """The cached answer to this request, whatever its age, recorded as an offline copy;
        else the failure as ``SourceError('unreachable')``."""
        cached = self.cached(url, params)
        if cached is None:
            metrics.knowledge_served(source, "error")
            if isinstance(exc, SourceError):
                raise exc
            raise SourceError("unreachable", source, label=SOURCES[source].label) from exc
        retrieved = cached.created_at
        if retrieved.tzinfo is None:
            retrieved = retrieved.replace(tzinfo=UTC)
        too_old = datetime.now(UTC) - retrieved > self.max_age
        metrics.knowledge_served(source, "too_old" if too_old else "stale")
        copy = OfflineCopy(source, SOURCES[source].label, retrieved, too_old)
        body: dict[str, Any] | None = None
        if cached.status_code != 404:
            try:
                body = cached.json()
            except ValueError:  # a garbled answer was cached: no usable copy
                raise SourceError("unreachable", source, label=SOURCES[source].label) from exc
        _served.copies = [*getattr(_served, "copies", []), copy]
        return body

    def cached(self, url: str, params: dict[str, Any] | None = None) -> CachedResponse | None:
        """The cache's response to ``GET url?params``, expired or not (None when never fetched)."""
        request = self.session.prepare_request(requests.Request("GET", url, params=params))
        found: CachedResponse | None = self.session.cache.get_response(
            self.session.cache.create_key(request))
        return found

    def _credentials(self, source: str) -> dict[str, Any]:
        """Optional keys: openFDA ``api_key``; NCBI ``api_key`` + ``tool``/``email`` (NBK25499)."""
        cfg = self.config
        if source == "openfda" and cfg.get("OPENFDA_API_KEY"):
            return {"api_key": cfg["OPENFDA_API_KEY"]}
        if source == "eutils":
            out = {"tool": "smart_docgemma"}
            if cfg.get("NCBI_EMAIL"):
                out["email"] = cfg["NCBI_EMAIL"]
            if cfg.get("NCBI_API_KEY"):
                out["api_key"] = cfg["NCBI_API_KEY"]
            return out
        return {}

    @staticmethod
    def _decode(source: str, res: requests.Response) -> dict[str, Any] | None:
        status = res.status_code
        if status == 404:
            return None
        # RxNav signals its limit with 403
        if status == 429 or (status == 403 and source == "rxnav"):
            raise SourceError("rate_limited", source, status, label=SOURCES[source].label)
        if status in (401, 403):
            raise SourceError("forbidden", source, status, label=SOURCES[source].label)
        if status == 500 and source == "openfda" and "details" in res.text[:2000]:
            # openFDA answers a query its lexer cannot parse with a 500 naming the details
            raise SourceError("invalid", source, status, label=SOURCES[source].label)
        if status >= 500:
            raise SourceError("unreachable", source, status, label=SOURCES[source].label)
        if status >= 400:
            raise SourceError("invalid", source, status, label=SOURCES[source].label)
        try:
            body: dict[str, Any] | None = res.json()
            return body
        except ValueError as exc:
            raise SourceError("unreachable", source, status, label=SOURCES[source].label) from exc

    def close(self) -> None:
        self.session.close()  # type: ignore[no-untyped-call]


def get_http(app: Flask | None = None) -> KnowledgeHttp:
    """The app's knowledge-source HTTP client (``current_app``'s when no app is given; the
    cache in the instance folder unless ``CACHE_PATH`` says otherwise)."""
    def make(app: Flask) -> KnowledgeHttp:
        path = app.config.get("CACHE_PATH") or str(Path(app.instance_path) / "knowledge-cache")
        return KnowledgeHttp(app.config, cache_path=path)
    return lazy(app, HTTP, make)
