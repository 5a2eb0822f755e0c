"""What a token may see in a FHIR response: the proxy's last line of defence.

Request checks (``policy.py``) decide what is asked of HAPI; this module checks
what comes back, so a search parameter, include, page or Bundle entry the
request checks did not foresee still cannot hand another patient's data to the
client. Every resource in a response, however deeply nested in Bundles
(searchset, history, batch-response, included and ``_revinclude``d entries,
continuation pages), is kept only when the grant covers its type at user or
system level, or at patient level and the resource lies in the launch
patient's compartment (``policy.in_compartment``; types in ``policy.PUBLIC``
such as Practitioner or Medication lie in none and are kept).
"""
from __future__ import annotations

from .policy import Grant, in_compartment

WITHHELD = {"status": "403 Forbidden", "outcome": {
    "resourceType": "OperationOutcome",
    "issue": [{"severity": "error", "code": "forbidden",
               "diagnostics": "Withheld: outside the launch patient's compartment."}]}}
# A searchset that lost entries says so (search mode "outcome"), so a client never takes a
# screened page for the whole answer.
NOTICE = {"search": {"mode": "outcome"}, "resource": {
    "resourceType": "OperationOutcome",
    "issue": [{"severity": "warning", "code": "suppressed",
               "diagnostics": "Some resources were withheld: they lie outside "
                              "what this token may see (or lack the element that "
                              "places them in the launch patient's compartment)."}]}}
_POSITIONAL = ("batch-response", "transaction-response")  # entries answer request entries in order


def visible(resource: dict, grant: Grant, fetch) -> bool:
    """True when ``grant`` may see ``resource`` (module doc)."""
    rtype = resource.get("resourceType")
    if rtype == "OperationOutcome":
        return True
    levels = {s.level for s in grant.scopes if s.type in ("*", rtype)}
    if levels & {"user", "system"}:
        return True
    return (
        "patient" in levels
        and bool(grant.patient)
        and in_compartment(resource, grant.patient, fetch)
    )


def screen(body, grant: Grant, fetch):
    """``body`` without what ``grant`` may not see; None when the body itself is withheld."""
    if not isinstance(body, dict):
        return None
    if body.get("resourceType") == "Bundle":
        return _screen_bundle(body, grant, fetch)
    return body if visible(body, grant, fetch) else None


def _screen_bundle(bundle: dict, grant: Grant, fetch) -> dict:
    positional = bundle.get("type") in _POSITIONAL
    kept, dropped = [], False
    for entry in bundle.get("entry") or []:
        if not isinstance(entry, dict):
            continue
        if "resource" not in entry:
            kept.append(entry)
            continue
        resource = screen(entry["resource"], grant, fetch)
        if resource is not None:
            kept.append({**entry, "resource": resource})
        elif positional:
            kept.append({"response": WITHHELD})
        else:
            dropped = True
    if dropped and bundle.get("type") == "searchset":
        kept.append(NOTICE)
    screened = {k: v for k, v in bundle.items() if k != "entry"}
    if kept:
        screened["entry"] = kept
    return screened
