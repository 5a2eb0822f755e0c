"""The tool catalog: one ``ToolSpec`` per tool, from ``catalog.yaml`` (data, not code).

Everything that reads a tool's identity — the registry, the agent's prompts,
planning and synthesis, the evaluation — reads it here.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from ..datafiles import safe_yaml
from . import args
from .base import ToolSpec


@lru_cache(maxsize=1)
def _entries() -> dict[str, ToolSpec]:
    """Every catalog entry, whoever it is offered to."""
    data = safe_yaml(Path(__file__).with_name("catalog.yaml").read_text(encoding="utf-8"))
    return {name: ToolSpec(name=name, label=d["label"], description=d["description"],
                           args_model=getattr(args, d["args"]), kind=d["kind"],
                           scopes=tuple((rtype, inter) for rtype, inter in d["scopes"]),
                           order=int(d["order"]), brief=bool(d["brief"]),
                           surfaces=tuple(d.get("surfaces", ("agent", "mcp"))))
            for name, d in data.items()}


@lru_cache(maxsize=2)
def specs(surface: str = "agent") -> dict[str, ToolSpec]:
    """``{name: ToolSpec}`` for every tool offered on ``surface`` (the agent unless said), in
    catalog order. An entry with ``surfaces: [mcp]`` is an MCP tool the agent never sees."""
    return {name: s for name, s in _entries().items() if surface in s.surfaces}


def spec(name: str) -> ToolSpec:
    """One tool's spec, on any surface (KeyError when there is no such tool)."""
    return _entries()[name]


@lru_cache(maxsize=1)
def running_order() -> tuple[str, ...]:
    """Every tool name, in the order tools run when a question needs several."""
    return tuple(sorted(specs(), key=lambda name: specs()[name].order))
