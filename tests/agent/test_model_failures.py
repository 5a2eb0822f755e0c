"""Model down, HTTP 500, invalid JSON, truncated JSON, timeout: a clear result,
never a crash; dialects and the one-time probe; thinking-span stripping."""
from __future__ import annotations

import time

import pytest
from smart_docgemma.agent.model import (
    CallStats,
    InvalidModelOutput,
    ModelTimeout,
    ModelUnavailable,
    ThinkingFilter,
    model_from_config,
    split_thinking,
)
from smart_docgemma.agent.schemas import IntentClassification

from tests.support.model_server import ScriptedModelServer, http_error, refused_url, reply, truncated

from .conftest import FakeTool, client_for, make_agent, ok

DEGRADED = "Model unavailable — summary of tool results, no AI interpretation."
MSG = [{"role": "user", "content": "hi"}]


def test_model_down_fast_path_still_answers_from_tools():
    safety = FakeTool("check_drug_safety", ok("BOXED WARNING: QT prolongation."))
    turn = make_agent(client_for(refused_url()), safety).run("FDA warnings for dofetilide")
    assert turn.degraded and DEGRADED in turn.answer
    assert "BOXED WARNING: QT prolongation." in turn.answer
    assert safety.calls == [{"drug_name": "dofetilide"}]


def test_no_model_configured_is_degraded_and_never_invents():
    turn = make_agent(None).run("What is hypertension?")
    assert DEGRADED in turn.answer and "without the language model I cannot answer" in turn.answer
    assert turn.model_calls == 0 and model_from_config({"ENDPOINT": None}) is None


def test_http_500_is_retried_then_degrades(srv):
    srv.inject(http_error(500), times=2)
    turn = make_agent(client_for(srv, retries=1)).run("What is hypertension?")
    assert turn.degraded and DEGRADED in turn.answer
    assert len(srv.requests) == 2  # bounded: 1 try + 1 retry, no further calls


def test_http_500_once_recovers(srv):
    srv.inject(http_error(500))
    srv.script("IntentClassification", {"intent": "DIRECT", "task_summary": "hello"})
    srv.say("Hello.")
    turn = make_agent(client_for(srv, retries=1)).run("Hello")
    assert turn.answer == "Hello." and turn.model_calls == 3


@pytest.mark.parametrize("bad", ["{not json", truncated('{"intent": "DIRECT", "task_summ')])
def test_invalid_or_truncated_json_falls_back_for_that_node(srv, bad):
    srv.script("IntentClassification", bad, bad)
    srv.say("Hypertension is high blood pressure.")
    turn = make_agent(client_for(srv, retries=1)).run("What is hypertension?")
    assert turn.answer == "Hypertension is high blood pressure."  # node fallback: DIRECT
    assert not turn.degraded and len(srv.requests_for("IntentClassification")) == 2


def test_invalid_output_error_is_typed(srv):
    srv.script("IntentClassification", truncated('{"intent": "DI'), "{}")
    with pytest.raises(InvalidModelOutput, match="IntentClassification"):
        client_for(srv, retries=1).structured("intent_classify", MSG, IntentClassification)


def test_timeout_is_bounded_and_clear(srv):
    srv.inject(reply("", delay=1.5), times=3)
    started = time.monotonic()
    turn = make_agent(client_for(srv, timeout=0.5, retries=0)).run("What is hypertension?")
    assert time.monotonic() - started < 1.4
    assert turn.degraded and "did not answer within" in turn.state.degraded_reason
    with pytest.raises(ModelTimeout):
        client_for(srv, timeout=0.5, retries=0).structured("intent_classify", MSG, IntentClassification)


def test_unreachable_error_is_typed():
    with pytest.raises(ModelUnavailable, match="No model server answers"):
        client_for(refused_url(), retries=0).structured("intent_classify", MSG, IntentClassification)


def test_synthesis_failure_midturn_gives_templated_summary(srv):
    safety = FakeTool("check_drug_safety", ok("BOXED WARNING: hepatotoxicity."))
    srv.inject(http_error(503), times=2)
    turn = make_agent(client_for(srv), safety).run("FDA warnings for ketoconazole")
    assert DEGRADED in turn.answer and "hepatotoxicity" in turn.answer


def test_json_object_dialect_sends_llama_cpp_python_form(srv):
    srv.script("IntentClassification", {"intent": "DIRECT", "task_summary": "x"})
    client = client_for(srv, dialect="json_object_schema")
    assert client.structured("intent_classify", MSG, IntentClassification).intent == "DIRECT"
    fmt = srv.requests[0]["response_format"]
    assert fmt["type"] == "json_object" and fmt["schema"]["title"] == "IntentClassification"


