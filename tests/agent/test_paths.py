"""Every path through the agent's transition table, driven through the real-HTTP scripted model server."""
from __future__ import annotations

from smart_docgemma.tools.base import ToolResult
from smart_docgemma.tools.sources.imaging import ImageFindings, image_meta

from .conftest import PNG, FakeTool, client_for, make_agent, ok, script_trials_turn

STRUCTURED = {"IntentClassification": (0.0, 256), "ToolSelection": (0.0, 64),
              "ResultAssessment": (0.0, 128), "RetryStrategy": (0.0, 64)}


def assert_requests_well_formed(srv):
    """Schema present, strict, named after the class; §7 sampling; no guided_json."""
    for body in srv.requests:
        assert "guided_json" not in body and "guided_json" not in body.get("extra_body", {})
        assert body["messages"][0]["role"] in ("system", "user")
        fmt = body.get("response_format")
        if fmt is None:  # synthesis: streamed, T=0.5, 256 tokens
            assert body["stream"] is True
            assert (body["temperature"], body["max_tokens"]) == (0.5, 256)
            continue
        spec = fmt["json_schema"]
        assert spec["strict"] is True and spec["schema"]["title"] == spec["name"]
        expected = STRUCTURED.get(spec["name"], (0.0, 256 if spec["name"].endswith("Args") else 512))
        assert (body["temperature"], body["max_tokens"]) == expected


def test_direct_question_takes_two_calls(srv):
    srv.script("IntentClassification", {"intent": "DIRECT", "task_summary": "Definition of hypertension"})
    srv.say("Hypertension is persistently elevated arterial blood pressure.")
    events = []
    turn = make_agent(client_for(srv)).run("What is hypertension?", emit=events.append)
    assert turn.answer == "Hypertension is persistently elevated arterial blood pressure."
    assert turn.nodes == ["INPUT_ASSEMBLY", "INTENT_CLASSIFY", "SYNTHESIZE"]
    assert turn.model_calls == 2 and turn.seed_budget["spec"] == 2
    assert [e["text"] for e in events if e["type"] == "token"]  # streamed
    assert events[-1] == {"type": "done", "model_calls": 2, "degraded": False}
    assert_requests_well_formed(srv)


def test_fast_path_drug_safety_needs_only_synthesis(srv):
    safety = FakeTool("check_drug_safety", ok("BOXED WARNING: Torsade de Pointes; start with ECG monitoring."))
    srv.say("Dofetilide carries a boxed warning for Torsade de Pointes [check_drug_safety].")
    turn = make_agent(client_for(srv), safety).run("Check FDA warnings for dofetilide")
    assert safety.calls == [{"drug_name": "dofetilide"}]
    assert "INTENT_CLASSIFY" not in turn.nodes and turn.model_calls == 1
    assert turn.seed_budget == {"spec": 5, "headline": 4}
    assert "check_drug_safety" not in turn.answer and "FDA drug label safety check" in turn.answer
    prompt = srv.requests[-1]["messages"][-1]["content"]
    assert "[FDA drug label safety check]" in prompt and "check_drug_safety" not in prompt
    assert prompt.startswith("Include only the most critical findings")  # brief variant
    assert turn.sources[0].url == "https://api.fda.gov/drug/label.json"


def test_fast_path_interactions_with_brand_names(srv):
    inter = FakeTool("check_drug_interactions", ok("Major: bleeding risk.", count=1))
    srv.say("Combining warfarin and aspirin raises bleeding risk.")
    turn = make_agent(client_for(srv), inter).run("interactions between Coumadin and aspirin?")
    assert inter.calls == [{"drug_names": ["warfarin", "aspirin"]}]
    assert turn.model_calls == 1


def test_model_selected_tool_two_stages_with_one_shot_example(srv):
    trials = FakeTool("find_clinical_trials", ok("3 recruiting trials: NCT01, NCT02, NCT03", count=None))
    script_trials_turn(srv)
    safety = FakeTool("check_drug_safety", ok("x"))
    turn = make_agent(client_for(srv), trials, safety).run("Any new therapies being studied for glioblastoma?")
    assert trials.calls == [{"condition": "glioblastoma", "status": "recruiting"}]
    assert srv.schema_names() == ["IntentClassification", "ToolSelection", "ClinicalTrialsArgs",
                                  "ResultAssessment", ""]
    stage1 = srv.requests_for("ToolSelection")[0]
    enum = stage1["response_format"]["json_schema"]["schema"]["properties"]["tool_name"]["enum"]
    assert set(enum) == {"find_clinical_trials", "check_drug_safety"}  # only this session's tools
    assert "Are there recruiting trials for glioblastoma?" in stage1["messages"][1]["content"]
    assert turn.model_calls == 5 == turn.seed_budget["spec"]
    assert_requests_well_formed(srv)


