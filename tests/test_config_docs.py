"""The operator's page names every setting ``config.py`` defines, so a key added
by a feature cannot ship undocumented."""
from __future__ import annotations

from pathlib import Path

from smart_docgemma import config

TABLE = Path(__file__).resolve().parents[1] / "docs" / "operations.md"


def test_every_setting_is_in_the_configuration_table():
    text = TABLE.read_text(encoding="utf-8")  # the table, and the embedded model's own section
    missing = [key for key in config.DEFAULTS if key not in text]
    assert missing == []
