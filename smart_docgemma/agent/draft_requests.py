"""Requests for a document drafted from the chart, understood by code: "draft a discharge
summary", "handoff for the night team", "lettre de sortie", "refer to nephrology with a letter
including the eGFR trend" (words in ``tools/data/drafts.yaml``), and the follow-ups that change
the pending draft in place ("make it urgent", "add the potassium to the letter").

``draft_call`` gives the ``draft_document`` call, or None; ``requested`` tells planning that the
turn is a draft (the draft is its one tool: the referral inside a letter is not ordered twice).
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import TYPE_CHECKING, Any, cast

from pydantic import ValidationError

from ..reading.slips import document_named
from ..reading.ward import Ward, read_ward
from ..tools import catalog
from ..tools.base import ToolContext
from ..tools.writes import draft_words, drafts
from .state import Turn

if TYPE_CHECKING:
    from ..proposals.store import Proposal, ProposalStore

TOOL = "draft_document"
_BIRTH = re.compile(r"\b((?:19|20)\d{2}-\d{2}-\d{2})\b")
# a question about what the draft holds ("does it mention the penicillin allergy?", "est-ce
# qu'elle mentionne …", "¿menciona la alergia?") asks, it adds nothing; nor is a drug named as an
# allergy ("the penicillin allergy", "l'allergie à la pénicilline") a drug given
_ASKS_OF_IT = re.compile(
    r"^\W*(?:does|did|do|is|has|have|will|would)\s+(?:it|the|this|that|your|my)\b|"
    r"^\W*(?:est[- ]ce qu|(?:il|elle|ça|ca) (?:mentionne|inclut|parle)|(?:ela|ele|isso) "
    r"(?:menciona|inclui|fala)|(?:menciona|incluye|habla|inclui))\b", re.I)
_ALLERGY_BESIDE = re.compile(r"\b(?:allerg\w*|alerg\w*)\b", re.I)


def requested(state: Turn) -> bool:
    """A draft asked for in this message, or drafted already in this turn."""
    return kind_asked(state.message) is not None or any(
        r.tool == TOOL for r in state.tool_runs
    )


def kind_asked(message: str) -> drafts.Kind | None:
    """The document asked, its name read as meant when typed with one slip ("d/c sumary")."""
    return drafts.request_kind(document_named(message))


def _pending(ctx: ToolContext) -> list[Proposal]:
    # the tools see the store as a ProposalSink (what they call); planning reads its cards
    store = cast("ProposalStore | None", ctx.proposals)
    if store is None or not hasattr(store, "for_session"):
        return []
    mine = [p for p in store.for_session(ctx.sid or "") if p.tool == TOOL and p.status == "pending"]
    return sorted(mine, key=lambda p: p.created_at)


def _fresh(
    message: str, kind: drafts.Kind, patient: str, pending: list[Proposal], named: tuple[str, ...],
    ward: Ward, drugs: tuple[str, ...] = (),
) -> dict[str, Any]:
    birth = _BIRTH.search(message)
    include = drafts.named_analytes(message)[:8]
    # "GP letter - mention the potassium": a result the draft is to show, never a drug started
    results = {a.lower() for a in include}
    return {
        "drugs": [d for d in drugs if d.lower() not in results][:8],
        "additions": list(drafts.additions(message)),
        "patient_id": patient,
        "kind": kind,
        "request": message[:400],
        "specialty": ward.specialties[0] if ward.specialties else None,
        "priority": ward.priority,
        "include": include,
        "birth_date": birth.group(1) if birth else None,
        "patient_name": named[0] if named else None,
        "supersedes": [p.id for p in pending if (p.summary.get("draft") or {}).get("kind") == kind][
            -4:
        ],
        "language": draft_words.language_asked(message) or "en",
    }


def _revised(message: str, card: Proposal, drugs: tuple[str, ...] = (),
             dosed: bool = False) -> dict[str, Any] | None:
    """The pending draft's request with this follow-up's change, or None when it asks none: a
    sentence to add ("add that he should avoid NSAIDs") is kept as written, and the drugs it
    names are checked with the draft; a drug put in without a dose ("ponle también el
    salbutamol") is the draft's, checked with it."""
    words, before = drafts.vocabulary()["followup"], dict(card.summary.get("draft") or {})
    if not before:
        return None
    added_text = drafts.additions(message)
    put_in = (bool(drugs) and not dosed and drafts.says(message, words["add"])
              and not _ASKS_OF_IT.search(message) and not _ALLERGY_BESIDE.search(message))
    if drugs and not added_text and not put_in:
        return None  # "add aspirin 300mg stat": an order beside the draft, checked on its own card
    changed = dict(before)
    if put_in and not added_text:
        changed["drugs"] = list(dict.fromkeys([*(before.get("drugs") or []), *drugs]))[:8]
    if added_text:
        changed["additions"] = [*(before.get("additions") or []), *added_text][-6:]
        given = () if any(drafts.not_given(a) for a in added_text) else drugs
        changed["drugs"] = list(dict.fromkeys([*(before.get("drugs") or []), *given]))[:8]
    if drafts.says(message, words["urgent"]):
        changed["priority"] = "urgent"
    if drafts.says(message, words["shorter"]):
        changed["brief"] = True
    language = draft_words.language_asked(message)
    if language:  # "in French please": the same draft, its fixed words in French
        changed["language"] = language
    added = [a for a in drafts.named_analytes(message) if a not in (before.get("include") or [])]
    if added and drafts.says(message, words["add"]):
        changed["include"] = [*(before.get("include") or []), *added][:8]
    if changed == before:
        return None
    changed["request"] = f"{before.get('request', '')} / {message}"[:400]
    return {**changed, "supersedes": [card.id]}


def draft_call(state: Turn, tools: Collection[str],
               ctx: ToolContext | None) -> tuple[str, dict[str, Any]] | None:
    """The ``draft_document`` call this message asks for (a new draft or a revised one), always
    for the patient in context: a request naming someone else is refused by the tool, saying why."""
    patient = ctx.patient_id if ctx is not None else None
    if TOOL not in tools or ctx is None or not patient:
        return None
    pending = _pending(ctx)
    kind = kind_asked(state.message)
    if kind is not None:
        # the ward's words as the turn's request read them (a turn made without it: read here)
        ward = state.request.ward if state.request is not None else read_ward(state.message)
        args: dict[str, Any] | None = _fresh(
            state.message, kind, patient, pending, tuple(state.entities.patient_names), ward,
            state.entities.drugs,
        )
    else:
        dosed = state.entities.dose is not None
        args = (_revised(state.message, pending[-1], state.entities.drugs, dosed)
                if pending else None)
    if args is None:
        return None
    try:
        return TOOL, catalog.spec(TOOL).args_model(**args).model_dump(exclude_none=True)
    except ValidationError:
        return None
