"""``get_patient_chart``: the launch patient's chart, read with the searches a question needs.

One fetch, three readers: the tool (bounded text for the 4B model and code-only answers),
the agent's INPUT_ASSEMBLY prefetch and the UI's "chart at a glance" all use
``chart_summary(fhir, patient_id)``; a question with a ``focus`` ("last potassium",
"active meds") reads only its own sections (``answers``).

Real charts hold thousands of resources (a Synthea patient of 100 years: 3,000 observations,
475 medication orders, 141 conditions), so each section is one FHIR search, newest first,
filtered and bounded by the server: ``clinical-status=active``, ``status=active``,
``_sort=-date``, ``_count`` and ``_elements``. One round trip per resource type at most (labs
and vitals share one Observation search); the searches run in parallel threads, each with its
own ``FhirGateway`` (a ``requests.Session`` is not documented as thread-safe) sharing the app's
connection pool. Older results than a section's window are read by the focused questions,
which search one code ("last potassium": Patient + one Observation search).

The text is bounded per section (``summary``), never cut inside a line. Note text comes
from the chart, written by anyone, so it is quoted and labelled untrusted: the model reads it
as data, never as instructions (OWASP LLM01).
"""
from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta, tzinfo
from typing import Any

from ... import errors
from ...checks.drug_safety import review_in_context
from ...config import setting
from ...fhir import FhirGateway
from ...languages import N_, answer_language, message, say
from ...smart.scopes import GrantedScopes
from .. import args as tool_args
from .. import catalog
from ..base import ChartRead, Source, Tool, ToolContext, ToolResult
from ..words.windows import Aggregate, Asked, Threshold, bounds, zone
from . import admission, answers, labs, procedures, records
from .chartdata import ChartData
from .in_context import ChartInContext, in_context

# re-exported for other tools
from .records import SORT_NEWEST
from .records import concept_text as concept_text
from .records import patient_facts as patient_facts
from .summary import TEXT_BUDGET as TEXT_BUDGET
from .summary import UNTRUSTED_HEAD as UNTRUSTED_HEAD
from .summary import brief, chart_sources, chart_text, patient_line
from .summary import section_text as section_text

PAGE = 50  # _count of the small sections
SERVER_PAGE = 100  # the most results a FHIR server returns in one page (HAPI's default cap)
OBS_WINDOW = 100  # newest labs and vital signs read for the summary (one page)
# key: (resource type, search params) — SMART scopes are checked per type; one page each.
SECTIONS: dict[str, tuple[str, dict[str, Any]]] = {
    "conditions": ("Condition", {"clinical-status": "active", "_count": 200}),
    "medications": (
        "MedicationRequest",
        {"status": "active", "_include": "MedicationRequest:medication", "_count": 100},
    ),
    "allergies": ("AllergyIntolerance", {"_count": PAGE}),
    # by category, not by the key codes: HAPI answers an OR of 30 codes 3-4x slower (measured)
    "observations": (
        "Observation",
        {"category": "laboratory,vital-signs", "_sort": SORT_NEWEST, "_count": OBS_WINDOW},
    ),
    "notes": ("DocumentReference", {"_sort": SORT_NEWEST, "_count": 3}),
    "encounters": ("Encounter", {"_sort": SORT_NEWEST, "_count": 5}),
    "immunizations": ("Immunization", {"_sort": SORT_NEWEST, "_count": 30}),
}


@dataclass
class ChartFetch:
    """Raw resources per section, what could not be read, and how long it took."""

    patient: dict[str, Any]
    sections: dict[str, list[dict[str, Any]]]
    unavailable: dict[str, str]
    elapsed_ms: float
    included: list[dict[str, Any]] = field(default_factory=list)  # _include results (Medication)
    calls: int = 0  # HTTP requests to the FHIR server
    whole: set[str] = field(default_factory=set)  # sections with fewer matches than their _count

    def read(self, patient_id: str) -> ChartRead:
        """What the turn's other checks may take from this fetch: the sections read whole."""
        whole = {k: v for k, v in self.sections.items() if k in self.whole}
        return ChartRead(patient_id, self.patient, whole)


