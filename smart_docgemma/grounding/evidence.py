"""What the turn actually read, one citable record at a time.

Each tool run's result is cut into the records a citation can name: a FHIR resource
(``Observation/…`` with its date), an FDA label section, a PubMed article (``PMID:…``), a
trial (``NCT…``), the attached image's findings. The text of an ``Evidence`` is built from the
fields the tool kept (values, units, dates, names), so a sentence's facts are looked up in
exactly what was fetched. Each run also gives one coarse record (its whole text), consulted
only for what no single record covers (e.g. "1,234 trials match").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from ..approval.types import Approval
from ..fhir import absolute
from ..languages import N_, answer_language, message, say
from ..proposals.followup import followup
from ..tools.chart.chartdata import ChartData
from .facts import anchors, iso_dates, numbers, unit_key, unit_pattern
from .image_findings import ANY, Statement, stated


@dataclass(frozen=True)
class Evidence:
    """One record read in the turn, as a citation names it and as the check reads it."""

    key: str  # Observation/abc | PMID:123 | NCT01234567 | label:<set id>#<section> | run:<n>
    label: str  # what the clinician reads next to the number
    url: str | None
    date: str | None
    text: str
    coarse: bool = False  # a whole tool result: cited only for what no single record covers
    refs: tuple[str, ...] = field(default=())  # other keys naming the same record (PMID and doi)
    image: bool = False  # an image's findings: the findings a sentence names are checked here

    @cached_property
    def stated(self) -> dict[str, frozenset[Statement]]:
        """The imaging findings this record states, affirmed and/or denied (image_findings.py); read
        only in a turn that analysed an image."""
        return stated(self.text, ANY)

    @cached_property
    def lower(self) -> str:
        return self.text.lower()

    @cached_property
    def plain(self) -> str:
        """Lowercase words only, punctuation as spaces: a drug the answer names "insulin regular"
        is the record's "insulin, regular, human" (RxNorm writes qualifiers after commas)."""
        return " " + " ".join(re.findall(r"[a-z0-9]+", self.lower)) + " "

    @cached_property
    def numbers(self) -> frozenset[float]:
        found, rest = iso_dates(self.text)
        years = {float(d[:4]) for d in found}
        return frozenset({v for v, _ in numbers(rest)} | years)

    @cached_property
    def dates(self) -> frozenset[str]:
        return frozenset(iso_dates(self.text)[0])

    @cached_property
    def units(self) -> frozenset[str]:
        return frozenset(unit_key(m[1]) for m in unit_pattern().finditer(self.text))

    @cached_property
    def anchors(self) -> frozenset[str]:
        return anchors(self.text)


def from_chart(data: ChartData, base_url: str | None) -> list[Evidence]:
    """Every resource of a chart read (``tools.chart.chart.chart_data``), with its own facts: each
    entry's ``record``, the patient first."""
    return [
        Evidence(r.ref, r.label, absolute(base_url, r.ref) if base_url else None, r.when, r.text)
        for r in data.records()
    ]


def from_label(data: dict, url: str | None) -> list[Evidence]:
    """An FDA label (``check_drug_safety``): its heading, then one record per section."""
    names = data.get("names") or {}
    name = ", ".join(names.get("generic") or [data.get("drug", "")])
    eff = data.get("effective_time") or ""
    eff = f"{eff[:4]}-{eff[4:6]}-{eff[6:8]}" if len(eff) == 8 else eff
    key = f"label:{data.get('set_id')}"
    brands = " ".join(names.get("brand") or [])
    head = f"FDA label {name} {brands} effective {eff} set id {data.get('set_id')}"
    out = [Evidence(key, f"FDA label: {name}", url, eff or None, head)]
    out += [
        Evidence(
            f"{key}#{heading}",
            f"FDA label: {name}, {heading}",
            url,
            eff or None,
            f"{name} {heading}: {text}",
        )
        for heading, text in (data.get("sections") or {}).items()
    ]
    return out


def from_articles(data: dict, sources: list) -> list[Evidence]:
    out = []
    for a in data.get("articles") or []:
        key = f"PMID:{a['pmid']}" if a.get("pmid") else f"doi:{a.get('doi')}"
        url = next(
            (s.url for s in sources if (a.get("pmid") or a.get("doi") or "~") in s.url), None
        )
        out.append(
            Evidence(
                key,
                f"PMID {a['pmid']}" if a.get("pmid") else key,
                url,
                a.get("year") or None,
                f"{a.get('title')} {a.get('authors')} {a.get('journal')} {a.get('year')} "
                f"{' '.join(a.get('pub_types') or [])} Abstract: {a.get('abstract')}",
            )
        )
    return out


