"""Words the code writes in English, shown in the page's language: a card's field values and
the second look's sentences (read back by ``languages/wording.py``), every ``languages.message``
(safety flags, error descriptions) and the chart's test names (``translations/labs.yaml``). English
pages show the English as stored.
"""
from __future__ import annotations

from typing import Any

from flask import Flask
from markupsafe import Markup, escape

from .. import languages
from ..approval.types import SafetyFlag
from ..languages.wording import reread
from .language import page_language


def shown(text: Any) -> Any:
    """``text`` in the page's language when a sentence of ``languages/wording.py`` reads it; else as
    stored."""
    return reread(text, page_language())


def said(message: dict[str, Any] | None, english: Any = "") -> Any:
    """A ``languages.message`` in the page's language (``english`` without one, or in English)."""
    if not message or page_language() == "en":
        return english or (languages.english(message) if message else english)
    return languages.say(message, page_language())


def flag_text(flag: SafetyFlag) -> Markup:
    """A safety flag's sentence on the card: in the page's language, followed on other pages by
    the source's clinical clause in English (marked ``lang="en"``) that the translated sentence
    does not carry — the clinician is never shown less than the English card says."""
    message, text = flag.get("message"), str(flag.get("text", ""))
    shown_text = escape(str(said(message, text)))
    clause = languages.clinical_clause(message, text) if message and page_language() != "en" else ""
    if not clause:
        return Markup(shown_text)
    return Markup('{} <span class="flag-source-text" lang="en">({})</span>').format(
        shown_text, clause
    )


def error_text(error: Any) -> str:
    """An error's description on a page (its message in the page's language, when it has one)."""
    return str(said(getattr(error, "wording", None), error.description))


def init_app(app: Flask) -> None:
    app.jinja_env.globals.update(shown=shown, flag_text=flag_text, error_text=error_text,
                                 lab_label=lab_label)


def lab_label(code: str | None, name: str) -> str:
    """A chart test's name in the page's language (``translations/labs.yaml``), else as read."""
    return languages.lab_name(name, page_language(), code)
