"""Offline pack: fill the knowledge cache for a formulary while the clinic is online (the
``docgemma-offline-pack`` command is ``smart_docgemma/cli/offline_pack.py``).

For every medicine of the list (default: the WHO Model List of Essential Medicines core list,
``data/who_eml_core.yaml``; a clinic's own list is a YAML file with the same ``sections`` or a
plain ``names`` list) it asks the FDA label service exactly what the drug-safety and
interaction tools ask (``openfda.label_safety``), into the app's cache (``CACHE_PATH``,
``DOCGEMMA_…`` configuration). When the uplink later fails, those answers are served as offline
copies with their retrieval date (tools/sources/http.py). Prints the coverage: medicines whose every
ingredient has a label, medicines openFDA has no label for (many INN-only or non-US
medicines), and failures.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ...datafiles import safe_yaml
from ...errors import SourceError
from .http import KnowledgeHttp
from .openfda import label_safety

DEFAULT_LIST = Path(__file__).parents[1] / "data" / "who_eml_core.yaml"


@dataclass
class Formulary:
    """The medicines to pack, and where the list comes from."""

    names: list[str]
    source: str = ""
    edition: str = ""


@dataclass
class Coverage:
    """What the pack found: per medicine, ``labelled``, ``no_label`` or ``failed``."""

    formulary: str
    edition: str
    labelled: list[str] = field(default_factory=list)
    no_label: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return len(self.labelled) + len(self.no_label) + len(self.failed)

    def percent(self) -> float:
        return round(100 * len(self.labelled) / self.total, 1) if self.total else 0.0

    def summary(self) -> str:
        return (f"{len(self.labelled)}/{self.total} medicines ({self.percent()} %) "
                f"have an FDA label "
                f"in the offline cache; {len(self.no_label)} have none on openFDA; "
                f"{len(self.failed)} could not be fetched ({self.edition or self.formulary}).")


def load_formulary(path: str | Path | None = None) -> Formulary:
    """A formulary file: ``sections`` of names (the WHO list's form) or ``names``."""
    data = safe_yaml(Path(path or DEFAULT_LIST).read_text())
    names = list(data.get("names") or [])
    for group in (data.get("sections") or {}).values():
        names += group
    unique = list(dict.fromkeys(str(n).strip().lower() for n in names if str(n).strip()))
    return Formulary(unique, data.get("source", str(path or DEFAULT_LIST)), data.get("edition", ""))


def pack(http: KnowledgeHttp, formulary: Formulary,
         progress: Callable[[str, str], None] | None = None) -> Coverage:
    """Fetch (or find fresh in the cache) the label of every ingredient of every medicine."""
    coverage = Coverage(formulary.source, formulary.edition)
    for name in formulary.names:
        outcome = _one(http, name)
        getattr(coverage, outcome).append(name)
        if progress is not None:
            progress(name, outcome)
    return coverage


def _one(http: KnowledgeHttp, name: str) -> str:
    found = True
    for ingredient in (part.strip() for part in name.split("+")):
        try:
            found = label_safety(http, ingredient) is not None and found
        except SourceError:
            return "failed"
    return "labelled" if found else "no_label"
