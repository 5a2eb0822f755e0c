"""The contract between the agent and its tools.

A tool is its ``ToolSpec`` — name, clinical label (what the clinician reads),
full description (what the model reads), a pydantic argument schema (the same
schema drives the model, validation and tests), its kind (read or write), the
SMART scopes it needs, its running order and whether its answers are kept
brief — read from ``catalog.yaml`` (``catalog.spec``), plus its code:
``run(args, ctx)`` returns a ``ToolResult``. It never raises for an expected
failure (source down, nothing found): it returns ``ToolResult.failure(...)``
with a pre-formatted message. Write tools return a proposal id and never write.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeVar

from pydantic import BaseModel

from ..approval.types import ProposalSink
from ..errors import UpstreamError
from ..fhir import FhirGateway

# the one citation type: tools, cards, MCP, knowledge
from ..knowledge.finding import Source as Source
from ..smart.scopes import GrantedScopes
from .chart.chartdata import ChartData

if TYPE_CHECKING:
    from .sources.http import KnowledgeHttp

M = TypeVar("M", bound=BaseModel)


class VisionModel(Protocol):
    """What a tool may ask of the model: one question about an image, answered in ``schema``
    (the agent hands tools its client bound to the turn's call count)."""

    def vision(
        self, prompt: str, image: bytes, mime: str, schema: type[M], system: str | None = None
    ) -> M: ...


@dataclass
class ToolResult:
    """What a tool returns to the agent.

    ``text`` is compact and bounded (a 4B model reads it); ``data`` is
    structured for the UI: the chart tool's is its typed ``ChartData``, another tool's a dict of
    its own keys; ``status`` is decided by code, so RESULT_CLASSIFY
    can skip the model when the result is structurally clear.
    """

    status: Literal["ok", "empty", "error", "proposal", "ambiguous"]
    text: str
    data: ChartData | dict[str, Any] = field(default_factory=dict)
    sources: list[Source] = field(default_factory=list)
    count: int | None = None
    # unreachable | not_found | invalid | forbidden | rate_limited | unsupported
    error_kind: str | None = None
    proposal_id: str | None = None

    @classmethod
    def failure(cls, kind: str, text: str) -> ToolResult:
        return cls(status="error", text=text, error_kind=kind)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["sources"] = [asdict(s) for s in self.sources]
        d["data"] = self.json_data()
        return d

    def json_data(self) -> dict[str, Any]:
        """``data`` as JSON values: the chart's sections with the keys MCP clients read, another
        tool's dict as it is."""
        return self.data.to_json() if isinstance(self.data, ChartData) else self.data

    def safety_findings(self) -> list[dict[str, Any]]:
        """The findings a check put beside its result, in the words of the CDS cards
        (``checks.mentions.Mention.to_dict``): a medication review's, a drug check's."""
        if isinstance(self.data, ChartData):
            return list(self.data.safety_findings)
        return list(self.data.get("safety_findings") or [])


@dataclass(frozen=True)
class ChartRead:
    """The chart sections a turn read for its prompt (``tools.chart.chart.read_for_turn``), kept for
    the checks of the same turn: the Patient, and each section read whole (fewer resources
    than the search's ``_count``), by section name (``tools.chart.chart.SECTIONS``)."""

    patient_id: str
    patient: dict[str, Any]
    sections: dict[str, list[dict[str, Any]]]


@dataclass
class ToolContext:
    """Everything a tool may use for one turn; built per request, never global."""

    patient_id: str | None
    scopes: GrantedScopes | None  # None: no SMART grant (evaluation of knowledge tools, tests)
    fhir: FhirGateway | None = None  # the launch token's gateway
    http: KnowledgeHttp | None = None  # knowledge-source HTTP client (cache, retries)
    proposals: ProposalSink | None = None  # where write tools put what the clinician approves
    model: VisionModel | None = None  # the turn's model client, for the vision tool
    image: bytes | None = None  # this turn's attached image (analyze_medical_image)
    image_mime: str | None = None  # its declared MIME type; the bytes decide the format
    # png | jpeg | dicom, as its bytes said (tools.sources.imaging.image_meta)
    image_kind: str | None = None
    sid: str | None = None  # the browser session (the launch) the turn belongs to
    user: str | None = None  # the fhirUser who launched, e.g. Practitioner/dr-okafor
    config: dict[str, Any] = field(default_factory=dict)
    language: str = "en"  # the clinician's language: templated answers and synthesis use it
    # this turn's chart read for the prompt; the turn's drug questions check against it instead of
    # reading the same sections again (proposal checks and the chart tool read afresh)
    chart_read: ChartRead | None = None
    # the active orders a switch of this turn stops: the new order's check leaves them out (a
    # switch from warfarin to apixaban is not two anticoagulants)
    replacing: tuple[str, ...] = ()
    # the patient's state the clinician said in the conversation ("pregnant", "breastfeeding";
    # reading/states.py): the safety checks weigh it beside the chart's
    stated: tuple[str, ...] = ()

    # A tool that needs one of these and runs without it is a wiring error of the caller; it
    # reads to the agent as that source failing (errors.UpstreamError), never as "nothing found".
    def gateway(self) -> FhirGateway:
        """The launch's FHIR gateway."""
        if self.fhir is None:
            raise UpstreamError("No FHIR server is connected to this session.")
        return self.fhir

    def sources(self) -> KnowledgeHttp:
        """The knowledge-source HTTP client."""
        if self.http is None:
            raise UpstreamError("The knowledge sources are not connected to this session.")
        return self.http

    def store(self) -> ProposalSink:
        """Where write tools put their proposals."""
        if self.proposals is None:
            raise UpstreamError("Proposals cannot be stored in this session.")
        return self.proposals


@dataclass(frozen=True)
class ToolSpec:
    """Everything that defines a tool except its code (one entry of ``catalog.yaml``)."""

    name: str
    label: str  # what the clinician reads in the trace and the answers
    description: str  # what the model reads when it chooses a tool
    args_model: type[BaseModel]
    kind: Literal["read", "write"]
    scopes: tuple[tuple[str, str], ...]  # (resourceType, interactions) needed; () = none
    order: int  # running order when a question needs several tools
    brief: bool  # a single answer from this source is kept to its most critical findings
    surfaces: tuple[str, ...] = ("agent", "mcp")  # who is offered it: the agent, MCP clients


@dataclass(frozen=True)
class Tool:
    """A tool this process can run: its spec and its code."""

    spec: ToolSpec
    run: Callable[[Any, ToolContext], ToolResult]  # takes its own args_model

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def args_model(self) -> type[BaseModel]:
        return self.spec.args_model

    def granted(self, scopes: GrantedScopes | None) -> bool:
        """True when every needed (type, interaction) is covered by the grant."""
        return all(
            scopes is not None and scopes.allows(rtype, inter) for rtype, inter in self.spec.scopes
        )
