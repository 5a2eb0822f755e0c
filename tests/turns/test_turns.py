"""Chat turns (``smart_docgemma.turns``) over a real SQLite database.

What a clinician notices: the transcript comes back in the order it was asked,
the agent's context holds the last finished exchanges (never a failed or
half-written one), a second tab cannot start a turn while one is running (409),
a session asking too fast is told when to retry (429), and a turn abandoned by a
dead worker stops blocking the session after ``RUNNING_STALE_S``.
``turns.py`` imports ``now`` from ``storage``, so time is moved at ``turns.now``.
"""
from __future__ import annotations

import threading
import time
from dataclasses import FrozenInstanceError, replace

import pytest
from smart_docgemma import errors
from smart_docgemma.agent.state import ToolRun, TurnReview, new_turn
from smart_docgemma.grounding.check import Citation, SentenceCheck
from smart_docgemma.knowledge.finding import Source
from smart_docgemma.storage import Storage
from smart_docgemma.tools.base import ToolResult
from smart_docgemma.turns import store as turns
from smart_docgemma.turns.store import INTERRUPTED, RUNNING_STALE_S, WINDOW_S, TurnStore
from smart_docgemma.turns.stored import StoredTurn
from smart_docgemma.turns.worker import Leases

from tests.support.postgres import BOTH_DATABASES

pytestmark = BOTH_DATABASES

T0 = 1_700_000_000.0


@pytest.fixture
def clock(monkeypatch):
    state = {"t": T0}
    monkeypatch.setattr(turns, "now", lambda: state["t"])
    return state


@pytest.fixture
def store(database, clock):
    return TurnStore(Storage(database, "key"))


def turn(message, answer=None):
    return replace(new_turn(message), answer=answer)


def ask(store, clock, sid, message, answer="", status="done", per_minute=100):
    clock["t"] += 1
    turn_id = store.start(sid, turn(message), per_minute=per_minute)
    if status:
        store.finish(turn_id, turn(message, answer), status=status)
    return turn_id


def test_start_get_finish(store):
    turn_id = store.start("s1", turn("K+ trend?"), per_minute=5)
    running = store.get(turn_id)
    assert running.status == "running" and running.turn.message == "K+ trend?"
    assert running.id == turn_id and running.created_at == T0
    store.finish(turn_id, turn("K+ trend?", "Rising: 4.8 → 5.6"))
    done = store.get(turn_id)
    assert done.status == "done" and done.turn.answer == "Rising: 4.8 → 5.6"
    assert store.load(turn_id) == turn("K+ trend?", "Rising: 4.8 → 5.6")
    store.finish(turn_id, turn("K+ trend?"), status="failed")
    assert store.get(turn_id).status == "failed"


def test_get_unknown_turn(store):
    with pytest.raises(errors.NotFound):
        store.get("nope")


def test_for_session_is_the_transcript_oldest_first(store, clock):
    ids = [ask(store, clock, "s1", f"q{i}", f"a{i}") for i in range(3)]
    ask(store, clock, "other", "elsewhere", "x")
    transcript = store.for_session("s1")
    assert [t.id for t in transcript] == ids
    assert [t.turn.message for t in transcript] == ["q0", "q1", "q2"]
    assert store.for_session("nobody") == []


def test_history_is_the_last_finished_exchanges(store, clock):
    for i in range(4):
        ask(store, clock, "s1", f"q{i}", f"a{i}")
    ask(store, clock, "s1", "failed question", "partial", status="failed")
    ask(store, clock, "s1", "no answer", "")
    ask(store, clock, "s1", "still running", status=None)
    assert store.history("s1") == [
        {"role": "user", "content": "q1"}, {"role": "assistant", "content": "a1"},
        {"role": "user", "content": "q2"}, {"role": "assistant", "content": "a2"},
        {"role": "user", "content": "q3"}, {"role": "assistant", "content": "a3"}]
    assert store.history("s1", turns=1) == [{"role": "user", "content": "q3"},
                                            {"role": "assistant", "content": "a3"}]
    assert store.history("other") == []


def test_one_running_turn_per_session(store, clock):
    first = ask(store, clock, "s1", "first", status=None)
    with pytest.raises(errors.Conflict) as refused:
        store.start("s1", turn("second tab"), per_minute=100)
    assert refused.value.status == 409
    assert len(store.for_session("s1")) == 1  # nothing was written
    ask(store, clock, "s2", "other session", status=None)  # another session is not blocked
    store.finish(first, turn("first", "a"))
    ask(store, clock, "s1", "after the first finished", status=None)


