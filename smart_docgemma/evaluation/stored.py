"""Scoring what clinicians actually asked: the app's stored turns, period by period.

The case set says what a correct agent does with a question; a stored turn
says what the deployed agent did. Every stored question that matches a case
(same words, case and punctuation aside) is scored like an evaluation run.
Beside it, per period: how often the model was unavailable, how often the
second look found a serious problem, what clinicians rated, and how many
proposals they approved or rejected. A drop between the last two periods is
reported as drift, so a model or prompt change that hurts real questions
shows up without anyone re-running the case set.
"""
from __future__ import annotations

import re
from collections import defaultdict
from datetime import UTC, datetime

from sqlalchemy import select

from ..agent.state import route_of
from ..storage import proposals, turn_ratings
from ..turns.store import TurnStore
from ..turns.stored import StoredTurn
from .cases import Case
from .harness import args_match, executed_tools

DRIFT_POINTS = 0.10  # a fall of this much (10 points) between periods is reported


def normalise(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


def period_of(timestamp: float, period: str) -> str:
    when = datetime.fromtimestamp(timestamp, UTC)
    if period == "day":
        return when.date().isoformat()
    year, week, _ = when.isocalendar()
    return f"{year}-W{week:02d}"


def stored_report(storage, cases: list[Case], *, period: str = "week") -> dict:
    """Per-period figures for every stored turn, and drift between the last two periods."""
    by_query = {normalise(c.query): c for c in cases}
    stored_turns, unreadable = TurnStore(storage).of_status("done", "failed")
    with storage.begin() as conn:
        rated = {r.turn_id: bool(r.useful) for r in conn.execute(select(turn_ratings))}
        decided = {r.id: r.status for r in conn.execute(select(proposals.c.id, proposals.c.status))}
    buckets: dict[str, list[dict]] = defaultdict(list)
    # a row stored before the turn was typed is unreadable: nothing to score
    for stored in stored_turns:
        buckets[period_of(stored.created_at, period)].append(
            _observe(
                stored, by_query.get(normalise(stored.turn.message)), rated.get(stored.id), decided
            )
        )
    periods = {name: _summary(obs) for name, obs in sorted(buckets.items())}
    return {"period": period, "turns": len(stored_turns) + unreadable, "unreadable": unreadable,
            "periods": periods, "drift": drift(periods)}


def _observe(stored: StoredTurn, case: Case | None, rating: bool | None, decided: dict) -> dict:
    turn, status = stored.turn, stored.status
    obs = {"failed": status == "failed", "degraded": turn.degraded, "rating": rating,
           "second_look": turn.second_look.severity if turn.second_look else None,
           "proposals": [decided.get(proposal_id) for proposal_id in turn.proposals], "case": None}
    if case is not None and status == "done":
        first_args: dict = {}
        for run in turn.tool_runs:
            first_args.setdefault(run.tool, run.args)
        obs.update(
            case=case.id,
            route_ok=route_of(turn) == case.route,
            tools_ok=executed_tools(turn) == list(case.tools),
            args_ok=all(
                args_match(want, first_args.get(tool, {})) for tool, want in case.args.items()
            ),
        )
    return obs


def _rate(flags: list) -> float | None:
    return round(sum(flags) / len(flags), 4) if flags else None


def _summary(obs: list[dict]) -> dict:
    scored = [o for o in obs if o["case"]]
    looked = [o["second_look"] for o in obs if o["second_look"]]
    ratings = [o["rating"] for o in obs if o["rating"] is not None]
    outcomes = [p for o in obs for p in o["proposals"]]
    return {
        "turns": len(obs),
        "failed": sum(o["failed"] for o in obs),
        "degraded_rate": _rate([o["degraded"] for o in obs]),
        "matched_cases": len(scored),
        "route_accuracy": _rate([o["route_ok"] for o in scored]),
        "tool_accuracy": _rate([o["tools_ok"] for o in scored]),
        "argument_accuracy": _rate([o["args_ok"] for o in scored]),
        "second_looks": len(looked),
        "second_look_high_rate": _rate([s == "high" for s in looked]),
        "rated": len(ratings),
        "useful_rate": _rate(ratings),
        "proposals_approved": outcomes.count("approved"),
        "proposals_rejected": outcomes.count("rejected"),
    }


def drift(periods: dict) -> list[str]:
    """Plain sentences for every figure that got worse by ``DRIFT_POINTS`` or more."""
    if len(periods) < 2:
        return []
    (before_name, before), (after_name, after) = list(periods.items())[-2:]
    out = []
    for key, worse_when in (
        ("tool_accuracy", "lower"),
        ("route_accuracy", "lower"),
        ("useful_rate", "lower"),
        ("second_look_high_rate", "higher"),
        ("degraded_rate", "higher"),
    ):
        a, b = before.get(key), after.get(key)
        if a is None or b is None:
            continue
        change = (a - b) if worse_when == "lower" else (b - a)
        if change >= DRIFT_POINTS:
            out.append(
                f"{key.replace('_', ' ')} {a:.0%} in {before_name} -> {b:.0%} in {after_name}"
            )
    return out


def markdown_periods(report: dict) -> str:
    head = ("| period | turns | failed | degraded | matched cases | tools "
            "| route | second look high | useful | approved / rejected |\n"
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    pct = lambda v: "–" if v is None else f"{v * 100:.0f} %"  # noqa: E731
    lines = [head] + [
        f"| {name} | {p['turns']} | {p['failed']} | {pct(p['degraded_rate'])} "
        f"| {p['matched_cases']} | {pct(p['tool_accuracy'])} | "
        f"{pct(p['route_accuracy'])} | {pct(p['second_look_high_rate'])} | "
        f"{pct(p['useful_rate'])} | {p['proposals_approved']} / {p['proposals_rejected']} |"
        for name, p in report["periods"].items()]
    lines.append(
        "\nDrift: "
        + ("; ".join(report["drift"]) if report["drift"] else "none between the last two periods")
    )
    if report["unreadable"]:
        lines.append(
            f"{report['unreadable']} stored turn(s) predate the typed turn and were not scored."
        )
    return "\n".join(lines)
