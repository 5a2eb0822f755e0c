"""What a CDS hook call answers: the data each hook requires (``REQUIRED``), and its cards
(``cards_for``): patient-view's findings on the chart, less what was already shown
(``quiet``), with the card that opens the assistant; order-select and order-sign's findings
on the drafts. The rules themselves are ``rules.py``.
"""
from __future__ import annotations

from . import hookdata, quiet
from .cards import card, smart_link_card
from .context import HookData
from .findings import group
from .rules import order_checks, patient_view

REQUIRED = {
    "patient-view": {"medications", "allergies"},
    "order-select": {"medications", "allergies", "conditions"},
    "order-sign": {"medications", "allergies", "conditions"},
}


def cards_for(hook: str, body: dict, data: HookData, launch_url: str,
              language: str = "en") -> list[dict]:
    """The cards for one hook call: one per problem, most severe first, in ``language`` (en, fr,
    pt, es; ``cards.card``); "fr" also adds the French source text (ANSM) to the details."""
    if hook == "patient-view":
        patient = quiet.chart_key(body)
        problems = quiet.keep_new(patient, group(patient_view(data)))
        cards = [card(p, language) for p in problems]
        quiet.remember(patient, zip(cards, problems, strict=False))
        cards.append(
            smart_link_card(launch_url, hookdata.patient_name(data.get("patient")), language)
        )
    else:
        problems = group(order_checks(hookdata.drafts(body, hook == "order-select"), data))
        cards = [card(p, language) for p in problems if not all(f.quiet for f in p.findings)]
    return cards
