"""A turn that ends while the database cannot be reached is stored by the worker's lease thread
once it can, so the session is free again then, not once the turn's lease has lapsed.

The database here is a SQLite file whose folder is moved away (its pooled connections closed,
as a restart closes them) and back: every use meanwhile fails with the driver's own "unable to
open database file", as a PostgreSQL that is restarting refuses each new connection. (The
PostgreSQL restart itself: ``tests/test_fault_restarts.py``.)
"""
from __future__ import annotations

import time

import pytest
from smart_docgemma import errors
from smart_docgemma.agent.state import new_turn
from smart_docgemma.storage import UNREACHABLE, Storage, turns
from smart_docgemma.turns.store import TurnStore
from smart_docgemma.turns.worker import RETRY_S, Leases
from sqlalchemy import select


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "db").mkdir()
    return tmp_path / "db"


def test_a_turn_ended_while_the_database_was_away_is_stored_once_it_is_back(folder):
    store = TurnStore(Storage(f"sqlite:///{folder}/app.db", "key"), lease_s=30)
    keeper = Leases(store)
    turn_id = store.start("s1", new_turn("Hello"), per_minute=100)
    keeper.hold(turn_id)
    away = _move_away(store, folder)
    with pytest.raises(UNREACHABLE):  # the worker's own attempt to store the end
        store.finish(turn_id, new_turn("Hello"))
    keeper.store_later(turn_id, lambda: store.finish(turn_id, new_turn("Hello")))
    time.sleep(3 * RETRY_S)
    assert keeper.ending() == [turn_id]  # still waiting: nothing to store it in
    away.rename(folder)
    deadline = time.monotonic() + 3 * RETRY_S
    while keeper.ending() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert keeper.ending() == [] and store.get(turn_id).status == "done"
    assert store.start("s1", new_turn("Next"), per_minute=100)  # the session is free


def test_a_lease_that_could_not_be_renewed_is_renewed_as_soon_as_the_database_is_back(folder):
    store = TurnStore(Storage(f"sqlite:///{folder}/app.db", "key"), lease_s=9)
    keeper = Leases(store)  # renews every 3 s (a third of the lease)
    turn_id = store.start("s1", new_turn("A slow answer"), per_minute=100)
    keeper.hold(turn_id)
    started = _renewed_at(store, turn_id)
    away = _move_away(store, folder)
    time.sleep(3.5)  # the first renewal failed
    away.rename(folder)
    time.sleep(1.5 * RETRY_S)  # before the next regular renewal (6 s)
    assert _renewed_at(store, turn_id) > started + 3  # tried again within RETRY_S
    assert store.get(turn_id).status == "running"
    with pytest.raises(errors.Conflict):
        store.start("s1", new_turn("Too soon"), per_minute=100)
    keeper.release(turn_id)


def _renewed_at(store: TurnStore, turn_id: str) -> float:
    with store.storage.read() as conn:
        return conn.execute(select(turns.c.updated_at).where(turns.c.id == turn_id)).scalar_one()


def _move_away(store: TurnStore, folder):
    away = folder.rename(folder.with_name("away"))
    store.storage.engine.dispose()  # the connections a restart would have closed
    return away
