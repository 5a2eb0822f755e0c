"""Workers starting at once on a fresh SQLite file: one creates the tables, the others wait.

Gunicorn forks its workers together and each builds the app's ``Storage``; on a new database
file every one of them used to see no table and create them, and all but one died with
"table … already exists". Two real processes are released at the same instant (a file
barrier after their imports), several times over fresh files; both must start and the
schema must be whole.
"""
from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from sqlalchemy import create_engine, inspect

from smart_docgemma.storage import metadata

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
