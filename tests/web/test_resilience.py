"""The assistant page survives a FHIR server that is dead, erroring, garbled or hanging,
says when the configured model server is down, and bounds runaway model output.

The FHIR servers here are real HTTP servers that misbehave on purpose (or a closed
port); the model is the scripted model server over real HTTP."""
from __future__ import annotations

import re
import time

import pytest
from smart_docgemma.turns.store import turn_store
from werkzeug import Response

from tests.support.chat_session import open_session
from tests.support.model_server import ScriptedModelServer
from tests.support.servers import free_port
from tests.web.test_chat import ask, chat, chat_app, done_html, events, srv  # noqa: F401

KNOWLEDGE_QUESTION = "What is the boxed warning of lisdexamfetamine?"


def misbehaving(httpserver, how: str) -> str:
    """A FHIR base URL whose server is ``how``: dead, erroring, garbled or hanging."""
    if how == "dead":
        return f"http://127.0.0.1:{free_port()}/fhir"
    anything = httpserver.expect_request(re.compile(".*"))
    if how == "erroring":
        anything.respond_with_data("upstream exploded", status=500)
    elif how == "garbled":
        anything.respond_with_data('{"resourceType": "Patient", "name": "Ro', content_type="application/fhir+json")
    elif how == "not-a-patient":
        anything.respond_with_json([{"resourceType": "Bundle"}])
    elif how == "hanging":
        anything.respond_with_handler(lambda _req: (time.sleep(3), Response("{}"))[1])
    return httpserver.url_for("/fhir")


@pytest.fixture
def knowledge_app(app_config, sources):  # noqa: F811
    from smart_docgemma import create_app

    return create_app({**app_config, **sources, "HTTP_TIMEOUT_S": 1})


@pytest.mark.parametrize("how", ["dead", "erroring", "garbled", "not-a-patient", "hanging"])
def test_the_page_loads_without_fhir_and_knowledge_questions_still_work(knowledge_app, httpserver, how):
    client = knowledge_app.test_client()
    client.csrf = open_session(knowledge_app, client, misbehaving(httpserver, how), "pt-ckd-elder")
    page = client.get("/app")
    text = page.get_data(as_text=True)
    assert page.status_code == 200 and "chart is unavailable" in text
    assert 'id="ask"' in text
    res = ask(client, KNOWLEDGE_QUESTION)
    stream = events(res)
    assert stream[-1][0] == "done" and stream[-1][1]["status"] == "done"
    assert "lisdexamfetamine" in stream[-1][1]["html"].lower()


def test_a_configured_model_that_is_down_is_labelled_unavailable(app_config, fhir_base):
    from smart_docgemma import create_app

    down = create_app({**app_config, "ENDPOINT": f"http://127.0.0.1:{free_port()}"})
    client = down.test_client()
    open_session(down, client, fhir_base)
    assert "Model unavailable" in client.get("/app").get_data(as_text=True)
    with ScriptedModelServer() as server:
        up = create_app({**app_config, "ENDPOINT": server.url, "MODEL": server.model})
        client = up.test_client()
        open_session(up, client, fhir_base)
        assert "Model unavailable" not in client.get("/app").get_data(as_text=True)


def test_a_runaway_answer_is_cut_in_storage_stream_and_page(chat, chat_app, srv):  # noqa: F811
    limit = chat_app.config["ANSWER_MAX_CHARS"]
    srv.say("Bleeding risk.\x1b[31m\x00\x07 " + "x" * 3_000_000)
    res = ask(chat, "Check interactions between warfarin and aspirin")
    streamed = sum(len(d["text"]) for e, d in events(res) if e == "token")
    assert streamed <= limit + 100
    html = done_html(res)
    assert len(html) < limit + 50_000 and "cut at" in html and "\x1b" not in html and "\x00" not in html
    stored = [t for t in turn_store(chat_app).for_session(_sid(chat))][-1]
    assert len(stored.turn.answer) < limit + 100 and "\x07" not in stored.turn.answer
    page = chat.get("/app").get_data(as_text=True)
    assert len(page) < limit + 100_000


def _sid(client) -> str:
    with client.session_transaction() as s:
        return s["sid"]


@pytest.mark.parametrize("body", ["[" * 30_000 + "]" * 30_000, '{"color_background": 5}', "<html>", "[1, 2]"])
def test_a_garbled_ehr_style_document_leaves_the_page_unstyled(app, fhir_base, httpserver, body):
    httpserver.expect_request("/style.json").respond_with_data(body, content_type="application/json")
    client = app.test_client()
    open_session(app, client, fhir_base, smart_style_url=httpserver.url_for("/style.json"))
    res = client.get("/app/style.css")
    assert res.status_code == 200 and "no usable EHR style" in res.get_data(as_text=True)
