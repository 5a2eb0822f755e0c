"""``draft_document``: a document composed from the chart (``drafts.compose``) proposed as an
editable approval card; Approve writes it once with its Provenance (``proposals/store.py``).

A discharge summary, progress note or handoff is a ``DocumentReference`` of its LOINC type
holding the draft as text; a referral is its ``ServiceRequest`` with the letter (a referral-note
``DocumentReference``) contained and named in ``supportingInfo``, so the order and its letter
are one write. A follow-up ("make it urgent", "add the potassium") drafts again and withdraws
the card it replaces. A request naming a birth date other than the chart's drafts nothing.
"""

from __future__ import annotations

import base64
from dataclasses import replace
from datetime import date
from typing import Any, cast

from ... import errors
from ...approval.types import ProposalSummary, SafetyFlag
from ...checks.drug_safety import check_in_context, review_in_context
from ...checks.findings import RANK
from .. import args as tool_args
from .. import catalog
from ..base import Tool, ToolContext, ToolResult
from ..chart.chart import chart_data, fetch_chart
from ..chart.chartdata import ChartData
from ..words import arguments, ward_words
from ..words.dosing import SNOMED
from . import draft_words, drafts
from .draft import now, practitioner, propose, refuse
from .ward_orders import REFERRAL_CATEGORY, service_request

TOOL = "draft_document"
CATEGORY = {
    "system": "http://hl7.org/fhir/us/core/CodeSystem/us-core-documentreference-category",
    "code": "clinical-note",
    "display": "Clinical Note",
}


def document(ctx: ToolContext, draft: drafts.Draft) -> dict[str, Any]:
    kind = drafts.document_type(draft.kind)
    resource: dict[str, Any] = {
        "resourceType": "DocumentReference",
        "status": "current",
        "docStatus": "preliminary",
        "type": {"coding": [kind], "text": kind["display"]},
        "category": [{"coding": [CATEGORY]}],
        "subject": {"reference": f"Patient/{ctx.patient_id}"},
        "date": now(),
        "description": f"{draft.title}, drafted from the chart with the DocGemma assistant",
        "content": [
            {
                "attachment": {
                    "contentType": "text/plain; charset=utf-8",
                    "title": draft.title,
                    "data": base64.b64encode(draft.text().encode()).decode(),
                }
            }
        ],
    }
    if practitioner(ctx):
        resource["author"] = [practitioner(ctx)]
    return resource


def referral(
    ctx: ToolContext, draft: drafts.Draft, args: tool_args.DraftDocumentArgs
) -> dict[str, Any] | None:
    key = arguments.specialty(args.specialty)
    if key is None:
        return None
    spec = ward_words.specialty(key)
    code = {
        "coding": [{"system": SNOMED, "code": spec["code"], "display": spec["display"]}],
        "text": spec["display"],
    }
    resource = service_request(ctx, code, REFERRAL_CATEGORY, args.priority, reason=draft.reason)
    letter = {**document(ctx, draft), "id": "letter"}
    resource["contained"] = [letter]
    resource["supportingInfo"] = [{"reference": "#letter", "display": "Referral letter"}]
    return resource


def _wrong_patient(chart: ChartData, args: tool_args.DraftDocumentArgs) -> str | None:
    """Why the request is not about the patient in context (another name or birth date), or None."""
    p = chart.patient
    other_birth = bool(args.birth_date and p.birth_date and args.birth_date != p.birth_date[:10])
    words = drafts.says_all(p.name, (args.patient_name or "").split())
    if not other_birth and words:
        return None
    named = " ".join(
        x for x in (args.patient_name or "", f"born {args.birth_date}" if other_birth else "") if x
    )
    return (
        f"This chart is {p.name}, born {p.birth_date}; the request names {named}. Nothing was "
        "drafted: open that patient's chart to draft for them."
    )


