"""The clinical trace (``smart_docgemma.trace``): agent events in a clinician's words.

The live progress list and the trace panel are all a clinician sees of how an
answer came about, so the labels, per-step model calls (node_end carries a
*cumulative* count), the sources consulted with their arguments and status, retry
notes, and a bounded copy of what each source returned must be right.
"""
from __future__ import annotations

from smart_docgemma.agent.state import ToolRun
from smart_docgemma.tools.base import ToolResult
from smart_docgemma.web.trace import DETAIL_MAX, node_label, progress_event, trace_steps


def run(tool, text):
    return ToolRun(tool=tool, label=tool, args={}, result=ToolResult(status="ok", text=text))


def start(node):
    return {"type": "node_start", "node": node}


def end(node, calls, ms, outcome="next"):
    return {"type": "node_end", "node": node, "outcome": outcome, "model_calls": calls, "duration_ms": ms}


EVENTS = [
    start("INPUT_ASSEMBLY"), end("INPUT_ASSEMBLY", 0, 1.2),
    start("INTENT_CLASSIFY"), end("INTENT_CLASSIFY", 1, 300.0),
    start("TOOL_SELECT"), end("TOOL_SELECT", 2, 250.5, "execute"),
    start("TOOL_EXECUTE"),
    {"type": "tool_call", "tool": "Lab results", "args": {"loinc_code": "2823-3", "since": None, "codes": []}},
    {"type": "tool_result", "tool": "Lab results", "status": "ok", "summary": "K+ 5.6 mmol/L", "count": 3},
    end("TOOL_EXECUTE", 2, 40.0, "classify"),
    start("RESULT_CLASSIFY"),
    {"type": "retry_decision", "tool": "Lab results", "strategy": "retry_same"},
    end("RESULT_CLASSIFY", 3, 100.0, "decide"),
    start("TOOL_EXECUTE"),
    {"type": "tool_call", "tool": "PubMed search", "args": {"query": "hyperkalaemia", "terms": ["CKD", "ACE"]}},
    {"type": "tool_result", "tool": "PubMed search", "status": "error", "summary": None},
    end("TOOL_EXECUTE", 3, 5000.05),
    start("SYNTHESIZE"), end("SYNTHESIZE", 5, 800.0, "end"),
    {"type": "done", "model_calls": 5, "degraded": False},
]
LONG = "x" * (DETAIL_MAX + 100)
RESULTS = [run("lab_results", "K+ 5.6 mmol/L (2024-05-01)\nK+ 5.1"), run("pubmed", LONG)]


def test_progress_for_nodes():
    assert progress_event(start("INPUT_ASSEMBLY")) == {"kind": "step", "node": "INPUT_ASSEMBLY",
                                                       "label": "Reading the question", "phase": "start"}
    ended = progress_event(end("SYNTHESIZE", 5, 812.5))
    assert ended["label"] == "Writing the answer" and ended["phase"] == "end" and ended["duration_ms"] == 812.5


def test_progress_for_sources():
    call = progress_event({"type": "tool_call", "tool": "Lab results",
                           "args": {"loinc_code": "2823-3", "since": "", "codes": ["a", "b"], "max": None}})
    assert call == {"kind": "tool", "phase": "call", "label": "Lab results", "args": "loinc code: 2823-3; codes: a, b"}
    empty = progress_event({"type": "tool_result", "tool": "Notes", "status": "empty", "summary": None})
    assert empty == {"kind": "tool", "phase": "result", "label": "Notes", "status": "nothing found", "summary": ""}
    assert progress_event({"type": "tool_result", "tool": "N", "status": "proposal"})["status"] == \
        "proposal awaiting your approval"
    assert progress_event({"type": "tool_result", "tool": "N", "status": "weird"})["status"] == "weird"


def test_progress_hides_other_events():
    assert progress_event({"type": "done", "model_calls": 3}) is None
    assert progress_event({"type": "retry_decision", "tool": "x"}) is None
    assert progress_event({}) is None


def test_node_labels():
    assert node_label("TOOL_EXECUTE") == "Consulting a source"
    assert node_label("TOOL_EXECUTE", "PubMed search") == "Consulting: PubMed search"
    assert node_label("ROUTER", "ignored") == "Deciding the next step"
    assert node_label("HUMAN_REVIEW") == "Human review"  # unknown nodes still read as words


def test_trace_steps_labels_and_per_step_model_calls():
    trace = trace_steps(EVENTS, RESULTS)
    steps = trace["steps"]
    assert [s["label"] for s in steps] == [
        "Reading the question", "Understanding the request", "Choosing what to consult",
        "Consulting: Lab results", "Checking the result", "Consulting: PubMed search", "Writing the answer"]
    assert [s["model_calls"] for s in steps] == [0, 1, 1, 0, 1, 0, 2]
    assert trace["model_calls"] == 5
    assert [s["outcome"] for s in steps][:3] == ["next", "next", "execute"]
    assert trace["total_ms"] == 6491.8  # 1.2 + 300 + 250.5 + 40 + 100 + 5000.05 + 800, rounded
    assert trace["sources_consulted"] == 2


def test_trace_steps_sources_inside_tool_execute():
    steps = trace_steps(EVENTS, RESULTS)["steps"]
    labs, pubmed = steps[3]["tools"], steps[5]["tools"]
    assert labs == [{"label": "Lab results", "args": "loinc code: 2823-3", "detail": RESULTS[0].result.text,
                     "status": "ok", "summary": "K+ 5.6 mmol/L", "status_label": "found"}]
    assert pubmed[0]["args"] == "query: hyperkalaemia; terms: CKD, ACE"
    assert pubmed[0]["status_label"] == "failed" and pubmed[0]["summary"] == ""
    assert all(not s["tools"] for i, s in enumerate(steps) if i not in (3, 5))


def test_retry_decision_is_a_note_on_its_step():
    steps = trace_steps(EVENTS, RESULTS)["steps"]
    assert steps[4]["notes"] == ["Retry decision for Lab results: retry_same"]
    assert sum(len(s["notes"]) for s in steps) == 1


def test_long_source_text_is_truncated():
    detail = trace_steps(EVENTS, RESULTS)["steps"][5]["tools"][0]["detail"]
    assert detail == "x" * DETAIL_MAX + " …"
    exact = trace_steps(EVENTS, [RESULTS[0], run("pubmed", "y" * DETAIL_MAX)])
    assert exact["steps"][5]["tools"][0]["detail"] == "y" * DETAIL_MAX  # at the limit: untouched


def test_missing_tool_results_leave_detail_empty():
    steps = trace_steps(EVENTS)["steps"]
    assert steps[3]["tools"][0]["detail"] == "" and steps[5]["tools"][0]["detail"] == ""


def test_stray_and_unfinished_events():
    events = [{"type": "tool_call", "tool": "Orphan"}, {"type": "tool_result", "tool": "Orphan", "status": "ok"},
              start("INPUT_ASSEMBLY"), {"type": "tool_result", "tool": "X", "status": "ok"},
              end("INPUT_ASSEMBLY", 0, 2.0), start("INTENT_CLASSIFY")]  # stream cut mid-node
    trace = trace_steps(events)
    assert [s["node"] for s in trace["steps"]] == ["INPUT_ASSEMBLY"]
    assert trace["steps"][0]["tools"] == [] and trace["sources_consulted"] == 0
    assert trace_steps([]) == {"steps": [], "total_ms": 0, "model_calls": 0, "sources_consulted": 0}
