"""A static page that draws CDS Hooks cards the way the cds-hooks sandbox does
(indicator stripe, summary, Markdown detail, source, suggestion and link
buttons), for people to look at the cards the service really returned.
The detail goes through the assistant's own Markdown sanitiser.
"""
from __future__ import annotations

from html import escape

from smart_docgemma.web.markup import markdown_html

STYLE = """
body{font:14px/1.4 system-ui,-apple-system,'Segoe UI',sans-serif;background:#f3f4f6;margin:0;padding:16px;color:#1f2937}
h1{font-size:18px;margin:0 0 12px}.grid{display:grid;grid-template-columns:repeat(2,minmax(0,1fr));gap:16px}
section{background:#e5e7eb;border-radius:6px;padding:10px}h2{font-size:14px;margin:0 0 8px;color:#374151}
.card{background:#fff;border:1px solid #d1d5db;border-left:6px solid #3b82f6;border-radius:4px;
padding:10px 12px;margin:0 0 10px}
.card.critical{border-left-color:#dc2626}.card.warning{border-left-color:#f59e0b}
.summary{font-weight:600;font-size:15px}
.badge{font-size:11px;text-transform:uppercase;padding:1px 6px;border-radius:3px;
margin-right:6px;color:#fff;background:#3b82f6}.critical .badge{background:#dc2626}.warning .badge{background:#d97706}
.detail{font-size:13px;margin:6px 0}.detail p{margin:4px 0}.detail ul{margin:2px 0 6px;padding-left:18px}
.source{font-size:12px;color:#6b7280}.buttons{margin-top:6px;display:flex;flex-wrap:wrap;gap:6px}
.buttons span{border:1px solid #2563eb;color:#1d4ed8;border-radius:4px;padding:3px 8px;font-size:12px}
.buttons span.recommended{background:#2563eb;color:#fff}.buttons span.link{border-color:#6b7280;color:#374151}
"""


def card_html(card: dict) -> str:
    source = card["source"]
    label = escape(source["label"])
    source_html = f'<a href="{escape(source["url"])}">{label}</a>' if source.get("url") else label
    buttons = [f'<span class="{"recommended" if s.get("isRecommended") else ""}">{escape(s["label"])}</span>'
               for s in card.get("suggestions", [])]
    buttons += [f'<span class="link">{escape(link["label"])}</span>' for link in card.get("links", [])
                if link["type"] == "smart"]
    overrides = " · ".join(escape(r["display"]) for r in card.get("overrideReasons", []))
    return (f'<div class="card {escape(card["indicator"])}"><div class="summary"><span class="badge">'
            f'{escape(card["indicator"])}</span>{escape(card["summary"])}</div>'
            f'<div class="detail">{markdown_html(card.get("detail"))}</div>'
            f'<div class="source">Source: {source_html}</div>'
            + (f'<div class="buttons">{"".join(buttons)}</div>' if buttons else "")
            + (f'<div class="source">Override reasons: {overrides}</div>' if overrides else "")
            + "</div>")


def page(title: str, sections: list[tuple[str, list[dict]]]) -> str:
    body = "".join(f"<section><h2>{escape(name)}</h2>{''.join(card_html(c) for c in cards)}</section>"
                   for name, cards in sections)
    return (f"<!doctype html><html lang=en><meta charset=utf-8><title>{escape(title)}</title>"
            f"<style>{STYLE}</style><h1>{escape(title)}</h1><div class=grid>{body}</div></html>")
