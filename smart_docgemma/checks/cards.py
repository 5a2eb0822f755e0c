"""CDS Hooks 2.0 cards from problems, built so they always follow the rules (§CDS Service Response).

- ``summary`` is one sentence under 140 characters that says what to do;
- ``detail`` (GitHub Markdown) gives each finding's mechanism, management and
  the patient's own evidence, then every source with its link;
- ``indicator`` is the highest finding's; ``source`` is the lead finding's,
  and every source is also a ``links`` entry;
- optional fields are omitted rather than empty (no ``""``, ``[]``, ``{}``);
- cards and suggestions carry uuids, so feedback can name them;
- suggestions are actions an EHR can apply as a transaction: ``delete`` of the
  draft (``resourceId``), or ``create`` of the safer alternative the knowledge
  names plus ``delete`` of the draft; ``selectionBehavior`` is present exactly
  when there are suggestions, at most one is recommended, and every override
  reason has a ``display`` (invariants cds-resp-1…6).
"""
from __future__ import annotations

import uuid
from typing import Any

from ..languages import N_, message, say
from .findings import Finding, Problem, Source, fit_summary

SOURCE = {"label": "DocGemma Connect", "url": "https://github.com/smart-docgemma"}
RXNORM = "http://www.nlm.nih.gov/research/umls/rxnorm"

OVERRIDE_REASONS = [
    {"code": "benefit-outweighs-risk", "system": "urn:docgemma:override-reason",
     "display": "Benefit outweighs risk for this patient"},
    {"code": "monitoring-in-place", "system": "urn:docgemma:override-reason",
     "display": "Patient will be monitored"},
    {"code": "already-addressed", "system": "urn:docgemma:override-reason",
     "display": "Already addressed"},
    {"code": "not-accurate", "system": "urn:docgemma:override-reason",
     "display": "Information is not accurate for this patient"},
]


def card(problem: Problem, language: str = "en") -> dict:
    """The one card for a problem in ``language`` (en, fr, pt, es): the summary and the detail's
    headings from the findings' language-neutral messages; the clinical text of the sources
    (mechanism, management, evidence) stays English, with the English summary in the detail, as
    it has no reviewed translation. "fr" also shows the French source text (ANSM)."""
    out = {
        "uuid": str(uuid.uuid4()),
        "summary": _summary(problem.lead, language),
        "indicator": problem.severity,
        "source": _source(problem.lead.sources, problem.lead.topic),
    }
    detail = _detail(problem, language)
    if detail:
        out["detail"] = detail
    suggestions = _suggestions(problem)
    if suggestions:
        out["suggestions"] = suggestions
        out["selectionBehavior"] = "at-most-one"
    if problem.severity != "info":
        out["overrideReasons"] = OVERRIDE_REASONS
    links = [{"label": s.label, "url": s.url, "type": "absolute"}
             for s in problem.sources if s.url.startswith(("http://", "https://"))]
    if links:
        out["links"] = links
    return out


def smart_link_card(app_launch_url: str, patient_name: str | None, language: str = "en") -> dict:
    """The 'open the assistant' card: a ``smart`` link the EHR launches with iss+launch."""
    general = N_("Open DocGemma to review the chart and ask clinical questions")
    named = (
        [
            say(
                message(
                    N_("Open DocGemma to review the chart for %(name)s and ask clinical questions"),
                    name=patient_name,
                ),
                language,
            )
        ]
        if patient_name
        else []
    )
    return {
        "uuid": str(uuid.uuid4()),
        "summary": fit_summary(named + [_label(general, language)]),
        "indicator": "info",
        "source": dict(SOURCE),
        "links": [{"label": _label(N_("Open DocGemma assistant"), language), "url": app_launch_url,
                   "type": "smart"}],
    }


def _summary(f: Finding, language: str) -> str:
    """What to do, under 140 characters, in ``language`` (English without a message)."""
    if language == "en" or not f.message:
        return f.summary
    return fit_summary([say(f.message, language)])


def _label(text: str, language: str) -> str:
    return text if language == "en" else say(message(text), language)


_IN_ENGLISH = N_("In English")
_RISK, _MECHANISM = N_("Risk"), N_("Mechanism")
_MANAGEMENT, _PATIENT, _SOURCES = N_("Management"), N_("This patient"), N_("Sources")


def _detail(problem: Problem, language: str = "en") -> str:
    parts = []
    for f in problem.findings:
        lines = _heading(f, f is problem.lead, language)
        # a dose, kidney or age limit states a risk, not a mechanism
        why = _label(_RISK if f.topic in ("dose", "renal", "age") else _MECHANISM, language)
        lines += [f"- **{why}:** {f.mechanism}"] if f.mechanism else []
        lines += [f"- **{_label(_MANAGEMENT, language)}:** {f.management}"] if f.management else []
        lines += [f"- **{_label(_PATIENT, language)}:** {e}" for e in f.evidence]
        lines += (
            [f"- **Texte source (ANSM) :** {' '.join(f.quote.split())}"]
            if f.quote and language == "fr"
            else []
        )
        if lines:
            parts.append("\n".join(lines))
    sources = [f"[{s.label}]({s.url})" if s.url else s.label for s in problem.sources]
    if sources:
        parts.append(f"**{_label(_SOURCES, language)}:** " + " · ".join(sources))
    return "\n\n".join(parts).strip()