def test_multi_tool_patient_then_chart(srv):
    search = FakeTool("search_patient", ok("Maria Garcia, 1961-04-02 (id maria-1)", count=1,
                                           patients=[{"id": "maria-1"}]))
    chart = FakeTool("get_patient_chart", ok("Conditions: T2DM. Meds: metformin.", count=None))
    srv.script("ResultAssessment", {"quality": "success_rich", "brief_summary": "Chart returned."})
    srv.say("Maria Garcia has type 2 diabetes on metformin.")
    turn = make_agent(client_for(srv), search, chart).run("Find patient Maria Garcia and check her chart")
    assert search.calls == [{"name": "Maria Garcia"}] and chart.calls == [{"patient_id": "maria-1"}]
    assert turn.nodes.count("TOOL_EXECUTE") == 2
    assert turn.model_calls == 2 and turn.seed_budget["spec"] == 8
    assert "ToolSelection" not in srv.schema_names()  # no upfront plan, no model routing


def test_error_then_retry_same(srv):
    safety = FakeTool("check_drug_safety",
                      ToolResult.failure("unreachable", "I could not reach the FDA drug label service."),
                      ok("Amiodarone: boxed warning for pulmonary toxicity."))
    srv.script("RetryStrategy", {"strategy": "retry_same"})
    srv.say("Amiodarone has a boxed warning for pulmonary toxicity.")
    turn = make_agent(client_for(srv), safety).run("Check FDA warnings for amiodarone")
    assert len(safety.calls) == 2
    assert "ERROR_HANDLER" in turn.nodes and turn.model_calls == 2
    assert "pulmonary toxicity" in turn.answer


def test_ask_user_on_three_james_wilsons_without_model(srv):
    listing = ("1. James Wilson, born 1948 (id jw-1)\n2. James Wilson, born 1972 (id jw-2)\n"
               "3. James Wilson, born 1990 (id jw-3)")
    search = FakeTool("search_patient", ok(listing, count=3))
    chart = FakeTool("get_patient_chart", ok("chart"))
    turn = make_agent(client_for(srv), search, chart).run("Search for patient James Wilson and show his chart")
    assert turn.answer.startswith("I found 3 patients matching 'James Wilson'. Which one did you mean?")
    assert "born 1972" in turn.answer and chart.calls == []
    assert srv.requests == [] and turn.model_calls == 0  # the model never decides ask-user


def test_skip_after_max_retries(srv):
    busy = ToolResult.failure("rate_limited", "The FDA drug label service is busy.")
    safety = FakeTool("check_drug_safety", busy)
    srv.script("RetryStrategy", {"strategy": "retry_same"}, {"strategy": "retry_same"})
    srv.say("The safety information could not be retrieved.")
    turn = make_agent(client_for(srv), safety).run("Check FDA warnings for lisinopril")
    assert len(safety.calls) == 3  # first try + MAX_RETRIES
    assert "could not be completed after several attempts" in turn.answer
    assert len(srv.requests_for("RetryStrategy")) == 2  # skip itself is code


def test_unreachable_source_skipped_after_one_retry_with_preformatted_message(srv):
    down = ToolResult.failure("unreachable", "I could not reach the FDA drug label service.")
    safety = FakeTool("check_drug_safety", down)
    srv.script("RetryStrategy", {"strategy": "retry_same"})
    srv.say("Safety data is unavailable right now.")
    turn = make_agent(client_for(srv), safety).run("FDA warnings for dofetilide")
    assert len(safety.calls) == 2
    assert "I could not reach the FDA drug label service." in turn.answer
    assert "I could not reach the FDA drug label service." in srv.requests[-1]["messages"][-1]["content"]


def test_max_steps_stops_at_four(srv):
    fakes = [FakeTool("search_patient", ok("John Smith (id js-1)", count=1, patients=[{"id": "js-1"}])),
             FakeTool("get_patient_chart", ok("AF on warfarin", count=1)),
             FakeTool("check_drug_interactions", ok("bleeding", count=1)),
             FakeTool("find_clinical_trials", ok("2 trials", count=2)),
             FakeTool("search_medical_literature", ok("5 articles", count=5))]
    srv.script("ToolSelection", {"tool_name": "find_clinical_trials"})
    srv.script("ClinicalTrialsArgs", {"condition": "atrial fibrillation"})
    srv.say("Summary.")
    turn = make_agent(client_for(srv), *fakes).run(
        "Find patient John Smith, review his chart, check interactions between warfarin and aspirin, "
        "and find recruiting trials and recent studies on atrial fibrillation")
    calls = [len(f.calls) for f in fakes]
    assert calls[:3] == [1, 1, 1] and sum(calls) == 4  # trials or literature: the fifth never runs
    assert "I stopped after 4 lookups" in turn.answer


def test_duplicate_call_ends_the_loop(srv):
    trials = FakeTool("find_clinical_trials", ToolResult.failure("rate_limited", "Trials registry busy."))
    srv.script("IntentClassification", {"intent": "TOOL_NEEDED", "task_summary": "GBM trials"})
    srv.script("ToolSelection", {"tool_name": "find_clinical_trials"})
    srv.script("ClinicalTrialsArgs", {"condition": "glioblastoma"}, {"condition": "glioblastoma"})
    srv.script("RetryStrategy", {"strategy": "retry_different_args"})
    srv.say("The trials registry was busy.")
    turn = make_agent(client_for(srv), trials).run("Experimental treatments for glioblastoma being tested?")
    assert len(trials.calls) == 1
    ends = [e for e in turn.events if e["type"] == "node_end" and e["node"] == "TOOL_EXECUTE"]
    assert ends[-1]["outcome"] == "duplicate"


