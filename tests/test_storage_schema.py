"""Workers starting at once on a fresh SQLite file: one creates the tables, the others wait.

Gunicorn forks its workers together and each builds the app's ``Storage``; on a new database
file every one of them used to see no table and create them, and all but one died with
"table … already exists". Two real processes are released at the same instant (a file
barrier after their imports), several times over fresh files; both must start and the
schema must be whole.
"""
from __future__ import annotations

import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from smart_docgemma.storage import Storage, metadata
from sqlalchemy import create_engine, inspect

ROOT = Path(__file__).resolve().parent.parent
ROUNDS = 4

WORKER = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from smart_docgemma.storage import Storage

    folder, me = Path(sys.argv[1]), sys.argv[2]
    (folder / f"ready-{me}").touch()
    while len(list(folder.glob("ready-*"))) < 2:  # both imported: go together
        time.sleep(0.0005)
    Storage(f"sqlite:///{folder}/docgemma.sqlite", "key")
""")


def test_two_workers_create_the_schema_of_a_fresh_sqlite_file_together(tmp_path):
    for round_ in range(ROUNDS):
        folder = tmp_path / f"round-{round_}"
        folder.mkdir()
        workers = [subprocess.Popen([sys.executable, "-c", WORKER, str(folder), str(n)], cwd=ROOT,
                                    stderr=subprocess.PIPE, text=True) for n in range(2)]
        failures = [err for err in (w.communicate(timeout=60)[1] for w in workers) if "Error" in err]
        assert [w.returncode for w in workers] == [0, 0], failures
        engine = create_engine(f"sqlite:///{folder}/docgemma.sqlite")
        assert set(inspect(engine).get_table_names()) == set(metadata.tables)
        engine.dispose()


def test_a_database_from_before_a_column_was_added_gets_it(tmp_path):
    url = f"sqlite:///{tmp_path}/old.sqlite"
    engine = create_engine(url)
    with engine.begin() as conn:  # the turns table as it was before leases (no updated_at)
        conn.exec_driver_sql("CREATE TABLE turns (id VARCHAR(64) PRIMARY KEY, sid VARCHAR(64) NOT NULL, "
                             "created_at FLOAT NOT NULL, state TEXT NOT NULL, status VARCHAR(16))")
    Storage(url, "key")
    assert "updated_at" in {c["name"] for c in inspect(engine).get_columns("turns")}
    assert set(inspect(engine).get_table_names()) == set(metadata.tables)
    engine.dispose()


def test_a_current_database_starts_without_waiting_for_the_write_lock(tmp_path):
    """A worker (re)starting while another holds a write transaction is not held up: the schema
    lock is taken only when something is missing."""
    url = f"sqlite:///{tmp_path}/current.sqlite"
    Storage(url, "key")
    writer = sqlite3.connect(tmp_path / "current.sqlite", isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")  # another worker in the middle of a write
    try:
        started = time.monotonic()
        Storage(url, "key")
        assert time.monotonic() - started < 2  # busy_timeout is 5 s: it never waited for the lock
    finally:
        writer.execute("ROLLBACK")
        writer.close()
