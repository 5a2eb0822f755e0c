"""Server-side storage: sessions and tokens, agent turns, proposals, CDS feedback.

SQLite by default (a file in the instance folder); any SQLAlchemy database URL
(e.g. ``postgresql+psycopg://…``) when several app instances share state behind
a load balancer. Secrets (access and refresh tokens) are sealed with Fernet
before they reach the database, so a copied database file leaks no token.

Tables live here, in one place, so the schema is readable at a glance; the
modules that own the rows (``sessions``, ``proposals``, ``cds``) hold the
queries.
"""
from __future__ import annotations

import base64
import hashlib
import json
import select
import sqlite3
import time
from contextlib import contextmanager

from cryptography.fernet import Fernet, InvalidToken
from sqlalchemy import (
    Column,
    Float,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    inspect,
    text,
)
from sqlalchemy.exc import DisconnectionError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

metadata = MetaData()
PING_IDLE_S = 10  # a pooled connection idle longer than this is tested before use

app_sessions = Table(
    "app_sessions", metadata,
    Column("sid", String(64), primary_key=True),  # opaque id, the only thing in the cookie
    Column("created_at", Float, nullable=False),
    Column("expires_at", Float, nullable=False),
    Column("context", Text, nullable=False),  # JSON: iss, patient, encounter, scope, user…
    Column("tokens", Text),  # Fernet-sealed JSON: access/refresh tokens, expiry
)

oauth_states = Table(
    "oauth_states", metadata,
    Column("state", String(128), primary_key=True),  # single use: deleted when consumed
    Column("browser", String(64), nullable=False),  # binds state to the browser session
    Column("created_at", Float, nullable=False),
    Column("data", Text, nullable=False),  # Fernet-sealed JSON: verifier, nonce, iss, endpoints
)

turns = Table(
    "turns",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("sid", String(64), index=True, nullable=False),
    Column("created_at", Float, nullable=False),
    Column(
        "state", Text, nullable=False
    ),  # the turn record + the agent's serializable state (JSON)
    Column("status", String(16)),  # running | done | failed (rate limit, one turn at a time)
    Column("updated_at", Float),
)

proposals = Table(
    "proposals",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("sid", String(64), index=True, nullable=False),
    Column("patient_id", String(64), nullable=False),
    Column("tool", String(64), nullable=False),
    Column("status", String(16), nullable=False),  # pending|executing|approved|rejected|failed
    Column("resource", Text, nullable=False),  # the validated FHIR resource (JSON)
    Column("summary", Text, nullable=False),  # human-readable fields and safety flags (JSON)
    Column("created_at", Float, nullable=False),
    Column("decided_at", Float),
    Column("decided_by", String(256)),
    Column("reason", Text),
    Column("result_ref", String(256)),  # e.g. MedicationRequest/123 once created
    Column("attempts", Integer, nullable=False, default=0),
    Column(
        "version", Integer, default=1
    ),  # +1 per clinician edit; approve names the version it saw
)

chart_snapshots = Table(
    "chart_snapshots",
    metadata,
    Column("sid", String(64), primary_key=True),  # one per session: the chart it read last
    Column("patient_id", String(64), nullable=False),
    Column("read_at", Float, index=True, nullable=False),
    Column(
        "brief", Text, nullable=False
    ),  # Fernet-sealed: the chart in brief, as the prompt gets it
)

cds_feedback = Table(
    "cds_feedback", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("service_id", String(64), nullable=False),
    Column("card", String(64), nullable=False),
    Column("outcome", String(16), nullable=False),
    Column("detail", Text, nullable=False),  # JSON: accepted suggestions / override reason
    Column("outcome_at", String(64)),
    Column("created_at", Float, nullable=False),
)

turn_ratings = Table(
    "turn_ratings", metadata,
    Column("turn_id", String(64), primary_key=True),  # one rating per turn; a new one replaces it
    Column("sid", String(64), nullable=False),
    Column("useful", Integer, nullable=False),  # 1 useful, 0 not useful
    Column("reason", Text),
    Column("created_at", Float, nullable=False),
)

lessons = Table(
    "lessons", metadata,
    Column("id", String(64), primary_key=True),
    Column("turn_id", String(64), unique=True, nullable=False),  # harvested once per turn
    Column("status", String(16), nullable=False),  # pending | approved | dropped
    Column("question", Text, nullable=False),
    Column("tools", Text, nullable=False),  # JSON: [{"tool", "args"}] in running order
    Column("outcome", Text, nullable=False),  # what made the turn verified (the signal)
    Column("created_at", Float, nullable=False),
    Column("decided_at", Float),
    Column("decided_by", String(256)),
)

cds_cards = Table(
    "cds_cards",
    metadata,
    Column(
        "uuid", String(64), primary_key=True
    ),  # a card this service issued (feedback must name one)
    Column("service_id", String(64), nullable=False),
    Column("expires_at", Float, nullable=False),
)

