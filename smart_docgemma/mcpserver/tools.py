"""DocGemma's tools as MCP tools, from the agent's own tool definitions (no second catalogue).

Each MCP tool is a registry tool (``tools.registry``), or a catalogue entry offered to MCP
clients only (``surfaces: [mcp]``; code in ``sections.py`` and ``drug_tools.py``): its name, title
(the clinical label), description and input schema (the pydantic argument class's JSON
schema) come from ``tools/catalog.yaml`` and ``tools/args.py``, and a call runs the tool's own
code with a ``ToolContext`` built from the verified MCP token. What the tools already enforce
for the agent holds here unchanged: the patient in context is the token's (never an argument),
another patient's chart or a patient search needs user-level scopes, a write needs the
create scope for its type and only ever becomes a proposal.

Every tool answers with one output schema (``McpToolResult``): the tool's text (the same
sentences the app shows, "could not check" statements included), its sources, the
statements of checks that did not run gathered in ``could_not_check``, and for a write the
proposal's id and the link to its approval card. ``analyze_medical_image`` is not offered:
it reads an image attached to a chat turn, which an MCP call does not have.
"""

from __future__ import annotations

import logging
from typing import Any, Literal

import mcp_types as types
from pydantic import BaseModel, Field, ValidationError

from .. import errors
from ..approval.types import ProposalSummary
from ..audit import for_mcp
from ..extensions import get_fhir_pool
from ..fhir import FhirGateway
from ..proposals.store import ProposalStore, proposal_store
from ..tools import registry
from ..tools.base import Tool, ToolContext, ToolResult
from ..tools.chart.chartdata import ChartData
from ..tools.sources.http import get_http
from . import drug_tools, sections
from .authority import Authority, McpGrant

log = logging.getLogger(__name__)
NOT_OFFERED = frozenset({"analyze_medical_image"})


class SourceOut(BaseModel):
    label: str
    url: str


class McpToolResult(BaseModel):
    """What every DocGemma MCP tool returns (its ``outputSchema``)."""

    status: Literal["ok", "empty", "error", "proposal", "ambiguous"]
    text: str = Field(description="The result as the app states it, limits and failures included")
    sources: list[SourceOut] = Field(
        default_factory=list, description="Where a clinician can check it"
    )
    could_not_check: list[str] = Field(
        default_factory=list, description="Checks that did not run: never read as 'nothing found'"
    )
    error_kind: str | None = None
    count: int | None = None
    proposal_id: str | None = None
    card_url: str | None = Field(default=None, description="Approve or reject the proposal here")
    data: dict[str, Any] = Field(default_factory=dict)


def offered(grant: McpGrant) -> list[Tool]:
    """The tools this grant may call: its SMART scopes decide, as for the agent."""
    return [t for t in [*registry.all_tools(), *sections.TOOLS, *drug_tools.TOOLS]
            if t.name not in NOT_OFFERED and t.granted(grant.scopes)]


def described(tool: Tool) -> types.Tool:
    """The MCP description of a registry tool, read from its catalog entry."""
    spec = tool.spec
    return types.Tool(
        name=spec.name,
        title=spec.label,
        description=spec.description,
        input_schema=spec.args_model.model_json_schema(),
        output_schema=McpToolResult.model_json_schema(),
        annotations=types.ToolAnnotations(
            title=spec.label,
            read_only_hint=spec.kind == "read",
            destructive_hint=False,
            open_world_hint=True,
        ),
    )


class McpProposals(ProposalStore):
    """The app's proposal store; each proposal says which MCP client made it (card, Provenance)."""

    def __init__(self, store: ProposalStore, grant: McpGrant):
        super().__init__(store.storage)
        self._grant = grant

    def create(self, *, summary: ProposalSummary, **kw: Any) -> str:
        via = {
            "kind": "mcp",
            "client": self._grant.client_label,
            "client_id": self._grant.client_id,
        }
        return super().create(summary={**summary, "via": via}, **kw)


