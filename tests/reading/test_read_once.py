"""A message's words for tests, priority, time, dose, chart focus and window are read in one
place: the reading floor (``reading/``) with the agent's half of it (``agent/extraction.py``),
through the tools' own word tables. This scans every module's calls (its syntax tree, no
import) and fails when a module elsewhere calls one of those readers, so a second parse of the
message cannot come back unseen.

The tools (``tools/``) stand below the reading: a tool's text argument (a model's or an MCP
client's "basic metabolic panel, stat") is read where the tool stands, by one module
(``tools/words/arguments.py``), so the agent and an MCP client get the same reading of it; a
second scan fails when a tool module (or the MCP server) calls a word reader of the tables
itself.
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
    # the message's several requests, read by ``extraction.read`` in the same one reading
    ("agent/several_asks.py", "*"): "the reader's agent half, called by extraction.read",
    # INPUT_ASSEMBLY: the turn's one reading (and the re-drafted card's words)
    ("agent/nodes.py", "read"): "the turn's one reading",
    # a turn made without INPUT_ASSEMBLY (a test's, one stored before the request) is read once
    ("agent/planning.py", "read"): "a turn that has no request yet",
    # the same, for a caller of these helpers without the turn's reading
    ("agent/ward_requests.py", "read_ward"): "a caller without the turn's reading",
    ("agent/ward_requests.py", "asked"): "a caller without the turn's reading",
    ("agent/draft_requests.py", "read_ward"): "a turn that has no request yet",
    ("agent/clarification.py", "extract"): "a caller without the turn's reading",
    # the test the clinician's last message asked about ("her K?" before "recheck it"): history
    ("agent/clarification.py", "focus_of"): "the last message's chart question, from history",
    # ... and its tests, when it asked several ("creat and K?" before "recheck both tomorrow")
    ("agent/clarification.py", "lab_tests"): "the last message's tests, from history",
    # a drug follow-up ("max per day?"): the drug of the last message, from history, and the
    # drugs a source's own advice names (text of the knowledge, not of the message)
    ("agent/drug_follow_ups.py", "extract"): "the last message's drug, and a source's advice",
    # the evaluation harness places a calendar case's results by the window its query asks (the
    # case's own words, read to set up the chart before the turn; never the turn's reading)
    ("evaluation/ward_run.py", "asked"): "the harness's setup of a case's chart",
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


# the readers of a tool's text argument, called only by ``tools/words/arguments.py``
TEXT_READERS = {
    "smart_docgemma.tools.words.ward_words": {
        "lab_tests", "specialties", "readings", "priority", "says_any", "referral_reason",
        "referral_note"},
    "smart_docgemma.tools.words.when": {"starts", "clock_said"},
}
# where the tools' text arguments are read: every tool module but the word readers themselves
TOOL_FLOORS = ("tools/writes", "tools/sources", "tools/chart", "mcpserver")


def _reader_names(tree: ast.Module, path: Path,
                  readers: dict[str, set[str]]) -> tuple[dict[str, str], dict[str, str]]:
    """Local names bound to a reader function, and local names bound to a reader module."""
    functions, modules = {}, {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom):
            continue
        source = _absolute(node, path)
        for alias in node.names:
            local = alias.asname or alias.name
            if alias.name in readers.get(source, ()):
                functions[local] = alias.name
            elif f"{source}.{alias.name}" in readers:
                modules[local] = f"{source}.{alias.name}"
    return functions, modules


def calls_of_readers(path: Path, text: str | None = None,
                     readers: dict[str, set[str]] = READERS) -> list[tuple[str, int]]:
    """(reader, line) of every call of one of ``readers`` in the module at ``path`` (``text``:
    its source, when not the file's)."""
    tree = ast.parse(text if text is not None else path.read_text(encoding="utf-8"))
    functions, modules = _reader_names(tree, path, readers)
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Name) and func.id in functions:
            found.append((functions[func.id], node.lineno))
        elif (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
              and func.attr in readers.get(modules.get(func.value.id, ""), ())):
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


def test_no_tool_reads_its_text_arguments_but_through_one_reader():
    """A lab order's tests and priority, a referral's specialty, a vital sign's readings: each
    tool reads its text arguments through ``tools/words/arguments.py``, never a word reader."""
    stray = []
    for path in sorted(ROOT.rglob("*.py")):
        where = path.relative_to(ROOT).as_posix()
        if where.startswith(TOOL_FLOORS):
            stray += [f"{where}:{line} calls {reader}"
                      for reader, line in calls_of_readers(path, readers=TEXT_READERS)]
    assert stray == []


def test_the_tool_scan_sees_a_tool_reading_its_own_text():
    """The scan is not blind: the lab order tool as it read its test argument before is
    caught."""
    before = ("from ..words import ward_words\n"
              "def run_order_lab(args, ctx):\n"
              "    return ward_words.lab_tests(args.test), ward_words.priority(args.when)\n")
    found = calls_of_readers(ROOT / "tools" / "writes" / "ward_orders.py", before, TEXT_READERS)
    assert sorted(r for r, _ in found) == ["lab_tests", "priority"]
