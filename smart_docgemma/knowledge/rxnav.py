"""RxNav as a ``resolver`` for ``identify``: an RxNorm code the shipped table lacks → its
ingredients.

``resolver(http)`` wraps the project's ``KnowledgeHttp`` (its persistent cache, timeouts,
retries and rate limit) and asks ``/rxcui/{code}/related.json?tty=IN+MIN``, then
``/allrelated.json`` when that lists no ingredient. It raises ``SourceError`` when RxNav
cannot answer; ``identify`` turns that into an UNIDENTIFIED result that says so.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol


class KnowledgeHttpLike(Protocol):
    """The one call this module makes of ``tools.sources.http.KnowledgeHttp`` (the knowledge core
    imports nothing of the tools: the HTTP client is handed in)."""

    def get_json(
        self, source: str, path: str, params: dict[str, Any] | None = None
    ) -> dict[str, Any] | None: ...


def resolver(http: KnowledgeHttpLike) -> Callable[[str], list[tuple[str, str]]]:
    def resolve(code: str) -> list[tuple[str, str]]:
        code = str(code).strip()
        if not code.isdigit():
            return []
        found = ingredients(
            http.get_json("rxnav", f"/rxcui/{code}/related.json", {"tty": "IN+MIN"})
        )
        return found or ingredients(http.get_json("rxnav", f"/rxcui/{code}/allrelated.json"))

    return resolve


def ingredients(body: dict[str, Any] | None) -> list[tuple[str, str]]:
    """(name, rxcui) of the IN concepts of a related/allrelated answer (MIN parts only when no
    IN)."""
    group = (body or {}).get("relatedGroup") or (body or {}).get("allRelatedGroup") or {}
    by_tty = {
        g.get("tty"): g.get("conceptProperties") or [] for g in group.get("conceptGroup") or []
    }
    concepts = by_tty.get("IN") or by_tty.get("MIN") or []
    return [(c["name"].lower(), c["rxcui"]) for c in concepts if c.get("name") and c.get("rxcui")]
