"""Grounding: every factual sentence of an answer cited to a record the turn read, and checked.

``ground_turn(state, answer, base_url, mode)`` is the one call the synthesis step makes,
for model answers and templated (degraded) answers alike. ``evidence`` cuts what the turn
read into citable records; ``facts`` finds what a sentence claims; ``check`` cites, checks
and marks. Counted in ``docgemma_grounding_sentences{verdict}``.
"""

from __future__ import annotations

from .. import metrics
from .check import MARK, Citation, Grounded, SentenceCheck, ground
from .evidence import Evidence, turn_evidence

__all__ = [
    "MARK",
    "Citation",
    "Evidence",
    "Grounded",
    "SentenceCheck",
    "ground",
    "ground_turn",
    "turn_evidence",
]


def ground_turn(
    state, answer: str, base_url: str | None = None, mode: str = "mark", keep=frozenset()
) -> Grounded:
    """Cite and check ``answer`` against what ``state`` (an agent Turn) read; counted in metrics."""
    grounded = ground(answer, turn_evidence(state, base_url), mode, keep)
    for verdict in ("supported", "computed", "unsupported", "uncheckable"):
        metrics.grounded(verdict, grounded.count(verdict))
    return grounded
