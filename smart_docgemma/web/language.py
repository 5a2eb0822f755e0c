"""The page's language (Flask-Babel): the clinician's choice, remembered per practitioner
(``language_choices``), else the browser's ``Accept-Language`` inside the EHR frame, else the
deployment default ``DOCGEMMA_LANGUAGE``. The same language is the agent's answer language
(``ToolContext.language``). Catalogs: ``smart_docgemma/translations`` (docs/languages.md).
"""
from __future__ import annotations

import re
from datetime import date

from flask import Flask, g, has_request_context
from flask_babel import Babel, format_date, format_decimal, gettext

from .. import errors, inputs
from ..agent import languages
from ..languages import N_
from ..languages.choices import LANGUAGES, default_language, remembered
from ..session import launches as sessions
from ..storage import UNREACHABLE

# the labels of a card's fields (tools/writes/orders.py writes them into the proposal's summary)
CARD_FIELDS = frozenset(
    (
        N_("Medication"),
        N_("Dose"),
        N_("Route"),
        N_("Frequency"),
        N_("Code"),
        N_("Notes"),
        N_("Substance"),
        N_("Reaction"),
        N_("Severity"),
        N_("Note type"),
        N_("Length"),
        N_("As needed"),
        N_("Duration"),
        N_("Quantity to dispense"),
        N_("Verification"),
        N_("Criticality"),
        N_("Instructions"),
    )
)

babel = Babel()


def init_app(app: Flask) -> None:
    babel.init_app(app, locale_selector=page_language)
    app.jinja_env.globals.update(page_language=page_language, languages=LANGUAGES,
                                 format_decimal=format_decimal, format_date=format_date,
                                 field_label=field_label, script_strings=script_strings,
                                 page_text=page_text)
    app.jinja_env.filters["local_date"] = local_date
    app.jinja_env.filters["local_dates"] = local_dates


def script_strings() -> dict[str, str]:
    """The words ``static/app.js`` writes, in the page's language (the form's data-strings)."""
    return {
        "failed": gettext("The request failed (HTTP %s)."),
        "progress": gettext("Progress"),
        "consulting": gettext("Consulting: "),
        "lost": gettext("The connection was lost. Reload the page to see the answer."),
        "characters": gettext("characters"),
        "too_large": gettext("This image is too large (limit %s MB)."),
        "cancel": gettext("Cancel"),
        "stop": gettext("Stop this answer (Escape)"),
        "cancelling": gettext("Cancelling…"),
        "working": gettext("Working…"),
        "unreachable": gettext(
            "The assistant could not be reached. Check the connection and try again."
        ),
        "ask": gettext("Ask"),
    }


def local_date(value: object) -> object:
    """An ISO date ("1943-05-12", or the date of a timestamp) in the page's language's format
    ("12 mai 1943"); English pages keep the ISO date, as clinicians there read it today."""
    if not value or page_language() == "en":
        return value
    try:
        day = date.fromisoformat(str(value)[:10])
    except ValueError:
        return value
    return format_date(day, "medium")


def local_dates(label: object) -> object:
    """A label the code wrote around a record's date ("Observation: Potassium 2026-11-10", a
    citation or a source) with its ISO days in the page's language's format."""
    if not label or page_language() == "en":
        return label
    return _ISO_DAY.sub(lambda m: str(local_date(m[0])), str(label))


_ISO_DAY = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")


def field_label(label: str) -> str:
    """A card field's label in the page's language (an unknown label as it was written)."""
    return gettext(label) if label in CARD_FIELDS else label


def page_text(section: str, key: str) -> str | None:
    """An answer-file text (``agent/answers/<lang>.yaml``) in this turn's language, or while a
    page renders in the page's language; None in English or where not written."""
    said = languages.answer_text(section, key)
    if said is None and has_request_context() and page_language() != "en":
        said = (languages.answers(page_language()).get(section) or {}).get(key)
    return said


def page_language() -> str:
    """This request's language (decided once per request)."""
    if not has_request_context():
        return default_language()
    if "docgemma_language" not in g:
        g.docgemma_language = (_chosen() or inputs.best_language(list(LANGUAGES))
                               or default_language())
    return g.docgemma_language


def _user() -> str | None:
    """Whose choice: the launch's fhirUser (None outside a launch or when it is not known)."""
    try:
        return sessions.current_launch().user
    except errors.DocGemmaError:
        return None


def _chosen() -> str | None:
    try:
        who = _user()
        return remembered(who) if who else None
    except UNREACHABLE:  # the database is down: the browser's language, and the page says why
        return None
