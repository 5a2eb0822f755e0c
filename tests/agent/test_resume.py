"""A turn paused on a proposal resumes with the clinician's decision: the follow-up states the
outcome (approved, edited then approved, rejected) and the resumed turn keeps it."""
from __future__ import annotations

import pytest
from smart_docgemma.agent.state import dumps, loads
from smart_docgemma.tools.base import ToolResult

from .conftest import FakeTool, client_for, make_agent

APPROVED = {"proposal_id": "prop-1", "decision": "approved", "action": "Start metformin 500 mg twice daily",
            "result_ref": "MedicationRequest/77", "provenance": "Provenance/78", "changes": []}
EDITED = {**APPROVED, "action": "Start metformin 1000 mg twice daily", "changes": [{"field": "Dose", "before": "500 mg",
                                                                                    "after": "1000 mg", "version": 2}]}
REJECTED = {"proposal_id": "prop-1", "decision": "rejected", "action": "Start metformin 500 mg twice daily",
            "reason": "eGFR 25, metformin contraindicated"}


def paused(model):
    presc = FakeTool("prescribe_medication", ToolResult(status="proposal", text="MedicationRequest draft",
                                                        proposal_id="prop-1"))
    agent = make_agent(model, presc, pause_on_proposal=True)
    turn = agent.run("Prescribe metformin 500 mg twice daily")
    assert turn.paused and turn.answer == ""
    return agent, loads(dumps(turn.state)), presc  # as the turn store keeps it


@pytest.mark.parametrize("decision, says", [
    (APPROVED,
     "Done: Start metformin 500 mg twice daily. Created MedicationRequest/77 in the chart "
     "(Provenance: Provenance/78)."),
    (EDITED, "You edited it first: Dose 500 mg → 1000 mg."),
    (REJECTED, "You rejected it (eGFR 25, metformin contraindicated); nothing was written to the chart."),
])
def test_without_a_model_the_follow_up_is_templated_from_the_decision(decision, says):
    agent, stored, presc = paused(None)
    events = []
    done = agent.resume(stored, [decision], emit=events.append)
    assert says in done.answer and not done.paused and len(presc.calls) == 1  # the tool is not run again
    assert done.state.approvals == [decision] and "awaiting" not in done.answer.lower()
    assert events[-1]["type"] == "done"


def test_with_a_model_the_follow_up_is_streamed_and_always_states_the_outcome(srv):
    agent, stored, _ = paused(client_for(srv))
    srv.say("Metformin is ordered; recheck renal function as planned.")
    events = []
    done = agent.resume(stored, [APPROVED], emit=events.append)
    assert [e for e in events if e["type"] == "token"]  # streamed
    assert done.answer.startswith("Metformin is ordered") and "Created MedicationRequest/77" in done.answer
    prompt = srv.requests[-1]["messages"][-1]["content"]
    assert "Created MedicationRequest/77" in prompt and "awaiting" not in prompt.lower()  # the model reads the outcome
