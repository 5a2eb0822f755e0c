"""One route vocabulary: ``agent.state.Route`` (direct, tool, proposal, ask, error).

The evaluation's cases (the ``route:`` of every YAML case file) and their scores, the stored-turn
evaluation and the ``docgemma_turns_total{route}`` metric all use it, and no other module spells
the set out again (a syntax-tree walk for a collection literal holding three or more of its words).
"""
from __future__ import annotations

import ast
import typing
from pathlib import Path

import pytest

from smart_docgemma.agent.state import ROUTES, Route, ToolRun, Turn, route_of
from smart_docgemma.evaluation.cases import Case, load_cases
from smart_docgemma.tools.base import ToolResult

PACKAGE = Path(__file__).resolve().parent.parent / "smart_docgemma"
CASE_FILES = sorted([*PACKAGE.glob("evaluation/*cases.yaml"), *(p for p in PACKAGE.glob("evaluation/languages/*.yaml")
                     if p.name != "drug_names.yaml")])


def test_the_cases_are_typed_with_the_one_route():
    assert typing.get_type_hints(Case)["route"] is Route and set(ROUTES) == {
        "direct", "tool", "proposal", "ask", "error"}


@pytest.mark.parametrize("path", CASE_FILES, ids=lambda p: p.name)
def test_every_case_file_still_loads_with_it(path):
    cases = load_cases(path)
    assert cases and {c.route for c in cases} <= set(ROUTES)


def test_route_of_a_turn():
    ran = ToolRun(tool="t", label="t", args={}, result=ToolResult(status="ok", text=""))
    assert route_of(Turn(message="q")) == "direct"
    assert route_of(Turn(message="q", tool_runs=[ran])) == "tool"
    assert route_of(Turn(message="q", tool_runs=[ran], proposals=["p"])) == "proposal"
    assert route_of(Turn(message="q", skipped=["t"], proposals=["p"])) == "error"
    assert route_of(Turn(message="q", clarification="Which one?", skipped=["t"])) == "ask"


def spelled_out(path: Path) -> list[int]:
    """Lines holding a tuple/list/set literal of three or more route words."""
    lines = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            words = {e.value for e in node.elts if isinstance(e, ast.Constant)} & set(ROUTES)
            if len(words) >= 3:
                lines.append(node.lineno)
    return lines


def test_no_other_module_spells_the_routes_out():
    found = {str(p.relative_to(PACKAGE)): spelled_out(p) for p in PACKAGE.rglob("*.py")}
    assert {name for name, lines in found.items() if lines} == {"agent/state.py"}  # Route itself
    assert spelled_out(Path(__file__))  # the walk sees a spelled-out set (the test's own)
