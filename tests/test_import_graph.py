"""The import graph of ``smart_docgemma`` and ``launch``: no cycle, and no module imports from a
floor above its own.

Every ``import`` and ``from … import`` counts, at module level or inside a function (a
function-level import that dodges a cycle is still the cycle). Importing ``a.b.c`` runs the
``__init__`` of ``a.b`` first, so that package counts as imported too (unless the importer is
inside it), and a name a package ``__init__`` re-exports leads to the module that defines it.
The floors are documented in docs/architecture.md ("Layers"); each folder stands on one floor,
and ``FLOORS`` names each folder once.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("smart_docgemma", "launch")

# Top to bottom, one folder a line. A module may import from its own floor and any floor below.
# "smart_docgemma" is the folder's flat modules (the shared base); the package itself
# (``create_app``) is an entry point, and every ``__main__`` stands with the console scripts.
FLOORS: list[tuple[str, tuple[str, ...]]] = [
    ("console scripts", (
        "smart_docgemma/cli",          # docgemma, docgemma-sandbox, docgemma-eval, …: they call below
    )),
    ("entry points", (
        "smart_docgemma/__init__.py",  # create_app
        "smart_docgemma/evaluation",   # the labelled cases, run through create_app, and their scoring
        "smart_docgemma/evaluation/multistep",  # the multi-step tasks, through the agent
        "smart_docgemma/evaluation/reading",  # the reading sets' builders (matrix, probe2)
        "launch",                      # the checkout's sandbox start-up, HAPI, fixtures, Synthea
    )),
    ("model server", (
        "smart_docgemma/modelserver",  # the embedded llama.cpp server: a program of its own
    )),
    ("surfaces", (
        "smart_docgemma/web",          # the clinician's page, the SMART launch blueprint
        "smart_docgemma/cds",          # CDS Hooks over HTTP
        "smart_docgemma/mcpserver",    # the tools over MCP
        "smart_docgemma/admin",        # the operator's audit page
        "launch/sandbox",              # the EHR sandbox's own HTTP app
    )),
    ("session", (
        "smart_docgemma/session",      # the launch behind a browser session
    )),
    ("turn records", (
        "smart_docgemma/lessons",      # ratings and the experience library's harvest
        "smart_docgemma/turns",        # the turn store
    )),
    ("agent", (
        "smart_docgemma/agent",
        "smart_docgemma/grounding",    # the answer checked against its sources
    )),
    ("reading", (
        "smart_docgemma/reading",      # a clinician's message read once: who it is about
    )),
    ("approval", (
        "smart_docgemma/proposals",    # the approval lifecycle: store, editing, description
    )),
    ("tools", (
        "smart_docgemma/tools",          # the contract, the catalog, the registry
        "smart_docgemma/tools/chart",    # chart reads into ChartData, chart answers
        "smart_docgemma/tools/sources",  # public knowledge sources over one HTTP client
        "smart_docgemma/tools/writes",   # the write tools: proposals drafted, never written
        "smart_docgemma/tools/words",    # the clinician's words read by code
    )),
    ("shared records", (
        "smart_docgemma/approval",     # the proposal's and its card's types
        "smart_docgemma/audit",        # the audit trail
    )),
    ("clinical checks", (
        "smart_docgemma/checks",       # the one patient-safety check and the CDS rule engine
    )),
    ("clinical facts", (
        "smart_docgemma/knowledge",
    )),
    ("base", (
        "smart_docgemma",              # config, errors, extensions, storage, fhir, inputs, logs, …
        "smart_docgemma/smart",        # SMART App Launch protocol and scopes
        "smart_docgemma/languages",    # the answer language, wording, order frequencies
        "smart_docgemma/translations",
    )),
]


def modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "hapi" in path.relative_to(ROOT).parts:
                continue
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _exports(path: Path, name: str, known: dict[str, Path]) -> dict[str, str]:
    """What a package ``__init__`` re-exports: name -> the module it imports it from."""
    out = {}
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
            source = f"{name}.{node.module}"
            if source in known:
                out.update({alias.asname or alias.name: source for alias in node.names})
    return out


def _absolute(node: ast.ImportFrom, package: list[str]) -> str:
    """The module a ``from … import`` names, absolute (``package`` is the importer's)."""
    if not node.level:
        return node.module or ""
    return ".".join(package[:len(package) - node.level + 1] + ([node.module] if node.module else []))


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The modules ``name`` imports: a name imported from a package that is itself a module
    counts as that module, a name a package re-exports as its source, and every package whose
    ``__init__`` the import runs (those above the importer's own excepted)."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] in PACKAGES}
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node, package)
            if base.split(".")[0] not in PACKAGES:
                continue
            exports = (_exports(known[base], base, known)
                       if base in known and known[base].name == "__init__.py" else {})
            for alias in node.names:
                target = f"{base}.{alias.name}"
                found.add(target if target in known else exports.get(alias.name, base))
    for target in list(found):
        parts = target.split(".")
        found |= {".".join(parts[:i]) for i in range(2, len(parts))  # not the top package: its
                  # __init__ imports only the base at module level (create_app the rest, when called)
                  if ".".join(parts[:i]) in known and not name.startswith(".".join(parts[:i]) + ".")}
    found.discard(name)
    return found


def folder(name: str, known: dict[str, Path]) -> str:
    path = known[name].relative_to(ROOT)
    if path.as_posix() == "smart_docgemma/__init__.py":
        return path.as_posix()
    return path.parent.as_posix()


def floor(name: str, known: dict[str, Path]) -> int:
    if name.endswith(".__main__"):
        return 0  # ``python -m …``: an entry point wherever it stands
    where = folder(name, known)
    for index, (_, folders) in enumerate(FLOORS):
        if where in folders:
            return index
    raise AssertionError(f"{name} ({where}) is on no floor: add its folder to FLOORS and docs/architecture.md")


@pytest.fixture(scope="module")
def known() -> dict[str, Path]:
    return modules()


@pytest.fixture(scope="module")
def graph(known) -> dict[str, set[str]]:
    return {name: imports(name, path, known) for name, path in known.items()}


def test_no_module_imports_from_a_floor_above(graph, known):
    def label(name: str) -> str:
        return FLOORS[floor(name, known)][0]

    upward = sorted(f"{name} ({label(name)}) imports {target} ({label(target)})"
                    for name, targets in graph.items() for target in targets
                    if floor(target, known) < floor(name, known))
    assert upward == []


def test_no_import_cycle(graph):
    assert _cycles(graph) == []


def test_every_folder_is_named_once():
    named = [f for _, folders in FLOORS for f in folders]
    assert len(named) == len(set(named))
    on_disk = {p.parent.relative_to(ROOT).as_posix() for package in PACKAGES
               for p in (ROOT / package).rglob("__init__.py") if "hapi" not in p.parts}
    assert on_disk <= set(named) | {"smart_docgemma"}


def test_no_surface_imports_another(graph, known):
    surfaces = set(dict(FLOORS)["surfaces"])
    across = sorted(f"{name} imports {target}" for name, targets in graph.items() for target in targets
                    if folder(name, known) in surfaces and folder(target, known) in surfaces
                    and folder(name, known) != folder(target, known))
    assert across == []


def test_the_check_counts_function_level_imports_packages_and_reexports(tmp_path):
    (tmp_path / "pkg").mkdir()
    init = tmp_path / "pkg" / "__init__.py"
    init.write_text("from .graph import Agent\n")
    graph_module = tmp_path / "pkg" / "graph.py"
    graph_module.write_text("")
    path = tmp_path / "nodes.py"
    path.write_text("def later():\n    from ..web import chat\n")
    fake = {"smart_docgemma.web.chat": path, "smart_docgemma.web": init}
    # a function-level import counts, and importing web.chat runs web's __init__
    assert imports("smart_docgemma.agent.nodes", path, fake) == {"smart_docgemma.web.chat", "smart_docgemma.web"}
    # a name re-exported by a package __init__ leads to the module that defines it
    reexport = {"smart_docgemma.agent": init, "smart_docgemma.agent.graph": graph_module}
    path.write_text("from smart_docgemma.agent import Agent\n")
    assert imports("smart_docgemma.web.chat", path, reexport) == {"smart_docgemma.agent.graph",
                                                                   "smart_docgemma.agent"}
    known = modules()
    assert floor("smart_docgemma.web.chat", known) < floor("smart_docgemma.agent.graph", known)
    assert floor("smart_docgemma.session.launches", known) < floor("smart_docgemma.smart.protocol", known)
    assert floor("smart_docgemma.cli.server", known) == 0 < floor("smart_docgemma", known)
    assert floor("smart_docgemma.evaluation.__main__", known) == 0  # ``python -m``: an entry point
    with pytest.raises(AssertionError, match="on no floor"):
        floor("smart_docgemma.newpackage.module", {"smart_docgemma.newpackage.module":
                                                   ROOT / "smart_docgemma" / "newpackage" / "module.py"})
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


def test_readme_and_the_architecture_page_name_every_package_folder():
    """README's folder table and docs/architecture.md's map name each folder of the package that
    holds Python modules, and no folder that is not there."""
    folders = {p.parent.relative_to(ROOT / "smart_docgemma").as_posix()
               for p in (ROOT / "smart_docgemma").rglob("*.py")} - {"."}
    folders = {f.split("/")[0] for f in folders}
    readme = (ROOT / "README.md").read_text()
    table = readme[readme.index("| folder (`smart_docgemma/`) | holds |"):]
    table = table[:table.index("\n\n")]
    named = set(re.findall(r"`([a-z_]+)/`", table)) - {"smart_docgemma"}
    assert named == folders
    page = (ROOT / "docs" / "architecture.md").read_text()
    tree = page[page.index("```\nsmart_docgemma/\n"):page.index("### Layers")]
    mapped = set(re.findall(r"^  ([a-z_]+)/ ", tree, re.M)) - {"templates"}  # pages, no modules
    assert mapped == folders


def test_the_architecture_pages_layers_table_is_floors():
    """docs/architecture.md's "Layers" table lists the floors of ``FLOORS``, in order, each with
    its folders."""
    page = (ROOT / "docs" / "architecture.md").read_text()
    table = page[page.index("| floor | folders |"):]
    rows = [line.split("|")[1:3] for line in table.split("\n\n")[0].splitlines()[2:]]
    documented = [(name.strip(), set(re.findall(r"`([a-z_/]+)/`", folders))) for name, folders in rows]
    expected = [(name, {f.removeprefix("smart_docgemma/") for f in folders} - {"smart_docgemma", "__init__.py"})
                for name, folders in FLOORS]
    assert documented == expected


def _underscored_reaches(name: str, path: Path, known: dict[str, Path]) -> list[str]:
    """Where ``name`` takes another module's underscored name: ``from m import _x`` or ``m._x``
    on a name bound to one of the package's modules (a dunder such as ``__version__`` is public)."""
    def private(attr: str) -> bool:
        return attr.startswith("_") and not attr.startswith("__")

    tree = ast.parse(path.read_text())
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    bound: set[str] = set()  # local names of the package's modules
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = _absolute(node, package)
            if base.split(".")[0] not in PACKAGES:
                continue
            for alias in node.names:
                if private(alias.name):
                    found.append(f"{name}:{node.lineno} imports {base}.{alias.name}")
                elif f"{base}.{alias.name}" in known:
                    bound.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            bound |= {a.asname for a in node.names if a.asname and a.name.split(".")[0] in PACKAGES}
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and private(node.attr)
                and isinstance(node.value, ast.Name) and node.value.id in bound):
            found.append(f"{name}:{node.lineno} reaches {node.value.id}.{node.attr}")
    return found