cds_shown = Table(
    "cds_shown",
    metadata,
    Column("card", String(64), primary_key=True),  # the card's uuid (feedback names it)
    Column(
        "patient_id", String(64), index=True, nullable=False
    ),  # sha256 of fhirServer | patient id
    Column(
        "problem", String(256), nullable=False
    ),  # e.g. pair:aspirin+warfarin, monitor:warfarin-inr
    Column(
        "fingerprint", String(64), nullable=False
    ),  # changes when the problem changes (a new result)
    Column("shown_at", Float, nullable=False),
)

cds_jti = Table(
    "cds_jti", metadata,
    Column("key", String(512), primary_key=True),  # iss + jti
    Column("expires_at", Float, nullable=False),
)

language_choices = Table(  # the page language each practitioner chose (web/language.py)
    "language_choices", metadata,
    Column("practitioner", String(256), primary_key=True),  # fhirUser, e.g. Practitioner/dr-okafor
    Column("language", String(8), nullable=False),
    Column("updated_at", Float, nullable=False),
)


audit_events = Table(
    "audit_events", metadata,
    Column("id", String(64), primary_key=True),  # the AuditEvent's id
    Column("recorded", Float, index=True, nullable=False),
    Column("patient_id", String(128), index=True),  # whose data (None: no patient in it)
    Column("kind", String(32), nullable=False),  # read | search-type | answer-shown | cds-hook …
    Column("outcome", String(2), nullable=False),  # AuditEvent.outcome: 0 ok, 4 minor, 8 serious
    Column("who", String(256)),  # the practitioner (fhirUser) or the CDS client's user
    Column("client", String(256)),  # the SMART client id or the CDS client's issuer
    Column("sid", String(64), index=True),  # the app session (None for CDS calls)
    Column("event", Text, nullable=False),  # the FHIR AuditEvent (JSON), redacted per policy
    Column("ehr_ref", String(256)),  # AuditEvent/id on the EHR once sent there
)

# MCP requests accepted in the last minute, per user and client (mcpserver/quota.py)
mcp_calls = Table(
    "mcp_calls", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("subject", String(256), nullable=False),  # the token's sub: the user
    Column("client", String(256), nullable=False),  # the token's client_id
    Column("at", Float, nullable=False),
    Index("ix_mcp_calls_subject_at", "subject", "at"),
)


# The database did not answer: it is down or restarting, a connection broke, or every pooled
# connection stayed busy past the pool's wait (the web layer answers 503,
# errors.DatabaseUnavailable).
UNREACHABLE = (OperationalError, PoolTimeout)
ADVISORY_LOCK = text("SELECT pg_advisory_xact_lock(hashtext(:key))")


def _fernet_key(secret: str) -> bytes:
    return base64.urlsafe_b64encode(hashlib.sha256(secret.encode()).digest())


class Storage:
    """Owns the engine and the secret sealer. One per app (``app.extensions``)."""

    def __init__(
        self, url: str, token_key: str, pool_size: int = 10, ping_idle_s: float = PING_IDLE_S
    ):
        """Up to ``pool_size`` connections for the threads of this process, opened as needed
        and kept open once opened (a connection opened and closed for each busy moment cost
        PostgreSQL more CPU than the statements it ran); SQLite opens one per use. A pooled
        connection idle for more than ``ping_idle_s`` is tested before use (see
        ``_ping_when_idle``)."""
        sqlite = url.startswith("sqlite")
        pool = {} if sqlite else {"pool_size": pool_size, "max_overflow": 0}
        self.engine = create_engine(url, future=True, **pool)
        if sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        else:
            _ping_when_idle(self.engine, ping_idle_s)
        self._fernet = Fernet(_fernet_key(token_key))
        self.postgresql = self.engine.dialect.name == "postgresql"
        with self.read() as conn:  # a database already up to date needs no lock at start-up
            current = not _missing(conn)
        if not current:
            # several workers start at once: one creates, the others wait
            with self.begin() as conn:
                self._lock_schema(conn)
                metadata.create_all(conn)
                _add_missing_columns(conn)

    def _lock_schema(self, conn) -> None:
        """Hold the database's write lock before ``create_all`` looks for the tables.

        Gunicorn starts its workers at once on a fresh database: each would see no table and
        create them, and all but one fail with "table … already exists". PostgreSQL: the
        transaction's advisory lock on "schema". SQLite: ``BEGIN IMMEDIATE`` takes the file's
        write lock now (the driver opens a transaction only at the first INSERT/UPDATE, after
        the look), so the other workers wait (``busy_timeout``), then find the tables."""
        if self.postgresql:
            self.serialize(conn, "schema")
        elif self.engine.dialect.name == "sqlite":
            conn.exec_driver_sql("BEGIN IMMEDIATE")

    @contextmanager
    def begin(self):
        """A connection inside one transaction (committed on success)."""
        with self.engine.begin() as conn:
            yield conn

    @contextmanager
    def read(self):
        """A connection for one read statement, outside any transaction (autocommit): no
        BEGIN and COMMIT round trips. Several statements that must agree use ``begin``."""
        with self.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            yield conn

    def write(self, statement, params: dict | None = None) -> int:
        """Run one write that stands alone, outside any transaction (autocommit): one round
        trip instead of BEGIN, the statement and COMMIT, which costs the worker and the
        database about a third of the CPU of a turn's audit record or lease renewal.
        Returns the number of rows it changed."""
        with self.read() as conn:
            return conn.execute(statement, params or {}).rowcount

    def serialize(self, conn, key: str) -> None:
        """Make transactions naming the same ``key`` run one after another (until commit).

        A check-then-insert ("no turn running, fewer than N this minute") is one statement,
        which SQLite runs alone (one writer at a time). PostgreSQL runs concurrent
        transactions side by side under READ COMMITTED, so two workers could both see
        "nothing running"; a transaction-scoped advisory lock on the key orders them."""
        if self.postgresql:
            conn.execute(ADVISORY_LOCK, {"key": key})

    def seal(self, data: dict) -> str:
        """Encrypt a JSON-able dict for storage at rest."""
        return self._fernet.encrypt(json.dumps(data).encode()).decode()

    def unseal(self, blob: str | None) -> dict | None:
        """Decrypt what ``seal`` produced; None when absent or tampered with."""
        if not blob:
            return None
        try:
            return json.loads(self._fernet.decrypt(blob.encode()))
        except (InvalidToken, ValueError):
            return None


