"""One vocabulary per kind of route: the route a turn took, and routes of administration.

The route a turn took is ``agent.state.Route`` (direct, tool, proposal, ask, error).

The evaluation's cases (the ``route:`` of every YAML case file) and their scores, the stored-turn
evaluation and the ``docgemma_turns_total{route}`` metric all use it, and no other module spells
the set out again (a syntax-tree walk for a collection literal holding three or more of its words).
"""
from __future__ import annotations

import ast
import typing
from pathlib import Path

import pytest
import yaml
from smart_docgemma.agent import extraction
from smart_docgemma.agent.state import ROUTES, Route, ToolRun, Turn, route_of
from smart_docgemma.evaluation.cases import Case, load_cases
from smart_docgemma.proposals import describe, editing
from smart_docgemma.tools.base import ToolResult
from smart_docgemma.tools.words import dosing

PACKAGE = Path(__file__).resolve().parents[2] / "smart_docgemma"
LANGUAGE_CASES = (p for p in PACKAGE.glob("evaluation/languages/*.yaml") if p.name != "drug_names.yaml")
CASE_FILES = sorted([*PACKAGE.glob("evaluation/*cases.yaml"), *LANGUAGE_CASES])


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


# ---------------------------------------------------------------- routes of administration
# The other "route": how a drug is given. One table, tools/words/dosing.py: ROUTES (key, SNOMED CT
# coding, the words clinicians write). The order parser, the card's edit form, the HTTP API's
# enum, the card's sentence and the agent's extraction rules all name routes from it.
ROUTE_CODES = {r.code for r in dosing.ROUTES}


def test_the_edit_form_and_the_api_offer_exactly_the_table():
    assert [k for k in editing.ROUTES if k] == list(dosing.ROUTE_KEYS)
    spec = yaml.safe_load((PACKAGE / "web" / "openapi.yaml").read_text())
    enums = [node["enum"] for node in walk(spec) if isinstance(node, dict) and "enum" in node
             and "intravenous" in node["enum"]]
    assert enums == [["", *dosing.ROUTE_KEYS]]
    assert set(describe._ROUTE_WORDS) <= set(dosing.ROUTE_KEYS)


@pytest.mark.parametrize("key", dosing.ROUTE_KEYS)
def test_a_route_is_coded_and_read_back_the_same_way(key):
    concept = dosing.route_coding(key)
    assert dosing.route_key(concept) == key and dosing.parse_route(key) == concept


def test_every_word_extraction_normalises_to_is_a_route_of_the_table():
    words = extraction.rules()["routes"]
    assert {word: dosing.route_key(dosing.parse_route(value)) for word, value in words.items()
            if not dosing.parse_route(value)} == {}


def route_codes_in(path: Path) -> list[int]:
    return [node.lineno for node in ast.walk(ast.parse(path.read_text()))
            if isinstance(node, ast.Constant) and node.value in ROUTE_CODES]


def test_no_other_module_keeps_its_own_route_codes():
    found = {str(p.relative_to(PACKAGE)) for p in PACKAGE.rglob("*.py") if route_codes_in(p)}
    assert found == {"tools/words/dosing.py"}


def walk(node):
    yield node
    children = node.values() if isinstance(node, dict) else node if isinstance(node, list) else ()
    for child in children:
        yield from walk(child)
