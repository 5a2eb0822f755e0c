"""The model stops mid-session and comes back, seen through the app: the answer says "Model
unavailable" and is what no-model mode answers, the progress stream says so, the circuit opens
(page banner, /readyz, /metrics), a background probe closes it when the server answers again,
and the next answer is AI again without restarting the app.

The model is the scripted model server over real HTTP, stopped and started on one port; the
knowledge sources are the recorded bodies; FHIR is HAPI."""
from __future__ import annotations

import time

import pytest

from tests.support.chat_session import open_session, scripted_app
from tests.support.model_server import ScriptedModelServer, reply
from tests.support.servers import free_port
from tests.web.test_chat import ask, done_html, events
from tests.web.test_ops import sample

QUESTION = "Check interactions between warfarin and aspirin"
BANNER = '<p class="degraded" role="status"><strong>Model unavailable</strong>'


@pytest.fixture
def port():
    return free_port()


@pytest.fixture
def outage_app(app_config, sources, port):
    with ScriptedModelServer(port=port) as srv:  # only for its url; stopped at once
        pass
    return scripted_app(app_config, sources, srv, MODEL_CIRCUIT_FAILURES=2,
                        MODEL_CIRCUIT_COOLDOWN_S=0.5, MODEL_TIMEOUT_S=2)


@pytest.fixture
def clinician(outage_app, fhir_base):
    client = outage_app.test_client()
    client.csrf = open_session(outage_app, client, fhir_base, "pt-ckd-elder")
    return client


def test_model_stops_then_comes_back_without_an_app_restart(outage_app, clinician, port, app_config,
                                                            sources, fhir_base, tmp_path):
    from smart_docgemma import create_app

    database = f"sqlite:///{tmp_path / 'nm.sqlite'}"
    no_model = create_app({**app_config, **sources, "DATABASE_URL": database})
    reference = no_model.test_client()
    reference.csrf = open_session(no_model, reference, fhir_base, "pt-ckd-elder")
    expected = done_html(ask(reference, QUESTION))

    res = ask(clinician, QUESTION)  # the model is down: refused connections
    stream = events(res)
    html = done_html(res)
    assert "Model unavailable" in html and "warfarin" in html.lower()
    assert _answer(html) == _answer(expected)  # exactly what no-model mode answers
    assert any(d.get("kind") == "notice" and "Model unavailable" in d["label"]
               for e, d in stream if e == "progress")
    ask(clinician, QUESTION)
    model = outage_app.extensions["docgemma.model"]
    assert model.circuit.is_open
    assert BANNER in clinician.get("/app").get_data(as_text=True)
    assert clinician.get("/readyz").json["model"]["circuit"]["state"] == "open"
    assert sample(clinician, "docgemma_model_circuit_open", endpoint=model.base_url) == 1

    with ScriptedModelServer(port=port) as srv:
        deadline = time.monotonic() + 10
        while model.circuit.is_open and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not model.circuit.is_open
        assert BANNER not in clinician.get("/app").get_data(as_text=True)
        assert sample(clinician, "docgemma_model_circuit_open", endpoint=model.base_url) == 0
        srv.say("Warfarin with aspirin raises bleeding risk; monitor INR.")
        html = done_html(ask(clinician, QUESTION))
    assert "monitor INR" in html and "Model unavailable" not in html
    assert sample(clinician, "docgemma_model_circuit_transitions_total",
                  endpoint=model.base_url, state="closed") >= 1


def _answer(html: str) -> str:
    """The answer text of a rendered turn (the label line with its reason differs)."""
    start = html.index('class="answer-text"')
    return html[start:html.index("</div>", start)]


def test_a_slow_model_is_said_in_the_progress_stream(app_config, sources, fhir_base):
    with ScriptedModelServer() as srv:
        app = scripted_app(app_config, sources, srv, MODEL_FIRST_TOKEN_S=0.3)
        client = app.test_client()
        client.csrf = open_session(app, client, fhir_base, "pt-ckd-elder")
        srv.script("IntentClassification", reply({"intent": "DIRECT", "task_summary": "definition"},
                                                 delay=0.8))
        srv.say("Hypertension is raised blood pressure.")
        res = ask(client, "What is hypertension?")
    notices = [d["label"] for e, d in events(res) if e == "progress" and d.get("kind") == "notice"]
    assert notices == ["The model has not started answering after 0.3 s; "
                       "still waiting (you can cancel)"]
    assert "raised blood pressure" in done_html(res)
