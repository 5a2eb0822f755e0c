"""The knowledge core's shipped data files, opened once: YAML tables and the interaction database.

``load(name)`` reads a YAML file of ``data/``; ``db()`` is a read-only connection (one per
thread) to ``data/interactions.sqlite`` (built by ``build`` from the ANSM thesaurus), whose
ingredient names, dictionary variants and stopwords the vocabulary reads too. Nothing here
touches the network.
"""
from __future__ import annotations

import json
import sqlite3
import threading
from functools import cache
from pathlib import Path
from typing import Any

from ..datafiles import safe_yaml

DATA = Path(__file__).with_name("data")
DB = DATA / "interactions.sqlite"
_local = threading.local()


@cache
def load(name: str) -> Any:
    """A YAML file of ``data/`` as parsed (a mapping or a list, as the file is written)."""
    return safe_yaml((DATA / name).read_text())


def db() -> sqlite3.Connection | None:
    if not DB.exists():
        return None
    conn = getattr(_local, "conn", None)
    if conn is None:  # one read-only connection per thread, opened on first use
        conn = sqlite3.connect(f"file:{DB}?mode=ro&immutable=1", uri=True, check_same_thread=False)
        _local.conn = conn
    return conn


def english_names() -> list[str]:
    """The interaction data's English ingredient names (~1,000 beyond the YAML tables)."""
    conn = db()
    return [r[0] for r in conn.execute("SELECT name FROM ingredient")] if conn else []


def ansm_rxcuis() -> dict[str, str]:
    """Ingredient name → RxNorm ingredient code, from the interaction data's RxNorm mapping."""
    conn = db()
    rows = (
        conn.execute("SELECT name, rxcui FROM ingredient WHERE rxcui IS NOT NULL") if conn else []
    )
    return {name: str(code) for name, code in rows}


def variant(phrase: str) -> list[str]:
    """Ingredients a brand name or synonym names, from the shipped dictionary variants."""
    conn = db()
    row = (
        conn.execute("SELECT ingredients FROM variant WHERE variant = ?", (phrase,)).fetchone()
        if conn
        else None
    )
    return json.loads(row[0]) if row else []


def stopwords() -> frozenset[str]:
    """Words the drug dictionary knows are not drug names ("today", "patient")."""
    conn = db()
    return (
        frozenset(r[0] for r in conn.execute("SELECT word FROM stopword")) if conn else frozenset()
    )


def meta() -> dict[str, Any]:
    """Sources, versions and licences of the interaction data (its ``meta`` table)."""
    conn = db()
    return dict(conn.execute("SELECT key, value FROM meta")) if conn else {}
