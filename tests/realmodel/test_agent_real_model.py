"""Whole agent turns against a real llama.cpp server.

llama-cpp-python's OpenAI-compatible server runs SmolLM2-135M (no vision);
a recording proxy sits between it and the agent, so each test can check what
the model really sent back. This is a plumbing test, not a quality test: the
model's answers are poor and nothing here depends on them being right. What
must hold for every turn, whatever the model says:

- the turn completes with a non-empty answer;
- every constrained output the server finished (``finish_reason: stop``) is
  valid JSON under the schema that request sent — the bounded schemas end
  inside the node's token budget;
- the turn's ``model_calls`` equals the chat requests that reached the server;
- nothing is written to the EHR: writes are pending proposals only.
"""
from __future__ import annotations

import io
import json

import jsonschema
from PIL import Image
from smart_docgemma.agent.synthesis import sanitize
from smart_docgemma.grounding.injection import REMOVED
from smart_docgemma.tools.sources.imaging import image_meta
from tests.support.launch_context import count

WRITE_TYPES = ("MedicationRequest", "DocumentReference", "AllergyIntolerance")


def run_turn(agent, recorder, message: str, **kw):
    """One turn; returns (turn, the model exchanges it caused, its events)."""
    events: list[dict] = []
    mark = recorder.mark()
    turn = agent.run(message, emit=events.append, **kw)
    exchanges = [e for e in recorder.since(mark) if e.schema_name != "_Probe"]
    return turn, exchanges, events


def assert_plumbing(turn, exchanges, events, fhir_base, ctx):
    assert turn.answer.strip(), "every turn ends with an answer"
    assert turn.model_calls == len(exchanges) == events[-1]["model_calls"]
    assert sum(turn.calls_by_node.values()) == turn.model_calls
    for ex in exchanges:
        if ex.schema is not None and ex.status == 200 and ex.finish_reason == "stop":
            out = json.loads(ex.content, strict=False)  # raw newlines in strings are tolerated
            jsonschema.validate(out, ex.schema)
    for rtype in WRITE_TYPES:  # nothing reaches the EHR without an approval
        assert count(fhir_base, rtype, patient=ctx.patient_id) == 0, rtype
    assert all(p.status == "pending" for p in ctx.proposals.for_session(ctx.sid))


def test_probe_picks_the_llama_cpp_python_dialect(real_model, recorder):
    assert real_model.dialect() == "json_object_schema"
    probes = [e for e in recorder.exchanges if e.schema_name == "_Probe"]
    assert len(probes) == 1 and probes[0].status == 500  # json_schema refused, once per client


def test_direct_question_is_classified_by_the_model(agent, recorder, fhir_base, session_ctx):
    turn, exchanges, events = run_turn(agent, recorder, "Hello, what is hypertension?")
    assert_plumbing(turn, exchanges, events, fhir_base, session_ctx[0])
    assert turn.nodes[:2] == ["INPUT_ASSEMBLY", "INTENT_CLASSIFY"]
    first = exchanges[0]
    assert first.schema_name == "IntentClassification" and first.request["response_format"]["type"] == "json_object"
    assert not turn.degraded


def test_single_tool_turn_streams_its_synthesis(agent, recorder, fhir_base, session_ctx):
    turn, exchanges, events = run_turn(agent, recorder, "What are the FDA label warnings for warfarin?")
    assert_plumbing(turn, exchanges, events, fhir_base, session_ctx[0])
    assert [r.tool for r in turn.state.tool_runs] == ["check_drug_safety"]
    synth = [e for e in exchanges if e.stream]
    assert len(synth) == 1 and synth[0].status == 200 and synth[0].chunks > 1
    streamed = "".join(e["text"] for e in events if e["type"] == "token")
    assert streamed == synth[0].content  # every token reached the UI stream, in order
    # (a model that repeats its instructions has them taken out of the answer by the guard,
    # grounding/injection.py: the answer then no longer starts with what was streamed)
    if streamed.strip() and REMOVED not in turn.answer:
        assert turn.answer.startswith(sanitize(streamed).strip())


