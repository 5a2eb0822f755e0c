"""The page's event streams hold a worker thread each, so each is bounded: a lifetime, a count per
session and a count per worker (``web/streams.py``). Real app on a real port, real HAPI, the
scripted model server over HTTP slowing the turns down."""
from __future__ import annotations

import re
import threading
import time

import pytest
import requests
from smart_docgemma.turns.store import turn_store
from smart_docgemma.web.streams import stream_slots

from tests.support.chat_session import scripted_app, session_cookie
from tests.support.model_server import ScriptedModelServer, reply
from tests.support.servers import serve

SLOW_INTENT = {"intent": "DIRECT", "task_summary": "Explain a drug class", "suggested_tool": None}


@pytest.fixture
def srv():
    with ScriptedModelServer() as server:
        yield server


@pytest.fixture
def served(app_config, sources, srv):
    app = scripted_app(app_config, sources, srv, STREAM_MAX_S=2, STREAMS_PER_SESSION=1, STREAMS_PER_WORKER=2)
    with serve(app) as server:
        yield app, server.url


def ask(url: str, session: tuple[dict, str], message: str = "What do ACE inhibitors do?", **kw):
    cookies, csrf = session
    return requests.post(f"{url}/api/chat", data={"message": message}, cookies=cookies, timeout=60,
                         headers={"X-CSRF-Token": csrf, "Accept": "text/event-stream"}, **kw)


def events(text: str) -> list[str]:
    return re.findall(r"^event: (\w+)$", text, re.M)


def slow_turn(srv, seconds: float) -> None:
    srv.script("IntentClassification", reply(SLOW_INTENT, delay=seconds))
    srv.say("ACE inhibitors lower blood pressure by blocking angiotensin-converting enzyme.")


def test_a_stream_outliving_its_lifetime_detaches_and_the_turn_is_still_stored(served, srv, fhir_base):
    app, url = served
    session = session_cookie(app, fhir_base, "pt-ckd-elder")
    slow_turn(srv, 5)
    started = time.monotonic()
    res = ask(url, session)
    took = time.monotonic() - started
    assert res.status_code == 200 and events(res.text)[0] == "turn" and events(res.text)[-1] == "detached"
    assert 2 <= took < 4.5 and "done" not in events(res.text)
    turn_id = re.search(r'"id": "([0-9a-f]{32})"', res.text).group(1)
    for _ in range(100):  # the page's recovery: the stored turn, once its worker has finished
        if turn_store(app).get(turn_id).status == "done":
            break
        time.sleep(0.2)
    page = requests.get(f"{url}/app/turns/{turn_id}", cookies=session[0], timeout=30)
    assert page.status_code == 200 and "angiotensin-converting enzyme" in page.text
    metrics = requests.get(f"{url}/metrics", timeout=30).text
    assert re.search(r"docgemma_streams_detached_total [1-9]", metrics)


def test_streams_per_session_and_per_worker_are_bounded_and_refused_before_a_turn_starts(served, srv, fhir_base):
    app, url = served
    app.config["STREAM_MAX_S"] = 60  # these turns end on their own; only the counts are tested
    a, b, c = (session_cookie(app, fhir_base, "pt-ckd-elder") for _ in range(3))
    slow_turn(srv, 1.5)
    slow_turn(srv, 1.5)
    first = {}
    threads = [threading.Thread(target=lambda s=s, k=k: first.update({k: ask(url, s)}))
               for k, s in (("a", a), ("b", b))]
    for t in threads:
        t.start()
    for _ in range(100):
        if stream_slots(app).open() == 2:
            break
        time.sleep(0.02)
    again = ask(url, a)  # the same session while its stream is open
    third = ask(url, c)  # another session while the worker's streams are all open
    health = requests.get(f"{url}/healthz", timeout=5)
    for t in threads:
        t.join(30)
    assert again.status_code == 429 and again.headers["Retry-After"] == "2"
    assert third.status_code == 503 and int(third.headers["Retry-After"]) >= 1
    assert "busy" in third.json()["error"] or "busy" in third.text.lower()
    assert health.status_code == 200
    assert turn_store(app).for_session(_sid(app, c)) == []  # refused before anything started
    assert [events(first[k].text)[-1] for k in "ab"] == ["done", "done"]
    assert stream_slots(app).open() == 0
    srv.say("They block the enzyme that makes angiotensin II.")
    assert events(ask(url, c).text)[-1] == "done"  # the slots were given back
    metrics = requests.get(f"{url}/metrics", timeout=30).text
    assert re.search(r'docgemma_streams_refused_total\{reason="session"\} [1-9]', metrics)
    assert re.search(r'docgemma_streams_refused_total\{reason="worker"\} [1-9]', metrics)


def test_a_browser_that_goes_away_gives_its_stream_back(served, srv, fhir_base):
    app, url = served
    session = session_cookie(app, fhir_base, "pt-ckd-elder")
    slow_turn(srv, 1)
    res = ask(url, session, stream=True)
    next(res.iter_content(64))  # the stream has begun
    res.close()  # the tab is closed
    for _ in range(100):
        if stream_slots(app).open() == 0:
            break
        time.sleep(0.1)
    assert stream_slots(app).open() == 0


def _sid(app, session) -> str:
    cookies, _ = session
    value = next(iter(cookies.values()))
    return app.session_interface.get_signing_serializer(app).loads(value)["sid"]
