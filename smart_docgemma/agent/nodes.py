"""The agent's nodes: each ``node(state, deps) -> update``.

An update is a dict of ``Turn`` fields merged into the turn; its ``outcome``
key picks the next node through ``graph.TRANSITIONS``. Model calls go through
``ask_model``; any ``ModelError`` switches the turn to degraded mode
(deterministic routing and a templated summary) instead of failing it.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ValidationError

from .. import knowledge, metrics
from ..approval.types import (
    CANCELLED_IN_CONVERSATION,
    REPLACED_BY_REDRAFT,
    PendingCard,
    PendingOrder,
)
from ..checks import drug_safety
from ..checks.context import HookData
from ..errors import (
    DocGemmaError,
    InvalidModelOutput,
    ModelError,
    ModelUnavailable,
    UnknownTransition,
)
from ..languages import N_, answer_language, day, fold, message, say
from ..languages.wording import reread
from ..reading import states
from ..reading.dosage import Dose
from ..reading.drugs import unrecognised_drug
from ..reading.people import (
    back_to_the_possessor,
    brings_back,
    follows_on,
    is_across,
    is_beside,
)
from ..reading.request import Conversation, Request
from ..reading.subject import is_own_name, near_her_name, titled_of_other_sex
from ..reading.unknown_words import is_shouted
from ..tools import catalog
from ..tools.base import Tool, ToolContext, ToolResult
from ..tools.sources.http import offline_copies
from ..tools.writes.ward_orders import merged
from . import (
    amendments,
    card_picks,
    clarification,
    draft_requests,
    drug_follow_ups,
    languages,
    planning,
    prompts,
    several_orders,
    therapeutic_trials,
    ward_amendments,
)
from .extraction import (
    compiled,
    find_unsupported,
    read,
    reconciliation_asked,
    relief_asked,
    written_in_french,
)
from .lesson_search import best_match
from .model import CallStats, ModelClient
from .schemas import IntentClassification, ResultAssessment, RetryStrategy, tool_selection_for
from .state import (
    Changes,
    Entities,
    ErrorHandlerOutcome,
    InputAssemblyOutcome,
    IntentClassifyOutcome,
    ResultClassifyOutcome,
    RouterOutcome,
    ToolCall,
    ToolExecuteOutcome,
    ToolRun,
    ToolSelectOutcome,
    Turn,
    Update,
    merge,
)

M = TypeVar("M", bound=BaseModel)
Retry = Literal["retry_same", "retry_different_args"]
RETRYABLE = {"unreachable", "timeout", "rate_limited", "exception"}


@dataclass
class Deps:
    """What nodes may use: the model (None in degraded mode), this session's tools, their
    context."""

    model: ModelClient | None
    tools: dict[str, Tool]
    ctx: ToolContext | None
    stats: CallStats
    emit: Callable[[dict[str, Any]], None] = lambda event: None
    pause_on_proposal: bool = False
    # approved lessons.Lesson examples (nothing unapproved ever reaches here)
    lessons: tuple[Any, ...] = ()


def label(tool: str) -> str:
    """The tool's clinical label in this turn's language."""
    try:
        return languages.answer_text("labels", tool) or catalog.spec(tool).label
    except KeyError:
        return tool.replace("_", " ")


def _degrade(exc: ModelError | None) -> Changes:
    return {
        "degraded": True,
        "degraded_reason": exc.description if exc else "The model gave no answer.",
    }


def _can_call(state: Turn, deps: Deps) -> bool:
    return deps.model is not None and not state.degraded


def ask_model(deps: Deps, node: str, user: str, schema: type[M], *, fixed: tuple[str, ...] = (),
              history: list[dict[str, Any]] | None = None) -> tuple[M | None, ModelError | None]:
    """One structured call: ``node``'s system text and ``fixed`` (the session's unchanging part,
    ``prompts.request``) first, then ``history`` (earlier turns as messages), ``user`` (this
    call's own part) last: ``(answer, None)`` or ``(None, error)``.

    Each caller decides its own fallback: ``InvalidModelOutput`` (a reply that
    broke the schema) usually has a deterministic one; any other ``ModelError``
    means the model is gone for this turn (``_degrade``).
    """
    return ask_messages(
        deps, node, prompts.request(node, user, fixed=fixed, history=history or ()), schema
    )


def ask_messages(deps: Deps, node: str, messages: list[dict[str, Any]],
                 schema: type[M]) -> tuple[M | None, ModelError | None]:
    """``ask_model`` with the request already built."""
    if deps.model is None:
        return None, ModelUnavailable("No model is configured.")
    try:
        return deps.model.structured(node, messages, schema, deps.stats), None
    except ModelError as exc:
        return None, exc


def _context_lines(state: Turn) -> str:
    """Compact recent history for classification prompts (this turn's part of the prompt)."""
    lines = [f"{t['role']}: {str(t['content'])[:300]}" for t in state.history[-4:]]
    return prompts.template("context_history").format(lines="\n".join(lines)) if lines else ""


def patient_block(state: Turn) -> str:
    """The patient's chart in brief: the same for every turn of a session, so it belongs to the
    fixed part of a prompt ("" without a patient)."""
    chart = state.chart_summary
    return prompts.template("context_patient").format(chart=chart[:600]).strip() if chart else ""


# ---------------------------------------------------------------- ① input
def input_assembly(state: Turn, deps: Deps) -> Update[InputAssemblyOutcome]:
    """History, entities, unavailable tools; the fast path when code fixes the tool."""
    pending, cards = _pending_order(deps), _last_cards(deps)
    said = read(state.message, chart=planning.chart_of(state),
                conversation=Conversation(pending_card=pending.proposal_id if pending else None,
                                          pending_drug=pending.ingredient if pending else None))
    if pending and said.entities.drugs and pending.ingredient not in said.entities.drugs:
        # of several cards pending, the one whose drug the follow-up names ("make the amox 500")
        named = _pending_order(deps, said.entities.drugs)
        if named and named.proposal_id != pending.proposal_id:
            pending = named
            said = read(state.message, chart=said.chart,
                        conversation=Conversation(pending_card=pending.proposal_id,
                                                  pending_drug=pending.ingredient))
    titles = [c.title for c in cards]
    picked = _card_taken_back(state, said, deps) or _card_pointed(state, said, deps)
    if picked is not None:  # "actually keep it", "no, the other one", "cancel the first one"
        return picked
    apart = _drug_cancelled_beside_a_keep(state, said, deps)
    if apart is not None:  # "lose the ramipril, keep the amlodipine": the ramipril's card only
        card = PendingCard(proposal_id=apart.proposal_id, tool="prescribe_medication",
                           kind="medication", title=apart.ingredient, request={}, edited=False)
        return _cancelled(said, [card], apart, deps)
    if cards and amendments.cancels(state.message, titles, said.entities.drugs):  # "cancel that"
        return _cancelled(said, cards, pending, deps)
    # the pending stop's drug said by name ("deixa, mantém o AAS"), never another drug: a drug
    # named whose name the stop card's title holds
    stopped_said = tuple(m.surface for m in said.entities.drug_mentions
                         if m.name and any(m.name.lower() in c.title.lower() for c in cards))
    if cards and all(c.tool == "stop_medication" for c in cards) and amendments.keeps_the_drug(
            state.message, stopped_said):  # "actually keep it" after "d/c metformin": withdrawn
        return _cancelled(said, cards, pending, deps)
    dropped = _kept_only(state, said, deps)
    if dropped:  # "only keep the HbA1c": every other pending card withdrawn
        return _cancelled(said, dropped, None, deps)
    named_tests = _lab_cards_named(state, said, deps)
    if named_tests:  # "cancel the INR", "annule la NFS": the pending order of that test
        return _cancelled(said, named_tests, None, deps)
    withdrawn: list[str] = []
    rest = amendments.cancel_then(state.message) if pending and cards else None
    if pending and cards and rest and _asks_something_else(said, pending):
        # "annule, elle prendra du paracétamol", "annule, et demande une NFS": the card
        # withdrawn, the rest answered as asked
        withdrawn = _withdrawn_beside(cards, pending, deps)
        pending, cards = None, []
        said = read(rest, chart=said.chart)
    if pending and _cancels_pending_drug(state.message, said, pending):
        # "annule le furosémide", "cancela a azitromicina": the card of the drug it names
        card = PendingCard(proposal_id=pending.proposal_id, tool="prescribe_medication",
                           kind="medication", title=pending.ingredient, request={}, edited=False)
        return _cancelled(said, [card], pending, deps)
    if _asks_insulin_scale(said.understood):  # "insulin sliding scale?": what can be done here
        return {"request": said, "entities": said.entities, "outcome": "synthesize",
                "notice": prompts.message("insulin_scale")}
    follow_up = _drug_follow_up(state, said, pending, deps)  # "max per day?", "in ml?"
    if follow_up is not None:
        return follow_up
    if cards and amendments.asks_pending(state.message):  # "what did I just order?"
        return {"request": said, "entities": said.entities, "outcome": "synthesize",
                "notice": _pending_said(cards)}
    # "stop it", "add it" after a message about one drug, with no card pending: that drug
    acted = None if cards else (
        clarification.acts_on_discussed(state.message, said.entities, state.history or [],
                                        planning.in_context(state))
        # "d/c the 2nd one" after her list was shown: the drug at that place
        or clarification.listed_by_place(state.message, said.entities, state.history or [])
        or clarification.redo_discussed(state.message, said.entities, said.ward.tests,
                                        state.history or [])
        # "10" after "warfarin": the drug's dose, read with the drug
        or clarification.dose_after_drug(state.message, said.entities, state.history or [])
        # "make it bd from today" after a card of one drug approved: that order changed
        or clarification.changes_discussed(state.message, said.entities, state.history or [],
                                           said.chart))
    several = [] if cards or acted else clarification.several_discussed(
        state.message, said.entities, state.history or [])
    if acted:
        said = read(state.message, understood=acted, chart=said.chart,
                    conversation=said.conversation)
    elif several:  # "stop it" after "is his metformin ok with the gliclazide?": which one
        return {"request": said, "entities": said.entities, "outcome": "synthesize",
                "clarification": say(message(N_(
                    "Your last message named %(drugs)s: which one do you mean? Name it (for "
                    "example \"stop %(first)s\"); nothing was drafted."),
                    drugs=", ".join(several), first=several[0]), answer_language())}
    elif amendments.cancels(state.message) and not _back_to_her(state, said):
        # nothing pending: what was approved stays written
        return {"request": said, "entities": said.entities, "outcome": "synthesize",
                "clarification": say(message(N_(
                    "Nothing is pending to withdraw: no card of yours is waiting for approval. "
                    "An order already approved is in the record: to stop a drug on the list, "
                    "name it (\"stop the aspirin\"), and the stop is a card you approve.")),
                    answer_language())}
    # "retire l'aspirine", "retira o AAS dele" with no card pending: the verb that takes a card
    # back also takes a drug off her list (a stop word), so with nothing to withdraw it stops
    stops_hers = not cards and said.workflow.stop is not None
    if not acted and (amendments.cancels_a_card(state.message) or (
            said.entities.drugs and amendments.cancels_by_verb(state.message)
            and not stops_hers)):
        # "cancel the ortho referral", "cancela a furosemida": no card of it pending
        return {"request": said, "entities": said.entities, "outcome": "synthesize",
                "clarification": say(message(N_(
                    "No card waiting for approval matches what you asked to cancel, so nothing "
                    "was withdrawn and nothing new was drafted. Pending: %(cards)s."),
                    cards="; ".join(titles) or "none"), answer_language())}
    if cards and (amendments.approves(state.message) or amendments.acknowledges(state.message)):
        return _approve_on_the_card(said, cards)  # "go ahead", "ok": the card's own Approve
    if not cards and not acted and amendments.approves(state.message):
        # "yes go ahead" with no card waiting (after a question asked back): nothing to approve
        return {"request": said, "entities": said.entities, "outcome": "synthesize",
                "clarification": say(message(N_(
                    "No card is waiting for your approval, so nothing was approved or written. "
                    "Say what to order or record, with its value where one is asked.")),
                    answer_language())}
    again = _repeated_order(state, said, deps)
    if again is not None:  # "same again", "repeat the last order": the last card drafted again
        return again
    said = _going_on_about_another(state, said)  # "and is he allergic?" after another patient
    if pending and clarification.pending_request(state.history or []):
        # a reply to the question asked of a follow-up ("500 qds" after "what dose?" for "use
        # cefalexin instead") amends the card with the follow-up it completes
        said = _completed(state, said)
    instead = clarification.ordered_instead(
        state.message, said.entities, state.history or [], pending.ingredient,
        amendments.switch_words()) if pending else None
    if instead:  # "ok do that then, 100 bd x5" after "what about doxy instead?": the switch
        said = read(state.message, understood=instead, chart=said.chart,
                    conversation=said.conversation)
    # "actually make it 100mg": the pending card re-drafted; "sorry, it was 150/95": the reading
    amended = (
        (_amended(state, said, pending, deps) if pending else None)
        or _corrected(state, said, cards, deps)
        or (_switched_card(state, said, pending, deps) if pending else None)
        or _noted(state, said, cards, deps)
        or _ward_card_changed(state, said, cards, deps)
    )
    if amended is not None:
        return amended
    # "is that safe with her kidneys?" while a card is pending: asked of the card's drug
    asked = amendments.asked_of_card(said, pending) if pending else _asked_of_discussed(state, said)
    if asked:
        said = read(state.message, understood=asked, chart=said.chart,
                    conversation=said.conversation)
    # a reply to "what dose should I use?" is read with the request it completes
    said = _completed(state, said)
    # "amoxicilline 500 mg 3x/j et paracétamol 1 g 4x/j": each order line carded
    said = several_orders.several(
        said, lambda text: read(text, chart=said.chart),
        lambda text: read(state.message, understood=text, chart=said.chart,
                          conversation=said.conversation))
    entities = replace(
        said.entities, has_image=bool(state.image), **_lesson_hint(state.message, deps)
    )
    history = prompts.recent(state.history, prompts.limit("history_turns"))
    update: Update[InputAssemblyOutcome] = {
        "entities": entities, "request": replace(said, entities=entities), "history": history}
    probe = merge(state, update)
    stop = (_out_of_scope(probe, deps) or _did_you_mean(entities)
            or _not_recognised(replace(said, entities=entities)) or _which_tests(said))
    if stop:
        return {**update, "clarification": stop, "outcome": "synthesize"}
    missing = [t for t in planning.required_tools(probe) if t not in deps.tools]
    update["errors"] = [_not_granted(t) for t in missing]
    update["errors"] += [_unsupported(w) for w in entities.unsupported]
    update["errors"] += _not_carded(probe)
    update["errors"] += _not_stopped(probe)
    update["errors"] += _weight_said(probe)
    update["errors"] += _tests_not_ordered(probe)
    update["errors"] += withdrawn
    update["errors"] += _no_plan(probe)
    update["errors"] += _kind_on_list(probe)
    update["errors"] += _allergies_reconciled(probe)
    update["errors"] += _readings_told(probe)
    beside = _checked_beside_search(probe, deps) or _volume_beside_check(probe, deps)
    if beside:
        update["notice"] = beside
    update["errors"] += _no_drug_named(probe)
    if state.image and "analyze_medical_image" not in planning.required_tools(probe):
        update["errors"] += [prompts.message("image_unused")]
    choice = (draft_requests.draft_call(probe, deps.tools, deps.ctx)
              or planning.fast_choice(probe, deps.tools, code_only=not _can_call(state, deps)))
    ask = None if choice else _ask_for_fields(probe, deps)
    if ask:
        update.update({"clarification": ask, "outcome": "synthesize"})
    elif choice:
        tool, args = choice
        update.update({"current": ToolCall(tool, args), "intent": "TOOL_NEEDED",
                       "task_summary": _fast_summary(tool, args), "outcome": "execute"})
    elif not _can_call(state, deps):
        update["outcome"] = "synthesize"
    else:
        update["outcome"] = "classify"
    return update


def _drug_follow_up(state: Turn, said: Request, pending: PendingOrder | None,
                    deps: Deps) -> Update[InputAssemblyOutcome] | None:
    """"max per day?", "how much is that in ml of 120mg/5ml", "une alternative ?" after a drug's
    answer or card: answered from the tables for the conversation's drug, or asked back."""
    message = state.message
    kind = drug_follow_ups.asked(message, said.entities, said.ward.when is not None)
    given = None if kind else drug_follow_ups.strength_given(message, said.entities,
                                                             state.history or [])
    if given:  # "120mg/5ml" after "what strength is it?": the question asked, answered
        kind, message = given
    if kind is None or said.subject.about != "patient":
        return None
    # a question of her results ("min and max glucose over 24h") is none; "quantos mg?" is read
    # as magnesium too, and is a unit question ("Mg" with its capital is kept for magnesium)
    foci = {f for f in (*said.foci, said.focus) if f}
    if foci and (kind not in ("ml", "mg") or foci != {"lab:Magnesium"}):
        return None
    about = drug_follow_ups.discussed(pending, state.history or [], planning.in_context(state))
    reply = drug_follow_ups.answer(kind, message, about, _chart_read(deps))
    if reply.asks:
        return {"request": said, "entities": said.entities, "outcome": "synthesize",
                "clarification": reply.text}
    return {"request": said, "entities": said.entities, "outcome": "synthesize",
            "notice": reply.text}


def _checked_beside_search(state: Turn, deps: Deps) -> str | None:
    """"trials of losartan in pregnancy", "¿hay estudios sobre ibuprofeno con anticoagulantes?"
    in her chart: the search runs as asked, and the drug named is checked against her chart, its
    findings shown with the search (safety by content; the tools run stay the search's)."""
    needed = set(planning.required_tools(state))
    if not needed & therapeutic_trials.SEARCHES or needed & _DRUG_CHECKS:
        return None
    if not planning.drug_for_her(state):
        return None
    drugs = [d for d in state.entities.drugs if d not in planning.request(state).tested_drugs]
    return therapeutic_trials.beside_the_search(drugs, _chart_read(deps))


def _volume_beside_check(state: Turn, deps: Deps) -> str | None:
    """"Amoxil 400 mg/5 mL, 90 mg/kg/dia de 12/12h, quantos mL por dose?" in her chart: the drug
    is checked as asked and the volume a dose, from the strength given, is shown with the check
    (no strength is ever assumed)."""
    if not planning.drug_for_her(state):
        return None
    drugs = [d for d in state.entities.drugs if d not in planning.request(state).tested_drugs]
    if not drug_follow_ups.asks_volume_beside(state.message, drugs):
        return None  # the chart is read for a volume only when one is asked
    return drug_follow_ups.volume_beside_check(state.message, drugs, _chart_read(deps))


_DRUG_CHECKS = frozenset({"check_drug_safety", "check_drug_interactions"})


def _chart_read(deps: Deps) -> HookData | None:
    """The chart of the patient in context as the safety check reads it (None without one; a
    chart that could not be read is every part missing, so nothing is claimed from it)."""
    ctx = deps.ctx
    if ctx is None or not (ctx.patient_id and ctx.fhir):
        return None
    try:
        return drug_safety.chart_data(ctx.fhir, ctx.patient_id, getattr(ctx, "scopes", None),
                                      getattr(ctx, "chart_read", None))
    except DocGemmaError:
        return HookData(missing=set(drug_safety.READ_KEYS))


def _asked_of_discussed(state: Turn, said: Request) -> str | None:
    """A safety question pointing at the one drug the clinician's last message discussed ("can
    he take it alongside the aspirin?" after "thinking about clopidogrel for him"), asked of
    that drug; None when a question asked back is waiting for its answer."""
    history = state.history or []
    drug = None if clarification.pending_request(history) else clarification.drug_discussed(
        history, planning.in_context(state))
    return amendments.asked_of(said, drug, drug) if drug else None


def _completed(state: Turn, said: Request) -> Request:
    """``said`` read with the request it completes, when it answers a question asked back."""
    understood = clarification.completed(state.message, state.history, said.entities,
                                         planning.in_context(state))
    if understood == state.message or understood == said.understood:
        return said
    earlier = None if clarification.pending_request(state.history) else (
        clarification.open_request(state.history))
    # the question answered: the last answer's, or one asked several turns back
    asked_back = earlier[1] if earlier else str(state.history[-1].get("content"))
    if _asked_for_an_order(asked_back):
        # the reply completes a medication order ("500 qds" after "use cefalexin instead" was
        # asked its dose): read as the order it completes
        understood = f"start {understood}"
    return read(state.message, understood=understood, chart=said.chart,
                conversation=replace(said.conversation, asked_back=asked_back))


def _approve_on_the_card(said: Request, cards: list[PendingCard]) -> Update[InputAssemblyOutcome]:
    """Approval said in words: nothing is written from the conversation; the card's own Approve
    writes it (the clinician sees what is signed)."""
    lang = answer_language()
    lines = [say(message(N_(
        "Nothing was written: approval is given on the card itself. Press Approve on the card "
        "below to write it to the record, or Reject to withdraw it.")), lang)]
    lines += [f"- {reread(c.title, lang)}" for c in cards]
    return {"request": said, "entities": said.entities, "outcome": "synthesize",
            "clarification": "\n".join(lines)}


def _back_to_her(state: Turn, said: Request) -> bool:
    """The message turns back to the patient in context after another patient was asked of
    ("sorry wrong chart - Mrs Thompson's then", "wrong patient, this patient's then"): her own
    name or "this patient" beside words that would otherwise withdraw a card. With no card
    pending, the question goes on to her (``clarification.referred_back``) instead of being
    told nothing is pending."""
    here = planning.in_context(state)
    names = said.entities.patient_names
    hers = bool(names and here.name) and all(is_own_name(n, here) for n in names)
    return bool(state.history) and (hers or brings_back(state.message))


def _going_on_about_another(state: Turn, said: Request) -> Request:
    """``said`` about the person the clinician's last message named, when that person was not
    the patient in context and this message only goes on about them ("and is he allergic?"
    after "does James Wilson have asthma?", "¿y es alérgico a algo?" after a question of Kofi
    Asante): refused like them, never answered from the chart in context."""
    if said.subject.about != "patient" or not follows_on(state.message):
        return said
    before = [t for t in (state.history or [])[-2:] if t.get("role") == "user"]
    if not before:
        return said
    earlier = read(str(before[-1].get("content") or ""), chart=said.chart)
    if earlier.subject.about == "patient":
        return said
    if back_to_the_possessor(state.message, str(before[-1].get("content") or "")):
        return said  # "can his wife take aspirin?" then "and his inr?": his, the patient's
    return replace(said, subject=earlier.subject)


def _asked_for_an_order(asked_back: str) -> bool:
    """The assistant's last question asked what a medication order still needs."""
    head = prompts.message("ask_fields", label=label("prescribe_medication").lower(), fields="\0")
    return asked_back.startswith(head.split("\0")[0])


def _pending_order(deps: Deps, named: tuple[str, ...] = ()) -> PendingOrder | None:
    """The session's pending medication card, which a follow-up may change or complete."""
    ctx = deps.ctx
    if "prescribe_medication" not in deps.tools or ctx is None or not (
        ctx.sid and ctx.patient_id and ctx.proposals
    ):
        return None
    return ctx.proposals.pending_order(ctx.sid, ctx.patient_id, named)


def _amended(
    state: Turn, said: Request, pending: PendingOrder, deps: Deps
) -> Update[InputAssemblyOutcome] | None:
    """A follow-up that changes or completes the session's pending medication card: the order
    drafted again with its fields (the safety check runs again on it), superseding the card."""
    tool = pending.tool if pending.tool in deps.tools else "prescribe_medication"
    change = amendments.read(said, pending)
    if change is None:
        return None
    if change.drug and change.drug != pending.medication and not change.dose:
        # another drug without its dose: the earlier drug's dose is never carried over ("use
        # morphine instead" of codeine 30 mg is no 30 mg of morphine), and the earlier card,
        # replaced in words, is withdrawn; the usual question for a missing dose is asked, so
        # that the reply completes this message
        if deps.ctx and deps.ctx.proposals:
            deps.ctx.proposals.withdraw_ids([pending.proposal_id],
                                            reason="Replaced by another drug in the conversation")
        asked = prompts.message("ask_fields", label=label(tool).lower(),
                                fields=languages.answer_text("fields", "dose") or "dose")
        return {"request": said, "entities": said.entities, "outcome": "synthesize",
                # the new drug is checked now, so its findings come with the question
                "tool_runs": state.tool_runs + _checked(deps, change.drug),
                "clarification": asked + " " + say(message(N_(
                    "The order for %(old)s was withdrawn; its dose is not carried over to "
                    "%(drug)s."), drug=change.drug, old=pending.medication), answer_language())}
    args = amendments.redraft(pending, change)
    words = " ".join(
        str(args[k]) for k in ("medication_name", "dosage", "frequency", "notes") if args.get(k)
    )
    if tool == "change_dose":  # the same order's new dose, read as the change it is
        args = {k: v for k, v in args.items() if k != "notes"}
        words = f"change {args['medication_name']} to {args['dosage']} {args['frequency']}"
    # the order as re-drafted is what the turn routes on (the follow-up alone names no drug)
    said = read(state.message, understood=words, chart=said.chart,
                conversation=said.conversation)
    return _redraft(state, said, ToolCall(tool, args), pending.proposal_id)


def _checked(deps: Deps, drug: str) -> list[ToolRun]:
    """The one safety check of ``drug`` on this patient, as a run of the turn (none when the
    check is not granted)."""
    tool = "check_drug_safety"
    if tool not in deps.tools:
        return []
    result = _run(deps, tool, {"drug_name": drug})
    return [ToolRun(tool=tool, label=label(tool), args={"drug_name": drug}, result=result,
                    summary=_summary(result))]


def _switched_card(
    state: Turn, said: Request, pending: PendingOrder, deps: Deps
) -> Update[InputAssemblyOutcome] | None:
    """A switch away from the pending card's drug, which is on no active order ("change the
    azithro to clarithro 500 bd" while azithromycin waits on its card): the card re-drafted as
    the new order, never a second card beside it."""
    switch = said.workflow.switch
    if switch is None or switch.replaces is None or deps.ctx is None:
        return None
    if knowledge.generic(switch.replaces) != knowledge.generic(pending.ingredient or
                                                               pending.medication):
        return None
    if any(knowledge.generic(switch.replaces) in m.names for m in said.chart.medications):
        return None  # on her list too: the switch proposes that order's stop
    args = {"patient_id": deps.ctx.patient_id, "medication_name": switch.new_drug,
            "dosage": switch.dosage, "frequency": switch.frequency}
    # the order as re-drafted is what the turn routes on, no longer a switch
    said = read(state.message, understood=f"{switch.new_drug} {switch.dosage} {switch.frequency}",
                chart=said.chart, conversation=said.conversation)
    return _redraft(state, said, ToolCall("prescribe_medication", args), pending.proposal_id)


def _last_cards(deps: Deps) -> list[PendingCard]:
    """The pending cards of the session's last request for this patient (newest first)."""
    ctx = deps.ctx
    if ctx is None or not (ctx.sid and ctx.patient_id and ctx.proposals):
        return []
    return ctx.proposals.last_cards(ctx.sid, ctx.patient_id)


def _corrected(
    state: Turn, said: Request, cards: list[PendingCard], deps: Deps
) -> Update[InputAssemblyOutcome] | None:
    """A correction of the reading waiting on its card ("sorry, it was 150/95"): the reading
    drafted again at the time it was taken, superseding the card."""
    tool = "record_vital_sign"
    if len(cards) != 1 or tool not in deps.tools or deps.ctx is None:
        return None
    reading = amendments.corrected_reading(said, cards[0])
    if reading is None:
        return None
    args = {"patient_id": deps.ctx.patient_id, "reading": reading,
            "taken": cards[0].request.get("taken")}
    return _redraft(state, said, ToolCall(tool, args), cards[0].proposal_id)


def _paired_recheck(cards: list[PendingCard]) -> PendingCard | None:
    """The one lab order pending beside a medication card (a replacement's paired recheck)."""
    rechecks = [c for c in cards if c.kind == "lab_order"]
    paired = len(rechecks) == 1 and any(c.kind == "medication" for c in cards)
    return rechecks[0] if paired else None


def _ward_card_changed(
    state: Turn, said: Request, cards: list[PendingCard], deps: Deps
) -> Update[InputAssemblyOutcome] | None:
    """A change of the pending lab order's time or referral's specialty ("make that 6am
    instead", "actually nephrology"): the card drafted again with it, superseding the card."""
    if deps.ctx is None or not deps.ctx.patient_id:
        return None
    again = ward_amendments.repeated_lab_orders(said, cards, deps.ctx.patient_id)
    if again is not None and again.tool in deps.tools:  # "same again on friday": beside them
        return _redraft(state, said, again, None)
    added = ward_amendments.added_lab_orders(said, cards, deps.ctx.patient_id)
    if added is not None and added.tool in deps.tools:  # "and a magnesium with it": beside them
        # the turn routes on the test ordered, never on "magnesium" read as a drug or a result
        said = read(state.message, understood=f"order {added.args['test']}", chart=said.chart,
                    conversation=said.conversation)
        return _redraft(state, said, added, None)
    recheck = _paired_recheck(cards) if amendments.mentions_recheck(state.message) else None
    if recheck is not None:  # "make the recheck 6am instead": the recheck moved, the dose kept
        call = ward_amendments.changed_card(said, recheck, deps.ctx.patient_id)
        if call is not None and call.tool in deps.tools:
            return _redraft(state, said, call, (recheck.proposal_id,))
    if len(cards) > 1:  # "fbc and u&e tomorrow 8am", then "actually 4pm": every test moved
        call = ward_amendments.changed_lab_orders(said, cards, deps.ctx.patient_id)
    else:
        call = ward_amendments.changed_card(said, cards[0], deps.ctx.patient_id) if cards else None
    if call is None or call.tool not in deps.tools:
        return None
    # "make it stat": the turn routes on the order drafted again, never on "stat" read as a
    # drug's frequency (a medication order with no drug, asked back)
    said = read(state.message, understood=_drafted_words(call), chart=said.chart,
                conversation=said.conversation)
    return _redraft(state, said, call, tuple(c.proposal_id for c in cards))


def _drafted_words(call: ToolCall) -> str:
    """The words of a lab order or referral drafted again, as the clinician would order it."""
    if call.tool == "refer_patient":
        return f"refer to {call.args.get('specialty')}"
    return f"order {call.args.get('test')}"


def _noted(
    state: Turn, said: Request, cards: list[PendingCard], deps: Deps
) -> Update[InputAssemblyOutcome] | None:
    """The note given for the referral waiting on its card ("add a note: …"): the referral
    drafted again with it, superseding the card."""
    tool = "refer_patient"
    if len(cards) != 1 or cards[0].tool != tool or tool not in deps.tools or deps.ctx is None:
        return None
    note, was = amendments.note_given(state.message), cards[0].request
    if note is None or not was.get("specialty"):
        return None
    args = {"patient_id": deps.ctx.patient_id, "specialty": was["specialty"],
            "reason": was.get("reason"), "note": note, "priority": was.get("priority")}
    # the turn routes on the referral re-drafted, not on the note's own words (never a note)
    said = read(state.message, understood=f"refer to {was['specialty']}", chart=said.chart,
                conversation=said.conversation)
    return _redraft(state, said, ToolCall(tool, args), cards[0].proposal_id)


def _redraft(state: Turn, said: Request, call: ToolCall,
             superseded: str | tuple[str, ...] | None) -> Update[InputAssemblyOutcome]:
    """The turn that drafts ``call`` again in place of the pending card(s) ``superseded``."""
    return {
        "entities": said.entities,
        "request": said,
        "history": prompts.recent(state.history, prompts.limit("history_turns")),
        "current": call,
        "intent": "TOOL_NEEDED",
        "supersedes": (superseded,) if isinstance(superseded, str) else superseded or (),
        "task_summary": _fast_summary(call.tool, call.args),
        "outcome": "execute",
    }


def _card_taken_back(state: Turn, said: Request, deps: Deps) -> Update[InputAssemblyOutcome] | None:
    """Right after a cancel, "actually keep it" drafts the cancelled card again (its safety
    check runs again); "no, the other one" does so and withdraws the card still pending."""
    ctx = deps.ctx
    other = card_picks.points_at_other(state.message)
    if (ctx is None or ctx.proposals is None or not (ctx.sid and ctx.patient_id)
            or not (other or card_picks.restores(state.message))):
        return None
    back = ctx.proposals.last_withdrawn_order(ctx.sid, ctx.patient_id)
    if back is None and other:  # "no, go back to the first one" after a switch re-drafted it
        back = ctx.proposals.last_replaced_order(ctx.sid, ctx.patient_id)
    pending = ctx.proposals.session_orders(ctx.sid, ctx.patient_id)
    if back is None or (other and len(pending) != 1):
        return None
    args = amendments.redraft(back, amendments.Change())
    said = read(state.message, understood=_order_words(args), chart=said.chart,
                conversation=said.conversation)
    return _redraft(state, said, ToolCall("prescribe_medication", args),
                    pending[0].proposal_id if other else None)


def _repeated_order(state: Turn, said: Request,
                    deps: Deps) -> Update[InputAssemblyOutcome] | None:
    """"repeat the last order", "same again", "refais la même prescription": the conversation's
    last medication card (pending or approved) drafted once more as it was, its safety check run
    again; a card still pending is superseded, so one card stands. None when the message is not
    that alone, or names a drug, a test, a time or a person."""
    ctx, ent = deps.ctx, said.entities
    if (ctx is None or ctx.proposals is None or not (ctx.sid and ctx.patient_id)
            or not amendments.repeats(state.message) or ent.drugs or ent.patient_names
            or ent.patient_ids or said.ward.tests or said.ward.when):
        return None
    last = ctx.proposals.last_order(ctx.sid, ctx.patient_id)
    if last is None:
        return {"request": said, "entities": said.entities, "outcome": "synthesize",
                "clarification": say(message(N_(
                    "No medication order of this conversation to repeat: name the drug, dose and "
                    "frequency, and I will draft it; nothing was drafted.")), answer_language())}
    pending = {o.proposal_id for o in ctx.proposals.session_orders(ctx.sid, ctx.patient_id)}
    args = amendments.redraft(last, amendments.Change())
    said = read(state.message, understood=_order_words(args), chart=said.chart,
                conversation=said.conversation)
    return _redraft(state, said, ToolCall("prescribe_medication", args),
                    last.proposal_id if last.proposal_id in pending else None)


def _order_words(args: dict[str, Any]) -> str:
    """A drafted order said back as words, for the turn to route on (the follow-up that drafted
    it names no drug)."""
    keys = ("medication_name", "dosage", "frequency", "notes")
    return " ".join(str(args[k]) for k in keys if args.get(k))


def _card_pointed(state: Turn, said: Request, deps: Deps) -> Update[InputAssemblyOutcome] | None:
    """Of several pending medication cards, the one a follow-up points at by its place ("cancel
    the first one", "muda a segunda para 2x/dia"): withdrawn, or re-drafted with the change."""
    ctx, pointed = deps.ctx, card_picks.pointed(state.message)
    if ctx is None or ctx.proposals is None or pointed is None or not (ctx.sid and ctx.patient_id):
        return None
    orders = ctx.proposals.session_orders(ctx.sid, ctx.patient_id)
    if len(orders) < 2 or pointed.place > len(orders):
        # "cancel the first one" after two lab cards (no two medication cards): of every card
        # pending, oldest first, the one at that place is withdrawn (only a cancel: a change of
        # a lab card by its place is not read)
        cards = list(reversed(ctx.proposals.pending_cards(ctx.sid, ctx.patient_id)))
        if not amendments.cancels(pointed.rest) or len(cards) < 2 or pointed.place > len(cards):
            return None
        return _cancelled(said, [cards[pointed.place - 1] if pointed.place > 0 else cards[-1]],
                          None, deps)
    card = orders[pointed.place - 1] if pointed.place > 0 else orders[-1]
    if amendments.cancels(pointed.rest):
        taken = PendingCard(proposal_id=card.proposal_id, tool="prescribe_medication",
                            kind="medication", title=card.ingredient, request={}, edited=False)
        return _cancelled(said, [taken], card, deps)
    rest = read(pointed.rest, chart=said.chart,
                conversation=Conversation(pending_card=card.proposal_id,
                                          pending_drug=card.ingredient))
    change = amendments.read(rest, card)
    if change is None:
        return None
    args = amendments.redraft(card, change)
    rest = read(state.message, understood=_order_words(args), chart=said.chart,
                conversation=rest.conversation)
    return _redraft(state, rest, ToolCall("prescribe_medication", args), card.proposal_id)


def _asks_something_else(said: Request, pending: PendingOrder) -> bool:
    """After a cancel, words naming another drug than the card's or a test to order ("annule,
    elle prendra du paracétamol", "cancela, e pede hemograma")."""
    other_drug = bool(said.entities.drugs) and pending.ingredient not in said.entities.drugs
    return other_drug or bool(said.tests)


def _withdrawn_beside(cards: list[PendingCard], pending: PendingOrder, deps: Deps) -> list[str]:
    """The cards withdrawn at a cancel that goes on to ask something else: said in one line."""
    done = bool(deps.ctx and deps.ctx.proposals and deps.ctx.proposals.withdraw_ids(
        [c.proposal_id for c in cards], reason=CANCELLED_IN_CONVERSATION))
    text = (N_("The pending order for %(drug)s was withdrawn; nothing was written to the chart.")
            if done else
            N_("The order for %(drug)s is no longer pending; nothing was changed."))
    return [say(message(text, drug=pending.ingredient), answer_language())]


def _drug_cancelled_beside_a_keep(state: Turn, said: Request, deps: Deps) -> PendingOrder | None:
    """The pending card of the one drug a cancel's own clause names, when another clause keeps
    something ("lose the ramipril, keep the amlodipine", "keep the amlodipine - drop the
    ramipril"): never the card the keep names, whichever card was drafted last."""
    clause = amendments.cancel_clause(state.message)
    if clause.strip() == state.message.strip() or amendments.cancels_what(clause) is None:
        return None
    drugs = read(clause, chart=said.chart).entities.drugs
    if len(drugs) != 1:
        return None
    named = _pending_order(deps, drugs)
    return named if named and amendments.names_ingredient(drugs[0], named.ingredient) else None


def _cancels_pending_drug(message: str, said: Request, pending: PendingOrder) -> bool:
    """The message only cancels, naming the pending card's drug in any spelling it is read in."""
    named = amendments.cancels_what(message)
    return named is not None and (
        any(amendments.names_ingredient(d, pending.ingredient) for d in said.entities.drugs)
        or amendments.names_short(named, pending.ingredient))  # "scrap the mag"


def _kept_only(state: Turn, said: Request, deps: Deps) -> list[PendingCard]:
    """The pending cards a "keep only …" leaves out ("only keep the HbA1c" after a gliclazide
    and an HbA1c card: the gliclazide card); [] unless at least one card is kept by its test
    or drug and at least one is not."""
    ctx = deps.ctx
    if (not amendments.keeps_only(state.message) or ctx is None
            or not (ctx.sid and ctx.patient_id and ctx.proposals)):
        return []
    named = [*said.ward.tests, *said.entities.drugs]
    cards = ctx.proposals.pending_cards(ctx.sid, ctx.patient_id)
    kept = [c for c in cards if any(n in str(c.request.get("test") or "") or n in c.title.lower()
                                    for n in named)]
    return [c for c in cards if c not in kept] if kept and len(kept) < len(cards) else []


def _lab_cards_named(state: Turn, said: Request, deps: Deps) -> list[PendingCard]:
    """The session's pending lab orders of the tests a cancel names ("cancel the INR", "annule
    la NFS", "cancela o hemograma"), never those it keeps ("drop the FBC, just the INR"), or
    the one lab order a replacement is paired with when the cancel names "the recheck"; []
    unless every test it names has one."""
    ctx = deps.ctx
    clause = amendments.cancel_clause(state.message)
    tests = [t for t in said.ward.tests if t not in said.ward.kept_tests]
    recheck = amendments.names_the_recheck(clause)  # "keep the potassium, drop the recheck"
    if (not (recheck or (tests and amendments.cancels_what(clause) is not None)) or ctx is None
            or not (ctx.sid and ctx.patient_id and ctx.proposals)):
        return []
    pending = ctx.proposals.pending_cards(ctx.sid, ctx.patient_id)
    if recheck:  # the one lab order a replacement is paired with
        rechecks = [c for c in pending if c.kind == "lab_order"]
        paired = len(rechecks) == 1 and any(c.kind == "medication" for c in pending)
        return rechecks if paired else []
    labs = [c for c in pending if c.kind == "lab_order" and c.request.get("test")]
    named = [c for c in labs if any(t in str(c.request["test"]) for t in tests)]
    done = {t for t in tests if any(t in str(c.request["test"]) for c in named)}
    return named if done == set(tests) else []


def _cancelled(
    said: Request, cards: list[PendingCard], pending: PendingOrder | None, deps: Deps
) -> Update[InputAssemblyOutcome]:
    """The last request's pending cards withdrawn at the clinician's word; nothing was written."""
    done = bool(deps.ctx and deps.ctx.proposals and deps.ctx.proposals.withdraw_ids(
        [c.proposal_id for c in cards], reason=CANCELLED_IN_CONVERSATION))
    lang = answer_language()
    if pending and [c.proposal_id for c in cards] == [pending.proposal_id]:
        text = (N_("The pending order for %(drug)s was withdrawn; nothing was written to the "
                   "chart.") if done else
                N_("The order for %(drug)s is no longer pending; nothing was changed."))
        return {"request": said, "entities": said.entities, "outcome": "synthesize",
                "clarification": say(message(text, drug=pending.ingredient), lang)}
    lines = [say(message(N_("Cancelled. Nothing was written to the chart.")), lang)]
    lines += [f"- {reread(c.title, lang)}" for c in cards] if done else []
    return {"request": said, "entities": said.entities, "outcome": "synthesize",
            "clarification": "\n".join(lines)}


def _titled_only(state: Turn, others: tuple[str, ...]) -> bool:
    """Everyone refused is her surname after a title of the other sex ("M. Thompson, il …",
    "Mr Thompson" in Margaret Thompson's chart): who was meant is asked, not assumed."""
    said = state.request
    if said is None:
        return False
    titled = titled_of_other_sex(said.understood, said.chart.patient, said.chart.sex,
                                 written_in_french(said.understood))
    return bool(others) and set(others) <= set(titled)


def _asks_insulin_scale(text: str) -> bool:
    """An insulin scale by glucose asked ("insulin sliding scale?", "pauta móvil de insulina"):
    never a scale made up, the one answer of what can be done (``rules.insulin_scale``)."""
    low = fold(text).lower().replace("'", " ")
    return any(compiled(p).search(low) for p in prompts.rules()["insulin_scale"])


def _pending_said(cards: list[PendingCard]) -> str:
    """The last request's cards still waiting, said back as their titles: what was just asked
    for ("¿qué acabo de pedir?"), nothing changed."""
    lang = answer_language()
    head = say(message(N_("Waiting for your approval (nothing has been written yet):")), lang)
    return "\n".join([head, *(f"- {reread(c.title, lang)}" for c in cards)])


def _not_carded(state: Turn) -> list[str]:
    """What an order named beside the drug it cards, said: checked, not ordered; a loading dose
    said before the maintenance the card carries, said not on the card."""
    needed = planning.required_tools(state)
    dose = planning.request(state).dose
    loading = [say(message(N_("The loading dose (%(loading)s) is not on this card: it carries the "
                              "maintenance dose only; order the loading dose as its own single "
                              "dose."), loading=dose.loading), answer_language())
               ] if dose and dose.loading and "prescribe_medication" in needed else []
    return loading + _beside_the_order(state, needed)


def _beside_the_order(state: Turn, needed: list[str]) -> list[str]:
    """A drug named beside the one an order cards: checked with it, not ordered."""
    ordered = planning.request(state).ordered
    checked = {"check_drug_safety", "check_drug_interactions"} & set(needed)
    if {"order_lab_test", "refer_patient"} & set(needed) and checked and ordered:
        others = [ordered]  # a drug ordered beside the lab or referral: checked, not carded
    elif "prescribe_medication" not in needed:
        return []
    else:
        others = planning.beside_the_order(state)
    if not others:
        return []
    return [say(message(N_("Only one order is prepared per message: %(others)s was checked with "
                           "it but not ordered; ask for it in its own message to order it."),
                        others=", ".join(others)), answer_language())]


def _not_stopped(state: Turn) -> list[str]:
    """A drug stopped or held in words, where no switch proposes its stop: said not stopped."""
    stopped, tools = planning.request(state).stopped, planning.required_tools(state)
    if "stop_medication" in tools:  # the one stop drafted says itself; any other is said here
        stopped = tuple(d for d in stopped if d != planning.request(state).workflow.stop)
    if not stopped or "switch_medication" in tools:
        return []
    absent = [d for d in stopped if not _stopped_is_listed(state, d)]
    listed = [d for d in stopped if d not in absent]
    out = [say(message(N_("Nothing was stopped or held: %(drugs)s stays on the medication list "
                          "until it is stopped or held in the EHR (this assistant drafts a stop "
                          "said plainly, one drug a message; never a hold)."),
                       drugs=", ".join(listed)), answer_language())] if listed else []
    return out + ([say(message(N_("Nothing was stopped or held: %(drugs)s is not on the "
                                  "patient's active medication list."),
                               drugs=", ".join(absent)), answer_language())] if absent else [])


def _weight_said(state: Turn) -> list[str]:
    """A weight said that is not the chart's latest ("kofi weighs 22kg now"): the doses here are
    worked from the chart's dated weight, so both are said and the new one is asked to be
    recorded; nothing when no weight is said, none was read, or the two agree (within 5%)."""
    said = states.said_weight(state.message)
    chart = planning.chart_of(state)
    if said is None or not chart.read or "observations" in chart.unread:
        return []
    if chart.weight is None:
        return [say(message(N_("You said %(said)s kg; no weight is on file, so no dose here is "
                               "worked out from a weight. Record the weight to dose by it."),
                            said=f"{said:g}"), answer_language())]
    if abs(chart.weight.kg - said) <= 0.05 * chart.weight.kg:
        return []
    return [say(message(N_("You said %(said)s kg; the chart's latest weight is %(kg)s kg "
                           "(%(date)s), and any dose here worked out by weight uses it. Record "
                           "the new weight to dose by it."),
                        said=f"{said:g}", kg=f"{chart.weight.kg:g}",
                        date=day(chart.weight.taken)), answer_language())]


def _stopped_is_listed(state: Turn, drug: str) -> bool:
    """``drug`` (or a drug of the class it names) is on her active list: only then is it said to
    stay there ("suspenda el AINE" for a patient on no NSAID stops nothing and says nothing)."""
    from ..knowledge import classes

    chart = planning.chart_of(state)
    if "medications" in chart.unread or not chart.patient.name:
        return True  # her list was not read: said as before, never "not on her list"
    # a class said ("the NSAIDs") is on her list when a drug of hers shares one of its classes
    wide = classes.of(drug) if classes.named(drug) else frozenset()
    return any(d == drug or bool(wide & classes.of(d)) for d in chart.drugs)


def _no_plan(state: Turn) -> list[str]:
    """A plan asked for a problem no plan here covers ("asthma plan", "her BP is 160/110 - what
    do I do"): said, with what the plans cover, beside whatever else is answered."""
    said = planning.request(state)
    # "Mg 0.5 - what to do?": the replacement protocol applied is the plan held for it
    if not said.workflow.plan_asked or said.workflow.problem or "protocol" in said.entities.actions:
        return []
    return [say(message(N_("No problem plan is held here for what you asked: the plans cover a "
                           "raised potassium, a high INR on warfarin and a low glucose, each from "
                           "its cited protocol. Ask for a result, the care gaps, or a drug's "
                           "safety check instead.")), answer_language())]


def _allergies_reconciled(state: Turn) -> list[str]:
    """A medication reconciliation asked of her list ("med rec", "conciliation médicamenteuse
    d'entrée"): the allergies on file said beside it, as a reconciliation records them (a
    penicillin anaphylaxis is part of what is reconciled); nothing when they were not read."""
    said = planning.request(state)
    chart = planning.chart_of(state)
    if (said.focus not in ("medications", "review") or not chart.read
            or "allergies" in chart.unread or not reconciliation_asked(state.message)):
        return []
    if not chart.allergies:
        return [say(message(N_("Allergies: none recorded (the allergy list was read and is "
                               "empty).")), answer_language())]
    if all(a.no_known for a in chart.allergies):
        return [say(message(N_("Allergies: no known allergies (recorded as such in the "
                               "chart).")), answer_language())]
    listed = [a.substance + (f" ({', '.join(known)})" if (known := [x for x in (
        a.reaction, a.criticality and f"criticality {a.criticality}") if x]) else "")
        for a in chart.allergies if not a.no_known]
    return [say(message(N_("Allergies:")), answer_language()) + " " + "; ".join(listed)]


def _kind_on_list(state: Turn) -> list[str]:
    """A kind of drug asked of her list ("is he on a statin?", "her insulin?"): which of her
    active drugs are of it, or that none is; nothing when her list was not read."""
    said = planning.request(state)
    chart = planning.chart_of(state)
    kind = said.asked_kind
    if kind is None or "medications" in chart.unread or not chart.read:
        return []
    found = [m.text for m in chart.medications if any(kind.of(n) for n in m.names)]
    if not found:
        return [say(message(N_("%(kind)s: none on the active medication list."),
                            kind=kind.label()[:1].upper() + kind.label()[1:]), answer_language())]
    return [say(message(N_("%(kind)s on the active medication list: %(drugs)s."),
                        kind=kind.label()[:1].upper() + kind.label()[1:],
                        drugs="; ".join(found)), answer_language())]


def _readings_told(state: Turn) -> list[str]:
    """Readings told with a plan asked of them ("TA 9/5, FC 120 à 14h, que faire ?", "BP 90/50,
    HR 120 - what do I do?"): said back as read (a pressure in cmHg with its mmHg), with the time
    said, and said not recorded, so the values are seen and nothing is charted unasked."""
    from ..tools.words import ward_words

    said = planning.request(state)
    readings = said.ward.readings
    if not readings or "record_vital" in state.entities.actions or not said.workflow.plan_asked:
        return []
    read = ", ".join(ward_words.reading_text(r) + (f" (written {r.as_written()})"
                                                   if r.as_written() else "")
                     for r in readings)
    taken = said.ward.taken
    # a clock said ("à 14h"), never the hour a part of the day stands for ("ce matin")
    if taken is not None and not taken.part_of_today:
        return [say(message(N_("Read as told, taken at %(time)s: %(readings)s. Not recorded: ask "
                               "to record them and a card is drafted for your approval."),
                            time=f"{taken.at:%H:%M}", readings=read), answer_language())]
    return [say(message(N_("Read as told: %(readings)s. Not recorded: ask to record them and a "
                           "card is drafted for your approval."), readings=read),
                answer_language())]


def _no_drug_named(state: Turn) -> list[str]:
    """Pain relief asked with no drug named ("something for the pain?"): her list's review
    answers it, and what was not checked is said, never a clean check of no drug."""
    said = planning.request(state)
    if said.focus != "review" or said.drugs:
        return []
    if not relief_asked(said.understood):
        return []
    if "allergies" in said.foci:  # an infection or an antibiotic asked: her allergies shown
        return [say(message(N_("No drug was named, so none was checked on its own: what was "
                               "checked is the current medication list's review, with the "
                               "allergies on file. Name the drug to check it against this "
                               "chart.")), answer_language())]
    return [say(message(N_("No drug was named, so none was checked on its own: what was checked "
                           "is the current medication list's review. Name the drug (an NSAID, an "
                           "opioid, paracetamol) to check it against this chart.")),
                answer_language())]


def _tests_not_ordered(state: Turn) -> list[str]:
    """Items of a list of tests the lab table does not name, when tests are ordered: said."""
    # a procedure said not done here ("ECG orders are not supported") is not said twice
    unread = [w for w in planning.request(state).ward.unread_tests
              if not find_unsupported(f"order {w}")]
    if not unread or "order_lab_test" not in planning.required_tools(state):
        return []
    return [say(message(N_("Not ordered: %(tests)s — not a test this site's lab table names; "
                           "order it by its full name or in the EHR."),
                        tests=", ".join(unread)), answer_language())]


def _not_granted(tool: str) -> str:
    """Why a needed tool is missing: a write the grant does not allow must be placed in the EHR."""
    spec = catalog.spec(tool)
    if spec.kind != "write":
        return prompts.message("no_tool", label=label(tool))
    types = " and ".join(dict.fromkeys(rtype for rtype, inter in spec.scopes if "c" in inter))
    what = label(tool).split(" (")[0].lower()
    return prompts.message("no_write_scope", label=what, types=types)


def _out_of_scope(state: Turn, deps: Deps) -> str | None:
    """The answer when the question cannot be served here: another patient named in a
    session limited to this chart, or only actions this assistant does not perform."""
    about = planning.subject(state)
    if about.others and _chart_only(deps):
        here = planning.launch_name(state) or "the patient in context"
        if about.reason == "birth_date" and about.others == (about.said_born,):
            # a birth date alone, not hers: the person born then is not this patient
            return prompts.message("other_person", name=about.said_born, here=here)
        if about.reason == "birth_date":  # her name with another birth date: a namesake, said why
            return prompts.message("other_patient_born", name=", ".join(about.others), here=here,
                                   born=planning.in_context(state).born, said=about.said_born)
        if all(is_across(n) for n in about.others):  # "all my patients", "os dois estão"
            return prompts.message("other_patients", name=", ".join(about.others), here=here)
        if all(is_beside(n) for n in about.others):  # "son frère a de la fièvre", "bed 4"
            return prompts.message("other_person", name=", ".join(about.others), here=here)
        if _titled_only(state, about.others):  # "M. Thompson, il …" in Margaret's chart: asked
            return prompts.message("other_titled", name=", ".join(about.others), here=here)
        others = list({n.casefold(): n for n in about.others}.values())
        # "bed 3" inside "the man in bed 3": one person, named once
        others = [n for n in others
                  if not any(n.casefold() in m.casefold() and n != m for m in others)]
        if all(is_shouted(n) for n in others):  # "PACO, INR?": a name or an abbreviation
            return prompts.message("shouted_name", name=", ".join(others), here=here)
        if all(near_her_name(n, planning.in_context(state)) for n in others):
            # "Kofi Assante" in Kofi Asante's chart: her name asked for, never guessed
            return prompts.message("other_patient_near", name=", ".join(others), here=here)
        return prompts.message("other_patient", name=", ".join(others), here=here)
    if state.entities.unsupported and not planning.required_tools(state):
        return _unsupported(" and ".join(state.entities.unsupported))
    return None


def _unsupported(what: str) -> str:
    kinds = [languages.answer_text("unsupported", k) or "" for k in what.split(" and ")]
    text = prompts.message("unsupported", what=", ".join(kinds) if all(kinds) else what)
    return text[:1].upper() + text[1:]


def _chart_only(deps: Deps) -> bool:
    """Patients are readable at patient level only (user/Practitioner.rs aside): only the
    launch patient's compartment can be reached."""
    scopes = deps.ctx.scopes if deps.ctx is not None else None
    return (
        scopes is not None
        and bool(scopes)
        and not any(scopes.allows("Patient", "r", level) for level in ("user", "system"))
    )


def _ask_for_fields(state: Turn, deps: Deps) -> str | None:
    """One question listing what the next write needs and the clinician did not say,
    or that the named patient was not identified: never filled in by the model."""
    missing = planning.missing_tools(state, deps.tools)
    if not missing or missing[0] not in planning.writes():
        return None
    if planning.patient_id(state) is None and planning.other_patients(state):
        return prompts.message("patient_unresolved", name=", ".join(planning.other_patients(state)))
    fields = [
        languages.answer_text("fields", f) or f for f in planning.missing_fields(missing[0], state)
    ]
    # in the clinician's language
    joined = f" {languages.answer_text('fields', 'and') or 'and'} ".join(fields)
    if not fields:
        return None
    asked = prompts.message("ask_fields", label=label(missing[0]).lower(), fields=joined)
    return f"{asked} {read_so_far}" if (read_so_far := _order_read(missing[0], state)) else asked


def _order_read(tool: str, state: Turn) -> str | None:
    """The drug and dose an order already holds, said after the question that asks the rest
    ("shall we start lisinopril 5": what frequency, "Read so far: lisinopril 5 mg."), so the
    clinician sees the bare number was read as the dose."""
    ent = state.entities
    if tool != "prescribe_medication" or len(ent.drugs) != 1 or not (
            ent.dose and ent.dose.written):
        return None
    return say(message(N_("Read so far: %(order)s."), order=f"{ent.drugs[0]} {ent.dose.written}"),
               answer_language())


def _did_you_mean(entities: Entities) -> str | None:
    """A misspelling one edit from two drugs is asked about, never resolved to the first."""
    for mention in entities.ambiguous_drugs:
        names = mention.candidates
        return prompts.message("did_you_mean", surface=mention.surface,
                               choices=", ".join(names[:-1]) + " or " + names[-1])
    return None


def _which_tests(said: Request) -> str | None:
    """The ward's sample said with a time and no test ("bloods tomorrow", "bilan demain"): which
    tests is asked; nothing is ordered and her last results are not shown as the answer."""
    ward = said.ward
    if (not ward.samples_ahead or ward.when is None or ward.tests or ward.unread_tests
            or said.entities.drugs or "?" in said.message or said.workflow.problem):
        return None
    return say(message(N_("Which tests should be sent (%(when)s)? Name them (for example FBC, "
                          "U&E, CRP) and I will draft the lab orders; nothing was ordered."),
                       when=ward.when), answer_language())


def _not_recognised(said: Request) -> str | None:
    """A word in a drug's place that no drug vocabulary knows ("start zorbitex 20mg od") is said
    not recognised, by name, before anything is checked or ordered: never "no source matched",
    never a review of her list that leaves it out."""
    # a result, a reading, a test or a specialty asked names what stands in the drug's place;
    # her list asked beside it ("is plixarin safe with her meds") does not
    chart_asked = said.focus not in (None, "medications", "review", "interactions")
    if said.entities.drugs or said.entities.drug_mentions or said.ward.tests or chart_asked \
            or said.ward.readings or said.ward.specialties:
        return None
    word = unrecognised_drug(fold(said.understood), set())
    if word is None:
        return None
    unknown = say(message(N_("Drug not recognised: %(word)s. Nothing was checked or ordered for "
                             "it; check the spelling or give the generic name."), word=word),
                  answer_language())
    if said.entities.dose is None or not said.entities.dose.written:
        return unknown
    # an order with its dose ("rx zpak 500mg od x3d"): the drug is asked first, so that the
    # reply naming it ("azithromycin") completes this order
    asked = prompts.message("ask_fields", label=label("prescribe_medication").lower(),
                            fields=languages.answer_text("fields", "drug") or "drug")
    return f"{asked} {unknown}"


def _lesson_hint(message: str, deps: Deps) -> dict[str, Any]:
    """The closest approved lesson: its question is TOOL_SELECT's worked example, and when it is
    a near paraphrase its read tools count as a task pattern (a lesson never makes a write)."""
    match = best_match(message, list(deps.lessons), available=deps.tools,
                       min_score=prompts.limit("lesson_example_score") / 100)
    if not match:
        return {}
    lesson, score = match
    hint: dict[str, Any] = {
        "lesson": {"id": lesson.id, "question": lesson.question, "tool": lesson.tool_names[0]}
    }
    if score * 100 >= prompts.limit("lesson_pattern_score"):
        hint["lesson_tools"] = tuple(t for t in lesson.tool_names if catalog.spec(t).kind == "read")
    return hint


def _fast_summary(tool: str, args: dict[str, Any]) -> str:
    values = ", ".join(
        ", ".join(map(str, v)) if isinstance(v, list) else str(v) for v in args.values()
    )
    return prompts.template("fast_summary").format(label=label(tool), values=values)


# ---------------------------------------------------------------- ② intent
def intent_messages(state: Turn) -> list[dict[str, Any]]:
    """INTENT_CLASSIFY's request: the recent turns as messages, each question worded as this
    one, so the previous call's prompt is the start of this one and a server that keeps
    computed prompts computes only the turns since and this question."""
    asked = prompts.template("intent_user")
    history = prompts.conversation(
        prompts.recent(state.history, prompts.limit("history_turns")), chars=300, asked=asked
    )
    return prompts.request(
        "intent_classify",
        asked.format(query=state.message),
        fixed=(patient_block(state),),
        history=history,
    )


def intent_classify(state: Turn, deps: Deps) -> Update[IntentClassifyOutcome]:
    out, failed = ask_messages(
        deps, "intent_classify", intent_messages(state), IntentClassification
    )
    if isinstance(failed, InvalidModelOutput):  # a malformed reply: decide from the task patterns
        needs_tool = bool(planning.required_tools(state))
        return {"intent": "TOOL_NEEDED" if needs_tool else "DIRECT",
                "outcome": "select" if needs_tool else "direct"}
    if failed or out is None:
        return {**_degrade(failed), "outcome": "synthesize"}
    # Routing is code: a task pattern that requires a tool overrides a DIRECT verdict,
    # so "save a progress note: …" can never be answered without the tool.
    required = planning.missing_tools(state, deps.tools)
    outcome: IntentClassifyOutcome = "select" if out.intent != "DIRECT" or required else "direct"
    return {
        "intent": out.intent if outcome == "direct" or out.intent != "DIRECT" else "TOOL_NEEDED",
        "task_summary": out.task_summary,
        "suggested_tool": out.suggested_tool,
        "outcome": outcome,
    }


# ---------------------------------------------------------------- ③ select
def tool_select(state: Turn, deps: Deps) -> Update[ToolSelectOutcome]:
    """Deterministic choice when possible; else stage 1 (tool) and stage 2 (args)."""
    if state.retry_mode == "retry_different_args" and state.current is not None:
        return _select_args(state, deps, state.current.tool, retry=True)
    choice = planning.fast_choice(state, deps.tools, code_only=not _can_call(state, deps))
    if choice:
        return {"current": ToolCall(*choice), "outcome": "execute"}
    ask = _ask_for_fields(state, deps)
    if ask:
        return {"clarification": ask, "outcome": "ask"}
    if not deps.tools or not _can_call(state, deps):
        return {"outcome": "synthesize"}
    missing = planning.missing_tools(state, deps.tools)
    if missing and state.tool_runs:  # ROUTER: a task pattern is unmet, so the tool is code's choice
        return _select_args(state, deps, missing[0])
    out, failed = ask_model(
        deps,
        "tool_select",
        _select_tool_prompt(state, deps),
        _tool_choice(deps),
        fixed=(_tool_list(deps), patient_block(state)),
    )
    # a malformed reply: the suggestion, else a needed tool
    if isinstance(failed, InvalidModelOutput):
        fallback = [state.suggested_tool] + planning.missing_tools(state, deps.tools)
        tool = next((t for t in fallback if t in deps.tools), None)
        if tool is None:
            return {"clarification": prompts.message("ask_ambiguous"), "outcome": "ask"}
        return _select_args(state, deps, tool)
    if failed or out is None:
        return {**_degrade(failed), "outcome": "synthesize"}
    # the session's ToolSelection: a model built per session (tool_selection_for), no declared field
    return _select_args(state, deps, str(getattr(out, "tool_name")))  # noqa: B009


def _tool_choice(deps: Deps) -> type[BaseModel]:
    return tool_selection_for(_offered(deps))


def _offered(deps: Deps) -> list[str]:
    """This session's tools in running order (how the model sees them listed)."""
    return [name for name in catalog.running_order() if name in deps.tools]


def _select_tool_prompt(state: Turn, deps: Deps) -> str:
    names = _offered(deps)
    example_tool = state.suggested_tool if state.suggested_tool in deps.tools else names[0]
    example_query = prompts.example(example_tool)
    lesson = state.entities.lesson
    if lesson and lesson["tool"] in deps.tools:  # a clinician-verified example beats the stock one
        example_tool, example_query = lesson["tool"], lesson["question"]
    return prompts.template("tool_select_user").format(
        example_query=example_query, example_tool=example_tool,
        history=_context_lines(state) + _prior_results(state), task_summary=state.task_summary,
        query=state.message)


def _tool_list(deps: Deps) -> str:
    """The session's tool definitions: the fixed part of TOOL_SELECT's prompt."""
    return prompts.template("tool_list").format(
        tool_list="\n".join(f"- {catalog.spec(n).description}" for n in _offered(deps)))


def _prior_results(state: Turn) -> str:
    lines = [prompts.template("prior_result").format(label=r.label, text=r.result.text[:200])
             for r in state.tool_runs]
    return "\n".join(lines) + "\n" if lines else ""


def _hints(state: Turn) -> str:
    ent, patient_id = state.entities, planning.patient_id(state)
    found = [("patient ID", patient_id)] if patient_id else []
    found += [("drug name", d) for d in ent.drugs]
    found += [("patient name", n) for n in ent.patient_names]
    found += [(k, v) for k, v in (ent.dose.said() if ent.dose else {}).items() if v]
    found += [(k, v) for k, v in (ent.allergy.said() if ent.allergy else {}).items() if v]
    hints = [prompts.template("hint").format(key=key, value=value) for key, value in found]
    return "\n".join(hints) + "\n" if hints else ""


def _select_args(
    state: Turn, deps: Deps, tool: str, retry: bool = False
) -> Update[ToolSelectOutcome]:
    """Stage 2: arguments from code when extraction fixes them, else the model."""
    args = None if retry else planning.deterministic_args(tool, state)
    if args is None and _can_call(state, deps):
        retried = state.current.args if retry and state.current is not None else None
        prior = prompts.template("retry_prior").format(args=json.dumps(retried)) if retry else ""
        user = prompts.template("tool_args_user").format(
            query=state.message, hints=_hints(state), prior=prior
        )
        definition = prompts.template("tool_definition").format(
            tool_name=tool, description=catalog.spec(tool).description
        )
        out, failed = ask_model(
            deps, "tool_args", user, catalog.spec(tool).args_model, fixed=(definition,)
        )
        if failed or out is None:  # unusable arguments too: answered as no-model mode (fallback.py)
            return {**_degrade(failed), "outcome": "synthesize"}
        args = out.model_dump(exclude_none=True)
    if args is None:
        return {"outcome": "synthesize"}
    return {"current": ToolCall(tool, args), "retry_mode": None, "outcome": "execute"}


def _required(tool: str) -> str:
    return ", ".join(catalog.spec(tool).args_model.model_json_schema().get("required", []))


# ---------------------------------------------------------------- ④ execute
def tool_execute(state: Turn, deps: Deps) -> Update[ToolExecuteOutcome]:
    """Run the tool (never raising); writes come back as proposals, never writes."""
    if state.current is None:  # only TOOL_SELECT and the fast path lead here, both with a call
        raise UnknownTransition("TOOL_EXECUTE reached without a tool call")
    tool, args = state.current.tool, state.current.args
    is_retry = state.retry_mode == "retry_same"
    if not is_retry and any(r.tool == tool and r.args == args for r in state.tool_runs):
        return {"notice": None, "outcome": "duplicate"}
    call = {"type": "tool_call", "tool": label(tool), "args": args}
    deps.emit(call)
    offline_copies()  # forget copies served outside this run
    result = _run(deps, tool, args)
    if tool == "prescribe_medication" and result.status == "proposal" and not state.supersedes:
        result = _with_orders_beside(state, deps, args, result)  # "… and paracetamol 1 g qds"
    dated = [copy.note() for copy in offline_copies()]  # cached answers of a source now down
    summary = _summary(result)
    done = {"type": "tool_result", "tool": label(tool), "status": result.status,
            "summary": summary, "count": result.count}
    deps.emit(done)
    run = ToolRun(tool=tool, label=label(tool), args=args, result=result, summary=summary)
    update: Update[ToolExecuteOutcome] = {
        "tool_runs": state.tool_runs + [run], "retry_mode": None, "events": [call, done],
        "step_count": state.step_count + 1, "outcome": "classify", "errors": dated}
    if result.status == "proposal" and result.proposal_id:  # one request may propose several orders
        update["proposals"] = list(result.json_data().get("proposal_ids") or [result.proposal_id])
        withdrawn = _withdraw_superseded(state, deps)
        if withdrawn:
            result.text = f"{result.text}\n{withdrawn}"
        # what a write left undone (a reading refused beside those carded) is said with the cards
        update["errors"] = [
            *dated,
            *(result.json_data().get("notes") or []),
            *([withdrawn] if withdrawn else []),
        ]
    return update


def _with_orders_beside(
    state: Turn, deps: Deps, args: dict[str, Any], first: ToolResult
) -> ToolResult:
    """The order lines written beside the first ("… and paracetamol 1 g qds"), each drafted as
    its own card with the first (each card runs the order's own safety check)."""
    said = state.request
    if said is None or not said.also_ordered or args.get("medication_name") != said.ordered:
        return first
    results = [first]
    for drug in said.also_ordered:
        dose = drug.dose or Dose()
        line = {"patient_id": args.get("patient_id"), "medication_name": drug.name,
                "dosage": dose.written, "frequency": dose.frequency,
                "notes": planning.order_notes(dose)}
        results.append(_run(deps, "prescribe_medication",
                            {k: v for k, v in line.items() if v is not None}))
    return merged(results)


def _withdraw_superseded(state: Turn, deps: Deps) -> str | None:
    """The card a follow-up re-drafted is withdrawn once its replacement stands (one card
    pending); the sentence that says so (None when nothing was withdrawn)."""
    if not (state.supersedes and deps.ctx and deps.ctx.proposals):
        return None
    if not deps.ctx.proposals.withdraw_ids(
        list(state.supersedes), reason=REPLACED_BY_REDRAFT
    ):
        return None
    return say(
        message(N_("The earlier card was withdrawn: this order replaces it.")), answer_language()
    )


def _summary(result: ToolResult) -> str:
    """A run's one line for the trace and the progress list."""
    return result.text.splitlines()[0][:200] if result.text else result.status


def _run(deps: Deps, tool: str, args: dict[str, Any]) -> ToolResult:
    spec = deps.tools.get(tool)
    if spec is None:
        return ToolResult.failure("forbidden", prompts.message("no_tool", label=label(tool)))
    try:
        result = spec.run(
            spec.args_model(**args), deps.ctx or ToolContext(patient_id=None, scopes=None)
        )
    except ValidationError:
        return ToolResult.failure("invalid", prompts.error_text("invalid", label(tool)))
    except Exception:  # a tool bug must not end the turn: it reads as that source failing
        return ToolResult.failure("exception", prompts.error_text("exception", label(tool)))
    if result.status == "error" and not result.text:
        result.text = prompts.error_text(result.error_kind, label(tool))
    metrics.tool_run(
        tool, "fhir" if spec.spec.scopes else "knowledge", result.status, result.error_kind
    )
    return result


# ---------------------------------------------------------------- ⑤ classify
def result_classify(state: Turn, deps: Deps) -> Update[ResultClassifyOutcome]:
    """Code classifies structurally clear results; the model only plain 'ok' text."""
    run = state.tool_runs[-1]
    quality, summary = _structural_quality(run), run.summary
    update: Changes = {}
    if quality is None and _can_call(state, deps):
        user = prompts.template("result_classify_user").format(
            query=state.message, task_summary=state.task_summary, label=run.label,
            result=run.result.text[:2000])
        out, failed = ask_model(deps, "result_classify", user, ResultAssessment)
        if failed or out is None:
            update = _degrade(failed)
        else:
            quality, summary = out.quality, out.brief_summary
    run = replace(run, quality=quality or "success_rich", summary=summary)
    return {**update, "tool_runs": state.tool_runs[:-1] + [run], "outcome": "decide"}


def _structural_quality(run: ToolRun) -> str | None:
    res = run.result
    if res.status == "error":
        return "error_retryable" if res.error_kind in RETRYABLE else "error_fatal"
    if res.status in ("empty", "proposal", "ambiguous"):
        return {"empty": "no_results", "proposal": "proposal", "ambiguous": "ambiguous"}[res.status]
    if res.count is not None:
        if run.tool == "search_patient" and res.count > 1:
            return "ambiguous"
        return "success_rich" if res.count > 0 else "no_results"
    return None


# ---------------------------------------------------------------- ⑥ router
def router(state: Turn, deps: Deps) -> Update[RouterOutcome]:
    """All 'what next' decisions, in code."""
    last = state.tool_runs[-1] if state.tool_runs else None
    if last and last.quality == "ambiguous":
        return {"clarification": _ask_patient(last), "outcome": "ask"}
    if last and (last.quality or "").startswith("error") and last.tool not in state.skipped:
        return {"outcome": "error"}
    if last and last.quality == "proposal" and deps.pause_on_proposal:
        return {"outcome": "pause"}
    if state.step_count >= prompts.limit("max_steps"):
        return {"notice": prompts.message("max_steps", n=state.step_count), "outcome": "synthesize"}
    if planning.missing_tools(state, deps.tools):
        return {"outcome": "select"}
    return {"outcome": "synthesize"}


def _ask_patient(run: ToolRun) -> str:
    name = run.args.get("name", "that name")
    head = prompts.message("ask_patient", n=run.result.count or "several", name=name)
    return f"{head}\n\n{run.result.text}".strip()


# ---------------------------------------------------------------- ⑤a errors
def error_handler(state: Turn, deps: Deps) -> Update[ErrorHandlerOutcome]:
    """Ask-user and skip are code; the model only picks retry-same vs different."""
    last = state.tool_runs[-1]
    kind, tool = last.result.error_kind, last.tool
    tries = state.retries.get(tool, 0)
    if kind in ("invalid", "ambiguous"):  # the tool's own message says what is missing
        question = last.result.text or prompts.message("ask_missing", fields=_required(tool))
        return {"clarification": question, "outcome": "ask"}
    skip = (
        kind in ("not_found", "forbidden", "unsupported")
        or tries >= prompts.limit("max_retries")
        or state.total_retries >= prompts.limit("max_total_retries")
        or (kind == "unreachable" and tries >= 1)
    )
    if skip:
        note = last.result.text
        if tries >= prompts.limit("max_retries"):
            note = prompts.message("skip_retries", label=last.label) + " " + note
        return {"skipped": [tool], "errors": [note], "outcome": "skip"}
    strategy, update = _retry_strategy(state, deps, last, tries)
    return {**update, "retries": {**state.retries, tool: tries + 1}, "retry_mode": strategy,
            "total_retries": state.total_retries + 1, "outcome": strategy}


def _retry_strategy(state: Turn, deps: Deps, last: ToolRun, tries: int) -> tuple[Retry, Changes]:
    if not _can_call(state, deps):
        return "retry_same", {}
    user = prompts.template("retry_user").format(
        label=last.label, args=json.dumps(last.args), error=last.result.text, attempts=tries + 1)
    out, failed = ask_model(deps, "retry_strategy", user, RetryStrategy)
    if failed or out is None:
        return "retry_same", _degrade(failed)
    event = {"type": "retry_decision", "strategy": out.strategy, "tool": last.label}
    deps.emit(event)
    return out.strategy, {"events": [event]}