def test_multi_tool_turn_runs_both_tools(agent, recorder, fhir_base, session_ctx):
    turn, exchanges, events = run_turn(
        agent, recorder, "Review the chart and check interactions between warfarin and aspirin")
    assert_plumbing(turn, exchanges, events, fhir_base, session_ctx[0])
    tools = {r.tool for r in turn.state.tool_runs}
    assert {"get_patient_chart", "check_drug_interactions"} <= tools


def test_model_chosen_tool_and_arguments(agent, recorder, fhir_base, session_ctx):
    # a literature question has no code-made arguments and nothing has run yet, so the model
    # picks the tool (stage 1, ToolSelection) and fills its argument schema (stage 2). (When a
    # pattern is still unmet after a tool ran, code picks the tool: tests/agent cover that.)
    # No drug is named: a drug of hers beside a search is checked by code as well
    turn, exchanges, events = run_turn(agent, recorder,
                                       "Find recent studies on bleeding risk scores")
    assert_plumbing(turn, exchanges, events, fhir_base, session_ctx[0])
    names = [e.schema_name for e in exchanges]
    assert "ToolSelection" in names
    assert any(n.endswith("Args") for n in names) or turn.state.clarification


def test_prescription_becomes_a_proposal_only(agent, recorder, fhir_base, session_ctx):
    ctx = session_ctx[0]
    turn, exchanges, events = run_turn(agent, recorder, "Prescribe metformin 500 mg twice daily")
    assert_plumbing(turn, exchanges, events, fhir_base, ctx)
    pending = ctx.proposals.for_session(ctx.sid)
    assert turn.proposals and {p.id for p in pending} == set(turn.proposals)
    assert [p.resource_type for p in pending] == ["MedicationRequest"]
    assert "awaits your approval" in turn.answer  # said whatever the model wrote


def test_model_driven_write_is_never_saved(agent, recorder, fhir_base, session_ctx):
    # the note's text needs the model (stage 2 args); whether this tiny model gets
    # there varies, but no path may write: at most a pending proposal
    ctx = session_ctx[0]
    turn, exchanges, events = run_turn(
        agent, recorder, "Check the FDA label warnings for metformin, then save a progress note: "
                         "patient stable on current therapy, continue plan")
    assert_plumbing(turn, exchanges, events, fhir_base, ctx)
    pending = ctx.proposals.for_session(ctx.sid)
    assert {p.id for p in pending} == set(turn.proposals)
    if turn.proposals:
        assert "awaits your approval" in turn.answer


def test_image_turn_says_findings_are_not_available(agent, recorder, fhir_base, session_ctx):
    buf = io.BytesIO()
    Image.new("RGB", (64, 64), (120, 120, 120)).save(buf, "PNG")
    turn, exchanges, events = run_turn(agent, recorder, "What do you see in this image?",
                                       image=buf.getvalue(), meta=image_meta(buf.getvalue(), "image/png"))
    assert_plumbing(turn, exchanges, events, fhir_base, session_ctx[0])
    vision = [e for e in exchanges if e.has_image]
    assert vision and all(e.status >= 400 for e in vision)  # a text-only server refuses images
    assert "no image findings are available" in turn.answer


def test_pattern_schema_does_not_take_the_server_down(real_model, llama_endpoint, recorder):
    # PatientSearchArgs.birth_date has a regex pattern; llama-cpp-python 0.3.36 turned it into
    # a grammar it could not parse and segfaulted. The client now leaves patterns to pydantic.
    from smart_docgemma.agent.model import CallStats
    from smart_docgemma.tools.catalog import spec

    schema = spec("search_patient").args_model
    messages = [{"role": "user", "content": "Find patient John Smith born 1950-02-03"}]
    mark = recorder.mark()
    try:
        out = real_model.structured("tool_args", messages, schema, CallStats())
        assert isinstance(out, schema)
    except Exception as exc:  # an invalid answer is allowed; a dead server is not
        assert type(exc).__name__ == "InvalidModelOutput", exc
    sent = recorder.since(mark)[0].request["response_format"]["schema"]
    assert "pattern" not in json.dumps(sent)
    assert llama_endpoint.running()
