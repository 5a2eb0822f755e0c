"""The vocabularies' word lists hold words only: an unquoted ``no``, ``on``, ``off`` or ``yes`` in a
YAML flow list is read as true/false (YAML 1.1), and the word silently drops out of its list
(Portuguese "no", French "on" were lost from the lists that held them)."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

PACKAGE = Path(__file__).resolve().parents[1] / "smart_docgemma"
FILES = sorted(p for p in PACKAGE.rglob("*.yaml") if "evaluation" not in p.parts)


def _booleans_in_lists(node: object, where: str = "") -> list[str]:
    if isinstance(node, dict):
        return [b for k, v in node.items() for b in _booleans_in_lists(v, f"{where}/{k}")]
    if isinstance(node, list):
        found = [f"{where}: {v}" for v in node if isinstance(v, bool)]
        return found + [b for v in node for b in _booleans_in_lists(v, where)]
    return []


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_word_list_holds_a_boolean(path):
    found = _booleans_in_lists(yaml.safe_load(path.read_text(encoding="utf-8")))
    assert not found, f"quote these words: {found}"


def test_the_check_finds_an_unquoted_no():
    assert _booleans_in_lists(yaml.safe_load("articles: [o, a, no, na]")) == ["/articles: False"]
