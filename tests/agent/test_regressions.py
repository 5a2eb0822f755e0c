"""Seed 004 §15 regression table, state round trip, calls per route next to the
seed's budget, prefix-cache-friendly prompts, concurrency, image detection."""
from __future__ import annotations

import json
import re
import threading

import pytest
from smart_docgemma.agent.graph import TRANSITIONS
from smart_docgemma.agent.state import dumps, from_dict, loads, to_dict
from smart_docgemma.tools.base import ToolResult
from smart_docgemma.tools.catalog import specs
from smart_docgemma.tools.sources.imaging import image_meta

from .conftest import PNG, FakeTool, client_for, make_agent, ok

ALLOWED_SCHEMAS = {"IntentClassification", "ToolSelection", "ResultAssessment", "RetryStrategy",
                   "ImageFindings", ""} | {s.args_model.__name__ for s in specs().values()}
TOOL_NAMES = re.compile("|".join(specs()))


def _standard_tools():
    return [FakeTool("check_drug_safety", ok("BOXED WARNING: x", count=None)),
            FakeTool("check_drug_interactions", ok("Major interaction", count=1)),
            FakeTool("search_patient", ok("Maria Garcia (id m-1)", count=1, patients=[{"id": "m-1"}])),
            FakeTool("get_patient_chart", ok("T2DM on metformin", count=1)),
            FakeTool("find_clinical_trials", ok("2 trials", count=2))]


ROUTES = [  # (query, scripted answers, our calls, seed spec budget)
    ("What is hypertension?", {"IntentClassification": [{"intent": "DIRECT", "task_summary": "x"}]}, 2, 2),
    ("Check FDA warnings for dofetilide", {}, 2, 5),  # + ResultAssessment (no count)
    ("Check interactions between warfarin and aspirin", {}, 1, 5),
    ("Find patient Maria Garcia and check her chart", {}, 1, 8),
    ("Any recruiting trials for glioblastoma?", {"ToolSelection": [{"tool_name": "find_clinical_trials"}],
                                                 "ClinicalTrialsArgs": [{"condition": "glioblastoma"}],
                                                 "IntentClassification": [{"intent": "TOOL_NEEDED",
                                                                           "task_summary": "x"}]}, 4, 5),
]


@pytest.mark.parametrize("query,script,ours,seed", ROUTES, ids=[r[0][:30] for r in ROUTES])
def test_calls_per_route_next_to_seed_budget(srv, query, script, ours, seed):
    for name, answers in script.items():
        srv.script(name, *answers)
    srv.script("ResultAssessment", {"quality": "success_rich", "brief_summary": "ok"})
    srv.say("Answer.")
    turn = make_agent(client_for(srv), *_standard_tools()).run(query)
    print(f"\n{query!r}: ours {turn.model_calls}, seed {turn.seed_budget}")
    assert (turn.model_calls, turn.seed_budget["spec"]) == (ours, seed)
    assert set(srv.schema_names()) <= ALLOWED_SCHEMAS  # no TaskPlan, no sufficiency schema


def test_no_tool_names_and_no_raw_errors_reach_the_model(srv):
    tools = _standard_tools()
    tools[0] = FakeTool("check_drug_safety", ToolResult.failure("not_found", "No FDA label was found for zyx."))
    srv.say("Answer.")
    make_agent(client_for(srv), *tools).run("Check FDA warnings for dofetilide")
    synth = [r for r in srv.requests if r.get("stream")]
    assert synth and not TOOL_NAMES.search(json.dumps(synth[0]["messages"]))
    assert "No FDA label was found for zyx." in synth[0]["messages"][-1]["content"]


def test_never_an_empty_answer(srv):
    srv.say("")
    turn = make_agent(client_for(srv), *_standard_tools()).run("Check interactions between warfarin and aspirin")
    assert "Major interaction" in turn.answer and turn.answer.strip()


def test_model_is_never_asked_sufficiency_or_skip(srv):
    down = FakeTool("check_drug_safety", ToolResult.failure("not_found", "No FDA label was found."))
    srv.say("No label was found.")
    turn = make_agent(client_for(srv), down).run("FDA warnings for dofetilide")
    assert srv.schema_names() == [""] and len(down.calls) == 1  # skip decided by code
    assert "ERROR_HANDLER" in turn.nodes


