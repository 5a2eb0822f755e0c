"""Agent test helpers: a scripted model server over real HTTP, fake tools
(the agent's own unit tests only: everywhere else tools are real), a tool context."""
from __future__ import annotations

import pytest
from smart_docgemma.agent.graph import Agent
from smart_docgemma.agent.model import ModelClient
from smart_docgemma.tools import catalog
from smart_docgemma.tools.base import Source, Tool, ToolContext, ToolResult

from tests.support.model_server import ScriptedModelServer

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 64


@pytest.fixture
def srv():
    with ScriptedModelServer() as server:
        yield server


def client_for(srv_or_url, **kw) -> ModelClient:
    url = srv_or_url if isinstance(srv_or_url, str) else srv_or_url.url
    opts = {"dialect": "json_schema", "timeout": 2, "retries": 1} | kw
    return ModelClient(url, model="google/medgemma-1.5-4b-it", **opts)


class FakeTool:
    """A tool whose results are scripted; records every call's arguments."""

    def __init__(self, name: str, *results, run=None):
        self.name, self.results, self.calls, self._run = name, list(results), [], run

    def __call__(self, args, ctx):
        self.calls.append(args.model_dump(exclude_none=True))
        if self._run:
            return self._run(args, ctx)
        item = self.results.pop(0) if len(self.results) > 1 else self.results[0]
        if isinstance(item, Exception):
            raise item
        return item

    def tool(self) -> Tool:
        return Tool(catalog.spec(self.name), run=self)


def ok(text: str, count: int | None = 1, **data) -> ToolResult:
    return ToolResult(status="ok", text=text, count=count, data=data,
                      sources=[Source("openFDA drug label", "https://api.fda.gov/drug/label.json")])


def make_agent(model, *fakes: FakeTool, **kw) -> Agent:
    ctx = ToolContext(patient_id="pat-launch", scopes=None)
    return Agent(model, {f.name: f.tool() for f in fakes}, ctx, **kw)


def script_trials_turn(srv) -> None:
    """A model that picks the trials tool for glioblastoma in two stages and answers in one line."""
    srv.script("IntentClassification", {"intent": "TOOL_NEEDED", "task_summary": "Trials for GBM",
                                        "suggested_tool": "find_clinical_trials"})
    srv.script("ToolSelection", {"tool_name": "find_clinical_trials"})
    srv.script("ClinicalTrialsArgs", {"condition": "glioblastoma", "status": "recruiting"})
    srv.script("ResultAssessment", {"quality": "success_rich", "brief_summary": "Three trials."})
    srv.say("Three recruiting glioblastoma trials were found.")