def test_no_module_takes_another_modules_underscored_name(known):
    """A name with a leading underscore is its module's own: what another module needs is made
    public where it is defined (``tools/writes/draft.py``: ``propose``, ``refuse``, …)."""
    reached = sorted(r for name, path in known.items()
                     for r in _underscored_reaches(name, path, known))
    assert reached == []


def test_the_underscore_check_sees_both_forms(tmp_path):
    path = tmp_path / "editing.py"
    path.write_text("from ..tools.writes import orders\nfrom .store import _claim, Store\n"
                    "def f():\n    return orders._substance('x'), orders.public\n")
    fake = {"smart_docgemma.proposals.editing": path, "smart_docgemma.tools.writes.orders": path,
            "smart_docgemma.proposals.store": path}
    assert _underscored_reaches("smart_docgemma.proposals.editing", path, fake) == [
        "smart_docgemma.proposals.editing:2 imports smart_docgemma.proposals.store._claim",
        "smart_docgemma.proposals.editing:4 reaches orders._substance"]


def _blueprint(path: Path) -> bool:
    """Does the module define a Flask blueprint (``bp = Blueprint(...)`` at module level)?"""
    return any(isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
               and getattr(node.value.func, "id", None) == "Blueprint"
               for node in ast.parse(path.read_text()).body)


def test_no_blueprint_imports_another(graph, known):
    """A blueprint's views share code through modules that are not blueprints (the turn worker,
    the relay, the turn's view), never through another blueprint."""
    blueprints = {name for name, path in known.items()
                  if name.startswith("smart_docgemma.") and _blueprint(path)}
    assert {"smart_docgemma.web.chat", "smart_docgemma.web.followups",
            "smart_docgemma.web.proposals"} <= blueprints
    across = sorted(f"{name} imports {target}" for name in blueprints
                    for target in graph[name] & blueprints)
    assert across == []
