"""Per-client limits on MCP calls (docs/mcp.md, "Limits").

An MCP client is a user (the token's ``sub``) in a client (its ``client_id``). Each may make
``MCP_CALLS_PER_MIN`` calls in any 60 s, and a user at most ``MCP_SUBJECT_CALLS_PER_MIN``
through all their clients together (a client id costs nothing to register, so the user's own
ceiling is what holds when one loops through many). Calls are rows of the ``mcp_calls`` table in
the app's database, so every gunicorn worker sees the same count; taking one is one conditional
``INSERT`` (the rule the chat's turns follow, ``turns/store.py``), ordered per user on PostgreSQL
by a transaction advisory lock. A refused call stores nothing and does not count.

``ClientLimits`` sits behind the SDK's bearer middleware (so the token is verified and known) and
in front of the transport: over either limit, or with ``MCP_CLIENT_CONCURRENCY`` of the
client's calls already running in this worker, the answer is ``429`` with ``Retry-After`` and a
JSON-RPC error whose ``data.retry_after`` says the same, and nothing of the call runs. With
``MCP_WORKER_CONCURRENCY`` calls of all clients running in the worker (its threads are for
clinicians too), ``503`` with ``Retry-After``. A refused call holds its thread for milliseconds
and counts in neither number, so a client that loops on refusals cannot fill the worker.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass

import anyio
from sqlalchemy import Float, Integer, String, and_, bindparam, delete, func, select

from .. import metrics
from ..extensions import get_storage
from ..storage import Storage, now
from ..storage import mcp_calls as table
from .guard import SERVER_BUSY, TOO_MANY, error_body

WINDOW_S = 60
BODY_PEEK_BYTES = 65_536  # enough of a refused request's body to read its JSON-RPC id


def _param(name: str, kind=String):
    return bindparam(name, type_=kind())


# Built once: building a statement costs more CPU than the database takes to run it.

_SINCE = table.c.at > _param("since", Float)
_PAIR = and_(table.c.subject == _param("subject"), table.c.client == _param("client"), _SINCE)
_USER = and_(table.c.subject == _param("subject"), _SINCE)
_TAKE = table.insert().from_select(
    ["subject", "client", "at"],
    select(_param("subject"), _param("client"), _param("t", Float)).where(and_(
        select(func.count()).where(_PAIR).scalar_subquery() < _param("per_client", Integer),
        select(func.count()).where(_USER).scalar_subquery() < _param("per_subject", Integer),
    )),
).returning(table.c.id)
_USAGE = select(
    select(func.count()).where(_PAIR).scalar_subquery().label("pair"),
    select(func.min(table.c.at)).where(_PAIR).scalar_subquery().label("pair_first"),
    select(func.count()).where(_USER).scalar_subquery().label("user"),
    select(func.min(table.c.at)).where(_USER).scalar_subquery().label("user_first"),
)
_EXPIRED = delete(table).where(table.c.at <= _param("since", Float))


@dataclass(frozen=True)
class Refused:
    """A call over a limit: which one, and how long until the window has room again."""

    reason: str  # client_rate | subject_rate | client_busy | worker_busy
    retry_after: int
    limit: int
    status: int = 429  # 503 for worker_busy: the server is full, not this client


class Quota:
    """The ``mcp_calls`` table: take a call for (user, client) or say why not."""

    def __init__(self, storage: Storage, per_client: int, per_subject: int):
        self.storage, self.per_client, self.per_subject = storage, int(per_client), int(per_subject)
        self._swept = 0.0

    def take(self, subject: str, client: str) -> Refused | None:
        """Count one call now, or return why it may not be made (nothing is stored then)."""
        t = now()
        params = {"subject": subject, "client": client, "t": t, "since": t - WINDOW_S,
                  "per_client": self.per_client, "per_subject": self.per_subject}
        with self.storage.begin() as conn:
            self.storage.serialize(conn, f"mcp:{subject}")
            taken = conn.execute(_TAKE, params).first()
            usage = None if taken else conn.execute(_USAGE, params).one()
        self._sweep(t)
        if usage is None:
            return None
        if usage.pair >= self.per_client:
            return Refused("client_rate", _wait(usage.pair_first, t), self.per_client)
        return Refused("subject_rate", _wait(usage.user_first, t), self.per_subject)

    def _sweep(self, t: float) -> None:
        """Forget calls older than the window, at most once a window per process."""
        if t - self._swept < WINDOW_S:
            return
        self._swept = t
        self.storage.write(_EXPIRED, {"since": t - WINDOW_S})


def _wait(first: float | None, t: float) -> int:
    """Seconds until the oldest call in the window leaves it (at least 1)."""
    return max(1, int((first or t) + WINDOW_S - t) + 1)


class ClientLimits:
    """ASGI, between the bearer middleware and the transport (see module docstring)."""

    def __init__(self, app, quota: Quota, concurrency: int, worker_concurrency: int):
        self.app, self.quota = app, quota
        self.concurrency, self.worker_concurrency = (
            max(1, int(concurrency)),
            max(1, int(worker_concurrency)),
        )
        self._running: Counter[tuple[str, str]] = Counter()  # this worker's, on its event loop
        self._in_worker = 0

    async def __call__(self, scope, receive, send):
        token = getattr(scope.get("user"), "access_token", None)
        if scope["type"] != "http" or token is None:
            await self.app(scope, receive, send)
            return
        key = (token.subject or "", token.client_id or "")
        busy = self._busy(key)
        if busy is not None:
            await _refuse(busy, receive, send)
            return
        self._running[key] += 1  # before awaiting the database: calls arriving meanwhile see it
        self._in_worker += 1
        try:
            refused = await anyio.to_thread.run_sync(self.quota.take, *key)
            if refused is None:
                await self.app(scope, receive, send)
            else:
                await _refuse(refused, receive, send)
        finally:
            self._in_worker -= 1
            self._running[key] -= 1
            if not self._running[key]:
                del self._running[key]

    def _busy(self, key: tuple[str, str]) -> Refused | None:
        """Too many of this client's calls running here, or of everyone's (calls refused by a
        limit hold a thread for milliseconds and count in neither)."""
        if self._running[key] >= self.concurrency:
            return Refused("client_busy", 1, self.concurrency)
        if self._in_worker >= self.worker_concurrency:
            return Refused("worker_busy", 1, self.worker_concurrency, status=503)
        return None


MESSAGES = {
    "client_busy": "This client already has {limit} MCP requests running here; wait for them.",
    "worker_busy": "The server is running as many MCP calls as it takes at once ({limit}).",
    "client_rate": "Too many MCP calls: this client may make {limit} a minute for one user.",
    "subject_rate": "Too many MCP calls: one user may make {limit} a minute through all clients.",
}


async def _refuse(refused: Refused, receive, send) -> None:
    metrics.mcp_refused(refused.reason)
    message = MESSAGES[refused.reason].format(limit=refused.limit)
    code = SERVER_BUSY if refused.status == 503 else TOO_MANY
    body = error_body(
        code,
        f"{message} Retry in {refused.retry_after} s.",
        await _request_id(receive),
        retry_after=refused.retry_after,
        limit=refused.limit,
        reason=refused.reason,
    )
    await send({"type": "http.response.start", "status": refused.status, "headers": [
        (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
        (b"retry-after", str(refused.retry_after).encode()), (b"cache-control", b"no-store")]})
    await send({"type": "http.response.body", "body": body})


async def _request_id(receive):
    """The refused request's JSON-RPC id, when its body says (else null, as JSON-RPC allows)."""
    chunks, size = [], 0
    while size <= BODY_PEEK_BYTES:
        message = await receive()
        chunks.append(message.get("body", b""))
        size += len(chunks[-1])
        if message["type"] != "http.request" or not message.get("more_body"):
            break
    try:
        request = json.loads(b"".join(chunks))
    except ValueError:
        return None
    found = request.get("id") if isinstance(request, dict) else None
    return found if isinstance(found, (str, int)) and not isinstance(found, bool) else None


def quota_for(app) -> Quota:
    config = app.config
    return Quota(get_storage(app), config["MCP_CALLS_PER_MIN"], config["MCP_SUBJECT_CALLS_PER_MIN"])


