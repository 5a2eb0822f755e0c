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

from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Literal

from pydantic import BaseModel


@dataclass(frozen=True)
class Source:
    """A citation: what it is and where a clinician can check it."""

    label: str
    url: str


@dataclass
class ToolResult:
    """What a tool returns to the agent.

    ``text`` is compact and bounded (a 4B model reads it); ``data`` is
    structured for the UI; ``status`` is decided by code, so RESULT_CLASSIFY
    can skip the model when the result is structurally clear.
    """

    status: Literal["ok", "empty", "error", "proposal", "ambiguous"]
    text: str
    data: dict = field(default_factory=dict)
    sources: list[Source] = field(default_factory=list)
    count: int | None = None
    error_kind: str | None = None  # unreachable | not_found | invalid | forbidden | rate_limited | unsupported
    proposal_id: str | None = None

    @classmethod
    def failure(cls, kind: str, text: str) -> "ToolResult":
        return cls(status="error", text=text, error_kind=kind)

    def to_dict(self) -> dict:
        d = asdict(self)
        d["sources"] = [asdict(s) for s in self.sources]
        return d


@dataclass
class ToolContext:
    """Everything a tool may use for one turn; built per request, never global."""

    patient_id: str | None
    scopes: Any  # smart_docgemma.smart.scopes.GrantedScopes
    fhir: Any = None  # smart_docgemma.fhir.FhirGateway (launch token)
    http: Any = None  # knowledge-source HTTP client (cache, retries)
    proposals: Any = None  # smart_docgemma.proposals.ProposalStore
    model: Any = None  # model client, for the vision tool
    image: bytes | None = None  # this turn's attached image (analyze_medical_image)
    image_mime: str | None = None  # its declared MIME type; the bytes decide the format
    session_id: str | None = None
    practitioner: str | None = None  # fhirUser reference, e.g. Practitioner/dr-okafor
    config: dict = field(default_factory=dict)
    language: str = "en"  # the clinician's language: templated answers and synthesis use it


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


@dataclass(frozen=True)
class Tool:
    """A tool this process can run: its spec and its code."""

    spec: ToolSpec
    run: Callable[[BaseModel, ToolContext], ToolResult]

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def args_model(self) -> type[BaseModel]:
        return self.spec.args_model

    def granted(self, scopes) -> bool:
        """True when every needed (type, interaction) is covered by the grant."""
        return all(scopes.allows(rtype, inter) for rtype, inter in self.spec.scopes)
