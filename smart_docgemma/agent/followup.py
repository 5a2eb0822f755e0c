"""The outcome of a clinician's decision on a proposal, in clinical language.

``followup`` is what a resumed turn says happened (the agent's model may say
more around it; without a model it is the whole follow-up): what was written,
with the resource and its Provenance, what the clinician changed first, or
that it was rejected and why. Only what the proposal's own record says.
"""
from __future__ import annotations

from typing import Any


def followup(approval: dict[str, Any]) -> str:
    action = (approval.get("action") or "The proposal").rstrip(".")
    if approval.get("decision") == "approved":
        edited = ""
        if approval.get("changes"):  # the card's edits: {"field", "before", "after"}, oldest first
            edited = " You edited it first: " + "; ".join(
                f"{c['field']} {c['before']} → {c['after']}" for c in approval["changes"]) + "."
        provenance = approval.get("provenance") or "not recorded"
        return (f"Done: {action}. Created {approval.get('result_ref')} in the chart "
                f"(Provenance: {provenance}).{edited}")
    if approval.get("decision") == "rejected":
        return (f"Not done: {action}. You rejected it ({approval.get('reason')}); "
                "nothing was written to the chart.")
    return f"{action}: {approval.get('decision')}."
