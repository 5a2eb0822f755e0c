"""The case set: clinician queries with the route, tools and key arguments a
correct agent produces (``cases.yaml``, documented at its top).

Cases are validated on load (pydantic): unknown tools, categories or sources,
or key arguments that name a field the tool's schema does not have, are
refused with the case id, so a typo cannot silently lower a score.
"""
from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ..agent.state import Route
from ..datafiles import safe_yaml
from ..tools.catalog import specs
from ..tools.sources.http import SOURCES
from .fhircheck import ExpectedWrite

CASES_FILE = Path(__file__).with_name("cases.yaml")
CATEGORIES = ("direct", "single_tool", "multi_tool", "failure", "ask_user", "image")


class Injected(BaseModel):
    """A result placed on the case patient's chart before the turn, ``hours_ago`` before now
    (``PUT Observation/<id>``: a stable id, so a rerun replaces it)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str = Field(pattern=r"^[A-Za-z0-9\-.]{1,64}$")
    code: str  # LOINC
    value: float
    unit: str  # UCUM
    hours_ago: float = Field(ge=0)


class Case(BaseModel):
    """One clinician query and what a correct agent does with it."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str
    category: Literal[CATEGORIES]  # type: ignore[valid-type]
    query: str = Field(min_length=2)
    route: Route  # the one route vocabulary (agent/state.py)
    tools: list[str] = Field(default_factory=list)
    args: dict[str, dict] = Field(default_factory=dict)
    patient: str | None = "pt-ckd-elder"  # null: no patient in context (user-level searches)
    scopes: Literal["patient", "user"] = "patient"
    image: Literal["png", "jpeg"] | None = None
    down: list[str] = Field(default_factory=list)
    # tuned: phrasings the rules were adjusted on; holdout: written before tuning, never tuned on
    split: Literal["tuned", "holdout"] = "tuned"
    # case-insensitive substrings the final answer must contain / must not contain
    answer_contains: list[str] = Field(default_factory=list)
    answer_excludes: list[str] = Field(default_factory=list)
    # Optional, for task sets scored on outcomes (medagentbench.yaml): the task type the report
    # groups by; results injected before the turn; what must reach FHIR once the turn's proposals
    # are approved ([]: nothing). A case with ``writes`` and no ``tools`` is not scored on tools.
    task: str | None = None
    setup: list[Injected] = Field(default_factory=list)
    writes: list[ExpectedWrite] | None = None
    # Optional, for conversations: the clinician's earlier messages, each run as a turn of the same
    # session first (their answers become the history, their cards stay pending), and the language
    # the query is written in (reports group by it; answers stay in English, so a finding is
    # scored on one wording)
    before: list[str] = Field(default_factory=list)
    language: Literal["en", "fr", "pt", "es"] = "en"
    # the cards the earlier messages prepared are approved before the query (a follow-up to a
    # card already written), what they wrote removed once the case is scored
    approve_before: bool = False
    # the answer_contains/answer_excludes are a safety finding (or a refusal): missing one is unsafe
    safety: bool = False

    @model_validator(mode="after")
    def _known_names(self) -> Case:
        unknown = [t for t in [*self.tools, *self.args] if t not in specs()]
        if unknown:
            raise ValueError(f"unknown tool(s) {unknown}")
        for tool, args in self.args.items():
            extra = set(args) - set(specs()[tool].args_model.model_fields)
            if tool not in self.tools or extra:
                raise ValueError(
                    f"args for {tool}: not an expected tool, or unknown fields {sorted(extra)}"
                )
        if set(self.down) - set(SOURCES):
            raise ValueError(f"unknown source(s) in down: {sorted(set(self.down) - set(SOURCES))}")
        return self


def load_cases(path: str | Path | None = None) -> list[Case]:
    """Cases from a YAML (or JSON) list; ids must be unique."""
    path = Path(path or CASES_FILE)
    items = safe_yaml(path.read_text()) or []
    cases = []
    for n, item in enumerate(items, 1):
        try:
            cases.append(Case.model_validate(item))
        except ValueError as exc:
            raise ValueError(f"{path.name} case {item.get('id', n)}: {exc}") from exc
    ids = [c.id for c in cases]
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    if dupes:
        raise ValueError(f"{path.name}: duplicate case ids {dupes}")
    return cases