def run(
    app,
    authority: Authority,
    token: str,
    grant: McpGrant,
    name: str,
    arguments: dict | None,
    app_url: str,
) -> McpToolResult:
    """Call one tool for ``grant``; expected failures come back as results, never raised."""
    tool = next((t for t in offered(grant) if t.name == name), None)
    if tool is None:
        return _refused(
            "forbidden",
            f"No tool {name!r} is available to this client: it does not exist "
            "or the EHR did not grant the scopes it needs.",
        )
    try:
        args = tool.args_model.model_validate(arguments or {})
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first.get("loc", ())) or "arguments"
        return _refused("invalid", f"Invalid arguments for {name}: {where}: {first.get('msg')}.")
    with app.app_context():
        try:
            ctx = _context(app, authority, token, grant)
        except errors.DocGemmaError as exc:
            if tool.spec.scopes:
                return _refused("forbidden", f"{exc.description} The chart could not be checked.")
            ctx = _context(app, None, token, grant)  # knowledge sources need no FHIR token
        try:
            result = tool.run(args, ctx)
        except Exception:  # a tool's own bug: said plainly, never a stack trace to the client
            log.exception("MCP tool %s for client %s failed", name, grant.client_id)
            return _refused("unreachable", f"{tool.spec.label} failed unexpectedly and did not "
                            "complete; nothing was checked or written.")
        try:
            _audited(ctx, name, result)
        except errors.AuditUnavailable as exc:
            return _refused("unreachable", f"{exc.description} The result is not returned.")
    log.info("MCP tool %s for client %s: %s", name, grant.client_id, result.status)
    return shaped(result, app_url)


_OUTCOME = {"forbidden": "4", "invalid": "4", "not_found": "4"}  # else an error is a failure


def _audited(ctx: ToolContext, name: str, result: ToolResult) -> None:
    """The call itself in the patient's audit trail (its FHIR reads are recorded by the
    gateway), and the proposal it made. Knowledge-only calls (no FHIR access) are not."""
    trail = getattr(ctx.fhir, "audit", None)
    if trail is None:
        return
    failed = result.status == "error"
    outcome = _OUTCOME.get(result.error_kind or "", "8") if failed else "0"
    trail.action("mcp-tool-call", outcome=outcome, description=result.text if failed else None,
                 tool=name, status=result.status, proposal=result.proposal_id)
    if result.status == "proposal" and result.proposal_id:
        trail.action("proposal-created", resources=(f"urn:docgemma:proposal:{result.proposal_id}",),
                     proposal=result.proposal_id, tool=name)


def _context(app, authority: Authority | None, token: str, grant: McpGrant) -> ToolContext:
    fhir = None
    # an MCP client's reads are audited like a session's
    if authority is not None and grant.scopes.permissions:
        fhir = FhirGateway(
            authority.fhir_base,
            authority.fhir_token(token, grant),
            timeout=app.config["HTTP_TIMEOUT_S"],
            connections=get_fhir_pool(app),
            audit=for_mcp(grant, authority.fhir_base, mcp_sid(grant), app),
        )
    return ToolContext(
        patient_id=grant.patient_id,
        scopes=grant.scopes,
        fhir=fhir,
        http=get_http(app),
        proposals=McpProposals(proposal_store(app), grant),
        sid=mcp_sid(grant),
        user=grant.user,
        config=dict(app.config),
    )


def mcp_sid(grant: McpGrant) -> str:
    """The proposal owner for MCP-made proposals: no browser session, the client instead."""
    return f"mcp:{grant.client_id}"


def shaped(result: ToolResult, app_url: str) -> McpToolResult:
    card = f"{app_url}/proposals/{result.proposal_id}" if result.proposal_id else None
    return McpToolResult(
        status=result.status,
        text=result.text,
        error_kind=result.error_kind,
        count=result.count,
        proposal_id=result.proposal_id,
        card_url=card,
        sources=[SourceOut(label=s.label, url=s.url) for s in result.sources],
        could_not_check=unchecked(result),
        data=result.json_data(),
    )


def unchecked(result: ToolResult) -> list[str]:
    """The statements of checks that did not run, in the tools' own words."""
    said = [result.text] if result.status == "error" else []
    chart = result.data if isinstance(result.data, ChartData) else None
    data = {} if chart else result.json_data()  # another tool's own keys
    # a chart section tool's too
    unread = chart.unavailable if chart else data.get("unavailable") or {}
    said += [
        f"{section.capitalize()} could not be read ({why})." for section, why in unread.items()
    ]
    flags = (data.get("summary") or {}).get("flags") or []
    said += [f["text"] for f in flags if f.get("kind") == "unchecked"]
    problems = data.get("problems") or []  # check_medication_for_patient's findings
    said += [p["summary"] for p in problems if p.get("topic") == "unidentified"]
    if data.get("identified") is False:  # identify_drug: nothing can be checked on it
        said.append(result.text)
    said += [
        line
        for line in result.text.splitlines()
        if "could not be checked" in line and line not in said
    ]
    return said


def _refused(kind: str, text: str) -> McpToolResult:
    return McpToolResult(status="error", text=text, error_kind=kind, could_not_check=[text])
