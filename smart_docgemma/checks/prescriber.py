"""Who may approve an order: a prescriber (an ordering clinician).

Prescriptions (MedicationRequest), lab orders and referrals (ServiceRequest) need one; any
clinician may record what they observed (a vital sign, an allergy, a note).

The launch's ``fhirUser`` is resolved to a Practitioner; its qualifications (and the codes and
texts of its PractitionerRoles) are matched against ``PRESCRIBER_QUALIFICATIONS`` (words such
as "physician", "nurse practitioner", or codes); ``PRESCRIBERS`` lists fhirUser references an
EHR without qualification data vouches for. Anyone else may propose a prescription and keep it
as a pending draft for a prescriber; the proposal store refuses their approval (403).
"""

from __future__ import annotations

import logging
import re
import threading
import time
from dataclasses import dataclass

from flask import current_app, has_app_context

from .. import errors
from ..config import DEFAULTS

log = logging.getLogger(__name__)
# the orders only an ordering clinician approves
PRESCRIPTIONS = ("MedicationRequest", "ServiceRequest")
TTL_S = 300  # a role is re-read at most every five minutes per session
# per (session, user); an entry older than TTL_S is dropped when another is kept, so a worker
# holds the sessions of the last five minutes, not every session it has served
_seen: dict[tuple[str, str], tuple[float, Verdict]] = {}
_seen_lock = threading.Lock()


@dataclass(frozen=True)
class Verdict:
    allowed: bool
    reason: str  # shown on the card and in the 403
    kept: bool = True  # False when the record could not be read: an outage is not remembered


def verdict(launch) -> Verdict:
    """Whether the launch's user may approve a prescription, and why not."""
    user = launch.user or ""
    if user in (_config("PRESCRIBERS") or []):
        return Verdict(True, f"{user} is a configured prescriber")
    if not user.startswith(("Practitioner/", "PractitionerRole/")):
        return Verdict(
            False,
            "Only a prescriber (an ordering clinician) can approve a "
            "prescription, lab order or referral; this login is not a "
            "practitioner. The proposal stays saved as a draft for a prescriber.",
        )
    key = (launch.sid, user)  # read once per session (the card shown before approval reads it)
    cached = _seen.get(key)
    if cached and time.monotonic() - cached[0] < TTL_S:
        return cached[1]
    found = _resolve(launch, user)
    if found.kept:  # a FHIR outage must not block approvals for TTL_S once the server is back
        _keep(key, found)
    return found


def _keep(key: tuple[str, str], found: Verdict) -> None:
    now = time.monotonic()
    with _seen_lock:
        for old in [k for k, (at, _) in _seen.items() if now - at >= TTL_S]:
            del _seen[old]
        _seen[key] = (now, found)


def _config(key: str):
    """The app's setting; the defaults when the store runs outside an app (tests, scripts)."""
    return current_app.config.get(key, DEFAULTS[key]) if has_app_context() else DEFAULTS[key]


def require(launch, resource_type: str) -> None:
    """Raise Forbidden when a prescription is approved by someone who is not a prescriber."""
    if resource_type in PRESCRIPTIONS:
        found = verdict(launch)
        if not found.allowed:
            raise errors.Forbidden(found.reason)


def _resolve(launch, user: str) -> Verdict:
    words = [w.lower() for w in _config("PRESCRIBER_QUALIFICATIONS") or []]
    try:
        texts = _role_texts(launch.fhir, user)
    except errors.DocGemmaError as exc:
        log.info("prescriber check: %s could not be read (%s)", user.split("/")[0], exc.error)
        return Verdict(
            False,
            "Only a prescriber (an ordering clinician) can approve a "
            "prescription, lab order or referral, and this login's practitioner "
            "record could not be read. The proposal stays saved as a draft for a prescriber.",
            kept=False,
        )
    if any(re.search(rf"(?<![a-z0-9]){re.escape(w)}(?![a-z0-9])", t) for t in texts for w in words):
        return Verdict(True, "prescribing qualification on record")
    shown = "; ".join(t for t in texts if t) or "none recorded"
    return Verdict(
        False,
        "Only a prescriber (an ordering clinician) can approve a "
        "prescription, lab order or referral (this login's qualification: "
        f"{shown}). The proposal stays saved as a draft for a prescriber.",
    )


def _role_texts(fhir, user: str) -> list[str]:
    """Lower-case texts and codes of the user's qualifications and roles."""
    rtype, rid = user.split("/", 1)
    resources = [fhir.read(rtype, rid)]
    if rtype == "Practitioner":
        try:
            resources += fhir.search("PractitionerRole", {"practitioner": rid}, max_pages=1)
        except errors.DocGemmaError:
            pass  # qualifications alone decide when roles cannot be searched
    concepts = [q.get("code") or {} for r in resources for q in r.get("qualification") or []]
    concepts += [c for r in resources for c in (r.get("code") or []) + (r.get("specialty") or [])]
    out = []
    for concept in concepts:
        out.append((concept.get("text") or "").lower())
        out += [
            f"{c.get('code', '')} {c.get('display', '')}".strip().lower()
            for c in concept.get("coding") or []
        ]
    return [t for t in out if t]
