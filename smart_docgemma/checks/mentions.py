"""Findings cannot be lost: whatever a model writes, every finding of severity warning or above
that a tool returned appears in the answer.

A tool puts its findings in ``ToolResult.data["safety_findings"]`` (the chart's review in
``ChartData.safety_findings``; ``ToolResult.safety_findings`` reads either) as ``Mention``s: the
line to show and the words an answer must hold to have said it (the drug, and the other drug, the
condition, the lab or the topic). ``missing`` lists those the answer does not hold; the synthesis
appends them, visibly labelled as added by code.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from ..languages import answer_language, answer_text, say
from .findings import Finding

SEVERE = ("critical", "warning")
TOPIC_WORDS = {
    "allergy": ["allerg", "anaphyla", "cross-react"],
    "pregnancy": ["pregnan", "fetal", "foetal"],
    "lactation": ["breastfe", "lactat"],
    "renal": ["egfr", "renal", "kidney"],
    "monitoring": ["potassium", "inr", "lithium", "creatinine", "egfr", "level"],
    "duplicate-order": ["duplicate", "already"],
    "paediatric-dose": ["dose", "mg/kg"],
    "boxed-warning": ["boxed"],
    "lab-contraindication": ["potassium", "k+", "hyperkal"],
}
HEADING = "**Safety findings the answer above did not state (added by code from the checks):**"


@dataclass(frozen=True)
class Mention:
    severity: str
    text: str  # the line shown when the answer lacks it
    terms: tuple[tuple[str, ...], ...]  # each group: one of these words must appear
    said: dict | None = None  # the line language-neutral (languages.message), for other languages

    def said_in(self, answer: str) -> bool:
        low = answer.lower()
        if self.text.lower() in low or (self.said and shown(self).lower() in low):
            return True  # the line itself, in English or in this turn's language
        return all(any(w in low for w in group) for group in self.terms)

    def to_dict(self) -> dict:
        return asdict(self)


def of_finding(finding: Finding, line: str, drug: str) -> Mention:
    """The mention of one patient finding: the drug plus what the finding is about."""
    groups = [_names(drug)]
    if finding.topic in ("drug-interaction", "additive-therapy") and finding.fingerprint_of:
        groups.append(_names(str(finding.fingerprint_of[0])))
    elif finding.topic == "drug-disease" and finding.fingerprint_of:
        groups.append(_condition_words(str(finding.fingerprint_of[0])))
    elif finding.topic in TOPIC_WORDS:
        groups.append(tuple(TOPIC_WORDS[finding.topic]))
    return Mention(finding.severity, line, tuple(groups), finding.message)


def of_pair(severity: str, a: str, b: str, text: str) -> Mention:
    return Mention(severity, f"{severity.upper()} — {a} + {b}: {text}", (_names(a), _names(b)))


FAILURE_WORDS = ("could not", "unreachable", "unavailable", "not be checked", "out of date")


def of_source_failure(text: str, said: dict | None = None) -> Mention:
    """A source that failed while other checks answered: the answer must still say so, or a
    model's fluent text would read as if every source had been checked."""
    return Mention("warning", text.strip(), (FAILURE_WORDS,), said)


def _names(drug: str) -> tuple[str, ...]:
    """A drug is named by any of its ingredients ("amoxicillin" names Augmentin)."""
    return tuple(dict.fromkeys([drug.lower(), *drug.lower().split("/")]))


def _condition_words(condition: str) -> tuple[str, ...]:
    words = [w.strip("(),.") for w in condition.lower().split()]
    return tuple(w for w in words if len(w) >= 4) or (condition.lower(),)


def missing(answer: str, runs) -> list[Mention]:
    """Warning-or-above mentions of the turn's tool results that ``answer`` does not state."""
    found: dict[str, Mention] = {}
    for run in runs:
        for raw in run.result.safety_findings():
            m = (
                raw
                if isinstance(raw, Mention)
                else Mention(raw["severity"], raw["text"], tuple(tuple(g) for g in raw["terms"]),
                             raw.get("said"))
            )
            if m.severity in SEVERE and not m.said_in(answer):
                found.setdefault(m.text, m)
    return sorted(found.values(), key=lambda m: SEVERE.index(m.severity))


def appended(answer: str, runs) -> str:
    """``answer`` with every lost finding added under a visible heading."""
    lost = missing(answer, runs)
    if not lost:
        return answer
    heading = answer_text("guard", "heading") or HEADING
    return answer.rstrip() + "\n\n" + heading + "\n" + "\n".join(f"- {shown(m)}" for m in lost)


def shown(mention: Mention) -> str:
    """The mention's line in this turn's language (its message there, the English otherwise)."""
    lang = answer_language()
    if lang == "en" or not mention.said:
        return mention.text
    said = say(mention.said, lang)
    if mention.text.startswith(f"{mention.severity.upper()} — "):
        said = f"{answer_text('guard', mention.severity) or mention.severity.upper()} — {said}"
    return said