@dataclass
class Chart:
    """The chart for the model (``text``), the prompt prefetch (``brief``), the UI (``data``) and
    the reading of the turn's message (``in_context``, typed: ``reading/chart.py``)."""

    text: str
    brief: str
    data: ChartData
    sources: list[Source] = field(default_factory=list)
    in_context: ChartInContext = field(default_factory=ChartInContext)

    def __str__(self) -> str:
        return self.text


# ------------------------------------------------------------------ fetching
def fetch_chart(fhir: FhirGateway, patient_id: str, parallel: bool = True,
                scopes: GrantedScopes | None = None,
                sections: dict[str, Any] | None = None) -> ChartFetch:
    """Read the Patient, then every section of ``sections`` (default ``SECTIONS``), in
    parallel threads unless ``parallel=False``; one search per section (its pages up to its
    ``_count``).

    A section that fails or whose scope was not granted is listed in
    ``unavailable`` (and said so in the text); only a missing Patient fails the call.
    """
    started = time.perf_counter()
    plan = SECTIONS if sections is None else sections
    wanted = [k for k, (rtype, _) in plan.items() if scopes is None or scopes.allows(rtype, "s")]
    unavailable = {k: "access not granted" for k in plan if k not in wanted}

    def one(key: str) -> tuple[str, list[dict[str, Any]], list[dict[str, Any]], str | None]:
        gateway = fhir.twin() if parallel else fhir
        rtype, params = plan[key]
        extra: list[dict[str, Any]] = []
        # a server pages at its own size (HAPI: 100): a section asking more follows ``next``
        pages = max(1, -(-int(params.get("_count", PAGE)) // SERVER_PAGE))
        try:
            found = gateway.search(
                rtype, {"patient": patient_id, **params}, max_pages=pages, included=extra
            )
            return key, found, extra, None
        except errors.DocGemmaError as exc:
            return key, [], [], exc.description

    if parallel and wanted:
        with ThreadPoolExecutor(max_workers=len(wanted) + 1) as pool:
            patient_future = pool.submit(lambda: fhir.twin().read("Patient", patient_id))
            results = list(pool.map(one, wanted))
            patient = patient_future.result()
    else:
        patient = fhir.read("Patient", patient_id)
        results = [one(k) for k in wanted]
    whole = {k for k, found, _, err in results
             if not err and len(found) < plan[k][1].get("_count", PAGE)}
    return ChartFetch(patient, {k: found for k, found, _, _ in results},
                      {**unavailable, **{k: err for k, _, _, err in results if err}},
                      (time.perf_counter() - started) * 1000,
                      included=[r for _, _, extra, _ in results for r in extra],
                      calls=1 + len(wanted), whole=whole)


def chart_summary(fhir: FhirGateway, patient_id: str, scopes: GrantedScopes | None = None) -> Chart:
    """Fetch and summarise one patient's chart (raises ``errors.NotFound`` for no such patient)."""
    return summarise(fetch_chart(fhir, patient_id, scopes=scopes), fhir.base_url)


def read_for_turn(ctx: ToolContext) -> Chart:
    """The launch patient's chart for a turn's prompt; the read is kept in ``ctx.chart_read``
    for the same turn's drug questions (``checks.drug_safety``). Raises like ``chart_summary``."""
    patient_id = ctx.patient_id or ""
    fetch = fetch_chart(ctx.gateway(), patient_id, scopes=ctx.scopes)
    ctx.chart_read = fetch.read(patient_id)
    return summarise(fetch, ctx.gateway().base_url)


def summarise(fetch: ChartFetch, base_url: str) -> Chart:
    """Turn a fetch into text, brief, data and FHIR sources."""
    data = chart_data(fetch)
    return Chart(
        text=chart_text(data), brief=brief(data), data=data, sources=chart_sources(data, base_url),
        in_context=in_context(fetch.sections, data),
    )


# ------------------------------------------------------------------ structured chart
def chart_data(fetch: ChartFetch) -> ChartData:
    """Structured chart for the UI, the text renderer and the chart answers."""
    s = fetch.sections
    included = {f"{r['resourceType']}/{r['id']}": r for r in fetch.included}
    found = records.problems(s.get("conditions", []))
    observations = s.get("observations", []) + s.get("labs", []) + s.get("vitals", [])
    labs = [o for o in observations if not _is_vital(o)]
    return ChartData(
        patient=records.chart_patient(fetch.patient),
        problems=tuple(p for p in found if p.kind != "social"),
        past_problems=tuple(p for p in records.problems(s.get("past_conditions", []))
                            if p.kind != "social"),
        social=tuple(p for p in found if p.kind == "social"),
        medications=tuple(records.medication(m, included) for m in s.get("medications", [])),
        allergies=tuple(a for a in map(records.allergy, s.get("allergies", [])) if a),
        vitals=tuple(records.series([o for o in observations if _is_vital(o)]).values()),
        labs=tuple(records.series(labs).values()),
        notes=tuple(records.note(n) for n in s.get("notes", [])),
        encounters=tuple(records.encounter(e) for e in s.get("encounters", [])),
        admissions=tuple(records.encounter(e) for e in s.get("admissions", [])),
        immunizations=tuple(records.immunization(i) for i in s.get("immunizations", [])),
        unavailable=_unavailable(fetch.unavailable),
        counts={k: len(v) for k, v in s.items()},
        calls=fetch.calls,
        elapsed_ms=round(fetch.elapsed_ms, 1),
    )


def _unavailable(reasons: dict[str, str]) -> dict[str, str]:
    """Sections not read; labs and vitals share the Observation search (named both ways)."""
    out = dict(reasons)
    if "observations" in out:
        out.update(labs=out["observations"], vitals=out["observations"])
    return out


def _is_vital(obs: dict[str, Any]) -> bool:
    return any(records.code_of(c) == "vital-signs" for c in obs.get("category") or [])


# ------------------------------------------------------------------ the tool
def _other_patient_refused(ctx: ToolContext, patient_id: str) -> bool:
    """Only the launch patient, unless user-level access to Patient was granted."""
    if patient_id == ctx.patient_id:
        return False
    return (
        ctx.scopes is None
        or ctx.scopes.patient_level_only
        or not ctx.scopes.allows("Patient", "r", level="user")
    )


def _sections(args: tool_args.PatientChartArgs,
              tz: tzinfo = UTC) -> dict[str, tuple[str, dict[str, Any]]]:
    """The searches a question needs: several results at once, or its focus's; the stay in
    progress too when results since admission are asked."""
    found: dict[str, tuple[str, dict[str, Any]]] = (
        answers.sections_for_tests(args.tests.split(",")) if args.tests
        else answers.sections_for(args.focus, SECTIONS))
    if args.window and "observations" in found:
        rtype, params = _up_to_its_end(found["observations"], args.window, tz)
        # a window's count, mean or extremes are of all its results: a page as large as a
        # statistic's, so a year of daily sugars ("how many hypos in 2026") is read whole
        each = len(args.tests.split(",")) if args.tests else 1
        found = {**found, "observations": (rtype, {**params, "_count": max(
            int(params.get("_count", labs.WINDOW)), labs.STATISTIC_WINDOW * each)})}
    if args.window == "admission":
        found = {**found, "encounters": admission.SEARCH}
    if _statistic_of_all(args) and "observations" in found:
        rtype, params = found["observations"]  # "peak glucose?": the whole series when it fits
        found = {**found, "observations": (rtype, {**params, "_count": labs.STATISTIC_WINDOW})}
    if args.judge and "medications" not in found:  # a drug's target for the result (INR)
        found = {**found, "medications": SECTIONS["medications"]}
    return found


def _up_to_its_end(search: tuple[str, dict[str, Any]], window: str,
                   tz: tzinfo) -> tuple[str, dict[str, Any]]:
    """A window that ended before now ("in May", "on 3 May") read from its end back, newest
    first: the newest page alone holds only later results, and "none on 3 May" would be said of
    a day the chart holds. The results before it stay in the page (the last one before it)."""
    now = datetime.now(tz)
    try:
        w = bounds(window, now, tz)
    except ValueError:
        return search
    if w.end >= now - timedelta(minutes=1):
        return search
    rtype, params = search
    return rtype, {**params, "date": f"le{w.end.isoformat(timespec='seconds')}"}


def _statistic_of_all(args: tool_args.PatientChartArgs) -> bool:
    """A highest, lowest or mean, or a threshold, of one lab asked with no window ("peak
    glucose?", "was she ever hypo?")."""
    return bool((args.statistic or args.threshold) and not args.window and not args.tests
                and args.focus and args.focus.startswith("lab:"))


def _series_total(ctx: ToolContext, args: tool_args.PatientChartArgs) -> int | None:
    """How many results the lab asked has in all (the server's count), so that a statistic of
    the results read says whether they were all of them; None when the server gives no count."""
    rtype, params = answers.sections_for(args.focus, SECTIONS)["observations"]
    wanted = {k: v for k, v in params.items() if k not in ("_count", "_sort")}
    try:
        bundle = ctx.gateway().search_page(
            rtype, {"patient": args.patient_id, **wanted, "_summary": "count"})
    except errors.DocGemmaError:
        return None
    total = bundle.get("total")
    return total if isinstance(total, int) else None


def run_chart(args: tool_args.PatientChartArgs, ctx: ToolContext) -> ToolResult:
    """Chart review for ``args.patient_id`` (the launch patient under patient-level scopes)."""
    if _other_patient_refused(ctx, args.patient_id):
        return ToolResult.failure(
            "forbidden",
            "This session is limited to the patient in context "
            f"(id {ctx.patient_id}); another patient's chart cannot be opened here.",
        )
    try:
        tz = zone(setting(ctx.config or {}, "SITE_TIMEZONE"))
        fetch = fetch_chart(ctx.gateway(), args.patient_id, scopes=ctx.scopes,
                            sections=_sections(args, tz))
        chart = summarise(fetch, ctx.gateway().base_url)
    except errors.NotFound:
        return ToolResult.failure(
            "not_found", f"No patient with id {args.patient_id} was found in the EHR."
        )
    except (errors.Forbidden, errors.SessionExpired) as exc:
        return ToolResult.failure("forbidden", exc.description)
    except errors.DocGemmaError:
        return ToolResult.failure(
            "unreachable",
            "The patient record was temporarily unavailable. Please try again shortly.",
        )
    d = chart.data
    count = (
        1 + len(d.problems) + len(d.medications) + len(d.allergies) + len(d.labs) + len(d.vitals)
    )
    if args.focus == "review":  # "something for her chest infection": her allergies after it
        return _with_also(args, ctx, _review(ctx, chart)) if args.also else _review(ctx, chart)
    asked = Asked(args.window, Aggregate(args.statistic) if args.statistic else None,
                  Threshold.of_keys(args.threshold), args.unit, args.count, bool(args.judge))
    asked, since = admission.resolved(asked, chart.data)  # "creat since admission"
    text = (
        answers.several_in_window(args.tests.split(","), chart.data, asked,
                                  fetch.sections.get("observations"),
                                  zone(setting(ctx.config or {}, "SITE_TIMEZONE")))
        if args.tests and asked.window
        else answers.several(args.tests.split(","), chart.data, judge=bool(args.judge))
        if args.tests
        else patient_line(chart.data.patient) + "\n" + procedures.answer(
            args.focus, fetch.sections, fetch.unavailable)
        if args.focus and args.focus.startswith(procedures.PREFIX)
        else answers.answer(
            args.focus,
            chart.data,
            asked=asked,
            observations=fetch.sections.get("observations"),
            tz=zone(setting(ctx.config or {}, "SITE_TIMEZONE")),
            total=_series_total(ctx, args) if _statistic_of_all(args) else None,
        )
        if args.focus
        else chart.text
    )
    if since:
        head, _, rest = text.partition("\n")
        text = f"{head}\n{since}\n{rest}"
    result = ToolResult(status="ok", text=text, data=chart.data, sources=chart.sources, count=count)
    result = (
        _with_review(ctx, chart, result)
        if args.focus in SHOWS_MEDICATIONS and d.medications
        else result
    )
    return _with_also(args, ctx, result) if args.focus and args.also else result


def _with_also(args: tool_args.PatientChartArgs, ctx: ToolContext, shown: ToolResult) -> ToolResult:
    """"K and eGFR pls", "allergies + current meds": each other part asked, answered as its own
    question after the focus (the patient's line once); one that could not be read is said."""
    texts = [shown.text]
    for focus in (args.also or "").split(","):
        if focus == args.focus:
            continue
        part = run_chart(tool_args.PatientChartArgs(patient_id=args.patient_id, focus=focus), ctx)
        lines = part.text.split("\n")
        same_head = lines[0] == shown.text.split("\n")[0]
        texts.append("\n".join(lines[1:] if same_head else lines))
    return replace(shown, text="\n".join(texts))


# An answer that shows the medication list carries the list's review: what is shown to a
# prescriber is never a bare list whose dangers were checked elsewhere.
SHOWS_MEDICATIONS = ("medications", "interactions", "nephrotoxic", "reason", None)


def _with_review(ctx: ToolContext, chart: Chart, shown: ToolResult) -> ToolResult:
    review = _review(ctx, chart)
    if review.status != "ok":
        # the list is still shown, and the review that could not run is said, never left out
        said = "The medication review could not run: " + review.text
        return replace(shown, text=f"{shown.text}\n{said}")
    text = shown.text
    if text == chart.text:  # the whole chart: it gives up room so the review fits the budget
        text = chart_text(chart.data, budget=max(TEXT_BUDGET - len(review.text) - 1, 0))
    # blocks kept whole
    return replace(review, text=f"{text}\n{review.text}", count=shown.count,
                   sources=list(dict.fromkeys(shown.sources + review.sources)))


def _review(ctx: ToolContext, chart: Chart) -> ToolResult:
    """"Any problems with her current meds?": the one safety check over every active medication,
    answered with its findings (each in the words of the CDS card), not the medication list."""
    report = review_in_context(ctx)
    if report is None:
        return ToolResult.failure("forbidden", "A medication review needs the patient in context.")
    drugs = [d for d in report.drugs if d]
    head = say(
        message(
            N_("Medication review of %(count)s active medication(s) against this patient's chart:"),
            count=len(drugs),
        ),
        answer_language(),
    )
    checked = say(
        message(N_("Reviewed: %(drugs)s."), drugs=", ".join(drugs) or "-"), answer_language()
    )
    lines = [head, *dict.fromkeys(report.lines()), checked]
    sources = [Source(s.label, s.url) for f in report.findings for s in f.sources if s.url]
    data = replace(chart.data, safety_findings=tuple(m.to_dict() for m in report.mentions()))
    return ToolResult(
        status="ok",
        text="\n".join(lines),
        data=data,
        sources=list(dict.fromkeys(sources + chart.sources)),
        count=1 + len(report.severe),
    )


TOOLS: list[Tool] = [
    Tool(catalog.spec("get_patient_chart"), run_chart),
]