def test_rate_limit_per_session(store, clock):
    for i in range(3):
        ask(store, clock, "s1", f"q{i}", "a", per_minute=3)  # finished: no Conflict
    clock["t"] += 10  # first turn at T0+1, now T0+13
    with pytest.raises(errors.RateLimited) as refused:
        store.start("s1", turn("fourth"), per_minute=3)
    assert refused.value.status == 429
    assert 0 < refused.value.retry_after <= WINDOW_S
    assert T0 + 1 + WINDOW_S <= clock["t"] + refused.value.retry_after <= T0 + 3 + WINDOW_S
    assert len(store.for_session("s1")) == 3
    ask(store, clock, "s2", "other session", "a", per_minute=3)  # counted per session


def test_rate_limit_window_slides(store, clock):
    ask(store, clock, "s1", "q0", "a", per_minute=2)  # at T0+1
    clock["t"] = T0 + 29
    ask(store, clock, "s1", "q1", "a", per_minute=2)  # at T0+30
    with pytest.raises(errors.RateLimited) as refused:
        store.start("s1", turn("too soon"), per_minute=2)
    retry_at = clock["t"] + refused.value.retry_after
    clock["t"] = T0 + WINDOW_S  # the first turn is still inside the window
    with pytest.raises(errors.RateLimited):
        store.start("s1", turn("still too soon"), per_minute=2)
    clock["t"] = retry_at  # asked again when told: only the first turn has left the window
    store.start("s1", turn("later"), per_minute=2)


def test_failed_turns_count_towards_the_limit(store, clock):
    ask(store, clock, "s1", "q", status="failed", per_minute=1)
    with pytest.raises(errors.RateLimited):
        store.start("s1", turn("again"), per_minute=1)


def test_stale_running_turn_no_longer_blocks(store, clock):
    ask(store, clock, "s1", "worker died", status=None)
    clock["t"] += RUNNING_STALE_S - 5
    with pytest.raises(errors.Conflict):
        store.start("s1", turn("still blocked"), per_minute=100)
    clock["t"] += 10
    turn_id = store.start("s1", turn("after the worker died"), per_minute=100)
    assert store.get(turn_id).status == "running"
    first, second = store.for_session("s1")
    assert (first.status, second.status) == ("failed", "running")  # swept: interrupted
    assert first.turn.error == INTERRUPTED


def test_a_turn_that_stopped_reporting_says_when_the_session_is_free(store, clock):
    """A live turn's refusal asks the clinician to wait; one whose worker missed its lease
    renewals says when a question can be asked again (its lease runs out), as Retry-After."""
    ask(store, clock, "s1", "worker went quiet", status=None)
    with pytest.raises(errors.Conflict) as live:
        store.start("s1", turn("too soon"), per_minute=100)
    assert "still answering" in live.value.description and live.value.retry_after is None
    clock["t"] += turns.SILENT_S + 1
    with pytest.raises(errors.Conflict) as quiet:
        store.start("s1", turn("after the worker went quiet"), per_minute=100)
    wait = quiet.value.retry_after
    assert wait is not None and 0 < wait <= RUNNING_STALE_S - turns.SILENT_S
    assert f"You can ask again in {wait} s." in quiet.value.description
    clock["t"] += wait
    assert store.get(store.start("s1", turn("asked again"), per_minute=100)).status == "running"


def test_the_refusals_of_a_running_or_stopped_turn_read_in_the_clinicians_language(store, clock):
    """The 409 sentences are language messages: a French, Portuguese or Spanish page shows
    them in its language, the wait in seconds kept."""
    from smart_docgemma.languages import say

    ask(store, clock, "s1", "worker went quiet", status=None)
    with pytest.raises(errors.Conflict) as live:
        store.start("s1", turn("too soon"), per_minute=100)
    clock["t"] += turns.SILENT_S + 1
    with pytest.raises(errors.Conflict) as quiet:
        store.start("s1", turn("after the worker went quiet"), per_minute=100)
    wait = quiet.value.retry_after
    assert "répond encore" in say(live.value.wording, "fr")
    assert f"perguntar de novo em {wait} s" in say(quiet.value.wording, "pt")
    assert f"volver a preguntar en {wait} s" in say(quiet.value.wording, "es")


