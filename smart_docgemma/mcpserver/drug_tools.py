"""The knowledge core as MCP tools: ``identify_drug`` and ``check_medication_for_patient``
(the checks of one drug against the chart).

Both are MCP-only (``surfaces: [mcp]`` in ``tools/catalog.yaml``) and run nothing new.
``identify_drug`` is ``knowledge.identify`` with the classes of what it found. For
``check_medication_for_patient`` the chart is gathered as the order-select CDS service
gathers it (``checks/services.yaml``'s prefetch, fetched with the exchanged FHIR token) and the
drug, as a draft MedicationRequest, goes through the same rules (``checks.rules.order_checks``:
identity, interactions and duplicates with active medications, allergy cross-reactivity,
pregnancy and breastfeeding, eGFR and other results, due monitoring, boxed warning).
Findings come back most severe first with their evidence and sources; chart data that could
not be read is said, never taken as "nothing found".
"""

from __future__ import annotations

from .. import knowledge
from ..checks import context as cds_context
from ..checks import rules
from ..checks.context import services
from ..checks.findings import Problem, fit_summary, group
from ..tools import catalog
from ..tools.args import DrugIdentityArgs, MedicationCheckArgs
from ..tools.base import Source, Tool, ToolContext, ToolResult
from ..tools.writes.orders import rxnorm_coding

SERVICE = "docgemma-order-select"


def run_medication_check(args: MedicationCheckArgs, ctx: ToolContext) -> ToolResult:
    """The order-select checks for ``args.medication_name`` on the patient in context."""
    if not ctx.patient_id or ctx.fhir is None:
        return ToolResult.failure(
            "forbidden",
            "No patient is in context, so the medication could not be checked against a chart.",
        )
    data = _chart(ctx)
    problems = group(rules.order_checks([_draft(args.medication_name, ctx.patient_id)], data))
    unread = [
        f"The patient's {key} could not be read, so the checks that need them did not run."
        for key in sorted(data.missing)
    ]
    lines = [_line(p) for p in problems] + unread
    if not problems:
        lines.insert(
            0,
            f"No problem found for {args.medication_name} against this patient's "
            "active medications, allergies, conditions and results that could be read.",
        )
    sources = list(
        dict.fromkeys(Source(s.label, s.url) for p in problems for s in p.sources if s.url)
    )
    return ToolResult(
        status="ok" if problems else "empty",
        text="\n".join(lines),
        sources=sources,
        count=len(problems),
        data={
            "problems": [_problem(p) for p in problems],
            "unavailable": {k: "could not be read" for k in sorted(data.missing)},
        },
    )


def _chart(ctx: ToolContext) -> cds_context.HookData:
    """The order-select prefetch for the patient, fetched through the context's FHIR token."""
    fhir = ctx.gateway()
    body = {
        "fhirServer": fhir.base_url,
        "context": {"patientId": ctx.patient_id},
        "fhirAuthorization": {"access_token": fhir.server.auth.access_token},
    }
    templates = services()[SERVICE]["prefetch"]
    return cds_context.gather(
        body, templates, required=set(), timeout_s=float(ctx.config.get("HTTP_TIMEOUT_S", 15))
    )


def _draft(name: str, patient_id: str) -> dict:
    coding = rxnorm_coding(name)
    return {
        "resourceType": "MedicationRequest",
        "id": "considered",
        "status": "draft",
        "intent": "proposal",
        "subject": {"reference": f"Patient/{patient_id}"},
        "medicationCodeableConcept": {"text": name, **({"coding": [coding]} if coding else {})},
    }


def _line(problem: Problem) -> str:
    """The problem's lead finding with its management and evidence, then every other finding of
    warning or above on the same draft (a card holds them all; the client sees them all)."""
    lead = problem.lead
    text = f"{problem.severity.upper()}: {fit_summary(lead.summaries)}"
    details = [lead.management, *lead.evidence]
    also = [f"{f.severity.upper()}: {fit_summary(f.summaries)}" for f in problem.findings
            if f is not lead and f.severity in ("critical", "warning")]
    return text + "".join(f"\n- {d}" for d in details if d) + "".join(f"\n{a}" for a in also)


def _problem(problem: Problem) -> dict:
    lead = problem.lead
    return {
        "severity": problem.severity,
        "topic": lead.topic,
        "summary": fit_summary(lead.summaries),
        "mechanism": lead.mechanism,
        "management": lead.management,
        "evidence": lead.evidence,
        "sources": [{"label": s.label, "url": s.url} for s in problem.sources],
        "findings": [{"severity": f.severity, "topic": f.topic, "summary": fit_summary(f.summaries)}
                     for f in problem.findings],
    }


RXNAV = "https://mor.nlm.nih.gov/RxNav/search?searchBy=RXCUI&searchTerm="


def run_identify(args: DrugIdentityArgs, ctx: ToolContext) -> ToolResult:
    """The knowledge core's identity of a drug name (offline tables; no chart, no network)."""
    ident = knowledge.identify(text=args.drug_name)
    if not ident.identified:
        maybe = f" Did you mean {' or '.join(ident.candidates)}?" if ident.candidates else ""
        return ToolResult(
            status="empty",
            count=0,
            data={"identified": False, "reason": ident.reason},
            text=f"{args.drug_name} could not be identified ({ident.reason}), so no "
            f"check that needs its identity can run on it.{maybe}",
        )
    classes = sorted(knowledge.class_label(c) for c in knowledge.drug_classes(ident.name))
    parts = [f"{i.name} (RxNorm {i.rxcui})" if i.rxcui else i.name for i in ident.ingredients]
    details = [
        f"brand {ident.brand}" if ident.brand else "",
        ident.strength or "",
        ident.dose_form or "",
    ]
    fda = sorted({c for i in ident.ingredients for c in knowledge.pharmacologic(i.name)})
    lines = [
        f"{args.drug_name}: " + " + ".join(parts) + "".join(f", {d}" for d in details if d),
        "Classes: " + (", ".join(classes) or "none in the knowledge core's tables"),
        "FDA pharmacologic class: " + (", ".join(fda) or "none listed"),
    ]
    sources = [Source(f"RxNorm: {i.name}", RXNAV + i.rxcui) for i in ident.ingredients if i.rxcui]
    data = {
        "identified": True,
        "ingredients": [{"name": i.name, "rxcui": i.rxcui} for i in ident.ingredients],
        "brand": ident.brand,
        "strength": ident.strength,
        "classes": classes,
        "pharmacologic_classes": fda,
    }
    return ToolResult(
        status="ok", text="\n".join(lines), data=data, sources=sources, count=len(parts)
    )


TOOLS: list[Tool] = [
    Tool(catalog.spec("check_medication_for_patient"), run_medication_check),
    Tool(catalog.spec("identify_drug"), run_identify),
]