def _heading(f: Finding, lead: bool, language: str) -> list[str]:
    """The lead finding's sentence is the card's summary; the others get their own heading. In
    another language each finding's full English sentence follows (the clinical clause)."""
    english = [f"- **{_label(_IN_ENGLISH, language)}:** {f.summary}"] if language != "en" else []
    if lead:
        return english
    said = say(f.message, language) if f.message and language != "en" else f.summary
    return [f"**{said}** ({_label(f.severity, language)})"] + english


def _source(sources: list[Source], topic: str) -> dict:
    lead = sources[0] if sources else Source(SOURCE["label"], SOURCE["url"])
    src: dict[str, Any] = {"label": lead.label}
    if lead.url.startswith(("http://", "https://")):
        src["url"] = lead.url
    if topic:
        src["topic"] = {
            "system": "urn:docgemma:cds-topic",
            "code": topic,
            "display": topic.replace("-", " "),
        }
    return src


def _suggestions(problem: Problem) -> list[dict]:
    draft = problem.draft
    if not draft and problem.active and problem.active.get("id"):
        return [_stop(problem.active, problem.alternative)]
    if not draft or not draft.get("id"):
        return []
    ref = f"MedicationRequest/{draft['id']}"
    name = _drug_text(draft)
    remove: dict[str, Any] = {"label": f"Remove the {name} draft", "uuid": str(uuid.uuid4()),
              "actions": [_delete(ref, name)]}
    alternative = problem.alternative
    if not alternative:
        remove["isRecommended"] = True
        return [remove]
    replace = {
        "label": f"Replace {name} with {alternative['display']}",
        "uuid": str(uuid.uuid4()),
        "isRecommended": True,
        "actions": [
            _delete(ref, name),
            {
                "type": "create",
                "description": f"Draft {alternative['display']} instead of {name}"
                               f"{_stated_by(alternative)}",
                "resource": _replacement(draft, alternative),
            },
        ],
    }
    return [replace, remove]


def _stop(active: dict, alternative: dict | None) -> dict:
    """Stop an active order (an ``update`` of the whole resource), and draft the alternative if one
    is named."""
    name = _drug_text(active)
    stopped = {
        **active,
        "status": "stopped",
        "statusReason": {"text": "Stopped from a DocGemma CDS card: " + _stop_reason(alternative)},
    }
    stopped.pop("meta", None)
    actions = [{"type": "update", "description": f"Stop {name} (MedicationRequest/{active['id']})",
                "resource": stopped}]
    label = f"Stop {name}"
    if alternative:
        actions.append(
            {
                "type": "create",
                "description": f"Draft {alternative['display']} in its place"
                               f"{_stated_by(alternative)}",
                "resource": _replacement(active, alternative),
            }
        )
        label += f" and draft {alternative['display']}"
    return {"label": label, "uuid": str(uuid.uuid4()), "isRecommended": True, "actions": actions}


def _stated_by(alternative: dict) -> str:
    """The source the replacement table names for its draft (``checks/knowledge.yaml``)."""
    return f" ({alternative['source']}: \"{alternative['says']}\")" if alternative.get(
        "source") else ""


def _stop_reason(alternative: dict | None) -> str:
    return f"replaced by {alternative['display']}" if alternative else "unsafe for this patient"


def _delete(ref: str, name: str) -> dict:
    return {
        "type": "delete",
        "description": f"Remove the {name} draft ({ref}) from the order session",
        "resourceId": ref,
    }


def _replacement(draft: dict, alternative: dict) -> dict:
    """A draft MedicationRequest for the alternative; dose and timing are left to the prescriber."""
    resource = {
        "resourceType": "MedicationRequest",
        "status": "draft",
        "intent": "order",
        "medicationCodeableConcept": {
            "text": alternative["display"],
            "coding": [
                {"system": RXNORM, "code": alternative["rxnorm"], "display": alternative["display"]}
            ],
        },
        "note": [{"text": f"Proposed by DocGemma in place of {_drug_text(draft)}; set the dose."}],
    }
    for key in ("subject", "encounter", "requester"):
        if draft.get(key):
            resource[key] = draft[key]
    return resource


def _drug_text(resource: dict) -> str:
    concept = resource.get("medicationCodeableConcept") or {}
    display = next(
        (c.get("display") for c in concept.get("coding") or [] if c.get("display")), None
    )
    return " ".join((concept.get("text") or display or "medication").split())
