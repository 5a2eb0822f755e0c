"""In headless Chromium: the model stops mid-session → the answer and the banner say "Model
unavailable" → the model restarts → answers are AI again, without restarting the app.

The model is the scripted server over real HTTP, stopped and started again on one port; the
app runs on a real port behind the EHR sandbox."""
from __future__ import annotations

import time

import pytest
import requests
from playwright.sync_api import expect

from tests.browser.conftest import shot
from tests.browser.test_assistant import launch
from tests.support.model_server import ScriptedModelServer
from tests.support.servers import free_port, serve

QUESTION = "What is hypertension?"
BANNER = "p.degraded[role=status]"


@pytest.fixture
def model_port():
    return free_port()


@pytest.fixture
def outage_assistant(app_config, sandbox, sources, model_port):
    from smart_docgemma import create_app

    app = create_app({**app_config, **sources, "ISS_ALLOWLIST": [sandbox.fhir_url],
                      "ENDPOINT": f"http://127.0.0.1:{model_port}/v1", "MODEL": "google/medgemma-1.5-4b-it",
                      "SCHEMA_DIALECT": "json_schema", "MODEL_RETRIES": 0, "MODEL_TIMEOUT_S": 5,
                      "MODEL_CIRCUIT_FAILURES": 1, "MODEL_CIRCUIT_COOLDOWN_S": 0.5})
    with serve(app) as server:
        yield server.url


def ai_answer(model, text: str) -> None:
    model.script("IntentClassification", {"intent": "DIRECT", "task_summary": "definition"})
    model.say(text)


def circuit(app_url: str) -> str:
    return requests.get(f"{app_url}/readyz", timeout=10).json()["model"]["circuit"]["state"]


def test_model_stops_then_restarts_and_answers_are_ai_again(page, sandbox, outage_assistant, model_port):
    with ScriptedModelServer(port=model_port) as model:
        launch(page, sandbox, outage_assistant)
        expect(page.locator(BANNER)).to_have_count(0)
        ai_answer(model, "Hypertension is blood pressure persistently at or above 140/90 mmHg.")
        page.fill("#message", QUESTION)
        page.click("#send")
        expect(page.locator(".turn-done .answer-text").last).to_contain_text("140/90", timeout=20_000)

    page.fill("#message", QUESTION)  # the model server has stopped
    page.click("#send")
    answer = page.locator(".turn-done").last
    expect(answer.locator(".degraded")).to_contain_text("Model unavailable", timeout=20_000)
    expect(answer.locator(".answer-text")).not_to_contain_text("140/90")
    expect(page.locator(BANNER)).to_contain_text("Model unavailable")  # at once, no reload
    assert circuit(outage_assistant) == "open"
    page.reload()
    expect(page.locator(BANNER)).to_contain_text("Model unavailable")
    shot(page, "model-unavailable")

    with ScriptedModelServer(port=model_port) as model:  # restarted on the same address
        deadline = time.monotonic() + 15
        while circuit(outage_assistant) == "open" and time.monotonic() < deadline:
            time.sleep(0.2)
        assert circuit(outage_assistant) == "closed"
        ai_answer(model, "Hypertension raises cardiovascular risk; treat to target.")
        page.fill("#message", QUESTION)  # no reload: the page the clinician kept open
        page.click("#send")
        expect(page.locator(".turn-done .answer-text").last).to_contain_text("treat to target",
                                                                             timeout=20_000)
        expect(page.locator(".turn-done").last.locator(".degraded")).to_have_count(0)
        expect(page.locator(BANNER)).to_have_count(0)  # the banner went with the AI answer
        page.reload()
        expect(page.locator(BANNER)).to_have_count(0)
    assert page.console_errors == []
