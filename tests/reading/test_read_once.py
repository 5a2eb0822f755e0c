"""A message's words for tests, priority, time, dose, chart focus and window are read in one
place: the reading floor (``reading/``) with the agent's half of it (``agent/extraction.py``),
through the tools' own word tables. This scans every module's calls (its syntax tree, no
import) and fails when a module elsewhere calls one of those readers, so a second parse of the
message cannot come back unseen.

The tools (``tools/``) may call their own tables: a tool's text argument (a model's or an MCP
client's "basic metabolic panel, stat") is resolved where the tool stands, below the reading.
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "smart_docgemma"

# the readers of a message's words, by the module that defines them
READERS = {
    "smart_docgemma.tools.words.ward_words": {
        "lab_tests", "specialties", "readings", "priority", "says_any", "referral_reason",
        "referral_note"},
    "smart_docgemma.tools.words.when": {"starts"},
    "smart_docgemma.tools.words.windows": {"asked"},
    "smart_docgemma.tools.chart.answers": {"chart_focus", "focus_of"},
    "smart_docgemma.knowledge": {"read_weight_dose"},
    "smart_docgemma.knowledge.weight_dose": {"read_weight_dose"},
    "smart_docgemma.reading.ward": {"read_ward", "when_words"},
    "smart_docgemma.agent.extraction": {
        "find_dose", "extract", "read", "read_words", "note_text", "note_type", "topic"},
}

# folders where reading is the job: the reader, the tables it reads with, their definitions
READING_FLOORS = ("reading", "tools", "knowledge")

# the calls allowed elsewhere, each with its reason
ALLOWED = {
    # the agent's half of the reader: ``read`` is the one entry, ``extract`` its words
    ("agent/extraction.py", "*"): "the reader's agent half",
    # INPUT_ASSEMBLY: the turn's one reading (and the re-drafted card's words)
    ("agent/nodes.py", "read"): "the turn's one reading",
    # a turn made without INPUT_ASSEMBLY (a test's, one stored before the request) is read once
    ("agent/planning.py", "read"): "a turn that has no request yet",
    # the same, for a caller of these helpers without the turn's reading
    ("agent/ward_requests.py", "read_ward"): "a caller without the turn's reading",
    ("agent/ward_requests.py", "asked"): "a caller without the turn's reading",
    ("agent/draft_requests.py", "read_ward"): "a turn that has no request yet",
    ("agent/clarification.py", "extract"): "a caller without the turn's reading",
}


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _absolute(node: ast.ImportFrom, path: Path) -> str:
    if not node.level:
        return node.module or ""
    package = _module(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    base = package[: len(package) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def _reader_names(tree: ast.Module, path: Path) -> tuple[dict[str, str], dict[str, str]]:
    """Local names bound to a reader function, and local names bound to a reader module."""
    functions, modules = {}, {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom):
            continue
        source = _absolute(node, path)
        for alias in node.names:
            local = alias.asname or alias.name
            if alias.name in READERS.get(source, ()):
                functions[local] = alias.name
            elif f"{source}.{alias.name}" in READERS:
                modules[local] = f"{source}.{alias.name}"
    return functions, modules


def calls_of_readers(path: Path, text: str | None = None) -> list[tuple[str, int]]:
    """(reader, line) of every call of a reader in the module at ``path`` (``text``: its
    source, when not the file's)."""
    tree = ast.parse(text if text is not None else path.read_text(encoding="utf-8"))
    functions, modules = _reader_names(tree, path)
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Name) and func.id in functions:
            found.append((functions[func.id], node.lineno))
        elif (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
              and func.attr in READERS.get(modules.get(func.value.id, ""), ())):
            found.append((func.attr, node.lineno))
    return found


def test_no_module_outside_the_reading_reads_the_messages_words_again():
    stray = []
    for path in sorted(ROOT.rglob("*.py")):
        where = path.relative_to(ROOT).as_posix()
        if where.split("/")[0] in READING_FLOORS:
            continue
        for reader, line in calls_of_readers(path):
            if (where, "*") not in ALLOWED and (where, reader) not in ALLOWED:
                stray.append(f"{where}:{line} calls {reader}")
    assert stray == []


def test_the_scan_sees_a_second_parse():
    """The scan is not blind: the agent's planning module, as it read the tests and the chart
    focus of the message before the request, is caught."""
    before = ("from ..tools.words import ward_words\nfrom ..tools.chart.answers import focus_of\n"
              "def f(state):\n"
              "    return ward_words.lab_tests(state.message), focus_of(state.message)\n")
    found = calls_of_readers(ROOT / "agent" / "planning.py", before)
    assert sorted(r for r, _ in found) == ["focus_of", "lab_tests"]
