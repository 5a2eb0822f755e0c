"""The package's import graph: no cycle, and no module imports from a floor above its own.

Every ``import`` and ``from … import`` in ``smart_docgemma`` counts, at module level or
inside a function (a function-level import that dodges a cycle is still the cycle).
The floors are documented in docs/architecture.md ("Layers"); a module belongs to the
floor of its longest matching prefix in ``FLOORS``.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "smart_docgemma"

# Top to bottom. A module may import from its own floor and any floor below it.
FLOORS: list[tuple[str, tuple[str, ...]]] = [
    ("entry points", ("smart_docgemma", "smart_docgemma.server", "smart_docgemma.evaluation",
                      "smart_docgemma.lessons.cli", "smart_docgemma.mcpserver.stdio",
                      "smart_docgemma.checkout", "smart_docgemma.offline_pack",
                      "smart_docgemma.audit.cli")),
    ("surfaces", ("smart_docgemma.web", "smart_docgemma.cds", "smart_docgemma.mcpserver",
                  "smart_docgemma.smart.views", "smart_docgemma.audit.views")),
    # the launch session, and the experience library's store, which reads stored turns (agent.state)
    ("session", ("smart_docgemma.smart.sessions", "smart_docgemma.lessons.store")),
    ("agent", ("smart_docgemma.agent", "smart_docgemma.grounding")),
    ("actions", ("smart_docgemma.tools", "smart_docgemma.proposals", "smart_docgemma.lessons",
                 "smart_docgemma.audit",
                 # the one patient-safety check and the CDS rule modules it shares with the hooks
                 "smart_docgemma.safety", "smart_docgemma.cds.rules", "smart_docgemma.cds.findings",
                 "smart_docgemma.cds.chart", "smart_docgemma.cds.monitoring", "smart_docgemma.cds.context",
                 "smart_docgemma.cds.quiet", "smart_docgemma.cds.cards")),
    ("clinical facts", ("smart_docgemma.knowledge",)),
    ("base", ("smart_docgemma.config", "smart_docgemma.errors", "smart_docgemma.inputs",
              "smart_docgemma.storage", "smart_docgemma.fhir", "smart_docgemma.extensions",
              "smart_docgemma.logs", "smart_docgemma.metrics", "smart_docgemma.smart",
              "smart_docgemma.languages", "smart_docgemma.frequency", "smart_docgemma.wording",
              "smart_docgemma.translations", "smart_docgemma.alarms")),
]


def modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The package modules ``name`` imports (a name imported from a package that is itself a
    module counts as that module)."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("smart_docgemma")}
        elif isinstance(node, ast.ImportFrom):
            base = (".".join(package[:len(package) - node.level + 1] + ([node.module] if node.module else []))
                    if node.level else node.module or "")
            if not base.startswith("smart_docgemma"):
                continue
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base)
    found.discard(name)
    return found


def floor(name: str) -> int:
    best, level = -1, None
    for index, (_, prefixes) in enumerate(FLOORS):
        for prefix in prefixes:
            inside = name.startswith(prefix + ".") and prefix != "smart_docgemma"  # the root: itself only
            if (name == prefix or inside) and len(prefix) > best:
                best, level = len(prefix), index
    assert level is not None, f"{name} is on no floor: add it to FLOORS and docs/architecture.md"
    return level


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports(name, path, known) for name, path in known.items()}


def test_no_module_imports_from_a_floor_above(graph):
    upward = sorted(f"{name} ({FLOORS[floor(name)][0]}) imports {target} ({FLOORS[floor(target)][0]})"
                    for name, targets in graph.items() for target in targets if floor(target) < floor(name))
    assert upward == []


def test_no_import_cycle(graph):
    assert _cycles(graph) == []


def test_the_check_counts_function_level_imports_and_finds_cycles(tmp_path):
    path = tmp_path / "graph.py"
    path.write_text("def later():\n    from ..web import chat\n")
    assert imports("smart_docgemma.agent.graph", path, {"smart_docgemma.web.chat": path}) == {
        "smart_docgemma.web.chat"}
    assert floor("smart_docgemma.web.chat") < floor("smart_docgemma.agent.graph")
    assert floor("smart_docgemma.smart.views") < floor("smart_docgemma.smart.sessions") < floor("smart_docgemma.smart")
    with pytest.raises(AssertionError, match="on no floor"):
        floor("smart_docgemma.newpackage.module")
    assert _cycles({"a": {"b"}, "b": {"a"}, "c": {"a"}}) == [["a", "b", "a"]]


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One path per strongly connected component of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                members = sorted(component)
                found.append([*members, members[0]])

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found
