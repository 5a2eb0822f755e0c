"""Prompts ordered for the server's prompt cache: every node's request starts with the part that
is the same on every call of the node in a session (system text, tool definitions, the
patient's chart in brief), byte for byte, and this turn's part (question, history, results)
comes after it. Checked on the requests the agent really sends (over HTTP to the scripted
model server) for two turns of one session; tests/realmodel/test_prompt_cache.py checks the
same on the real model's tokens."""
from __future__ import annotations

from smart_docgemma.agent.graph import Agent
from smart_docgemma.tools.base import ToolContext

from tests.support.model_server import ScriptedModelServer, schema_name

from .conftest import FakeTool, client_for, ok

CHART = "Ana Silva, 76 y female; problems: atrial fibrillation, CKD stage 3; meds: warfarin 5 mg daily"
TURNS = [("Are there recruiting trials for glioblastoma near here?", "glioblastoma"),
         ("Any recruiting trials for pancreatic cancer I could offer?", "pancreatic cancer")]


def _script(srv: ScriptedModelServer, condition: str) -> None:
    srv.script("IntentClassification", {"intent": "TOOL_NEEDED", "task_summary": f"Trials for {condition}",
                                        "suggested_tool": "find_clinical_trials"})
    srv.script("ToolSelection", {"tool_name": "find_clinical_trials"})
    srv.script("ClinicalTrialsArgs", {"condition": condition, "status": "recruiting"})
    srv.script("ResultAssessment", {"quality": "success_rich", "brief_summary": "Two trials."})
    srv.say(f"Two recruiting {condition} trials were found.")


def _session_requests() -> list[list[dict]]:
    """The model requests of two turns of one session (same patient, tools and chart)."""
    trials = FakeTool("find_clinical_trials", ok("2 trials: NCT1, NCT2.", count=None))
    chart = FakeTool("get_patient_chart", ok(CHART, count=None))
    turns, history = [], []
    with ScriptedModelServer() as srv:
        agent = Agent(client_for(srv, timeout=5), {f.name: f.tool() for f in (trials, chart)},
                      ToolContext(patient_id="pat-launch", scopes=None))
        for question, condition in TURNS:
            _script(srv, condition)
            before = len(srv.requests)
            turn = agent.run(question, history=history, chart_summary=CHART)
            turns.append(srv.requests[before:])
            history += [{"role": "user", "content": question}, {"role": "assistant", "content": turn.answer}]
    return turns


def _node(request: dict) -> str:
    return schema_name(request) or ("synthesize" if request.get("stream") else "")


def test_every_node_opens_with_the_same_fixed_part_and_ends_with_its_own():
    first, second = _session_requests()
    nodes = {_node(r): r for r in first}
    assert {"IntentClassification", "ToolSelection", "ClinicalTrialsArgs", "synthesize"} <= set(nodes)
    for later in second:
        earlier = nodes[_node(later)]
        head, tail = earlier["messages"][0]["content"], later["messages"][0]["content"]
        assert head == tail, _node(later)  # the fixed part, byte for byte
        question = TURNS[1][0]
        assert question not in tail and TURNS[0][0] not in tail  # no turn's words in it
        assert question in later["messages"][-1]["content"] or _node(later) == "ResultAssessment"
    fixed = {_node(r): r["messages"][0]["content"] for r in second}
    for node in ("IntentClassification", "ToolSelection", "synthesize"):
        assert CHART in fixed[node], node  # the patient's chart belongs to the fixed part
    assert "Available tools:" in fixed["ToolSelection"]  # so do the tool definitions
    assert "Tool: find_clinical_trials" in fixed["ClinicalTrialsArgs"]


def test_the_conversation_comes_after_the_fixed_part():
    _, second = _session_requests()
    synthesis = next(r for r in second if _node(r) == "synthesize")
    roles = [m["role"] for m in synthesis["messages"]]
    assert roles == ["system", "user", "assistant", "user"]  # earlier turn between the two parts
    assert synthesis["messages"][1]["content"] == TURNS[0][0]


def test_the_intent_call_of_a_turn_starts_with_the_whole_intent_call_of_the_turn_before():
    first, second = _session_requests()
    before = next(r for r in first if _node(r) == "IntentClassification")["messages"]
    now = next(r for r in second if _node(r) == "IntentClassification")["messages"]
    assert now[:len(before)] == before  # so a warm server computes only the last answer and this question
    assert [m["role"] for m in now[len(before):]] == ["assistant", "user"]
    assert TURNS[1][0] in now[-1]["content"]


def test_the_oldest_turns_leave_half_a_window_at_a_time_so_prompts_in_between_start_alike():
    from smart_docgemma.agent.prompts import recent

    def window(done: int) -> list[str]:
        history = [{"role": r, "content": f"{r} {i}"} for i in range(done) for r in ("user", "assistant")]
        return [m["content"] for m in recent(history, 4) if m["role"] == "user"]

    assert window(3) == ["user 0", "user 1", "user 2"]  # within the window: nothing leaves
    assert window(5) == ["user 2", "user 3", "user 4"]  # two leave together...
    assert window(6) == ["user 2", "user 3", "user 4", "user 5"]  # ... so this turn's conversation
    assert window(7)[0] == "user 4"  # starts as the one before; a one-at-a-time window never would
    assert all(2 <= len(window(n)) <= 4 for n in range(2, 20))