def test_a_heartbeat_keeps_a_long_turn_alive_past_the_lease(store, clock):
    turn_id = store.start("s1", turn("a slow answer"), per_minute=100)
    for _ in range(5):  # the worker renews its lease while the model answers slowly
        clock["t"] += RUNNING_STALE_S - 1
        assert store.beat_all([turn_id]) == 1
    assert store.get(turn_id).status == "running"
    with pytest.raises(errors.Conflict):
        store.start("s1", turn("another"), per_minute=100)
    clock["t"] += RUNNING_STALE_S + 1  # the worker died: no more beats
    assert store.get(turn_id).status == "failed"
    assert store.beat_all([turn_id]) == 0  # a late beat cannot revive it


def test_a_worker_that_comes_back_after_the_sweep_changes_nothing(store, clock):
    turn_id = store.start("s1", turn("a stalled answer"), per_minute=100)
    clock["t"] += RUNNING_STALE_S + 1
    assert [t.status for t in store.for_session("s1")] == ["failed"]
    assert store.finish(turn_id, turn("a stalled answer", answer="late"), "done") == "failed"
    stored = store.get(turn_id)
    assert stored.status == "failed" and stored.turn.error == INTERRUPTED and not stored.turn.answer


def test_a_stored_turn_round_trips_as_one_typed_value(store):
    """What the page, the follow-up, the experience library and the evaluation read back is a
    frozen ``StoredTurn`` holding the very ``Turn`` stored: typed fields all the way down
    (tool runs, sources, citations, grounding), on SQLite and PostgreSQL alike."""
    source = Source(label="FDA drug label service", url="https://example.org/label")
    full = replace(
        new_turn("Warfarin with aspirin?", patient_id="pt-1"),
        tool_runs=[ToolRun(tool="drug_interactions", label="Interaction check", args={"drugs": ["warfarin"]},
                           result=ToolResult(status="ok", text="Major", sources=[source]), quality="success_rich")],
        sources=[source], answer="Bleeding risk [1].", proposals=["p-1"],
        citations=[Citation(n=1, key="label:abc#warnings", label="Warfarin label", url=source.url)],
        grounding=[SentenceCheck(text="Bleeding risk [1].", cites=(1,), verdict="supported")],
        second_look=TurnReview(severity="low", findings=("x",), proposals=("p-1",)),
        nodes=["INPUT_ASSEMBLY", "SYNTHESIZE"], calls_by_node={"synthesize": 1})
    turn_id = store.start("s1", new_turn("Warfarin with aspirin?"), per_minute=5)
    store.finish(turn_id, full, status="paused")
    stored = store.get(turn_id)
    assert stored == StoredTurn(id=turn_id, sid="s1", status="paused", created_at=T0, turn=full)
    assert isinstance(stored.turn.tool_runs[0].result, ToolResult) and stored.turn.sources[0] == source
    assert store.for_session("s1") == [stored] and store.load(turn_id) == full
    assert store.paused_with("s1", "p-1") == turn_id
    with pytest.raises(FrozenInstanceError):
        stored.status = "done"  # type: ignore[misc]


def test_one_thread_renews_the_leases_of_the_turns_a_worker_holds(database):
    """A held turn outlives its lease (renewed by the worker's one lease thread); a released
    one, whose worker stopped renewing it, is swept as interrupted once its lease ran out."""
    store = TurnStore(Storage(database, "key"), lease_s=0.9)
    keeper, threads = Leases(store), _lease_threads()
    held = [store.start(f"s{i}", turn("a slow answer"), per_minute=100) for i in range(12)]
    dropped = store.start("s-dropped", turn("its worker died"), per_minute=100)
    for turn_id in [*held, dropped]:
        keeper.hold(turn_id)
    keeper.release(dropped)
    time.sleep(2.0)  # more than twice the lease
    assert [store.get(t).status for t in held] == ["running"] * 12
    assert store.get(dropped).status == "failed" and store.get(dropped).turn.error == INTERRUPTED
    assert _lease_threads() == threads + 1
    keeper.release(held[0])
    time.sleep(1.5)
    assert store.get(held[0]).status == "failed" and store.get(held[1]).status == "running"
    for turn_id in held:
        keeper.release(turn_id)


def _lease_threads() -> int:
    return [t.name for t in threading.enumerate()].count("turn-leases")
