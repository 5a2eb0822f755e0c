"""A draft's fixed words in the language the clinician asks for ("in French please", "em
português", "en español"): the document's title, its section headings and the sentences the code
writes itself, from the translation catalog; the chart's own words (problems, medications,
results, allergies, the clinician's added sentences) stay as recorded, and the answer says so.

    language_asked("en français") -> "fr"
    render(draft, "fr") -> the same Draft, its title and headings in French
"""

from __future__ import annotations

from dataclasses import replace

from ...languages import N_, fold, message, say
from .drafts import Draft, Line, Section, document_type, vocabulary

NAMES = {"fr": "French", "pt": "Portuguese", "es": "Spanish", "en": "English"}

# every word the code writes in a draft, marked for the catalog (``pybabel extract``)
FIXED = (
    N_("Discharge summary"), N_("Progress note"), N_("Handoff note (I-PASS)"),
    N_("Referral note"),
    N_("Problems"), N_("Medications (what changed and when)"), N_("Key results"),
    N_("Allergies"), N_("Plan and follow-up"), N_("Illness severity"), N_("Patient summary"),
    N_("Action list"), N_("Situation awareness and contingencies"), N_("Synthesis by receiver"),
    N_("Referral"), N_("Relevant history"), N_("Results"), N_("Medications"),
    N_("Added by the clinician"), N_("Checked against the chart"),
    N_("Watcher: a result above its contingency threshold"),
    N_("Stable: no result above a contingency threshold on the chart"),
    N_("No outstanding task recorded on the chart"),
    N_("No results recorded"),
    N_("Receiver restates the summary and the action list, and asks any question before "
       "taking over"),
    N_("No contingency rule covers this chart's results; call the senior with any concern"),
)


def language_asked(text: str) -> str | None:
    """The language a message asks the draft in ("in French please", "en español", "summarise
    in Spanish"), from ``drafts.yaml`` ``followup.language``; None when it asks none."""
    low = f" {' '.join(fold(text).lower().replace('’', chr(39)).split())} "
    for lang, words in (vocabulary()["followup"].get("language") or {}).items():
        if any(f" {fold(w).lower()} " in low or f" {fold(w).lower()}?" in low
               or f" {fold(w).lower()}," in low or f" {fold(w).lower()}." in low
               for w in words):
            return str(lang)
    return None


def _said(text: str, lang: str) -> str:
    return say(message(text), lang) if text in FIXED else text


def render(draft: Draft, lang: str) -> Draft:
    """``draft`` with its title, headings and the code's own sentences in ``lang`` (English,
    or a word the catalog lacks, as written); every line from the chart unchanged."""
    if lang == "en":
        return draft
    display = document_type(draft.kind)["display"]
    title = draft.title.replace(display, _said(display, lang), 1)
    sections = tuple(
        Section(_said(s.title, lang), tuple(Line(_said(x.text, lang), x.cite) for x in s.lines))
        for s in draft.sections
    )
    return replace(draft, title=title, sections=sections)


def note(lang: str) -> str:
    """What the answer says beside a draft rendered in ``lang``."""
    return (f"Drafted in {NAMES.get(lang, lang)}: the title, headings and the assistant's own "
            "sentences are translated; the chart's own words (problems, medications, results, "
            "allergies) and any sentence you added stay as recorded.")
