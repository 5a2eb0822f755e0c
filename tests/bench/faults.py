"""Fault bench: simulated clinicians on the production shape of the stack while its parts fail.

Run: ``python -m tests.bench.faults [--out FILE]`` (faults on a schedule) or
``python -m tests.bench.faults --minutes N [--warmup M] [--clinicians 6]`` (soak: no faults).

The stack is ``tests.bench.faultstack`` (gunicorn app, PostgreSQL, HAPI on disk behind a
proxy, the sandbox's OAuth server, the oracle model server). Each clinician launches through
the sandbox (SMART EHR launch, real OAuth) and, in a loop, asks a question (streamed turn),
approves a card, rejects a card or reads the health page. The cards are drafted by the bench
straight into the app's proposal store for the clinician's session (the agent drafting them
is measured elsewhere); everything the clinician does is real HTTP.

Per fault it reports the requests that failed (status and the sentence the clinician saw),
the recovery time (from the part being back until a question and an approval succeed again),
and at the end, for every card: written exactly once (0 duplicates), and no card whose
order is in the chart while the card does not say approved, or approved without the order.
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import re
import statistics
import sys
import threading
import time
import uuid
from dataclasses import asdict, dataclass, field
from pathlib import Path

import requests
from smart_docgemma.proposals.store import IDENTIFIER_SYSTEM, ProposalStore
from smart_docgemma.storage import Storage

from .faultstack import FaultStack, worker_rss_mb

QUESTION = "What is the mechanism of action of metformin?"  # the oracle answers "Answer for: …"
PATIENTS = [
    "pt-ckd-elder",
    "pt-warfarin",
    "pt-ckd-elder",
    "pt-warfarin",
    "pt-ckd-elder",
    "pt-warfarin",
]
RECOVERY_LIMIT_S = 240
PATIENT_MINUTES = 3.0  # soak: how long a clinician stays with one patient
BENCH = -1  # the status of a step the bench itself could not take (not the app's failure)


@dataclass
class Event:
    at: float
    who: int
    kind: str  # ask | approve | reject | health | launch
    status: int
    ok: bool
    seconds: float
    sentence: str = ""


@dataclass
class Card:
    id: str
    who: int
    patient: str


@dataclass
class Log:
    events: list[Event] = field(default_factory=list)
    cards: list[Card] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, event: Event) -> None:
        with self.lock:
            self.events.append(event)


class Clinician:
    """One clinician's browser: a SMART launch through the sandbox, then the app's pages."""

    def __init__(
        self,
        n: int,
        stack: FaultStack,
        store: ProposalStore,
        log: Log,
        next_patient_s: float | None = None,
    ):
        """``next_patient_s``: the clinician moves on to another patient (a fresh copy of a
        scenario patient's chart, launched anew) this often; None keeps one scenario patient."""
        self.n, self.stack, self.store, self.log = n, stack, store, log
        self.patient = PATIENTS[n % len(PATIENTS)]
        self.next_patient_s, self.seen_since = next_patient_s, time.monotonic()
        self.http = requests.Session()
        self.csrf, self.sid = "", ""

    def launch(self) -> bool:
        started = time.monotonic()
        try:
            res = self.http.get(
                f"{self.stack.sandbox_url}/launch",
                timeout=60,
                params={
                    "patient": self.patient,
                    "practitioner": "dr-okafor",
                    "launch_url": f"{self.stack.app_url}/launch",
                },
            )
            found = re.search(r'name="csrf-token" content="([^"]+)"', res.text)
        except requests.RequestException as exc:
            return self._record("launch", 0, False, started, type(exc).__name__)
        ok = res.status_code == 200 and found is not None
        if ok:
            self.csrf = found.group(1)
            self.sid = _sid(self.stack, self.http.cookies)
        return self._record("launch", res.status_code, ok, started, "" if ok else _sentence(res))

    def ask(self) -> bool:
        started = time.monotonic()
        try:
            res = self.http.post(
                f"{self.stack.app_url}/api/chat",
                data={"message": QUESTION},
                timeout=300,
                headers={"X-CSRF-Token": self.csrf},
            )
        except requests.RequestException as exc:
            return self._record("ask", 0, False, started, type(exc).__name__)
        body = res.text
        ok = res.status_code == 200 and "event: done" in body
        sentence = "" if ok else _sentence(res)
        if ok and "Answer for:" not in body:
            sentence = "answered without the model (degraded)"
        return self._record("ask", res.status_code, ok, started, sentence)

    def decide(self, approve: bool) -> bool:
        started = time.monotonic()
        kind = "approve" if approve else "reject"
        try:
            pid = self.store.create(
                sid=self.sid,
                patient_id=self.patient,
                tool="prescribe_medication",
                resource=_order(self.patient),
                summary={"title": "Metformin 500 mg"},
            )
        except Exception as exc:  # the bench's own write to the database failed (it is restarting)
            return self._record(
                kind, BENCH, False, started, f"could not draft a card: {type(exc).__name__}"
            )
        self.log.cards.append(Card(pid, self.n, self.patient))
        return self._click(pid, kind, started)

    def _click(self, pid: str, kind: str, started: float) -> bool:
        data = {"version": "1"} if kind == "approve" else {"reason": "Not indicated now"}
        try:
            res = self.http.post(
                f"{self.stack.app_url}/proposals/{pid}/{kind}",
                data=data,
                timeout=120,
                headers={
                    "X-CSRF-Token": self.csrf,
                    "Accept": "application/json",
                    "X-Requested-With": "fetch",
                },
            )
        except requests.RequestException as exc:
            return self._record(kind, 0, False, started, type(exc).__name__)
        wanted = "approved" if kind == "approve" else "rejected"
        ok = res.status_code == 200 and _json(res).get("status") == wanted
        if not ok and kind == "approve" and res.status_code in (502, 503):
            self._reclick_later(pid)
        return self._record(kind, res.status_code, ok, started, "" if ok else _sentence(res))

    def _reclick_later(self, pid: str) -> None:
        """The card advised approving again: the clinician does, a little later."""

        def again():
            time.sleep(random.uniform(5, 20))
            self._click(pid, "approve", time.monotonic())

        threading.Thread(target=again, daemon=True).start()

    def cds(self) -> bool:
        """The EHR's CDS client calls patient-view (signed JWT, prefetch from the chart)."""
        started = time.monotonic()
        body = {
            "hook": "patient-view",
            "hookInstance": str(uuid.uuid4()),
            "context": {"userId": "Practitioner/dr-okafor", "patientId": self.patient},
            "prefetch": _prefetch(self.stack, self.patient),
        }
        try:
            res = self.stack.cds_client.call("docgemma-patient-view", body)
        except requests.RequestException as exc:
            return self._record("cds", 0, False, started, type(exc).__name__)
        ok = res.status_code == 200 and isinstance(_json(res).get("cards"), list)
        return self._record("cds", res.status_code, ok, started, "" if ok else _sentence(res))

    def mcp(self) -> bool:
        """An MCP client (the SDK's, full OAuth through the sandbox) reads this patient's chart."""
        from tests.support.mcp_oauth import call_over_mcp

        started = time.monotonic()
        try:
            result = call_over_mcp(
                f"{self.stack.app_url}/mcp",
                self.patient,
                "get_patient_chart",
                {"patient_id": self.patient},
            )
        except Exception as exc:  # the SDK raises its own types for HTTP and protocol failures
            return self._record("mcp", 0, False, started, f"{type(exc).__name__}: {exc}"[:200])
        ok = not getattr(result, "isError", False)
        return self._record("mcp", 200, ok, started, "" if ok else str(result)[:200])

    def health(self) -> bool:
        started = time.monotonic()
        try:
            res = self.http.get(f"{self.stack.app_url}/healthz", timeout=10)
        except requests.RequestException as exc:
            return self._record("health", 0, False, started, type(exc).__name__)
        down = _json(res).get("down") or []
        return self._record(
            "health",
            res.status_code,
            res.status_code == 200,
            started,
            f"down: {', '.join(down)}" if down else "",
        )

    def card(self, pid: str) -> dict:
        res = self.http.get(
            f"{self.stack.app_url}/proposals/{pid}",
            timeout=60,
            headers={"Accept": "application/json"},
        )
        return _json(res) | {"http": res.status_code}

    def _record(self, kind: str, status: int, ok: bool, started: float, sentence: str) -> bool:
        if status == 401:
            self.csrf = ""  # the session is gone: the clinician launches again
        self.log.add(
            Event(
                time.monotonic(),
                self.n,
                kind,
                status,
                ok,
                round(time.monotonic() - started, 2),
                sentence[:200],
            )
        )
        return ok

    def next_patient(self) -> None:
        """The next patient: a copy of the scenario patient's chart as the EHR holds it (the
        orders approved for the previous patient stay in that patient's chart)."""
        from tests.support.launch_context import clone_patient

        try:
            self.patient = clone_patient(self.stack.hapi.base_url, PATIENTS[self.n % len(PATIENTS)])
        except requests.RequestException as exc:  # the bench's own set-up: said, tried later
            self._record("launch", BENCH, False, time.monotonic(), f"no new patient: {exc}")
            return
        self.csrf, self.seen_since = "", time.monotonic()

    def work(self, stop: threading.Event) -> None:
        while not stop.is_set():
            if self.next_patient_s and time.monotonic() - self.seen_since > self.next_patient_s:
                self.next_patient()
            if not self.csrf and not self.launch():
                stop.wait(3)
                continue
            action = random.choices(
                ["ask", "approve", "reject", "cds", "mcp", "health"], [5, 3, 1, 2, 1, 1]
            )[0]
            if action == "ask":
                self.ask()
            elif action == "mcp":
                self.mcp()
            elif action == "cds":
                self.cds()
            elif action == "health":
                self.health()
            else:
                self.decide(action == "approve")
            stop.wait(random.uniform(0.5, 2.0))


# -- faults ------------------------------------------------------------------------------
def _cache_unwritable(stack: FaultStack):
    """The app's HTTP cache (``CACHE_PATH`` + ``.sqlite``) replaced by a folder: nothing can be
    read from or written to it (the bench runs as root: permissions would not stop it)."""
    cache = stack.cache.with_name(stack.cache.name + ".sqlite")
    moved = cache.with_name("cache-moved.sqlite")
    cache.rename(moved)
    cache.mkdir()

    def restore():
        cache.rmdir()
        moved.rename(cache)

    return restore


def _worker_kill(stack: FaultStack):
    import os
    import signal

    os.kill(stack.worker_pids()[0], signal.SIGKILL)
    return lambda: None


FAULTS = {
    # name: (inject -> restore function, seconds the fault lasts)
    "hapi_slow_20s": (
        lambda s: (setattr(s.proxy, "delay", 20.0), lambda: setattr(s.proxy, "delay", 0.0))[1],
        45,
    ),
    "hapi_paused": (lambda s: (s.proxy.pause(), s.proxy.resume)[1], 45),
    "hapi_killed_restarted": (lambda s: (s.kill_hapi(), s.proxy.pause(), s.restart_hapi)[2], 5),
    "postgres_restarted": (lambda s: lambda: s.pg.restart("fast", down_s=10), 0),
    "worker_killed": (_worker_kill, 0),
    "model_killed": (lambda s: (s.kill_model(), s.start_model)[1], 30),
    "cache_unwritable": (_cache_unwritable, 30),
    "oauth_restarted": (lambda s: (s.stop_sandbox(), s.start_sandbox)[1], 10),
}


def _recovered(stack: FaultStack, store: ProposalStore, log: Log) -> float | None:
    """Seconds until a fresh clinician gets a question answered and an approval written."""
    started = time.monotonic()
    probe = Clinician(99, stack, store, Log())
    while time.monotonic() - started < RECOVERY_LIMIT_S:
        if (probe.csrf or probe.launch()) and probe.ask() and probe.decide(True):
            log.cards.extend(probe.log.cards)
            return round(time.monotonic() - started, 1)
        time.sleep(1)
    log.cards.extend(probe.log.cards)
    return None


def run_faults(
    stack: FaultStack,
    clinicians: int = 4,
    only: list[str] | None = None,
    partial: Path | None = None,
) -> dict:
    store, log, stop = _store(stack), Log(), threading.Event()
    people = [Clinician(i, stack, store, log) for i in range(clinicians)]
    threads = [threading.Thread(target=c.work, args=(stop,), daemon=True) for c in people]
    [t.start() for t in threads]
    time.sleep(30)  # everyone launched and working
    report = {}
    for name, (inject, lasts) in FAULTS.items():
        if only and name not in only:
            continue
        print(f"fault: {name}", file=sys.stderr, flush=True)
        began = time.monotonic()
        try:
            restore = inject(stack)
            time.sleep(lasts)
            restore()
        except Exception as error:  # the bench could not inject it: said, and the next one runs
            report[name] = {"bench_error": f"{type(error).__name__}: {error}"[:300]}
            continue
        back = time.monotonic()
        recovery = _recovered(stack, store, log)
        time.sleep(10)
        ended = time.monotonic()
        report[name] = _window(log, began, ended) | {
            "lasted_s": round(back - began, 1),
            "recovery_s": recovery,
        }
        if partial:
            partial.write_text(json.dumps(report, indent=2) + "\n")
    stop.set()
    [t.join(300) for t in threads]
    time.sleep(25)  # the re-clicks scheduled during the last fault
    return {"faults": report, "cards": _ledger(stack, people[0], log)}


def _window(log: Log, began: float, ended: float) -> dict:
    window = [e for e in log.events if began <= e.at <= ended]
    seen = [e for e in window if e.status != BENCH]
    failed = [e for e in seen if not e.ok]
    how: dict[str, int] = {}
    for e in failed:
        key = f"{e.kind} {e.status or 'no answer'}: {e.sentence}"
        how[key] = how.get(key, 0) + 1
    degraded = sum(1 for e in seen if e.ok and e.sentence)
    return {
        "requests": len(seen),
        "failed": len(failed),
        "answered_degraded": degraded,
        "bench_drafts_failed": len(window) - len(seen),
        "server_errors_500": sum(1 for e in seen if e.status == 500),
        "how": dict(sorted(how.items(), key=lambda kv: -kv[1])[:8]),
    }


def _ledger(stack: FaultStack, reader: Clinician, log: Log) -> dict:
    """Every card against the chart, after the card was read (read settles an unconfirmed one)."""
    counts = {
        "cards": len(log.cards),
        "written_once": 0,
        "duplicates": 0,
        "not_written": 0,
        "in_chart_card_not_approved": 0,
        "approved_not_in_chart": 0,
        "unconfirmed_left": 0,
    }
    by_status: dict[str, int] = {}
    for card in log.cards:
        status = _settled_status(stack, card)
        by_status[status] = by_status.get(status, 0) + 1
        n = _in_chart(stack, card.id)
        counts["duplicates"] += n > 1
        counts["written_once"] += n == 1
        counts["not_written"] += n == 0
        counts["in_chart_card_not_approved"] += n >= 1 and status != "approved"
        counts["approved_not_in_chart"] += n == 0 and status == "approved"
        counts["unconfirmed_left"] += status == "unconfirmed"
    return counts | {"by_status": by_status}


def _settled_status(stack: FaultStack, card: Card) -> str:
    """The card as its clinician reads it (GET settles it), read twice past the settling time."""
    store = _store(stack)
    status = store.get(card.id).status
    if status in ("unconfirmed", "executing"):
        from smart_docgemma.fhir import FhirGateway
        from smart_docgemma.smart.scopes import GrantedScopes

        from tests.support.launch_context import PATIENT_SCOPES, Launch

        lc = Launch(
            store.get(card.id).sid,
            card.patient,
            "Practitioner/dr-okafor",
            GrantedScopes.parse(PATIENT_SCOPES),
            FhirGateway(stack.hapi.base_url, None),
        )
        for _ in range(3):
            status = store.settle(store.get(card.id), lc).status
            if status != "unconfirmed":
                break
            time.sleep(6)
    return status


def _in_chart(stack: FaultStack, pid: str) -> int:
    res = requests.get(
        f"{stack.hapi.base_url}/MedicationRequest",
        timeout=60,
        params={"identifier": f"{IDENTIFIER_SYSTEM}|{pid}", "_summary": "count"},
        headers={"Cache-Control": "no-cache", "Accept": "application/fhir+json"},
    )
    return int(res.json()["total"])


# -- soak ------------------------------------------------------------------------------------
def run_soak(
    stack: FaultStack,
    minutes: float,
    clinicians: int = 6,
    warmup: float | None = None,
    partial: Path | None = None,
    patient_minutes: float = PATIENT_MINUTES,
) -> dict:
    """Clinicians at work for ``minutes``, no faults. Resident memory of each worker is compared
    between the end of the warm-up (``warmup`` minutes, default a fifth of the run, at most 10)
    and the end; turn times between the first and the last ``warmup`` minutes. Every minute
    each worker's memory, the machine's load and the turns of that minute are sampled (and the
    report so far written to ``partial``).

    Each clinician sees a new patient every ``patient_minutes`` (a fresh copy of a scenario
    patient's chart): the charts stay the size clinicians meet, where one patient approved
    for all hour would hold thousands of orders by its end (and the active-medication page
    its first 100 of them), and turns would be timed on a chart that grows, not on the app."""
    store, log, stop = _store(stack), Log(), threading.Event()
    people = [Clinician(i, stack, store, log, 60 * patient_minutes) for i in range(clinicians)]
    for c in people:
        c.next_patient()
    threads = [threading.Thread(target=c.work, args=(stop,), daemon=True) for c in people]
    started = time.monotonic()
    [t.start() for t in threads]
    warm = 60 * (warmup if warmup is not None else min(10.0, minutes / 5))
    samples: list[dict] = []
    rss_warm: dict[int, float] = {}
    for minute in range(1, int(minutes) + 1):
        time.sleep(max(0.0, started + 60 * minute - time.monotonic()))
        samples.append(_sample(stack, log, started, minute))
        if not rss_warm and 60 * minute >= warm:
            rss_warm = samples[-1]["rss_mb"]
        if partial:
            partial.write_text(json.dumps({"samples": samples}, indent=2) + "\n")
    time.sleep(max(0.0, started + 60 * minutes - time.monotonic()))
    stop.set()
    [t.join(300) for t in threads]
    rss_end = _rss(stack)
    window = min(warm, minutes * 60 / 2)
    asks = [e for e in log.events if e.kind == "ask" and e.ok]
    first = [e.seconds for e in asks if e.at - started <= window]
    last = [e.seconds for e in asks if e.at >= started + minutes * 60 - window]
    return {
        "minutes": minutes,
        "clinicians": clinicians,
        "warmup_s": warm,
        "patient_minutes": patient_minutes,
        "patients": len({card.patient for card in log.cards}),
        "requests": len(log.events),
        "by_kind": _by_kind(log.events),
        "status_5xx": sum(1 for e in log.events if e.status >= 500),
        "failed": sum(1 for e in log.events if not e.ok),
        "how_failed": _window(log, started, time.monotonic())["how"],
        "turns": sum(1 for e in log.events if e.kind == "ask"),
        "lost_turns": sum(1 for e in log.events if e.kind == "ask" and not e.ok),
        "window_s": window,
        "p95_turn_s_first": _p95(first),
        "p95_turn_s_last": _p95(last),
        "p50_turn_s_first": _median(first),
        "p50_turn_s_last": _median(last),
        "worker_rss_mb_after_warmup": rss_warm,
        "worker_rss_mb_end": rss_end,
        "rss_growth_pct": {
            pid: round(100 * (rss_end[pid] - mb) / mb, 1)
            for pid, mb in rss_warm.items()
            if pid in rss_end
        },
        "samples": samples,
        "cards": _ledger(stack, people[0], log),
    }


def _sample(stack: FaultStack, log: Log, started: float, minute: int) -> dict:
    """One minute of the soak: each worker's memory, the machine's load, that minute's turns."""
    since = started + 60 * (minute - 1)
    with log.lock:
        recent = [e for e in log.events if e.at >= since]
    asks = [e.seconds for e in recent if e.kind == "ask" and e.ok]
    return {
        "minute": minute,
        "rss_mb": _rss(stack),
        "load_1m": float(Path("/proc/loadavg").read_text().split()[0]),
        "requests": len(recent),
        "failed": sum(1 for e in recent if not e.ok),
        "turns": len(asks),
        "p95_turn_s": _p95(asks),
    }


def _rss(stack: FaultStack) -> dict[int, float]:
    found = {}
    for pid in stack.worker_pids():
        try:
            found[pid] = round(worker_rss_mb(pid), 1)
        except OSError:  # a worker that just exited
            continue
    return found


def _by_kind(events: list[Event]) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for e in events:
        counts = out.setdefault(e.kind, {"ok": 0, "failed": 0})
        counts["ok" if e.ok else "failed"] += 1
    return out


def _median(values: list[float]) -> float | None:
    return round(statistics.median(values), 2) if values else None


def _p95(values: list[float]) -> float | None:
    if len(values) < 2:
        return None
    return round(statistics.quantiles(values, n=20)[-1], 2)


# -- plumbing --------------------------------------------------------------------------------
def _store(stack: FaultStack) -> ProposalStore:
    storage = getattr(stack, "_bench_storage", None)
    if storage is None:
        storage = stack._bench_storage = Storage(stack.database, "fault-bench", pool_size=4)
    return ProposalStore(storage)


def _sid(stack: FaultStack, cookies) -> str:
    from smart_docgemma import create_app

    app = getattr(stack, "_bench_app", None) or create_app(stack.config())
    stack._bench_app = app
    value = cookies.get(app.config["SESSION_COOKIE_NAME"])
    return str(app.session_interface.get_signing_serializer(app).loads(value)["sid"])


def _prefetch(stack: FaultStack, patient: str) -> dict:
    """What an EHR sends with patient-view, read from its own database (the HAPI behind)."""
    base, headers = stack.hapi.base_url, {"Accept": "application/fhir+json"}

    def read(path: str, **params) -> dict:
        try:
            res = requests.get(f"{base}/{path}", params=params, headers=headers, timeout=30)
            return res.json() if res.ok else {}
        except requests.RequestException:
            return {}

    return {
        "patient": read(f"Patient/{patient}"),
        "medications": read("MedicationRequest", patient=patient, status="active"),
        "allergies": read("AllergyIntolerance", patient=patient),
        "conditions": read("Condition", patient=patient),
    }


def _order(patient: str) -> dict:
    return {
        "resourceType": "MedicationRequest",
        "status": "active",
        "intent": "order",
        "subject": {"reference": f"Patient/{patient}"},
        "medicationCodeableConcept": {
            "coding": [
                {
                    "system": "http://www.nlm.nih.gov/research/umls/rxnorm",
                    "code": "861007",
                    "display": "metformin 500 MG Oral Tablet",
                }
            ],
            "text": "metformin 500 mg tablet",
        },
        "dosageInstruction": [{"text": "500 mg twice daily"}],
    }


def _json(res: requests.Response) -> dict:
    try:
        body = res.json()
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}


