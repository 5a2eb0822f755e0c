"""The tool registry: every tool the agent may call, and which of them a session gets.

Each tool module exposes ``TOOLS: list[Tool]`` (name, clinical label, full
description, argument schema, kind, needed SMART scopes). ``tools_for`` keeps
only the tools whose scopes were granted: for the agent and the model, a
tool the EHR did not authorise does not exist (no prompt mentions it, no
call can reach it). Tools with no FHIR scopes (knowledge sources, imaging)
are always present.
"""
from __future__ import annotations

from ..smart.scopes import GrantedScopes
from .base import Tool
from .chart import chart, patients
from .sources import drugs, imaging, literature, trials
from .writes import (
    caregaps,
    dose_change,
    drafting,
    orders,
    periop,
    plans,
    protocols,
    reconciliation,
    stop,
    switch,
    ward_orders,
)

_MODULES = (
    patients,
    chart,
    drugs,
    literature,
    trials,
    imaging,
    orders,
    ward_orders,
    protocols,
    caregaps,
    plans,
    reconciliation,
    switch,
    dose_change,
    stop,
    periop,
    drafting,
)


def all_tools() -> list[Tool]:
    """Every registered tool, in catalog order (reads first, writes last)."""
    return [tool for module in _MODULES for tool in module.TOOLS]


def tools_for(scopes: GrantedScopes | None) -> dict[str, Tool]:
    """``{name: Tool}`` for the tools whose SMART scopes were all granted."""
    return {tool.name: tool for tool in all_tools() if tool.granted(scopes)}
