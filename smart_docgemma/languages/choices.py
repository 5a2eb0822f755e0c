"""The clinician's chosen language, remembered per practitioner (``language_choices``), and the
deployment default (``DOCGEMMA_LANGUAGE``): the page (``web/language.py``) and the CDS cards
(``cds/views.py``) read the same choice.
"""
from __future__ import annotations

import re

from flask import current_app
from sqlalchemy import bindparam, delete, insert, or_, select

from ..extensions import get_storage
from ..storage import language_choices, now

# Swahili: the interface only (answers and understanding stay English; docs/languages.md)
_COLUMN = language_choices.c.practitioner
_CHOICES = select(_COLUMN, language_choices.c.language).where(  # read per request: built once
    or_(_COLUMN == bindparam("user"), _COLUMN.like(bindparam("suffix"), escape="/")))

LANGUAGES = {
    "en": "English",
    "fr": "Français",
    "pt": "Português",
    "es": "Español",
    "sw": "Kiswahili",
}


def default_language() -> str:
    lang = current_app.config.get("LANGUAGE") or "en"
    return lang if lang in LANGUAGES else "en"


def remembered(user: str) -> str | None:
    """The language ``user`` chose on the page. The page keeps the launch's fhirUser, often
    absolute ("https://ehr/fhir/Practitioner/x"); a CDS hook's userId is "Practitioner/x": a
    choice kept under a URL ending in "/" + ``user`` is that practitioner's too."""
    # LIKE "…/<user>"; "/" escapes, so "//" is a slash
    suffix = "%//" + re.sub(r"([/%_])", r"/\1", user)
    with get_storage(current_app).read() as conn:
        rows = conn.execute(_CHOICES, {"user": user, "suffix": suffix}).all()
    rows.sort(key=lambda r: r.practitioner != user)  # the exact key first
    return next((r.language for r in rows if r.language in LANGUAGES), None)


def remember(user: str, language: str) -> None:
    """Keep ``user``'s choice (the table's ``practitioner`` column holds the launch's fhirUser)."""
    with get_storage(current_app).begin() as conn:
        conn.execute(delete(language_choices).where(language_choices.c.practitioner == user))
        conn.execute(
            insert(language_choices).values(practitioner=user, language=language, updated_at=now())
        )