def test_state_round_trips_through_json(srv):
    srv.say("Answer.")
    turn = make_agent(client_for(srv), *_standard_tools()).run(
        "What do you see?", image=PNG, meta=image_meta(PNG, "image/png"), history=[
            {"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}])
    assert loads(dumps(turn.state)) == turn.state
    assert from_dict(json.loads(json.dumps(to_dict(turn.state)))) == turn.state
    assert turn.state.image == {"kind": "png", "mime": "image/png", "bytes": len(PNG), "accepted": True}
    srv.say("Answer.")
    checked = make_agent(client_for(srv), *_standard_tools()).run("Check interactions between warfarin and aspirin")
    assert isinstance(checked.state.tool_runs[0].result, ToolResult) and checked.sources
    assert loads(dumps(checked.state)) == checked.state


def test_events_feed_the_progress_stream(srv):
    events = []
    srv.say("Answer.")
    turn = make_agent(client_for(srv), *_standard_tools()).run(
        "Check interactions between warfarin and aspirin", emit=events.append)
    assert turn.events == [e for e in events if e["type"] != "token"]  # the stored trace is what streamed
    kinds = [e["type"] for e in events]
    assert kinds[0] == "node_start" and kinds[-1] == "done" and "token" in kinds
    call = next(e for e in events if e["type"] == "tool_call")
    assert call == {"type": "tool_call", "tool": "Drug interaction check",
                    "args": {"drug_names": ["warfarin", "aspirin"]}}
    result = next(e for e in events if e["type"] == "tool_result")
    assert result["status"] == "ok" and result["summary"] == "Major interaction"
    assert all("duration_ms" in e for e in events if e["type"] == "node_end")


def test_transition_table_covers_every_node():
    sources = {node for node, _ in TRANSITIONS}
    assert sources == {"INPUT_ASSEMBLY", "INTENT_CLASSIFY", "TOOL_SELECT", "TOOL_EXECUTE",
                       "RESULT_CLASSIFY", "ROUTER", "ERROR_HANDLER", "SYNTHESIZE", "SECOND_LOOK"}
    assert ("ROUTER", "ask") in TRANSITIONS and TRANSITIONS[("SYNTHESIZE", "done")] == "END"
    assert TRANSITIONS[("SYNTHESIZE", "review")] == "SECOND_LOOK" and TRANSITIONS[("SECOND_LOOK", "done")] == "END"


def test_system_text_is_first_and_stable_across_turns(srv):
    for _ in range(2):
        srv.script("IntentClassification", {"intent": "DIRECT", "task_summary": "x"})
        srv.say("Answer.")
    agent = make_agent(client_for(srv))
    agent.run("What is hypertension?")
    agent.run("What is diabetes?", history=[{"role": "user", "content": "What is hypertension?"},
                                            {"role": "assistant", "content": "Answer."}])
    intents = srv.requests_for("IntentClassification")
    assert intents[0]["messages"][0] == intents[1]["messages"][0]
    assert intents[0]["messages"][0]["role"] == "system"
    roles = [m["role"] for m in srv.requests[-1]["messages"]]
    assert roles == ["system", "user", "assistant", "user"]  # Gemma: strict alternation


def test_concurrent_turns_share_one_client(srv):
    client, answers = client_for(srv), []
    for _ in range(4):
        srv.say("Answer.")

    def turn():
        tools = [FakeTool("check_drug_interactions", ok("Major interaction", count=1))]
        answers.append(make_agent(client, *tools).run("interactions between warfarin and aspirin"))

    threads = [threading.Thread(target=turn) for _ in range(4)]
    [t.start() for t in threads]
    [t.join(10) for t in threads]
    assert [a.model_calls for a in answers] == [1, 1, 1, 1]  # per-turn counters, not global


@pytest.mark.parametrize("data,mime,kind", [
    (PNG, "image/png", "png"), (b"\xff\xd8\xff\xe0" + b"0" * 20, "image/jpeg", "jpeg"),
    (b"\x00" * 128 + b"DICM" + b"0" * 20, "application/dicom", "dicom"),
    (b"\x00" * 128 + b"DICM", None, "dicom")])
def test_image_detection_by_magic_bytes(data, mime, kind):
    assert image_meta(data, mime)["kind"] == kind


GIF = b"GIF89a" + b"0" * 40


def test_an_image_without_its_meta_is_refused_by_the_agent(srv):
    """The image's kind is read once where it arrives (chat upload, evaluation harness) and
    handed on; a caller that skips the reading is a programming error, not a second sniff."""
    with pytest.raises(TypeError, match="image_meta"):
        make_agent(client_for(srv)).run("What do you see?", image=PNG)
    assert srv.schema_names() == []


def test_image_with_lying_mime_type_is_refused(srv):
    srv.script("IntentClassification", {"intent": "DIRECT", "task_summary": "x"})
    srv.say("Answer.")
    turn = make_agent(client_for(srv)).run("What do you see?", image=GIF,
                                           meta=image_meta(GIF, "image/png"))
    assert turn.state.image is None and "not a supported image" in turn.answer
    assert image_meta(PNG, "image/jpeg")["accepted"] is False


def test_a_direct_verdict_cannot_skip_a_tool_the_task_requires(srv):
    """Routing is code: "save a progress note" must reach the note tool even if the
    model calls it DIRECT (a real small model did), so the answer never implies a save."""
    srv.script("IntentClassification", {"intent": "DIRECT", "task_summary": "note"})
    srv.script("ClinicalNoteArgs", {"patient_id": "p-1", "note_type": "progress note",
                                    "note_text": "Stable, review in 6 weeks."})
    srv.say("Drafted the note for your approval.")
    note = FakeTool("save_clinical_note", ToolResult(status="proposal", text="Note proposal awaiting approval",
                                                      proposal_id="prop-1"))
    turn = make_agent(client_for(srv), note).run("Save a progress note: stable, review in 6 weeks")
    assert note.calls and turn.proposals == ["prop-1"]


def test_interactions_and_a_boxed_warning_asked_together_run_both_checks(srv):
    """'Is it safe to combine X and Y' is an interaction question only; naming the boxed warning
    (or another label section) as well asks for the label check too."""
    safety, inter = FakeTool("check_drug_safety", ok("BOXED WARNING: bleeding", count=None)), \
        FakeTool("check_drug_interactions", ok("Major interaction", count=1))
    srv.script("DrugSafetyArgs", {"drug_name": "aspirin"})
    srv.script("ResultAssessment", {"quality": "success_rich", "brief_summary": "label found"})
    srv.say("Both checked.")
    turn = make_agent(client_for(srv), safety, inter).run(
        "Check the interactions of warfarin and aspirin and the boxed warning of aspirin")
    assert inter.calls == [{"drug_names": ["warfarin", "aspirin"]}]
    assert safety.calls and safety.calls[0]["drug_name"] == "aspirin"
    only = FakeTool("check_drug_safety", ok("x", count=None))
    make_agent(client_for(srv), only, FakeTool("check_drug_interactions", ok("Major", count=1))).run(
        "Is it safe to combine lisinopril and spironolactone?")
    assert only.calls == []  # the combination question stays one check
    assert "Both checked." in turn.answer
