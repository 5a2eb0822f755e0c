"""PostgreSQL connections that die while they wait in the pool (a database restart, an
idle-connection timeout): the next request still works, because a connection idle longer
than ``ping_idle_s`` is tested before use and replaced when it is gone."""
from __future__ import annotations

from smart_docgemma.agent.state import new_turn
from smart_docgemma.storage import Storage
from smart_docgemma.turns.store import TurnStore
from sqlalchemy import create_engine, text


def kill_connections(postgres, url: str) -> int:
    """What a database restart does to the app's pooled connections."""
    name = url.rsplit("/", 1)[1]
    admin = create_engine(postgres.url("postgres"))
    with admin.begin() as conn:
        killed = conn.execute(text("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                                   "WHERE datname = :name AND pid <> pg_backend_pid()"), {"name": name}).scalar()
    admin.dispose()
    return killed


def test_a_connection_killed_while_idle_is_replaced(postgres):
    url = postgres.new_database()
    store = TurnStore(Storage(url, "key", pool_size=2, ping_idle_s=0))
    turn_id = store.start("s1", new_turn("K+ trend?"), per_minute=5)
    assert kill_connections(postgres, url) >= 1
    assert store.get(turn_id).turn.message == "K+ trend?"  # no error reaches the clinician


def test_a_connection_returned_moments_ago_is_not_pinged_yet_a_closed_one_is_replaced(postgres):
    """Within ``ping_idle_s`` the pool sends no ``SELECT 1`` (a test per checkout would cost a
    round trip per transaction), yet a connection the server closed is replaced: one poll of its
    socket sees the server's goodbye, so a database restart costs no request."""
    from sqlalchemy import event

    url = postgres.new_database()
    storage = Storage(url, "key", pool_size=2, ping_idle_s=3600)
    store = TurnStore(storage)
    pings: list[str] = []
    event.listen(storage.engine, "before_cursor_execute",
                 lambda _c, _cur, statement, *_a: pings.append(statement) if statement == "SELECT 1" else None)
    turn_id = store.start("s1", new_turn("K+ trend?"), per_minute=5)
    assert store.get(turn_id).turn.message == "K+ trend?" and pings == []
    assert kill_connections(postgres, url) >= 1
    assert store.get(turn_id).turn.message == "K+ trend?"  # no error reaches the clinician


def test_the_database_down_is_a_clear_503_and_no_stack_trace(app_config, fhir_base):
    """PostgreSQL stopped under a running app: pages and the API say the app's database is not
    answering (503, Retry-After), in JSON for the API; liveness still answers, readiness not."""
    from smart_docgemma import create_app

    from tests.support.chat_session import open_session
    from tests.support.postgres import Cluster

    cluster = Cluster().start()
    try:
        app = create_app({**app_config, "DATABASE_URL": cluster.new_database()})
        client = app.test_client()
        csrf = open_session(app, client, fhir_base, "pt-ckd-elder")
        assert client.get("/app").status_code == 200
    finally:
        cluster.stop()
    page = client.get("/app")
    body = page.get_data(as_text=True)
    assert page.status_code == 503 and page.headers["Retry-After"]
    assert "database" in body and "Traceback" not in body and "psycopg" not in body
    french = client.get("/app", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert "La base de données de l&#39;assistant ne répond pas" in french  # the browser's language
    asked = client.post("/api/chat", data={"message": "last potassium?"},
                        headers={"X-CSRF-Token": csrf, "Accept": "application/json"})
    assert asked.status_code == 503 and asked.get_json()["error"] == "database_unavailable"
    assert client.get("/healthz").status_code == 200
    assert client.get("/readyz").status_code == 503
