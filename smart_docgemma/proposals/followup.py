"""The outcome of a clinician's decision on a proposal, in clinical language.

``followup`` is what a resumed turn says happened (the agent's model may say
more around it; without a model it is the whole follow-up): what was written,
with the resource and its Provenance, what the clinician changed first, or
that it was rejected and why. Only what the proposal's own record says.
"""
from __future__ import annotations

from ..approval.types import Approval
from ..languages import answer_text


def followup(approval: Approval) -> str:
    action = (approval.get("action") or "The proposal").rstrip(".")
    if answer_text("followup", "approved"):
        return _translated(approval, action)
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


def _translated(approval: Approval, action: str) -> str:
    """The same follow-up in this turn's language (``agent/answers/<lang>.yaml``, ``followup``)."""
    def text(key: str) -> str:
        return answer_text("followup", key) or ""

    if approval.get("decision") == "approved":
        changes = "; ".join(f"{c['field']} {c['before']} → {c['after']}"
                            for c in approval.get("changes") or ())
        edited = text("edited").format(changes=changes) if changes else ""
        return text("approved").format(action=action, ref=approval.get("result_ref"), edited=edited,
                                       provenance=approval.get("provenance") or "-")
    if approval.get("decision") == "rejected":
        return text("rejected").format(action=action, reason=approval.get("reason"))
    return f"{action}: {approval.get('decision')}."
