"""The EHR's look, from SMART's ``smart_style_url``, as CSS custom properties.

An EHR may return ``smart_style_url`` in the token response: a JSON document
of colours, dimensions and fonts (SMART App Launch, "context-style",
experimental). The page links ``/app/style.css`` when the launch had one; this
module fetches the JSON on the server (the page's CSP allows styles only from
'self'), keeps only values that look like what they claim to be (a colour, a
length, a font list — nothing that can break out of a declaration), and maps
them onto the variables ``static/app.css`` uses. A missing, slow or malformed
style document leaves the default look: styling is never worth an error.
"""
from __future__ import annotations

import json
import logging
import re
import time

import requests

log = logging.getLogger(__name__)

CACHE_S = 3600
MAX_BYTES = 64 * 1024
COLOUR = re.compile(
    r"#[0-9a-fA-F]{3,8}|rgba?\(\s*[\d.]+%?\s*(,\s*[\d.]+%?\s*){2,3}\)|[a-zA-Z]{3,20}"
)
LENGTH = re.compile(r"\d{1,3}(\.\d{1,4})?(px|rem|em|%)")
_FAMILY = r"\s*(\"[\w -]{1,40}\"|'[\w -]{1,40}'|[\w -]{1,40})\s*"  # quotes must be balanced
FONT = re.compile(f"{_FAMILY}(,{_FAMILY}){{0,7}}")
# SMART style key -> (CSS variable, pattern)
MAPPING = {
    "color_background": ("--bg", COLOUR), "color_text": ("--fg", COLOUR),
    "color_highlight": ("--accent", COLOUR), "color_error": ("--crit", COLOUR),
    "color_success": ("--ok", COLOUR), "dim_border_radius": ("--radius", LENGTH),
    "dim_font_size": ("--font-size", LENGTH), "dim_spacing_size": ("--space", LENGTH),
    "font_family_body": ("--font", FONT), "font_family_heading": ("--font-heading", FONT),
}


def variables(style: dict) -> dict[str, str]:
    """The CSS variables for a SMART style document (invalid values dropped)."""
    out = {}
    for key, (var, pattern) in MAPPING.items():
        value = style.get(key)
        if isinstance(value, str) and pattern.fullmatch(value.strip()):
            out[var] = value.strip()
    return out


def css(style: dict) -> str:
    decls = "".join(f"{k}:{v};" for k, v in variables(style).items())
    return f":root{{{decls}}}\n" if decls else "/* no usable EHR style */\n"


def fetch_style(url: str, timeout: float) -> dict:
    """The style JSON at ``url`` (http(s) only, bounded size); {} on any failure."""
    if not url.lower().startswith(("http://", "https://")):
        return {}
    try:
        with requests.get(
            url, timeout=timeout, stream=True, headers={"Accept": "application/json"}
        ) as res:
            body = res.raw.read(MAX_BYTES + 1, decode_content=True)
            if res.status_code != 200 or len(body) > MAX_BYTES:
                return {}
        data = json.loads(body)
        return data if isinstance(data, dict) else {}
    # deep nesting: RecursionError
    except (requests.RequestException, ValueError, RecursionError) as exc:
        log.info("smart_style_url not usable: %s", type(exc).__name__)
        return {}


def css_for(url: str | None, app) -> str:
    """CSS for the launch's style URL, cached per app for an hour."""
    if not url:
        return css({})
    cache = app.extensions.setdefault("docgemma.styles", {})
    hit = cache.get(url)
    if hit and hit[0] > time.time():
        return hit[1]
    text = css(fetch_style(url, min(5.0, float(app.config["HTTP_TIMEOUT_S"]))))
    cache[url] = (time.time() + CACHE_S, text)
    return text
