"""Model text → safe HTML for the assistant page.

The answer is Markdown written by a language model that read chart notes and
web abstracts, so it is untrusted: markdown-it-py renders it with raw HTML
*disabled* (``<script>`` in the text stays text), then nh3 (the Rust ``ammonia``
sanitiser) keeps only the tags a clinical answer needs and only http(s)/mailto
links, which open in a new tab without a referrer. Two layers, because either
alone has had bypasses; both are well-kept libraries, not hand-written filters.
"""
from __future__ import annotations

from functools import lru_cache

import nh3
from markdown_it import MarkdownIt
from markupsafe import Markup

TAGS = {"p", "br", "strong", "em", "code", "pre", "ul", "ol", "li", "blockquote", "h3", "h4",
        "table", "thead", "tbody", "tr", "th", "td", "a", "hr"}
ATTRIBUTES = {"a": {"href", "title"}, "th": {"align"}, "td": {"align"}}
URL_SCHEMES = {"http", "https", "mailto"}


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.enable("table")
    # Answers are short: demote headings so "# Summary" does not outshout the page.
    md.add_render_rule("heading_open", lambda _r, tokens, idx, *_: f"<h{_level(tokens[idx].tag)}>")
    md.add_render_rule(
        "heading_close", lambda _r, tokens, idx, *_: f"</h{_level(tokens[idx].tag)}>\n"
    )
    return md


def _level(tag: str) -> int:
    return min(4, int(tag[1]) + 2)


def markdown_html(text: str | None) -> Markup:
    """Render Markdown to sanitised HTML (safe to put in a page as is)."""
    if not text:
        return Markup("")
    html = _parser().render(text)
    clean = nh3.clean(
        html,
        tags=TAGS,
        attributes=ATTRIBUTES,
        url_schemes=URL_SCHEMES,
        link_rel="noopener noreferrer",
        set_tag_attribute_values={"a": {"target": "_blank"}},
    )
    return Markup(clean)


def safe_url(url: str | None) -> str | None:
    """``url`` when it is http(s), else None (a source link must never be ``javascript:``)."""
    if url and url.split(":", 1)[0].lower() in ("http", "https"):
        return url
    return None
