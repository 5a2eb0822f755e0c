"""⑦ SYNTHESIZE: the clinician-facing answer.

The model sees clinical labels, never tool names, and pre-formatted error
messages, never raw errors (docs/agent-design.md, What the model reads). Streamed at T=0.5 / 256
tokens with no thinking prefix. A clarification question (ask-user) is answered by code. When the
model is absent or fails, or its answer is empty, the answer is a templated summary of what the
tools returned, labelled as such — never invented text.
"""
from __future__ import annotations

import re
from typing import Any

from .. import metrics
from ..checks.mentions import appended
from ..errors import ModelError
from ..grounding import ground_turn, injection
from ..grounding.answer_language import candidates, foreign
from ..languages import answer_language, fold, iso_days
from ..tools import catalog
from . import chart_context, languages, prompts
from .chart_context import chart_block, session_chart, unrepeated
from .nodes import Deps, label, patient_block
from .second_look import needs_second_look
from .state import Changes, SynthesizeOutcome, Turn, Update, merge

_TOOL_NAME = re.compile(r"\[?\b(" + "|".join(catalog.specs()) + r")\b\]?")


def synthesize(state: Turn, deps: Deps) -> Update[SynthesizeOutcome]:
    if state.clarification:  # with every finding of what ran before the question
        return _finish(state, appended(state.clarification, state.tool_runs), deps)
    if deps.model is None or state.degraded:
        return _finish(state, templated_summary(state), deps)
    parts: list[str] = []
    messages = answer_messages(state)
    try:
        for text in deps.model.stream_text("synthesize", messages, deps.stats):
            parts.append(text)
            deps.emit({"type": "token", "text": text})
    except ModelError as exc:
        fallback: Changes = {"degraded": True, "degraded_reason": exc.description}
        return {**fallback, **_finish(merge(state, fallback), templated_summary(state), deps)}
    answer = sanitize("".join(parts)).strip()
    if not answer:
        return _finish(state, templated_summary(state), deps)
    # what the model read of this turn, for the next turns' history: their prompt then starts
    # with this one's, and a server that keeps computed prompts does not compute it again
    return {**_finish(state, _in_language(state, answer), deps), "asked": messages[-1]["content"]}


def _in_language(state: Turn, answer: str) -> str:
    """The model's answer when it is in the clinician's language; else (text the turn read may
    have told the model to switch) the templated answer, in that language, under a note that
    says why. Code decides: the model does not choose the language the clinician reads."""
    expected = answer_language()
    found = foreign(answer, expected)
    if found is None:
        return _with_notes(state, answer)
    metrics.language_replaced(expected, found.lang)
    replaced = templated_summary(state, prompts.message("language_replaced", found=found.lang))
    return appended(replaced, state.tool_runs)  # every severe finding, as for the model's


def sanitize(text: str) -> str:
    """Replace any leaked tool name with its clinical label (the clinician never reads tool
    names)."""
    return _TOOL_NAME.sub(lambda m: label(m.group(1)), text)


def answer_messages(state: Turn) -> list[dict[str, Any]]:
    """The session's fixed part first (system text, the patient's chart as the session read it
    — else in brief —, the answer language: ``prompts.request``), then recent turns, then this
    turn's data, less what the fixed part's chart already holds (``chart_context``). Dates are
    ISO in every language (the chart's, in both parts)."""
    history = prompts.conversation(
        prompts.recent(state.history, prompts.limit("history_turns")), chars=3000, as_read=True
    )
    user = iso_days(_user_message(state))
    ok = [r for r in state.tool_runs if r.result.status in ("ok", "empty")]
    if len(ok) == 1 and catalog.spec(ok[0].tool).brief:
        user = prompts.template("brief_prefix") + user
    return prompts.request(
        "synthesize",
        user,
        fixed=_fixed(chart_block(state.chart_text) or patient_block(state)),
        history=history,
    )


def _fixed(chart: str) -> tuple[str, ...]:
    """The answer prompt's fixed blocks after its system text: the chart, the answer language."""
    return iso_days(chart), languages.instruction() or ""


def opening_prompt(chart_text: str, model: Any) -> list[dict[str, Any]] | None:
    """A request whose prompt starts as every answer of a session on this chart will (the
    fixed part, then an empty turn): computed when the assistant opens (``web/prefill.py``).
    None when ``model`` reads the chart in brief (``chart_context.fits``)."""
    if not chart_context.fits(model):
        return None
    return prompts.request("synthesize", "", fixed=_fixed(chart_block(session_chart(chart_text))))


def _user_message(state: Turn) -> str:
    text = prompts.template
    sections = [text("answer_question").format(query=state.message)]
    if state.task_summary:
        sections.append(text("answer_context").format(task_summary=state.task_summary))
    results = [r for r in state.tool_runs if r.result.status != "error"]
    chart = state.chart_text or ""
    if results:
        sections.append(
            "\n\n".join(
                text("answer_result").format(
                    label=r.label, text=whole_lines(unrepeated(r.result.text, chart))
                )
                for r in results
            )
        )
    errors = _error_notes(state)
    if errors:
        sections.append(
            text("answer_unavailable").format(notes="\n".join(f"- {e}" for e in errors))
        )
    return "\n\n".join(sections)


def whole_lines(text: str, limit: int = 1500) -> str:
    """``text`` up to ``limit`` characters, cut after a whole line (a medication line cut in the
    middle would lose its dose)."""
    if len(text) <= limit:
        return text
    head = text[:limit]
    return (head[:head.rfind("\n")] if "\n" in head else head) + "\n(… more in the chart)"