def test_auto_probe_falls_back_once_per_client():
    with ScriptedModelServer(accept_json_schema=False) as srv:
        srv.script("IntentClassification", {"intent": "DIRECT", "task_summary": "a"},
                   {"intent": "DIRECT", "task_summary": "b"})
        client, stats = client_for(srv, dialect="auto"), CallStats()
        client.structured("intent_classify", MSG, IntentClassification, stats)
        client.structured("intent_classify", MSG, IntentClassification, stats)
        types = [r["response_format"]["type"] for r in srv.requests]
        assert types == ["json_schema", "json_object", "json_object"] and stats.probes == 1
        assert client.dialect() == "json_object_schema"


def test_auto_probe_keeps_json_schema_when_accepted(srv):
    client = client_for(srv, dialect="auto")
    assert client.dialect() == "json_schema" and srv.requests_for("_Probe")


def test_thinking_spans_are_stripped_closed_or_not():
    assert split_thinking("<unused94>thought\nplan<unused95>Answer") == ("Answer", ["plan"])
    assert split_thinking("<unused94>thought\nrunaway reasoning") == ("", ["runaway reasoning"])
    filt = ThinkingFilter()
    out = "".join(filt.feed(c) for c in ["Hi <unu", "sed94>thought\nsecret<unu", "sed95> there"])
    assert out + filt.finish() == "Hi  there" and filt.thoughts == ["secret"]


def test_thinking_is_kept_for_the_trace_not_the_answer(srv):
    srv.script("IntentClassification", '<unused94>thought\nclassify<unused95>{"intent":"DIRECT","task_summary":"x"}')
    srv.say("<unused94>thought\nlet me think<unused95>Hypertension is high blood pressure.")
    turn = make_agent(client_for(srv)).run("What is hypertension?")
    assert turn.answer == "Hypertension is high blood pressure."
    assert turn.thinking == ["classify", "let me think"]


def test_unterminated_thinking_never_gives_an_empty_answer(srv):
    safety = FakeTool("check_drug_safety", ok("BOXED WARNING: lactic acidosis."))
    srv.say("<unused94>thought\nI will think until the budget ends")
    turn = make_agent(client_for(srv), safety).run("FDA warnings for metformin")
    assert "lactic acidosis" in turn.answer and turn.answer.strip()


def test_raw_control_characters_in_strings_are_accepted(srv):
    srv.script("IntentClassification", '{"intent": "DIRECT", "task_summary": "line one\nline\ttwo"}')
    out = client_for(srv).structured("intent_classify", MSG, IntentClassification)
    assert out.task_summary == "line one\nline\ttwo"


def test_invalid_tool_selection_falls_back_to_the_suggested_tool(srv):
    trials = FakeTool("find_clinical_trials", ok("2 trials", count=2))
    srv.script("IntentClassification", {"intent": "TOOL_NEEDED", "task_summary": "GBM trials",
                                        "suggested_tool": "find_clinical_trials"})
    srv.script("ToolSelection", '{"tool_name": "fetch_everything"}', '{"tool_name": "nope"}')
    srv.script("ClinicalTrialsArgs", {"condition": "glioblastoma"})
    srv.say("Two trials.")
    turn = make_agent(client_for(srv, retries=1), trials).run("New therapies being studied for glioblastoma?")
    assert trials.calls == [{"condition": "glioblastoma"}] and turn.answer.startswith("Two trials.")


def test_a_text_only_server_refusing_the_image_is_said_once_not_retried(srv):
    """llama.cpp without mmproj (or a text-only vLLM model) refuses image input: one vision
    attempt, no retries, and the answer says image findings are unavailable."""
    import io

    import PIL.Image
    from smart_docgemma.agent.graph import Agent
    from smart_docgemma.tools.base import ToolContext
    from smart_docgemma.tools.sources.imaging import TOOLS as IMAGE_TOOLS
    from smart_docgemma.tools.sources.imaging import image_meta

    from tests.support.model_server import http_error

    buf = io.BytesIO()
    PIL.Image.new("L", (32, 32), 100).save(buf, format="PNG")
    srv.script("ImageFindings", http_error(500, "image input is not supported - hint: if this is unexpected, "
                                                "you may need to provide the mmproj"))
    srv.say("No image findings are available from this server.")
    agent = Agent(client_for(srv, retries=2), {t.name: t for t in IMAGE_TOOLS}, ToolContext(patient_id="p",
                                                                                            scopes=None))
    turn = agent.run("What do you see on this chest X-ray?", image=buf.getvalue(),
                     meta=image_meta(buf.getvalue(), "image/png"))
    assert srv.schema_names().count("ImageFindings") == 1  # was 6: three HTTP attempts, retried once more
    entry = turn.state.tool_runs[-1].result
    assert entry.error_kind == "unsupported" and "does not accept images" in entry.text
    assert "does not accept images" in srv.requests[-1]["messages"][-1]["content"]
