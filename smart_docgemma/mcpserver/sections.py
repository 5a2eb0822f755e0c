"""The chart's sections as MCP tools: labs (with vitals), medications, allergies, problems.

MCP-only catalogue entries (``surfaces: [mcp]``) over the agent's chart tool: each runs
``get_patient_chart``'s own code (the same patient-context refusal, the same reads under the
grant's scopes) and keeps one section of its result — the section's text as the chart states
it (``NOT AVAILABLE`` when it could not be read), its structured data and its FHIR sources.
"""

from __future__ import annotations

from dataclasses import asdict

from ..tools import catalog
from ..tools.args import PatientChartArgs
from ..tools.base import Tool, ToolContext, ToolResult
from ..tools.chart.chart import run_chart, section_text
from ..tools.chart.chartdata import ChartData, Section

# tool name -> (chart sections, their keys in the chart data, the FHIR type of their sources)
SECTIONS: dict[str, tuple[tuple[str, ...], tuple[Section, ...], str]] = {
    "get_patient_labs": (("labs", "vitals"), ("labs", "vitals"), "Observation"),
    "get_patient_medications": (("medications",), ("medications",), "MedicationRequest"),
    "get_patient_allergies": (("allergies",), ("allergies",), "AllergyIntolerance"),
    "get_patient_problems": (("conditions",), ("problems",), "Condition"),
}


def section(name: str):
    """The run function of the section tool ``name``."""
    sections, keys, rtype = SECTIONS[name]

    def run(args: PatientChartArgs, ctx: ToolContext) -> ToolResult:
        whole = run_chart(args, ctx)
        if whole.status != "ok" or not isinstance(whole.data, ChartData):
            return whole
        d = whole.data
        kept = d.sections_json(keys)
        count = sum(len(entries) for entries in kept.values())
        data = {
            "patient": asdict(d.patient),
            **kept,
            "unavailable": {k: why for k, why in d.unavailable.items() if k in sections},
        }
        sources = [s for s in whole.sources if f"/{rtype}/" in s.url or "/Patient/" in s.url]
        return ToolResult(
            status="ok" if count else "empty",
            text=section_text(d, sections),
            data=data,
            sources=sources,
            count=count,
        )

    return run


TOOLS: list[Tool] = [Tool(catalog.spec(name), section(name)) for name in SECTIONS]
