"""Drug knowledge tools: ``check_drug_safety`` and ``check_drug_interactions``.

Both read FDA labeling through openFDA ``/drug/label.json`` (CC0). Searches are
always quoted — an unquoted multi-word value silently matches unrelated labels —
and a space between clauses means OR. One drug has many labels (every repackager
has its own ``set_id``): we keep one label per
``set_id``, the newest ``effective_time``, and prefer one whose harmonised name
matches what was asked. openFDA answers "no match" with HTTP 404, which is an
empty result, not an error.

Interactions combine two sources and say which said what: the offline table
interaction tables of the knowledge core (the ANSM thesaurus and the ONC
high-priority list, ``knowledge.drug_interactions``, work without the network) and each
label's own Drug Interactions, Contraindications and Boxed Warning text searched for the
other drug's name or class. RxNav's interaction API was retired on 2024-01-02 and is not used;
RxNorm spelling suggestions only rescue misspelt names.

``label_safety(http, name)`` is pure (no ToolContext) so CDS Hooks can reuse it.
"""
from __future__ import annotations

from itertools import combinations
from typing import Any

from ... import knowledge
from ...checks.drug_safety import check_in_context
from ...checks.mentions import of_source_failure
from ...errors import SourceError
from ...languages import N_, answer_language, say
from ...languages import message as language_message
from .. import args as tool_args
from .. import catalog
from ..base import Source, Tool, ToolContext, ToolResult
from ..chart.safety import patient_lists
from ..words import dosing
from .druglabel import (
    DISCLAIMER,
    LabelSafety,
)
from .drugreport import (
    interaction_result,
    pair_report,
)
from .http import KnowledgeHttp
from .openfda import (
    clean_name,
    label_safety,
)

# --- check_drug_safety --------------------------------------------------------

def run_drug_safety(args: tool_args.DrugSafetyArgs, ctx: ToolContext) -> ToolResult:
    """This patient's safety check (knowledge core against the chart in context), then boxed
    warning, contraindications, warnings and pregnancy text from the newest FDA label."""
    dosage = dosing.order(args.dose, args.frequency or "", None).dosage if args.dose else None
    return with_patient_check(_label_result(args, ctx), ctx, [args.drug_name], dosage)


def _label_result(args: tool_args.DrugSafetyArgs, ctx: ToolContext) -> ToolResult:
    try:
        info = label_safety(ctx.sources(), args.drug_name)
    except SourceError as err:
        said = err.said(N_("drug-safety information"), N_("Do not assume the drug is safe."))
        return ToolResult(
            status="error",
            error_kind=err.kind,
            data={"said": said},
            text=err.message("drug-safety information", "Do not assume the drug is safe."),
        )
    if info is None:
        return ToolResult(status="empty", count=0, text=(
            f"No FDA drug label was found for \"{args.drug_name}\". Check the spelling or use the "
            "generic name. This is not evidence that the drug is safe."))
    lines = [f"FDA label for {info.name}, effective {info.effective} (set id {info.set_id})."]
    if "Boxed warning" not in info.sections:
        lines.append("Boxed warning: none in this label.")
    lines += [f"{heading}: {text}" for heading, text in info.sections.items()]
    if info.other_set_ids:
        lines.append(
            f"({len(info.other_set_ids)} other label(s) for "
            "this drug were found; this is the best match.)"
        )
    lines.append(DISCLAIMER)
    data = {
        "drug": args.drug_name,
        "set_id": info.set_id,
        "effective_time": info.effective_time,
        "names": {"generic": info.generic_names, "brand": info.brand_names},
        "sections": info.sections,
    }
    return ToolResult(status="ok", text="\n".join(lines), data=data, sources=[info.source], count=1)


def with_patient_check(result: ToolResult, ctx: ToolContext, drugs: list[str],
                       dosage: dict[str, Any] | None = None) -> ToolResult:
    """``result`` led by the patient-safety check of ``drugs`` on the chart in context: its findings
    stand even when a label source failed (a failed source never hides what the chart shows)."""
    report = check_in_context(ctx, drugs, dosage, asking=True)
    if report is None:
        return result
    head = [
        say(
            language_message(N_("Patient safety check against this patient's chart:")),
            answer_language(),
        ),
        *dict.fromkeys(report.lines()),
    ]
    sources = [Source(s.label, s.url) for f in report.findings for s in f.sources if s.url]
    severe = len(report.severe)
    status = "ok" if severe or result.status == "ok" else result.status
    failed = ([of_source_failure(result.text, result.json_data().get("said"))]
              if result.status == "error" and status == "ok" else [])
    data = {
        **result.json_data(),
        "safety_findings": [
            *result.safety_findings(),
            *(m.to_dict() for m in [*report.mentions(), *failed]),
        ],
    }
    return ToolResult(
        status=status,
        text="\n".join(head + ["", result.text]),
        data=data,
        sources=list(dict.fromkeys(sources + result.sources)),
        count=(result.count or 0) + severe,
        error_kind=None if status == "ok" else result.error_kind,
    )


