"""``search_medical_literature``: Europe PMC first, PubMed E-utilities as fallback.

Europe PMC's REST search gives title, authors, journal, year, PMID and the
abstract in one call (``resultType=core``); ``format=json`` must always be
sent or it answers XML (Europe PMC v6.6 release note). Results are limited to
MEDLINE records (``SRC:MED``, so every hit has a PMID to cite) and retracted
publications are excluded. When Europe PMC cannot answer, PubMed esearch +
esummary (no abstracts) is tried; NCBI's numbers arrive as strings.
Every article is cited as ``https://pubmed.ncbi.nlm.nih.gov/<pmid>/``.
"""
from __future__ import annotations

import html
import re
from typing import Any

import nh3

from ...errors import SourceError
from .. import args as tool_args
from .. import catalog
from ..base import Source, Tool, ToolContext, ToolResult
from .http import KnowledgeHttp

PAGE_SIZE = 5
ABSTRACT_CHARS = 350
PUBMED = "https://pubmed.ncbi.nlm.nih.gov/{}/"
UNAVAILABLE = "the literature search"
CAUTION = "Do not cite studies from memory."


def epmc_query(query: str) -> str:
    """The clinician's words as free text (no field syntax), MEDLINE only, no retractions."""
    words = re.sub(r'[()\[\]{}":\\]', " ", query).strip()
    return f'({words}) AND SRC:MED NOT PUB_TYPE:"retracted publication"'


def search_europepmc(http: KnowledgeHttp, query: str) -> tuple[int, list[dict[str, Any]]]:
    """(hit count, articles) from Europe PMC; raises SourceError."""
    body = (
        http.get_json(
            "europepmc",
            "/search",
            {
                "query": epmc_query(query),
                "format": "json",
                "resultType": "core",
                "pageSize": PAGE_SIZE,
            },
        )
        or {}
    )
    results = ((body.get("resultList") or {}).get("result") or [])[:PAGE_SIZE]
    return int(body.get("hitCount") or 0), [_from_epmc(r) for r in results]


def _from_epmc(r: dict[str, Any]) -> dict[str, Any]:
    journal = ((r.get("journalInfo") or {}).get("journal") or {})
    return {
        "pmid": r.get("pmid"),
        "pmcid": r.get("pmcid"),
        "doi": r.get("doi"),
        "title": _plain(r.get("title")),
        "authors": r.get("authorString") or "",
        "journal": journal.get("medlineAbbreviation")
        or journal.get("title")
        or r.get("journalTitle")
        or "",
        "year": r.get("pubYear") or "",
        "abstract": _plain(r.get("abstractText")),
        "pub_types": (r.get("pubTypeList") or {}).get("pubType") or [],
        "cited_by": r.get("citedByCount"),
        "id": r.get("id"),
        "source": r.get("source"),
    }


def search_pubmed(http: KnowledgeHttp, query: str) -> tuple[int, list[dict[str, Any]]]:
    """(hit count, articles) from PubMed esearch + esummary; raises SourceError."""
    found = (
        http.get_json(
            "eutils",
            "/esearch.fcgi",
            {
                "db": "pubmed",
                "term": query,
                "retmode": "json",
                "retmax": PAGE_SIZE,
                "sort": "relevance",
            },
        )
        or {}
    ).get("esearchresult") or {}
    ids = (found.get("idlist") or [])[:PAGE_SIZE]
    if not ids:
        return 0, []
    summary = (http.get_json("eutils", "/esummary.fcgi", {
        "db": "pubmed", "id": ",".join(ids), "retmode": "json"}) or {}).get("result") or {}
    docs = [summary.get(uid) or {} for uid in summary.get("uids", ids)]
    return int(found.get("count") or 0), [_from_pubmed(d) for d in docs if d.get("title")]


def _from_pubmed(d: dict[str, Any]) -> dict[str, Any]:
    names = [a.get("name", "") for a in d.get("authors") or []]
    doi = next(
        (a.get("value") for a in d.get("articleids") or [] if a.get("idtype") == "doi"), None
    )
    return {"pmid": d.get("uid"), "doi": doi, "title": _plain(d.get("title")),
            "authors": ", ".join(names[:3]) + (" et al." if len(names) > 3 else ""),
            "journal": d.get("source") or "", "year": (d.get("pubdate") or "")[:4], "abstract": "",
            "pub_types": d.get("pubtype") or [], "source": "MED", "id": d.get("uid")}


def _plain(text: str | None) -> str:
    """Abstracts and titles carry HTML (``<h4>Objective</h4>…``): keep the words only."""
    if not text:
        return ""
    plain = nh3.clean(text.replace("</h4>", ": ").replace("<", " <"), tags=set())
    return re.sub(r"\s+", " ", html.unescape(plain)).strip()


def citation(article: dict[str, Any]) -> Source:
    title = article["title"][:90] + ("…" if len(article["title"]) > 90 else "")
    if article.get("pmid"):
        return Source(f"PMID {article['pmid']}: {title}", PUBMED.format(article["pmid"]))
    if article.get("doi"):
        return Source(f"doi:{article['doi']}: {title}", f"https://doi.org/{article['doi']}")
    return Source(
        title, f"https://europepmc.org/article/{article.get('source')}/{article.get('id')}"
    )


def _line(n: int, a: dict[str, Any]) -> str:
    authors = a["authors"].rstrip(".")
    authors = ", ".join(authors.split(", ")[:3]) + (" et al." if authors.count(",") >= 3 else "")
    kind = next(
        (t for t in a["pub_types"] if re.search(r"review|meta-analysis|trial|guideline", t, re.I)),
        "",
    )
    head = f"{n}. {a['title']} — {authors} {a['journal']} {a['year']}".strip()
    head += f" [{kind}]" if kind else ""
    head += f" (PMID {a['pmid']})" if a.get("pmid") else ""
    abstract = a["abstract"]
    if len(abstract) > ABSTRACT_CHARS:
        abstract = abstract[:ABSTRACT_CHARS].rsplit(" ", 1)[0] + " …"
    return head + (f"\n   Abstract: {abstract}" if abstract else "")


def run_literature(args: tool_args.LiteratureSearchArgs, ctx: ToolContext) -> ToolResult:
    """Top articles for the query, each with its PMID link for citation."""
    service = "Europe PMC"
    try:
        total, articles = search_europepmc(ctx.sources(), args.query)
    except SourceError as first:
        service = "PubMed"
        try:
            total, articles = search_pubmed(ctx.sources(), args.query)
        except SourceError as err:
            return ToolResult.failure(err.kind, err.message(
                UNAVAILABLE, f"The {first.source_label} was also unavailable. {CAUTION}"))
    if not articles:
        return ToolResult(
            status="empty", count=0, text=f'No articles were found in {service} for "{args.query}".'
        )
    lines = [
        f'{service}: {total} articles match "{args.query}"; the {len(articles)} most relevant:'
    ]
    lines += [_line(i, a) for i, a in enumerate(articles, 1)]
    return ToolResult(status="ok", text="\n".join(lines), count=len(articles),
                      data={"service": service, "total": total, "articles": articles},
                      sources=[citation(a) for a in articles])


TOOLS: list[Tool] = [
    Tool(catalog.spec("search_medical_literature"), run_literature),
]
