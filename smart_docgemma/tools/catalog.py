"""Labels and descriptions of the tools, loaded from ``catalog.yaml`` (data, not code)."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import yaml


@lru_cache(maxsize=1)
def catalog() -> dict[str, dict[str, str]]:
    """``{tool_name: {"label": …, "description": …}}`` from the YAML file."""
    return yaml.safe_load((Path(__file__).with_name("catalog.yaml")).read_text())


def label(name: str) -> str:
    return catalog()[name]["label"]


def description(name: str) -> str:
    return catalog()[name]["description"]