def test_image_with_a_direct_question(srv):
    def vision(args, ctx):
        out = ctx.model.vision(args.query, ctx.image, ctx.image_mime, ImageFindings)
        return ToolResult(status="ok", text=out.impression, count=len(out.findings))

    image_tool = FakeTool("analyze_medical_image", run=vision)
    srv.script("ImageFindings", {"modality": "X-ray", "findings": ["Right lower lobe opacity"],
                                 "impression": "Right lower lobe consolidation.",
                                 "confidence": "moderate", "specialist_review": False})
    srv.say("The radiograph shows right lower lobe consolidation.")
    turn = make_agent(client_for(srv), image_tool).run("What do you see?", image=PNG,
                                                       meta=image_meta(PNG, "image/png"))
    content = srv.requests_for("ImageFindings")[0]["messages"][-1]["content"]
    assert content[1]["image_url"]["url"].startswith("data:image/png;base64,")
    assert turn.model_calls == 2 and turn.seed_budget["spec"] == 3
    assert turn.calls_by_node == {"vision": 1, "synthesize": 1}
    assert "consolidation" in turn.answer


def test_proposal_is_never_a_write_and_turn_can_pause_and_resume(srv, tmp_path):
    from smart_docgemma.storage import Storage
    from smart_docgemma.turns.store import TurnStore

    presc = FakeTool("prescribe_medication", ToolResult(status="proposal", text="MedicationRequest draft",
                                                        proposal_id="prop-1"))
    agent = make_agent(client_for(srv), presc, pause_on_proposal=True)
    paused = agent.run("Prescribe metformin 500 mg twice daily")
    assert paused.paused and paused.proposals == ["prop-1"] and paused.answer == ""
    assert presc.calls == [{"patient_id": "pat-launch", "medication_name": "metformin",
                            "dosage": "500 mg", "frequency": "twice daily"}]
    store = TurnStore(Storage(f"sqlite:///{tmp_path}/turns.sqlite", "key"))
    turn_id = store.start("s1", paused.state, per_minute=5)
    store.finish(turn_id, paused.state)
    stored = store.load(turn_id)  # what a later request reads back from the database
    assert stored == paused.state and stored.paused and stored.next_node == "ROUTER"
    assert store.get(turn_id).turn.proposals == ["prop-1"]
    srv.say("Metformin 500 mg twice daily was ordered.")
    done = agent.resume(stored, [{"proposal_id": "prop-1", "decision": "approved"}])
    assert "approved and saved" in done.answer and not done.paused
    assert done.state.tool_runs[-1].result.status == "ok" and len(presc.calls) == 1  # not run again


def test_prescription_uses_the_explicit_patient_id(srv):
    presc = FakeTool("prescribe_medication", ToolResult(status="proposal", text="Draft order",
                                                        proposal_id="prop-9"))
    srv.say("A metformin order is ready for your approval.")
    turn = make_agent(client_for(srv), presc).run("Prescribe metformin 500mg twice daily for abc-123")
    assert presc.calls[0]["patient_id"] == "abc-123" and turn.proposals == ["prop-9"]
    assert "awaits your approval; nothing has been written" in turn.answer


def test_real_image_tool_through_the_agent(srv):
    import io

    from PIL import Image
    from smart_docgemma.agent.graph import Agent
    from smart_docgemma.tools.base import ToolContext
    from smart_docgemma.tools.sources.imaging import TOOLS

    buf = io.BytesIO()
    Image.new("L", (64, 64), 128).save(buf, format="PNG")
    srv.script("ImageFindings", {"modality": "chest X-ray", "findings": ["No focal consolidation"],
                                 "impression": "No acute cardiopulmonary process.",
                                 "confidence": "high", "specialist_review": False})
    srv.say("No acute cardiopulmonary process is seen.")
    agent = Agent(client_for(srv), {t.name: t for t in TOOLS}, ToolContext(patient_id="p", scopes=None))
    turn = agent.run("What do you see on this chest X-ray?", image=buf.getvalue(),
                     meta=image_meta(buf.getvalue(), "image/png"))
    assert turn.calls_by_node == {"vision": 1, "synthesize": 1}
    assert "No acute cardiopulmonary process" in turn.answer and not turn.degraded


def test_whole_turn_on_a_llama_cpp_python_style_server():
    from tests.support.model_server import ScriptedModelServer

    with ScriptedModelServer(accept_json_schema=False) as server:
        server.script("IntentClassification", {"intent": "DIRECT", "task_summary": "x"})
        server.say("Hello, doctor.")
        turn = make_agent(client_for(server, dialect="auto")).run("Hello")
        assert turn.answer == "Hello, doctor." and turn.model_calls == 2
        assert server.requests[1]["response_format"]["type"] == "json_object"
