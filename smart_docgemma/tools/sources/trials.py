"""``find_clinical_trials``: ClinicalTrials.gov API v2 ``GET /studies``.

The classic API is retired; v2 takes ``query.cond`` for the condition,
``filter.overallStatus`` (comma list of enum values), ``pageSize``,
``countTotal=true`` (the total comes on the first page only) and a ``fields``
projection — with ``fields`` only the requested branches come back, so every
module is optional when reading. Each trial is cited as
``https://clinicaltrials.gov/study/<NCT id>``.
"""
from __future__ import annotations

from typing import Any

from ...errors import SourceError
from .. import args as tool_args
from .. import catalog
from ..base import Source, Tool, ToolContext, ToolResult

PAGE_SIZE = 5
MAX_LOCATIONS = 3
STUDY_URL = "https://clinicaltrials.gov/study/{}"
FIELDS = ",".join(
    (
        "NCTId",
        "BriefTitle",
        "OverallStatus",
        "Phase",
        "StudyType",
        "Condition",
        "InterventionName",
        "LeadSponsorName",
        "EnrollmentCount",
        "BriefSummary",
        "StartDate",
        "CompletionDate",
        "MinimumAge",
        "MaximumAge",
        "LocationFacility",
        "LocationCity",
        "LocationState",
        "LocationCountry",
    )
)
# args.status → (filter.overallStatus, words for the text). No status means "recruiting":
# a clinician looking for trials usually wants ones a patient can join.
STATUS_FILTER = {
    "recruiting": ("RECRUITING", "recruiting"),
    "active": (
        "RECRUITING,NOT_YET_RECRUITING,ENROLLING_BY_INVITATION,ACTIVE_NOT_RECRUITING",
        "open or active",
    ),
    "completed": ("COMPLETED", "completed"),
    "any": (None, "registered"),
}


def search_params(condition: str, status: str | None) -> dict[str, Any]:
    overall, _ = STATUS_FILTER[status or "recruiting"]
    params = {
        "query.cond": condition,
        "pageSize": PAGE_SIZE,
        "countTotal": "true",
        "fields": FIELDS,
    }
    if overall:
        params["filter.overallStatus"] = overall
    return params


def _phase(phases: list[str]) -> str:
    names = [
        p.replace("EARLY_PHASE", "Early phase ").replace("PHASE", "Phase ").replace("NA", "N/A")
        for p in phases or []
    ]
    return "/".join(names) or "not stated"


def summarise(study: dict[str, Any]) -> dict[str, Any]:
    """The parts of one study a clinician needs, every module treated as optional."""
    ps = study.get("protocolSection") or {}
    ident, status = ps.get("identificationModule") or {}, ps.get("statusModule") or {}
    design, elig = ps.get("designModule") or {}, ps.get("eligibilityModule") or {}
    locations = (ps.get("contactsLocationsModule") or {}).get("locations") or []
    return {
        "nct_id": ident.get("nctId", ""),
        "title": ident.get("briefTitle", ""),
        "status": (status.get("overallStatus") or "").replace("_", " ").capitalize(),
        "phase": _phase(design.get("phases") or []),
        "type": (design.get("studyType") or "").capitalize(),
        "enrollment": (design.get("enrollmentInfo") or {}).get("count"),
        "sponsor": ((ps.get("sponsorCollaboratorsModule") or {}).get("leadSponsor") or {}).get(
            "name", ""
        ),
        "conditions": (ps.get("conditionsModule") or {}).get("conditions") or [],
        "interventions": [
            i.get("name", "")
            for i in (ps.get("armsInterventionsModule") or {}).get("interventions") or []
        ],
        "ages": " to ".join(a for a in (elig.get("minimumAge"), elig.get("maximumAge")) if a),
        "summary": ((ps.get("descriptionModule") or {}).get("briefSummary") or "").strip(),
        "locations": [
            ", ".join(
                x
                for x in (
                    loc.get("facility"),
                    loc.get("city"),
                    loc.get("state"),
                    loc.get("country"),
                )
                if x
            )
            for loc in locations
        ],
    }


def _line(n: int, t: dict[str, Any]) -> str:
    facts = [f"Status: {t['status']}", f"Phase: {t['phase']}"]
    facts += [f"Sponsor: {t['sponsor']}"] if t["sponsor"] else []
    facts += [f"Enrolment: {t['enrollment']}"] if t["enrollment"] else []
    facts += [f"Interventions: {', '.join(t['interventions'][:3])}"] if t["interventions"] else []
    facts += [f"Ages: {t['ages']}"] if t["ages"] else []
    out = f"{n}. {t['nct_id']} — {t['title']}. " + "; ".join(facts) + "."
    if t["locations"]:
        more = len(t["locations"]) - MAX_LOCATIONS
        out += (
            "\n   Locations: "
            + "; ".join(t["locations"][:MAX_LOCATIONS])
            + (f" (+{more} more)" if more > 0 else "")
        )
    if t["summary"]:
        summary = t["summary"]
        out += "\n   Summary: " + (
            summary[:220].rsplit(" ", 1)[0] + " …" if len(summary) > 220 else summary
        )
    return out


def run_trials(args: tool_args.ClinicalTrialsArgs, ctx: ToolContext) -> ToolResult:
    """Trials for the condition, filtered by status, each with its registry link."""
    _, words = STATUS_FILTER[args.status or "recruiting"]
    try:
        body = (
            ctx.sources().get_json("ctgov", "/studies", search_params(args.condition, args.status))
            or {}
        )
    except SourceError as err:
        return ToolResult.failure(
            err.kind, err.message("the clinical-trials search", "Do not name trials from memory.")
        )
    trials = [summarise(s) for s in (body.get("studies") or [])[:PAGE_SIZE]]
    if not trials:
        return ToolResult(
            status="empty",
            count=0,
            text=f'No {words} trials were found on ClinicalTrials.gov for "{args.condition}".',
        )
    total = body.get("totalCount", len(trials))
    lines = [f"ClinicalTrials.gov: {total} {words} trials for \"{args.condition}\"; "
             f"the first {len(trials)}:"]
    lines += [_line(i, t) for i, t in enumerate(trials, 1)]
    sources = [
        Source(f"{t['nct_id']}: {t['title'][:90]}", STUDY_URL.format(t["nct_id"])) for t in trials
    ]
    return ToolResult(status="ok", text="\n".join(lines), count=len(trials), sources=sources,
                      data={"total": total, "status_filter": words, "trials": trials})


TOOLS: list[Tool] = [
    Tool(catalog.spec("find_clinical_trials"), run_trials),
]
