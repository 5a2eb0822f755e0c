"""Each node has its own outcome ``Literal``: mypy rejects a node returning another node's
outcome, and the transition table is keyed by exactly each node's outcomes.

The runtime half ties the three together (a node's return annotation, its ``Literal`` and its
row of ``graph.BY_NODE``); the type half runs mypy on a small module with a wrong outcome and
on the same module with a right one, so the check cannot pass by mypy seeing nothing.
"""
from __future__ import annotations

import textwrap
import typing
from pathlib import Path

import pytest
from mypy import api
from smart_docgemma.agent import graph

ROOT = Path(__file__).resolve().parents[2]


def outcomes_of(node: str) -> set[str]:
    """The outcomes the table's type allows ``node`` (its row's key ``Literal``)."""
    key_type = typing.get_args(typing.get_type_hints(graph.Table)[node])[0]
    return set(typing.get_args(key_type))


@pytest.mark.parametrize("node", list(graph.NODES))
def test_each_node_returns_its_own_outcomes_and_the_table_has_a_row_for_each(node):
    returned = typing.get_type_hints(graph.NODES[node])["return"]  # Update[ThatNodeOutcome]
    declared = set(typing.get_args(typing.get_args(returned)[0]))
    assert declared == outcomes_of(node)
    assert {outcome for (name, outcome) in graph.TRANSITIONS if name == node} == declared


def test_the_table_covers_every_node_and_nothing_else():
    assert set(graph.BY_NODE) == set(graph.NODES) == set(typing.get_type_hints(graph.Table))


MODULE = textwrap.dedent('''
    from smart_docgemma.agent.graph import BY_NODE
    from smart_docgemma.agent.nodes import Deps
    from smart_docgemma.agent.state import RouterOutcome, Turn, Update


    def router(state: Turn, deps: Deps) -> Update[RouterOutcome]:
        return {{"notice": None, "outcome": "{outcome}"}}


    BY_NODE["ROUTER"]["{outcome}"] = "ROUTER"
''')


def mypy_errors(tmp_path: Path, outcome: str) -> list[str]:
    path = tmp_path / f"node_{outcome}.py"
    path.write_text(MODULE.format(outcome=outcome))
    out, err, _ = api.run([str(path), "--config-file", str(ROOT / "pyproject.toml"),
                           "--cache-dir", str(ROOT / ".mypy_cache"), "--no-error-summary"])
    assert not err, err
    return [line for line in out.splitlines() if ": error:" in line]


def test_mypy_rejects_a_node_returning_another_nodes_outcome(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert mypy_errors(tmp_path, "pause") == []  # ROUTER's own outcome: clean
    wrong = mypy_errors(tmp_path, "retry_same")  # ERROR_HANDLER's outcome, returned by ROUTER
    assert len(wrong) == 2, wrong
    assert "Incompatible types" in wrong[0] and "retry_same" in wrong[0]  # the node's update
    assert "Invalid key" in wrong[1] or "invalid index type" in wrong[1].lower()  # the table's row