# --- check_drug_interactions ---------------------------------------------------


def run_drug_interactions(args: tool_args.DrugInteractionArgs, ctx: ToolContext) -> ToolResult:
    """Interaction tables (offline) plus FDA-label cross-check for every pair of the asked drugs
    and, with a patient in context, of each asked drug against the patient's active medications and
    allergies."""
    generics: dict[str, str] = {}
    for name in args.drug_names:
        generics.setdefault(knowledge.generic(clean_name(name)) or clean_name(name), name)
    if len(generics) < 2:
        return ToolResult.failure(
            "invalid", "The drug interaction check needs at least two different drugs."
        )
    meds, allergies, chart_note = _chart(ctx)
    active = {g: m for m in meds if (g := knowledge.generic(clean_name(m))) and g not in generics}
    table = [
        i
        for i in knowledge.drug_interactions([*generics, *active], minimum="take into account")
        if i.drug_a in generics or i.drug_b in generics
    ]
    labels, label_error = _labels_for(ctx.sources(), list(generics))
    pairs = [pair_report(a, b, table, labels) for a, b in
             [*combinations(generics, 2), *((a, m) for a in generics for m in active)]]
    result = interaction_result(generics, pairs, table, labels, label_error)
    result = _with_chart(result, generics, [clean_name(m) for m in meds], allergies, chart_note)
    return with_patient_check(result, ctx, list(generics.values()))


def _chart(ctx: ToolContext) -> tuple[list[str], list[str], str]:
    """The launch patient's active medications and allergies, when the grant lets the tool read
    them."""
    scopes = getattr(ctx, "scopes", None)
    if not (ctx.patient_id and ctx.fhir and scopes and scopes.allows("MedicationRequest", "r")
            and scopes.allows("AllergyIntolerance", "r")):
        return [], [], ""
    meds, allergies, flags = patient_lists(ctx, shared=True)
    return meds, allergies, " ".join(f["text"] for f in flags)


def _with_chart(
    result: ToolResult, generics: dict[str, Any], active: list[str], allergies: list[str], note: str
) -> ToolResult:
    """The asked drugs' allergy conflicts first, and which of the patient's records were checked."""
    lines = [
        f"ALLERGY ({c.severity.upper()}) — {drug}: documented {c.allergy} allergy; {c.reason}."
        for drug in generics
        for a in allergies
        for c in knowledge.allergy_conflicts(a, drug)[:1]
    ]
    if active or allergies:
        none = say(language_message(N_("none")), answer_language())
        lines.append(
            say(
                language_message(
                    N_(
                        "Checked against the patient's active medications (%(meds)s) and recorded "
                        "allergies (%(allergies)s)."
                    ),
                    meds=", ".join(active) or none,
                    allergies=", ".join(allergies) or none,
                ),
                answer_language(),
            )
        )
    if note:
        lines.append(note)
    if not lines:
        return result
    allergy_hits = sum(line.startswith("ALLERGY") for line in lines)
    status = "ok" if allergy_hits else result.status
    return ToolResult(
        status=status,
        text="\n".join(lines + [result.text]),
        count=(result.count or 0) + allergy_hits,
        error_kind=None if status == "ok" else result.error_kind,
        data=result.data,
        sources=result.sources,
    )


def _labels_for(
    http: KnowledgeHttp, generics: list[str]
) -> tuple[dict[str, Any], SourceError | None]:
    labels: dict[str, LabelSafety | None] = {}
    for g in generics:
        try:
            labels[g] = label_safety(http, g)
        except SourceError as err:
            return {}, err
    return labels, None



TOOLS: list[Tool] = [
    Tool(catalog.spec("check_drug_safety"), run_drug_safety),
    Tool(catalog.spec("check_drug_interactions"), run_drug_interactions),
]
