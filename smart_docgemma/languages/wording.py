"""Fixed English words the code writes and stores as text (a card's field values, the second
look's sentences, safety severities), and how they are read back into the clinician's language:
``reread("12 characters", "fr")`` is "12 caractères". Each sentence is marked (``N_``) so
``pybabel extract`` puts it in the catalogs; its arguments are read back from the English. A
text no sentence reads (a drug name, a code, the clinician's own words, a model's claim) is
kept as written.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from . import N_, catalog

SENTENCES = (
    # card field values (tools/writes/orders.py, proposals/editing.py)
    N_("not specified"), N_("none found (text only)"),
    N_("not in the shipped RxNorm tables (text only)"), N_("yes (no reason given)"),
    N_("yes, for %(reason)s"), N_("not stated"), N_("not stated (left unknown)"),
    N_("unconfirmed (not stated as confirmed)"), N_("confirmed"), N_("unconfirmed"),
    N_("mild"), N_("moderate"), N_("severe"), N_("high"), N_("low"), N_("unable-to-assess"),
    N_("%(n)s characters"), N_("%(n)s days"), N_("%(n)s weeks"), N_("%(n)s months"), N_("yes"),
    N_("not set"), N_("empty"), N_("No known allergy"), N_("medication"), N_("food"),
    N_("environment"), N_("biologic"),
    N_("Oral route"), N_("Intravenous route"), N_("Intramuscular route"), N_("Subcutaneous route"),
    N_("Respiratory tract route"), N_("Topical route"), N_("Rectal route"), N_("Sublingual route"),
    N_("intravenous"), N_("intramuscular"), N_("subcutaneous"), N_("inhaled"), N_("topical"),
    # the second look (agent/second_look.py) and its severity
    N_("A safety check did not run (see the findings above); do not read its silence as safe."),
    N_("The critical %(kind)s finding above applies to this order: approve only if you have "
       "weighed it."),
    N_("Not supported by the sources: %(claim)s"), N_("Contradicts the chart: %(claim)s"),
    N_("Check not done: %(claim)s"), N_("Model unavailable: only the deterministic checks ran."),
    N_("The model part of the second look did not run (%(why)s)."),
    N_("Checked again after the edit (version %(n)s): the knowledge checks ran on the edited "
       "order."),
    N_("Checked again after the edit (version %(n)s): the knowledge checks ran on the edited "
       "order; "
       "the model's findings are from its review of version %(m)s."),
    N_("none"),
    # safety-check topics a second look names
    N_("safety"), N_("allergy"), N_("drug-interaction"), N_("drug-disease"), N_("renal"),
    N_("dose"),
    N_("pregnancy"), N_("lactation"), N_("age"), N_("duplicate-order"), N_("boxed_warning"),
    N_("lab-contraindication"), N_("paediatric-dose"), N_("additive-therapy"), N_("monitoring"),
    # proposal titles (tools/writes/orders.py)
    N_("Prescribe %(what)s"), N_("Record allergy: %(what)s"), N_("Record no known allergies"),
    N_("Save %(what)s"),
    N_("by mouth"), N_("critical"), N_("warning"), N_("info"), N_("pain"), N_("fever"),
)


@lru_cache(maxsize=1)
def _readers() -> tuple[tuple[re.Pattern[str], str], ...]:
    """Each sentence as a pattern that reads its arguments back from the English."""
    out = []
    for said in SENTENCES:
        pattern = re.sub(r"%\\\(([a-z]+)\\\)s", r"(?P<\1>.+?)", re.escape(said))
        out.append((re.compile(pattern + r"\Z", re.S), said))
    return tuple(out)


def reread(text: Any, lang: str) -> Any:
    """``text`` in ``lang`` when a sentence reads it; else as written (always in English)."""
    if not isinstance(text, str) or not text or lang == "en":
        return text
    for pattern, said in _readers():
        m = pattern.match(text)
        if m:
            args = {k: reread(v, lang) for k, v in m.groupdict().items()}
            translated = catalog(lang).gettext(said)
            return translated % args if args else translated
    return text
