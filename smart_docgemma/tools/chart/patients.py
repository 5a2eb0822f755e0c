"""``search_patient``: find a patient by name (and birth date) in the EHR.

What may be searched depends on the grant (SMART App Launch 2.x §Scopes):

- user-level access to Patient (``user/Patient.rs``): a FHIR search
  ``Patient?name=…&birthdate=…`` with a small ``_count``; one ``name``
  parameter per word, so "James Wilson" needs both words to match a name part
  (repeated parameters are ANDed, FHIR R4 §3.1.1.5.1);
- patient-level access only: the launch patient is the only patient this
  session may see. We never search: we read the launch patient and say
  plainly whether the name matches; anyone else is refused in words.

Several matches are ``ambiguous``: the agent asks the clinician which one
(asking the clinician is decided by code, never by the model).
"""
from __future__ import annotations

import re
from typing import Any

from ... import errors
from ...fhir import absolute
from ...languages import N_, answer_language, message, say
from .. import args as tool_args
from .. import catalog
from ..base import Source, Tool, ToolContext, ToolResult
from .chart import patient_facts

MAX_MATCHES = 10


def _words(text: str) -> list[str]:
    return [w for w in re.split(r"[\s,]+", (text or "").strip()) if w]


def _line(facts: dict[str, Any]) -> str:
    mrn = f", MRN {facts['mrn']}" if facts["mrn"] else ""
    return f"{facts['name']}, born {facts['birth_date'] or 'unknown'}{mrn} (id {facts['id']})"


def _name_matches(patient: dict[str, Any], name: str, birth_date: str | None) -> bool:
    parts = {p.lower() for n in patient.get("name") or []
             for p in [*n.get("given", []), n.get("family", ""), *_words(n.get("text", ""))] if p}
    ok = all(any(p.startswith(w.lower()) for p in parts) for w in _words(name))
    born = patient.get("birthDate") or ""
    return ok and (not birth_date or any(born.startswith(d) for d in birth_date.split(",")))


def _result(patients: list[dict[str, Any]], base_url: str, asked: str) -> ToolResult:
    """One match, several (ambiguous: the clinician chooses), or "Patient not found"."""
    facts = [patient_facts(p) for p in patients]
    sources = [
        Source(
            say(message(N_("Patient record: %(name)s"), name=f["name"]), answer_language()),
            absolute(base_url, f"Patient/{f['id']}"),
        )
        for f in facts
    ]
    data = {"matches": facts}
    if not facts:
        return ToolResult(
            status="empty",
            text=f"Patient not found: no patient named {asked} in the EHR.",
            data=data,
            count=0,
        )
    if len(facts) == 1:
        return ToolResult(status="ok", text="One patient found: " + _line(facts[0]), data=data,
                          sources=sources, count=1)
    lines = [f"{i}. {_line(f)}" for i, f in enumerate(facts, 1)]
    return ToolResult(
        status="ambiguous", text="\n".join(lines), data=data, sources=sources, count=len(facts)
    )


def _launch_patient_only(args: tool_args.PatientSearchArgs, ctx: ToolContext) -> ToolResult:
    """Patient-level grant: the launch patient or nobody; never a search."""
    if not ctx.patient_id:
        return ToolResult.failure(
            "forbidden",
            "This session has no patient in context and may not search "
            "for patients. Open the assistant from a patient's chart.",
        )
    patient = ctx.gateway().read("Patient", ctx.patient_id)
    if _name_matches(patient, args.name, args.birth_date):
        return _result([patient], ctx.gateway().base_url, args.name)
    facts = patient_facts(patient)
    return ToolResult.failure(
        "forbidden",
        f"This session is limited to the patient in context: {_line(facts)}. "
        f"Other patients, such as {args.name}, cannot be looked up here; "
        "open their chart in the EHR to ask about them.",
    )


def _search(ctx: ToolContext, args: tool_args.PatientSearchArgs) -> list[dict[str, Any]]:
    """``Patient?name=…&birthdate=…``, once per reading of the birth date (a date search takes
    no "or" on HAPI), the patients found by either kept once."""
    found: dict[str, dict[str, Any]] = {}
    for born in (args.birth_date or "").split(","):
        params: dict[str, Any] = {"name": _words(args.name), "_count": MAX_MATCHES}
        if born:
            params["birthdate"] = born
        for p in ctx.gateway().search("Patient", params, max_pages=1):
            found.setdefault(str(p.get("id")), p)
    return list(found.values())[:MAX_MATCHES]


def run_search_patient(args: tool_args.PatientSearchArgs, ctx: ToolContext) -> ToolResult:
    """Search by name (and birth date) within what the grant allows."""
    try:
        if ctx.scopes is None or not ctx.scopes.allows("Patient", "s", level="user"):
            return _launch_patient_only(args, ctx)
        found = _search(ctx, args)
        born = f", born {args.birth_date.replace(',', ' or ')}" if args.birth_date else ""
        return _result(found, ctx.gateway().base_url, args.name + born)
    except errors.NotFound:
        return ToolResult.failure("not_found", "The patient in context was not found in the EHR.")
    except (errors.Forbidden, errors.SessionExpired) as exc:
        return ToolResult.failure("forbidden", exc.description)
    except errors.DocGemmaError:
        return ToolResult.failure(
            "unreachable",
            "The patient lookup was temporarily unavailable. Please try again shortly.",
        )


TOOLS: list[Tool] = [
    Tool(catalog.spec("search_patient"), run_search_patient),
]
