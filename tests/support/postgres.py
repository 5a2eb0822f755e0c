"""A throwaway PostgreSQL cluster for the tests: initdb + pg_ctl into a temporary folder.

Debian's ``postgresql`` package (installed by ``.ci/run``) keeps the server programs in
``/usr/lib/postgresql/<version>/bin``, off PATH; both places are searched. Without them the
fixture fails with the package to install: the PostgreSQL half of a test is never skipped.
PostgreSQL refuses to run as root, so under root the cluster runs as the ``postgres`` user.
Each test gets a database of its own (``new_database``); the cluster lives for the session.
"""
from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
import uuid
from pathlib import Path

import pytest

from tests.support.servers import free_port

MISSING = ("PostgreSQL server programs (initdb, pg_ctl) not found on PATH or in /usr/lib/postgresql/*/bin: "
           "install Debian's postgresql package (apt-get install postgresql), as .ci/run does")


def binaries() -> Path | None:
    found = shutil.which("pg_ctl")
    if found and shutil.which("initdb"):
        return Path(found).parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(p.split("/")[4]))
    return Path(versions[-1]).parent if versions else None


class Cluster:
    def __init__(self):
        self.bin = binaries()
        if self.bin is None:
            pytest.fail(MISSING, pytrace=False)
        self.folder = Path(tempfile.mkdtemp(prefix="docgemma-pg-"))  # /tmp: readable by the postgres user
        self.port = free_port()
        self.data = self.folder / "data"

    def _run(self, *args: str) -> None:
        command = [str(self.bin / args[0]), *args[1:]]
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres")
            command = ["runuser", "-u", "postgres", "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120)
        if done.returncode:
            raise RuntimeError(f"{' '.join(args[:2])} failed:\n{done.stdout}\n{done.stderr}")

    def start(self) -> Cluster:
        self._run("initdb", "-D", str(self.data), "-U", "docgemma", "-A", "trust", "--no-sync", "-E", "UTF8")
        options = (f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off "
                   "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200")
        self.options = options
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.folder / "log"), "-w", "start")
        return self

    def restart(self, mode: str = "fast", down_s: float = 0.0) -> None:
        """Stop the server (``fast``: connections cut, as a restart by an operator;
        ``immediate``: as a crash), stay down ``down_s`` seconds, start it again."""
        import time

        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")
        time.sleep(down_s)
        self._run("pg_ctl", "-D", str(self.data), "-o", self.options,
                  "-l", str(self.folder / "log"), "-w", "start")

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://docgemma@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A fresh, empty database; returns its SQLAlchemy URL."""
        import psycopg

        name = f"t_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(f"host=127.0.0.1 port={self.port} user=docgemma dbname=postgres",
                             autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)


# Modules whose storage must behave the same on both databases: ``pytestmark = BOTH_DATABASES``.
BOTH_DATABASES = pytest.mark.parametrize("database", ["sqlite", "postgresql"], indirect=True)
