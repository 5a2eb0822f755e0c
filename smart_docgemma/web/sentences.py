"""Words the code writes in English and the page shows in its language: the values of a card's
fields ("not specified", "yes, for pain", "12 characters"), the second look's sentences, and
every ``languages.message`` (safety flags, error descriptions) a page renders.

A stored English value is read against the sentences marked here (``N_``, so ``pybabel
extract`` puts them in the catalogs): "%(n)s characters" reads "12 characters" and is shown as
"12 caractères". A value no sentence reads (a drug name, a code, the clinician's own words, a
model's claim) is shown as written. English pages show the English as stored.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from flask import Flask
from flask_babel import gettext

from .. import languages
from ..languages import N_
from .language import page_language

SENTENCES = (
    # card field values (tools/orders.py, proposals/editing.py)
    N_("not specified"), N_("none found (text only)"), N_("yes (no reason given)"),
    N_("yes, for %(reason)s"), N_("not stated"), N_("not stated (left unknown)"),
    N_("unconfirmed (not stated as confirmed)"), N_("confirmed"), N_("unconfirmed"),
    N_("mild"), N_("moderate"), N_("severe"), N_("high"), N_("low"), N_("unable-to-assess"),
    N_("%(n)s characters"), N_("%(n)s days"), N_("%(n)s weeks"), N_("%(n)s months"), N_("yes"),
    N_("not set"), N_("empty"), N_("No known allergy"), N_("medication"), N_("food"),
    N_("environment"), N_("biologic"),
    N_("Oral route"), N_("Intravenous route"), N_("Intramuscular route"), N_("Subcutaneous route"),
    N_("Respiratory tract route"), N_("Topical route"), N_("Rectal route"), N_("Sublingual route"),
    # the second look (agent/critic.py) and its severity
    N_("A safety check did not run (see the findings above); do not read its silence as safe."),
    N_("The critical %(kind)s finding above applies to this order: approve only if you have weighed it."),
    N_("Not supported by the sources: %(claim)s"), N_("Contradicts the chart: %(claim)s"),
    N_("Check not done: %(claim)s"), N_("Model unavailable: only the deterministic checks ran."),
    N_("The model part of the second look did not run (%(why)s)."),
    N_("Checked again after the edit (version %(n)s): the knowledge checks ran on the edited order."),
    N_("Checked again after the edit (version %(n)s): the knowledge checks ran on the edited order; "
       "the model's findings are from its review of version %(m)s."),
    N_("none"),
    # safety-check topics a second look names
    N_("safety"), N_("allergy"), N_("drug-interaction"), N_("drug-disease"), N_("renal"), N_("dose"),
    N_("pregnancy"), N_("lactation"), N_("age"), N_("duplicate-order"), N_("boxed_warning"),
    N_("lab-contraindication"), N_("paediatric-dose"), N_("additive-therapy"), N_("monitoring"),
)


@lru_cache(maxsize=1)
def _readers() -> tuple[tuple[re.Pattern[str], str], ...]:
    """Each sentence as a pattern that reads its arguments back from the English."""
    out = []
    for said in SENTENCES:
        pattern = re.sub(r"%\\\(([a-z]+)\\\)s", r"(?P<\1>.+?)", re.escape(said))
        out.append((re.compile(pattern + r"\Z", re.S), said))
    return tuple(out)


def shown(text: Any) -> Any:
    """``text`` in the page's language when a sentence of this module reads it; else as stored."""
    if not isinstance(text, str) or not text or page_language() == "en":
        return text
    for pattern, said in _readers():
        m = pattern.match(text)
        if m:
            return gettext(said, **{k: shown(v) for k, v in m.groupdict().items()})
    return text


def said(message: dict[str, Any] | None, english: Any = "") -> Any:
    """A ``languages.message`` in the page's language (``english`` without one, or in English)."""
    if not message or page_language() == "en":
        return english or (languages.english(message) if message else english)
    return languages.say(message, page_language())


def flag_text(flag: dict[str, Any]) -> str:
    """A safety flag's sentence on the card."""
    return str(said(flag.get("message"), flag.get("text", "")))


def error_text(error: Any) -> str:
    """An error's description on a page (its message in the page's language, when it has one)."""
    return str(said(getattr(error, "wording", None), error.description))


def init_app(app: Flask) -> None:
    app.jinja_env.globals.update(shown=shown, flag_text=flag_text, error_text=error_text,
                                 lab_label=lab_label)


def lab_label(code: str | None, name: str) -> str:
    """A chart test's name in the page's language (``translations/labs.yaml``), else as read."""
    return languages.lab_name(name, page_language(), code)
