"""Views read their input only through ``smart_docgemma/inputs.py``.

Every module of the package is walked (views, request hooks, error pages, logging): importing
Flask's ``request`` (``from flask import request``, ``flask.request``) or touching a name
``request`` that came from Flask is a failure naming the module and line. ``inputs.py`` is the
one module allowed to, so that malformed input becomes a clear 4xx in one place.
"""
from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "smart_docgemma"
ALLOWED = {PACKAGE / "inputs.py"}


def flask_request_uses(path: Path) -> list[str]:
    """Lines of ``path`` that import Flask's ``request`` or read ``request.…`` after importing it."""
    tree = ast.parse(path.read_text())
    found, imported = [], False
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "flask":
            if any(alias.name in ("request", "*") for alias in node.names):
                imported = True
                found.append(f"{node.lineno}: from {node.module} import request")
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            if node.value.id == "flask" and node.attr == "request":
                found.append(f"{node.lineno}: flask.request")
    if imported:
        found += [f"{node.lineno}: request.{node.attr}" for node in ast.walk(tree)
                  if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                  and node.value.id == "request"]
    return found


def test_only_inputs_reads_flasks_request():
    offenders = {str(path.relative_to(PACKAGE)): uses for path in sorted(PACKAGE.rglob("*.py"))
                 if path not in ALLOWED and (uses := flask_request_uses(path))}
    assert offenders == {}, "read the request through smart_docgemma/inputs.py instead"


def test_the_walk_finds_a_view_that_reads_the_request_itself(tmp_path):
    view = tmp_path / "view.py"
    view.write_text("from flask import Blueprint, request\n\n\ndef ask():\n"
                    "    return request.form.get('message')\n")
    assert flask_request_uses(view) == ["1: from flask import request", "5: request.form"]
    other = tmp_path / "other.py"  # a parameter called request (e.g. an HTTP adapter's) is not Flask's
    other.write_text("def send(request):\n    return request.url\n")
    assert flask_request_uses(other) == []
    assert flask_request_uses(PACKAGE / "inputs.py")  # the walk does see the one allowed module
