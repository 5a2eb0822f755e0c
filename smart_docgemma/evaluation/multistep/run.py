"""Drive the real agent through a multi-step task and grade its checkpoints against FHIR.

One task is one session: each turn is ``Agent.run`` with the app's real tools (FHIR against
the given server, write tools as proposals in the evaluation's store), the chart read for each
turn as the chat reads it, and the earlier turns as history. After the last turn, nothing of
the write types may have reached FHIR; then every pending card is approved as the clinician
does (``ward_run.approve_all``), what was created is read back and checked, and every card is
approved a second time (a double click, a retry) to check that exactly one resource exists per
card. What the approvals wrote is deleted once scored, so the charts stay as generated.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any

from ...agent.graph import Agent
from ...fhir import FhirGateway
from ...proposals.store import IDENTIFIER_SYSTEM, Proposal
from ...smart.scopes import GrantedScopes
from ...tools.base import ToolContext
from ...tools.registry import tools_for
from .. import ward_run
from ..cases import Case
from ..harness import PRACTITIONER, EvalRun, chart_read
from .score import check_says, check_written, kind, resource_text
from .tasks import Checkpoint, Task


@dataclass
class CheckpointResult:
    name: str
    phase: str
    ok: bool
    detail: list[str] = field(default_factory=list)


@dataclass
class TaskResult:
    id: str
    family: str
    split: str
    source: str
    perturbation: str | None
    checkpoints: list[CheckpointResult]
    answer: str = ""
    cards: list[str] = field(default_factory=list)
    written: list[str] = field(default_factory=list)
    seconds: float = 0.0
    error: str | None = None

    @property
    def passed(self) -> int:
        return sum(c.ok for c in self.checkpoints)

    @property
    def complete(self) -> bool:
        return self.error is None and all(c.ok for c in self.checkpoints)


@dataclass
class Outcome:
    """What a task's session did, read before and after the approvals."""

    answer: str
    cards: list[Proposal]
    early: list[str]
    written: list[dict[str, Any]]
    refused: list[str]
    duplicates: list[str]


def card_text(p: Proposal) -> str:
    s = p.summary
    fields = " ".join(f"{k}: {v}" for k, v in s.get("fields") or [])
    return "\n".join(
        [str(s.get("title") or ""), fields, str(s.get("preview") or ""), resource_text(p.resource)]
    )


def grade(task: Task, out: Outcome) -> list[CheckpointResult]:
    said = out.answer + "\n" + "\n".join(card_text(p) for p in out.cards)
    expects = any(c.writes for c in task.checkpoints)  # "once" needs something written
    return [_grade_one(c, out, said, task.patient, expects) for c in task.checkpoints]


def _grade_one(
    c: Checkpoint, out: Outcome, said: str, patient: str, expects: bool
) -> CheckpointResult:
    if c.proposes is not None:
        got = sorted(kind(p.resource_type) for p in out.cards)
        wrong = (
            []
            if got == sorted(kind(k) for k in c.proposes)
            else [f"pending {got}, expected {sorted(c.proposes)}"]
        )
    elif c.no_early_write:
        wrong = [f"written before approval: {r}" for r in out.early]
    elif c.writes is not None:
        wrong = out.refused + check_written(list(c.writes), out.written, patient)
    elif c.once:
        wrong = out.duplicates + (["nothing written"] if expects and not out.written else [])
    else:
        wrong = check_says(c.says, c.says_not, said)
    return CheckpointResult(c.name, c.phase, not wrong, wrong)


