"""Output schemas of the agent's model calls.

Decision-critical fields first, optional fields last (a small model fills
fields in order; see docs/agent-design.md). Every free-text field has a
``max_length`` sized to its node's token budget (an unbounded string ran to
``max_tokens`` and came back truncated). The class name is the
JSON-schema name sent to the server. Tool argument schemas live in
``tools/args.py``; the vision schema (``ImageFindings``) in ``tools/sources/imaging.py``.
"""
from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model

from ..tools.catalog import specs

_STRICT = ConfigDict(extra="forbid")
ToolName = Literal[tuple(specs())]  # type: ignore[valid-type]


class IntentClassification(BaseModel):
    """INTENT_CLASSIFY (256 tokens): ~50 words of summary is ~300 characters."""

    model_config = _STRICT
    intent: Literal["DIRECT", "TOOL_NEEDED"]
    task_summary: str = Field(max_length=400, description="Clinical summary, 50 words or fewer")
    suggested_tool: ToolName | None = Field(  # type: ignore[valid-type]
        default=None, description="If TOOL_NEEDED, the most relevant tool")


class ToolSelection(BaseModel):
    """TOOL_SELECT stage 1 (64 tokens): one field, no nullable distractors."""

    model_config = _STRICT
    tool_name: ToolName  # type: ignore[valid-type]


class ResultAssessment(BaseModel):
    """RESULT_CLASSIFY (128 tokens): classification first, then ~2 sentences."""

    model_config = _STRICT
    quality: Literal["success_rich", "success_partial", "no_results",
                     "error_retryable", "error_fatal"]
    brief_summary: str = Field(max_length=240, description="1-2 sentence summary")


class RetryStrategy(BaseModel):
    """ERROR_HANDLER (64 tokens): only retry-same vs retry-different; skip and ask-user are code."""

    model_config = _STRICT
    strategy: Literal["retry_same", "retry_different_args"]
    reasoning: str | None = Field(default=None, max_length=100)


class SecondLookReview(BaseModel):
    """SECOND LOOK (320 tokens): severity first, then short lists; only what the sources show."""

    model_config = _STRICT
    severity: Literal["none", "low", "high"]
    unsupported_claims: list[Annotated[str, Field(max_length=120)]] = Field(
        default_factory=list, max_length=2
    )
    contradictions: list[Annotated[str, Field(max_length=120)]] = Field(
        default_factory=list, max_length=2
    )
    missing_checks: list[Annotated[str, Field(max_length=120)]] = Field(
        default_factory=list, max_length=2
    )


def tool_selection_for(names: list[str]) -> type[BaseModel]:
    """``ToolSelection`` restricted to the tools that exist this session (same name)."""
    return create_model("ToolSelection", __config__=_STRICT,
                        tool_name=(Literal[tuple(names)], ...))  # type: ignore[valid-type]