def _missing(conn) -> list[str]:
    """The tables and nullable columns of ``metadata`` the database lacks (``table.column``)."""
    inspector = inspect(conn)
    tables = set(inspector.get_table_names())
    missing = [t.name for t in metadata.sorted_tables if t.name not in tables]
    for table in metadata.sorted_tables:
        if table.name in tables:
            have = {c["name"] for c in inspector.get_columns(table.name)}
            missing += [f"{table.name}.{c.name}" for c in table.columns if c.name not in have]
    return missing


def _add_missing_columns(conn) -> None:
    """Additive schema upgrades: a nullable column added to a table above appears in
    databases created before it (``create_all`` only creates missing tables)."""
    inspector = inspect(conn)
    for table in metadata.sorted_tables:
        have = {c["name"] for c in inspector.get_columns(table.name)}
        for column in table.columns:
            if column.name not in have and column.nullable:
                kind = column.type.compile(conn.dialect)
                conn.execute(text(f'ALTER TABLE {table.name} ADD COLUMN {column.name} {kind}'))


def _ping_when_idle(engine, idle_s: float) -> None:
    """Test a pooled connection before use only when it has sat idle for ``idle_s``.

    A database restart or an idle-connection timeout kills connections that wait in the pool;
    a quick ``SELECT 1`` on checkout finds them and the pool opens a fresh one instead
    (``DisconnectionError`` makes it retry). Testing every checkout costs a round trip per
    transaction, about a fifth of a turn's CPU; a connection returned moments ago is alive."""
    @event.listens_for(engine, "checkin")
    def _returned(_dbapi_conn, record):
        record.info["returned_at"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _checked_out(dbapi_conn, record, _proxy):
        returned = record.info.get("returned_at")
        if returned is None:  # fresh from connect: the pool cannot retry it, and it is alive
            return
        if _hung_up(dbapi_conn):  # the server said goodbye (restarted, crashed): no round trip
            raise DisconnectionError("pooled connection closed by the server")
        if time.monotonic() - returned < idle_s:
            return
        try:
            cursor = dbapi_conn.cursor()
            cursor.execute("SELECT 1")
            cursor.close()
            dbapi_conn.rollback()
        except Exception as exc:  # any driver error here means: this connection is gone
            raise DisconnectionError("pooled connection is gone") from exc


def _hung_up(dbapi_conn) -> bool:
    """Whether an idle pooled connection has something to read: only a server closing it
    (PostgreSQL's "terminating connection" notice, or end of file) can have sent anything.
    One poll of the socket, so a database restart costs no request, unlike a ping per use."""
    fileno = getattr(dbapi_conn, "fileno", None)
    if fileno is None:
        return False
    try:
        readable, _, _ = select.select([fileno()], [], [], 0)
    except (OSError, ValueError):  # already closed
        return True
    return bool(readable)


def _sqlite_pragmas(dbapi_conn, _record) -> None:
    # WAL lets the chat stream read while an approval writes; busy_timeout
    # turns brief lock contention into a wait instead of an error.
    # busy_timeout first: switching a fresh file to WAL takes a lock another worker may hold.
    # SQLite may refuse the WAL switch at once ("database is locked") while another worker's
    # connection holds the file, without waiting busy_timeout: try again for up to 5 s.
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA busy_timeout=5000")
    for attempt in range(50):
        try:
            cur.execute("PRAGMA journal_mode=WAL")
            break
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or attempt == 49:
                raise
            time.sleep(0.1)
    cur.close()


def now() -> float:
    """Wall-clock seconds; one seam for tests that need to move time."""
    return time.time()