def from_trials(data: dict, sources: list) -> list[Evidence]:
    out = []
    for t in data.get("trials") or []:
        url = next((s.url for s in sources if t["nct_id"] in s.url), None)
        out.append(
            Evidence(
                t["nct_id"],
                f"{t['nct_id']}: {t['title'][:60]}",
                url,
                None,
                f"{t['nct_id']} {t['title']} status {t['status']} phase {t['phase']} {t['type']} "
                f"enrolment {t.get('enrollment')} sponsor {t['sponsor']} conditions "
                f"{', '.join(t['conditions'])} interventions {', '.join(t['interventions'])} "
                f"ages {t['ages']} {t['summary']} locations {'; '.join(t['locations'])}",
            )
        )
    return out


def from_image(data: dict, n: int, label: str) -> list[Evidence]:
    """The image analysis's findings (``tools.sources.imaging.ImageFindings``): one record, each
    finding a clause of its own so that a finding's "no" stays with it."""
    items = [str(f).rstrip(" .;") for f in data.get("findings") or []]
    text = (
        f"Image {data.get('modality')}; findings: {'; '.join(items) or 'none reported'}; "
        f"impression: {data.get('impression')}"
    )
    modality = str(data.get("modality") or "")
    return [Evidence(f"image:{n}", f"{label}: {modality}", None, None, text, image=True)]


def from_run(run, n: int, base_url: str | None) -> list[Evidence]:
    """The records of one tool run, then its coarse record."""
    result = run.result
    if result.status in ("error", "proposal"):
        return []
    sources = list(result.sources)
    data = {} if isinstance(result.data, ChartData) else result.data  # another tool's own keys
    if isinstance(result.data, ChartData):
        out = from_chart(result.data, base_url)
    elif run.tool == "check_drug_safety" and data.get("sections") is not None:
        out = from_label(data, sources[0].url if sources else None)
    elif data.get("articles"):
        out = from_articles(data, sources)
    elif data.get("trials"):
        out = from_trials(data, sources)
    elif run.tool == "analyze_medical_image" and "findings" in data:
        out = from_image(data, n, run.label)
    else:
        out = []
    first = sources[0].url if sources else None
    whole = re.sub(r"\s+", " ", result.text)
    return out + [
        Evidence(f"run:{n}", _said(N_("%(tool)s (the result as read)"), tool=run.label), first,
                 None, whole, coarse=True)
    ]


def _said(msgid: str, **args: Any) -> str:
    """A label the code writes, in this turn's language (English outside a turn)."""
    return say(message(msgid, **args), answer_language())


def from_brief(brief: str | None, patient_id: str | None, base_url: str | None) -> list[Evidence]:
    """The chart in brief the turn started with (read from the chart this session)."""
    return _chart_read(
        N_("Chart in brief (read at the start of the question)"), brief, patient_id, base_url
    )


def from_session_chart(
    chart: str | None, patient_id: str | None, base_url: str | None
) -> list[Evidence]:
    """The chart as the session read it, which the answer's prompt holds whole
    (``agent/chart_context.py``): a coarse record, cited only for what no record a tool read
    holds, so a line still cites the resource it came from when one did."""
    return _chart_read(
        N_("Chart (read at the start of the question)"), chart, patient_id, base_url, coarse=True
    )


def _chart_read(label: str, text: str | None, patient_id: str | None, base_url: str | None,
                coarse: bool = False) -> list[Evidence]:
    if not text or not patient_id:
        return []
    ref = f"Patient/{patient_id}"
    link = absolute(base_url, ref) if base_url else None
    return [Evidence(ref, _said(label), link, None, text, coarse=coarse)]


def from_approvals(approvals: list[Approval], base_url: str | None) -> list[Evidence]:
    """What the clinician's decisions wrote (or refused), as the proposal's own record says it."""
    out = []
    for a in approvals:
        ref = a.get("result_ref") or f"proposal:{a.get('proposal_id')}"
        url = absolute(base_url, ref) if base_url and a.get("result_ref") else None
        out.append(
            Evidence(
                ref,
                f"Your decision: {a.get('decision')}",
                url,
                None,
                followup(a),
                refs=tuple(r for r in (a.get("provenance"),) if r),
            )
        )
    return out


def turn_evidence(state, base_url: str | None) -> list[Evidence]:
    """Everything the turn read, in the order it read it (the chart in brief first)."""
    out = from_brief(state.chart_summary, state.patient_id, base_url)
    for n, run in enumerate(state.tool_runs, 1):
        out += from_run(run, n, base_url)
    out += from_approvals(state.approvals, base_url)
    if getattr(state, "image", None) is not None and not any(e.image for e in out):
        out.append(unread_image())
    out += from_session_chart(getattr(state, "chart_text", None), state.patient_id, base_url)
    return out


def unread_image() -> Evidence:
    """An image attached to the turn whose analysis did not complete: it states no finding, so
    a finding the answer affirms is marked (the analysis that could have borne it out never
    ran), instead of the sentence passing as one with nothing to check."""
    return Evidence("image:unread", _said(N_("The attached image (its analysis did not complete)")),
                    None, None, "", image=True)