def run_draft(args: tool_args.DraftDocumentArgs, ctx: ToolContext) -> ToolResult:
    refused = refuse(
        args, ctx, "ServiceRequest" if args.kind == "referral" else "DocumentReference"
    )
    if refused:
        return refused
    try:
        chart = chart_data(fetch_chart(ctx.gateway(), args.patient_id, scopes=ctx.scopes))
    except errors.DocGemmaError as exc:
        return ToolResult.failure(
            "upstream", f"The chart could not be read ({exc.description}); nothing was drafted."
        )
    wrong = _wrong_patient(chart, args)
    if wrong:
        return ToolResult.failure("forbidden", wrong)
    req = drafts.DraftRequest(
        args.kind, args.request, args.specialty, args.priority, args.reason, tuple(args.include),
        brief=args.brief, additions=tuple(args.additions),
    )
    review = _review_lines(ctx)
    draft = draft_words.render(drafts.compose(req, chart, date.today(), review=review),
                               args.language)
    resource = referral(ctx, draft, args) if args.kind == "referral" else document(ctx, draft)
    if resource is None:
        # no specialty read at all is said so, never as the word "None" in quotes
        unknown = (f'"{args.specialty}" is not a specialty this site\'s referral table knows'
                   if args.specialty else "No specialty this site's referral table knows was named")
        return ToolResult.failure(
            "invalid", f"{unknown}, so no referral was drafted. Please name the specialty."
        )
    flags, notes = checked(ctx, args.drugs)
    summary = {**_summary(draft, args), "flags": flags}
    result = propose(ctx, TOOL, resource, cast(ProposalSummary, summary), draft.title.lower())
    if result.status == "proposal" and args.supersedes and ctx.proposals is not None:
        ctx.store().withdraw_ids(list(args.supersedes), reason="Replaced by the revised draft")
    # the card's flags carry the review's findings and its "Checked" fields the notices: the
    # text adds the problems, the medications, the latest results with their dates, the
    # allergies and what the named drugs' check did not cover, each said once
    said = [drafts.problem_line(chart), drafts.medication_line(chart), drafts.results_line(chart),
            drafts.allergy_line(chart), *notes]
    said += [draft_words.note(args.language)] if args.language != "en" else []
    if result.status == "proposal":
        result = replace(result, text=result.text + "\n" + "\n".join(said))
    return result


def checked(ctx: ToolContext, drugs: list[str]) -> tuple[list[SafetyFlag], list[str]]:
    """What the clinician signs beside a document that lists her medications: the whole-list
    review of them, and the check of each drug the request names ("going home on
    co-amoxiclav"), each finding once, most severe first (a document lists the medications,
    so their dangers are shown with it, never only in another answer); with the named drugs'
    other lines (what the check did not cover, a child's dose by weight)."""
    report = review_in_context(ctx)
    flags = cast(list[SafetyFlag], report.flags()) if report else []
    named = check_in_context(ctx, drugs, asking=True) if drugs else None
    flags += cast(list[SafetyFlag], named.flags()) if named else []
    notes = named.lines()[len(named.shown()):] if named else []
    seen: set[tuple[str, str]] = set()
    out = []
    for flag in flags:
        if (flag["severity"], flag["text"]) not in seen:
            seen.add((flag["severity"], flag["text"]))
            out.append(flag)
    return sorted(out, key=lambda f: RANK.get(f["severity"], 2)), notes


def _review_lines(ctx: ToolContext) -> tuple[str, ...]:
    """The whole-list review of her medications, as the chart's answer words it, for the
    document's own section: every document drafted here shows her medication list, and a list
    shown to the next prescriber carries its dangers (warfarin with aspirin, an INR above
    range). A review that could not run is said, never left out."""
    report = review_in_context(ctx)
    if report is None:
        return ("The medication review could not run: no patient in context.",)
    head = f"Medication review of {len([d for d in report.drugs if d])} active medication(s):"
    return (head, *dict.fromkeys(report.lines()))


def _summary(draft: drafts.Draft, args: tool_args.DraftDocumentArgs) -> ProposalSummary:
    fields = [
        (
            "Document",
            f"{drafts.document_type(draft.kind)['display']} "
            f"(LOINC {drafts.document_type(draft.kind)['code']})",
        )
    ]
    if args.kind == "referral":
        fields += [
            ("Specialty", args.specialty or ""),
            ("Priority", args.priority or "routine"),
            ("Reason", draft.reason),
        ]
    fields += [("Checked", n) for n in draft.notices]
    if args.supersedes:
        fields.append(("Replaces", "the earlier draft, withdrawn"))
    return {
        "title": f"Save {draft.title}",
        "kind": "note",
        "fields": fields,
        "preview": draft.text()[:4000],
        "flags": [],
        "draft": args.model_dump(exclude={"supersedes", "birth_date", "patient_name"}),
    }


TOOLS: list[Tool] = [Tool(catalog.spec(TOOL), run_draft)]