class MultiRun:
    """One evaluation run: the app's objects (``harness.EvalRun``), a session per task."""

    def __init__(self, fhir_base: str, endpoint: str = "", keep_writes: bool = False):
        self.base = EvalRun(endpoint=endpoint, fhir_base=fhir_base, keep_writes=keep_writes)

    def context(self, task: Task) -> ToolContext:
        scopes = GrantedScopes.parse(self.base.config["SCOPES"])
        return ToolContext(
            patient_id=task.patient,
            scopes=scopes,
            fhir=FhirGateway(self.base.fhir_base, None),
            http=self.base.http,
            proposals=self.base.proposals,
            sid=uuid.uuid4().hex,
            user=PRACTITIONER,
            config=dict(self.base.config),
            language=task.language,
        )

    def run(self, task: Task) -> TaskResult:
        started = time.perf_counter()
        try:
            out = self._session(task)
            checks = grade(task, out)
            error = None
        except Exception as exc:  # a crash is a failed task to report, not the end of the run
            out, checks = (
                None,
                [CheckpointResult(c.name, c.phase, False, ["crash"]) for c in task.checkpoints],
            )
            error = f"{type(exc).__name__}: {exc}"[:300]
        return TaskResult(
            task.id,
            task.family,
            task.split,
            task.source,
            task.perturbation,
            checks,
            answer=(out.answer if out else "")[:2000],
            cards=[card_text(p)[:2000] for p in out.cards] if out else [],
            written=[f"{r['resourceType']}/{r['id']}" for r in out.written] if out else [],
            seconds=round(time.perf_counter() - started, 2),
            error=error,
        )

    def _session(self, task: Task) -> Outcome:
        ctx = self.context(task)
        self.base.injector.prepare(_as_case(task), datetime.now(UTC))
        since = datetime.now(UTC)
        history: list[dict[str, Any]] = []
        answer = ""
        agent = Agent(self.base.model, tools_for(ctx.scopes), ctx)  # type: ignore[arg-type]
        for said in task.turns:
            chart = chart_read(ctx)
            turn = agent.run(
                said,
                history=history,
                chart_summary=chart.brief if chart else None,
                chart_text=chart.text if chart else None,
                chart=chart.in_context if chart else None,
            )
            answer = turn.state.answer or ""
            history += [{"role": "user", "content": said}, {"role": "assistant", "content": answer}]
        return self._approve(task, ctx, since, answer)

    def _approve(self, task: Task, ctx: ToolContext, since: datetime, answer: str) -> Outcome:
        store, sid = self.base.proposals, ctx.sid or ""
        cards = [p for p in store.for_session(sid) if p.status == "pending"]
        mine = {p.id for p in store.for_session(sid)}
        early = ward_run.unapproved(
            ctx.gateway(),
            task.patient,
            since,
            set(self.base.injector.placed) | self.base.written,
            mine,
        )
        scopes = ctx.scopes
        assert scopes is not None  # the context above always grants the configured scopes
        launch = ward_run.Launch(sid, task.patient, ctx.user, scopes, ctx.gateway())
        done = ward_run.approve_all(store, launch)
        self.base.written.update(f"{r['resourceType']}/{r['id']}" for r in done.written)
        duplicates = self._again(cards, launch)
        if not self.base.keep_writes:
            ward_run.remove(self.base.fhir_base, done.written)
        return Outcome(answer, cards, early, done.written, done.refused, duplicates)

    def _again(self, cards: list[Proposal], launch: ward_run.Launch) -> list[str]:
        """Approve each card once more, then count the resources naming it: one each."""
        wrong = []
        for p in cards:
            try:
                self.base.proposals.approve(p.id, launch)
            except Exception:  # noqa: BLE001 - a refused second approval is what we want
                pass
            n = len(
                launch.fhir.search(
                    p.resource_type, {"identifier": f"{IDENTIFIER_SYSTEM}|{p.id}"}, max_pages=1
                )
            )
            if n > 1:
                wrong.append(f"{p.resource_type} of card {p.id[:8]}: {n} resources")
        return wrong

    def close(self) -> None:
        self.base.close()


def _as_case(task: Task) -> Case:
    """The injector's view of a task: its patient and the results it places."""
    return Case(
        id=task.id,
        category="multi_tool",
        query=task.turns[0],
        route="proposal",
        patient=task.patient,
        setup=list(task.setup),
    )


def evaluate(
    tasks: list[Task],
    fhir_base: str,
    endpoint: str = "",
    progress: Callable[[TaskResult], None] | None = None,
) -> list[TaskResult]:
    run = MultiRun(fhir_base, endpoint)
    try:
        results = []
        for task in tasks:
            results.append(run.run(task))
            if progress:
                progress(results[-1])
        return results
    finally:
        run.close()


def summarise(results: list[TaskResult]) -> dict[str, Any]:
    """Tasks complete and checkpoints passed: overall, per split, per split × family, per
    perturbation."""

    def figures(rs: list[TaskResult]) -> dict[str, Any]:
        return {
            "tasks": len(rs),
            "complete": sum(r.complete for r in rs),
            "checkpoints": sum(len(r.checkpoints) for r in rs),
            "passed": sum(r.passed for r in rs),
        }

    groups: dict[str, list[TaskResult]] = {}
    for r in results:
        for key in (
            r.split,
            f"{r.split}/{r.family}",
            f"perturbation/{r.perturbation or 'original'}",
        ):
            groups.setdefault(key, []).append(r)
    return {
        "all": figures(results),
        **{k: figures(v) for k, v in sorted(groups.items())},
        "results": [{**asdict(r), "passed": r.passed, "complete": r.complete} for r in results],
    }
