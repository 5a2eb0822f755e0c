"""The openFDA drug-label client: one search per drug (generic, brand or substance name), the
labels that are about it, and a spelling suggestion when none is (through the one HTTP client
for public sources, ``http.KnowledgeHttp``: cache, offline copies, failures as ``SourceError``).
"""
from __future__ import annotations

import re
from typing import Any

from ... import knowledge
from ...errors import SourceError
from .druglabel import (
    LabelSafety,
    summarise,
)
from .http import KnowledgeHttp

LABEL_LIMIT = 5  # labels fetched per search; whole labels are 50-150 KB each


def clean_name(name: str) -> str:
    """A drug name safe to put inside a quoted openFDA phrase (no quotes, colons or brackets)."""
    return re.sub(r"\s+", " ", re.sub(r"[^\w \-./']", " ", name or "")).strip().lower()


def label_search(terms: list[str]) -> str:
    """``openfda.generic_name:"x" openfda.brand_name:"x" …`` — quoted phrases OR'd (space = OR)."""
    return " ".join(f'openfda.{f}:"{t}"' for t in terms for f in ("generic_name", "brand_name"))


def label_safety(http: KnowledgeHttp, drug: str) -> LabelSafety | None:
    """The newest matching FDA label for ``drug``, or ``None`` when openFDA has none.

    Tries the name as given and its offline generic (brand → generic); if
    openFDA has nothing, asks RxNorm for a spelling suggestion once.
    Raises ``SourceError`` when openFDA cannot answer.
    """
    raw = clean_name(drug)
    terms = list(dict.fromkeys(t for t in (raw, _label_name(raw)) if t))
    labels = _about(_fetch_labels(http, terms), terms)
    if not labels:
        suggestion = _spelling_suggestion(http, raw)
        if suggestion and suggestion not in terms:
            terms = [suggestion]
            labels = _about(_fetch_labels(http, terms), terms)
    return summarise(drug, terms, labels) if labels else None


def _label_name(name: str) -> str:
    """How openFDA's generic_name field spells a drug: "amoxicillin and clavulanate" for a
    combination."""
    return " and ".join(knowledge.generic(name).split("/"))


def _about(labels: list[dict[str, Any]], terms: list[str]) -> list[dict[str, Any]]:
    """Only labels whose harmonised names mention a searched name: a label for another
    product is never reported as this drug's (a safety check must not borrow warnings)."""
    def names(label: dict[str, Any]) -> str:
        return " | ".join(n.lower() for key in ("generic_name", "brand_name", "substance_name")
                          for n in (label.get("openfda") or {}).get(key, []))
    return [lb for lb in labels if any(t.lower() in names(lb) for t in terms)]


def _fetch_labels(http: KnowledgeHttp, terms: list[str]) -> list[dict[str, Any]]:
    body = http.get_json("openfda", "/drug/label.json", {
        "search": label_search(terms), "limit": LABEL_LIMIT, "sort": "effective_time:desc"})
    return (body or {}).get("results") or []


def _spelling_suggestion(http: KnowledgeHttp, name: str) -> str | None:
    """RxNorm's first spelling suggestion ("ambienn" → "ambien"); best effort, never fatal."""
    try:
        body = http.get_json("rxnav", "/spellingsuggestions.json", {"name": name}) or {}
    except SourceError:
        return None
    found = ((body.get("suggestionGroup") or {}).get("suggestionList") or {}).get(
        "suggestion"
    ) or []
    return clean_name(found[0]) if found else None
