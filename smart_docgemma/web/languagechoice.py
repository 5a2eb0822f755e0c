"""The page's language control (``POST /app/language``): the clinician's choice, remembered for
this practitioner (``languages/choices.py``); the page's language itself is ``language.py``."""
from __future__ import annotations

from flask import Blueprint, g, redirect, url_for
from werkzeug.wrappers import Response

from .. import errors, inputs
from ..languages.choices import LANGUAGES, remember
from ..session import launches as sessions

bp = Blueprint("language", __name__)


@bp.post("/app/language")
def choose() -> Response:
    """The page's language control: remembered for this practitioner, then back to the page."""
    launch = sessions.current_launch()
    lang = inputs.form_value("language") or ""
    if lang not in LANGUAGES:
        raise errors.BadRequest(
            f"Unknown language {lang[:10]!r}: choose one of {', '.join(LANGUAGES)}."
        )
    if not launch.user:
        raise errors.BadRequest("This launch does not say who you are, so a choice cannot be kept.")
    remember(launch.user, lang)
    g.pop("docgemma_language", None)
    return redirect(url_for("chat.app_page"), code=303)
