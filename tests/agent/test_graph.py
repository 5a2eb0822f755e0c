"""The transition table is the whole control flow: a pair it lacks is an error, never a detour."""
from __future__ import annotations

import pytest
from smart_docgemma.agent import graph
from smart_docgemma.agent.graph import Agent
from smart_docgemma.errors import UnknownTransition


def test_unknown_outcome_raises_instead_of_answering(monkeypatch):
    def confused(state, deps):
        return {"outcome": "wander"}

    monkeypatch.setitem(graph.NODES, "INPUT_ASSEMBLY", confused)
    with pytest.raises(UnknownTransition, match="INPUT_ASSEMBLY returned 'wander'"):
        Agent(None, {}, None).run("What is hypertension?")


def test_every_row_leads_to_a_node_or_an_end():
    assert {nxt for nxt in graph.TRANSITIONS.values()} <= set(graph.NODES) | {graph.END, graph.PAUSE}
    assert graph.next_node("ROUTER", "pause") == "SECOND_LOOK"
    with pytest.raises(UnknownTransition):
        graph.next_node("SYNTHESIZE", "select")


def test_a_known_run_still_ends():
    result = Agent(None, {}, None).run("What is hypertension?")
    assert result.state.nodes == ["INPUT_ASSEMBLY", "SYNTHESIZE"]
    assert result.answer.startswith("**Model unavailable")
