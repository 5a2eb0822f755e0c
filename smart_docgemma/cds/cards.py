"""CDS Hooks 2.0 cards, built so they always follow the rules (§CDS Service Response).

- ``summary`` is one sentence under 140 characters (cut on a word boundary);
- ``indicator`` is info | warning | critical; ``source`` has a label and URL;
- optional fields are omitted rather than empty (no ``""``, ``[]``, ``{}``);
- cards and suggestions carry uuids, so feedback can name them;
- ``selectionBehavior`` is present exactly when there are suggestions, and
  every override reason has a ``display`` (invariants cds-resp-1…6).
"""
from __future__ import annotations

import uuid
from dataclasses import dataclass, field

SUMMARY_MAX = 139
SOURCE = {"label": "DocGemma Connect", "url": "https://github.com/smart-docgemma"}

OVERRIDE_REASONS = [
    {"code": "benefit-outweighs-risk", "system": "urn:docgemma:override-reason",
     "display": "Benefit outweighs risk for this patient"},
    {"code": "monitoring-in-place", "system": "urn:docgemma:override-reason",
     "display": "Patient will be monitored"},
    {"code": "not-accurate", "system": "urn:docgemma:override-reason",
     "display": "Information is not accurate for this patient"},
]


@dataclass
class Finding:
    """One problem a deterministic rule found, before it becomes a card."""

    indicator: str  # info | warning | critical
    summary: str
    detail: str = ""
    source_label: str = ""
    source_url: str = ""
    draft_ref: str | None = None  # e.g. MedicationRequest/draft-1, for a remove suggestion
    topic: str = ""
    extra: dict = field(default_factory=dict)


def summary_text(text: str) -> str:
    """One line under 140 characters, cut at a word with an ellipsis."""
    text = " ".join(text.split())
    if len(text) <= SUMMARY_MAX:
        return text
    cut = text[: SUMMARY_MAX - 1].rsplit(" ", 1)[0]
    return cut.rstrip(",;:-") + "…"


def card(finding: Finding) -> dict:
    """A card for a finding; with a draft order it offers 'remove' and override reasons."""
    out = {"uuid": str(uuid.uuid4()), "summary": summary_text(finding.summary),
           "indicator": finding.indicator, "source": _source(finding)}
    if finding.detail.strip():
        out["detail"] = finding.detail.strip()
    if finding.draft_ref:
        out["suggestions"] = [_remove(finding.draft_ref)]
        out["selectionBehavior"] = "at-most-one"
        out["overrideReasons"] = OVERRIDE_REASONS
    return out


def smart_link_card(app_launch_url: str, patient_name: str | None) -> dict:
    """The 'open the assistant' card: a ``smart`` link the EHR launches with iss+launch."""
    who = f" for {patient_name}" if patient_name else ""
    return {
        "uuid": str(uuid.uuid4()),
        "summary": summary_text(f"Open DocGemma to review the chart{who} and ask clinical questions"),
        "indicator": "info",
        "source": dict(SOURCE),
        "links": [{"label": "Open DocGemma assistant", "url": app_launch_url, "type": "smart"}],
    }


def _source(finding: Finding) -> dict:
    src = {"label": finding.source_label or SOURCE["label"]}
    url = finding.source_url or SOURCE["url"]
    if url.startswith(("http://", "https://")):
        src["url"] = url
    if finding.topic:
        src["topic"] = {"system": "urn:docgemma:cds-topic", "code": finding.topic,
                        "display": finding.topic.replace("-", " ")}
    return src


def _remove(draft_ref: str) -> dict:
    return {
        "label": "Remove this draft order",
        "uuid": str(uuid.uuid4()),
        "isRecommended": True,
        "actions": [{"type": "delete", "description": f"Remove {draft_ref} from the order session",
                     "resourceId": draft_ref}],
    }