def _sentence(res: requests.Response) -> str:
    body = _json(res)
    for key in ("error_description", "description", "message", "error"):
        if isinstance(body.get(key), str) and body[key]:
            return body[key]
    found = re.search(r"<p[^>]*>([^<]{10,200})</p>", res.text or "")
    return found.group(1).strip() if found else (res.text or "")[:120]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.bench.faults")
    p.add_argument("--minutes", type=float, help="soak for this long (no faults)")
    p.add_argument("--clinicians", type=int)
    p.add_argument(
        "--warmup",
        type=float,
        help="soak: minutes of warm-up before memory is compared (default a fifth, at most 10)",
    )
    p.add_argument(
        "--patient-minutes",
        type=float,
        default=PATIENT_MINUTES,
        help="soak: each clinician moves on to a new patient this often",
    )
    p.add_argument("--only", nargs="*", help="run only these faults")
    p.add_argument("--out", type=Path)
    args = p.parse_args(argv)
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # the proxy's and sandbox's access logs
    with FaultStack() as stack:
        if args.minutes:
            result = run_soak(
                stack,
                args.minutes,
                args.clinicians or 6,
                args.warmup,
                args.out.with_suffix(".partial.json") if args.out else None,
                args.patient_minutes,
            )
        else:
            result = run_faults(
                stack,
                args.clinicians or 4,
                args.only,
                args.out.with_suffix(".partial.json") if args.out else None,
            )
    text = json.dumps(result, indent=2, default=lambda o: asdict(o))
    print(text)
    if args.out:
        args.out.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