def _error_notes(state: Turn) -> list[str]:
    notes = list(state.errors)
    for r in state.tool_runs:
        if r.result.status == "error" and r.tool not in state.skipped:
            notes.append(r.result.text)
    return list(dict.fromkeys(n for n in notes if n))


def _proposal_notes(state: Turn) -> list[str]:
    return [prompts.message("proposal", label=r.label) for r in state.tool_runs
            if r.result.status == "proposal"]


def _with_notes(state: Turn, answer: str) -> str:
    """Facts the clinician must see whatever the model wrote: failures, proposals, stops, and every
    warning-or-above safety finding the tools returned (``checks.mentions``)."""
    notes = [n for n in _error_notes(state) + _proposal_notes(state) if n not in answer]
    if state.notice:
        notes.append(state.notice)
    notes += [n for n in _no_patient(state) if n not in answer]
    answer = answer + ("\n\n" + "\n".join(f"- {n}" for n in notes) if notes else "")
    return appended(answer, state.tool_runs)


# a patient asked about by a pronoun or as "the patient", in the four languages
_ABOUT_SOMEONE = re.compile(r"\b(?:he|she|his|her|him|hers|the patient|the pt|pt|il|elle|lui|"
                            r"le patient|la patiente|ele|ela|dele|dela|o paciente|a paciente|"
                            r"el|ella|el paciente|la paciente)\b")


def _no_patient(state: Turn) -> list[str]:
    """No patient open in the session, and the message asks of one ("what's his potassium?",
    "can she have ibuprofen?", an order): said, so a label read alone is not taken for her check
    and nothing is looked for in nobody's chart."""
    if state.patient_id:
        return []
    from .planning import request  # planning reads this module's notes

    said = request(state)
    if said.entities.patient_names or said.entities.patient_ids or any(
            r.tool == "search_patient" for r in state.tool_runs):
        return []  # a patient named or looked up: the lookup answers who
    asked = said.kind.value == "order" or said.focus is not None or bool(
        _ABOUT_SOMEONE.search(fold(state.message).lower()))
    return [prompts.message("no_patient_open")] if asked else []


def templated_summary(state: Turn, label: str | None = None) -> str:
    """What the tools returned, verbatim and labelled — no AI interpretation. ``label``: why
    (default: the model is unavailable)."""
    lines = [label or prompts.message("degraded_label")]
    for r in state.tool_runs:
        if r.result.status != "error":
            lines.append(f"**{r.label}** — {r.result.text.strip()}")
    lines += [f"- {n}" for n in _error_notes(state) + _proposal_notes(state)]
    if state.notice and not any(state.notice in line for line in lines):
        lines.append(f"- {state.notice}")
    lines += [f"- {n}" for n in _no_patient(state)]
    if len(lines) == 1:
        lines.append(prompts.message("degraded_nothing"))
    return "\n\n".join(lines)


def _finish(state: Turn, answer: str, deps: Deps | None = None) -> Update[SynthesizeOutcome]:
    answer = answer.strip() or prompts.message("empty_fallback")
    asked = bool(state.clarification) and answer.startswith(state.clarification or "")
    cited: Changes = {} if asked else _grounded(state, answer, deps)
    grounded = cited.get("answer")
    answer = answer if grounded is None else grounded
    sources, seen = [], set()
    for r in state.tool_runs:
        for s in r.result.sources:
            if s.url not in seen:
                seen.add(s.url)
                sources.append(s)
    review = needs_second_look(answer, state.proposals)  # code decides; plain answers skip it
    outcome: SynthesizeOutcome = "review" if review else "done"
    return {**cited, "answer": answer, "sources": sources, "outcome": outcome}


def _grounded(state: Turn, answer: str, deps: Deps | None) -> Changes:
    """What code checks before the answer is shown (grounding/): instruction-like text the turn
    read is reported as content; claimed writes that did not happen are marked; each factual
    sentence is cited and checked against what the turn read; secrets and the assistant's own
    instructions are removed. The code's own notes (failures, proposals, the degraded label)
    are not checked."""
    ctx = deps.ctx if deps else None
    config = (ctx.config if ctx else {}) or {}
    base = getattr(getattr(ctx, "fhir", None), "base_url", None)
    reported = injection.notices(injection.instructions_in(state))
    approved = any(a.get("decision") == "approved" for a in state.approvals)
    answer = injection.claims(answer, approved) + "".join(f"\n\n{n}" for n in reported)
    # the code's own note, each of its lines (a check's findings beside a search, a follow-up's
    # sums): written by code from what it read, not a claim to find in the records
    noted = [line.strip() for line in (state.notice or "").split("\n") if line.strip()]
    keep = set(_error_notes(state) + _proposal_notes(state) + reported + noted) | {
        line.removeprefix("- ") for line in noted} | {
        state.notice or "", prompts.message("degraded_label")} | {
        prompts.message("language_replaced", found=lang) for lang in candidates()}
    done = ground_turn(state, answer, base, config.get("GROUNDING_UNSUPPORTED", "mark"), keep=keep)
    own = [prompts.system(n) for n in prompts.load("prompts")["system"]]
    secrets = injection.secrets_of(ctx, own)
    clean, _ = injection.scrub(done.answer, secrets)
    shown, _ = injection.scrub(done.shown, secrets)
    return {"answer": clean, "cited_answer": shown, "citations": done.citations,
            "grounding": done.checks}
