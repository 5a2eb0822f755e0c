"""``AuditTrail``: records every access to patient data and every accountable action.

A trail is bound to one actor (a launch session, or one CDS hook call) and is handed to the
FHIR gateway that session uses, so a read cannot bypass it: ``FhirGateway`` reports each
read, search and create here after the server answered and before the data is returned.

When the record cannot be stored, the policy decides (``AUDIT_ON_FAILURE``):

- ``refuse`` (default): the data is withheld and the caller gets ``AuditUnavailable`` (503).
  A hospital must be able to say who saw a chart; data that leaves no trace is the worse
  failure, and the chart is still in the EHR for the clinician to open there.
- ``log``: the data is returned; the failure is logged with the record's facts (never the
  data) and counted in ``docgemma_audit_failures``, for sites whose audit database is
  secondary to the EHR's own log.

App actions (an answer shown, a proposal decided…) under ``refuse`` raise the same error
after the action, so the clinician sees that the audit trail failed.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from dataclasses import dataclass, replace
from urllib.parse import urlencode

from .. import errors, metrics
from .events import MAX_REFS, OUTCOMES, Access, Actor, outcome_of, question_detail, to_audit_event
from .store import AuditStore

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Policy:
    """What the trail keeps and what happens when it cannot keep it (``config.py``: AUDIT_*)."""

    question: str = "omit"  # omit | hash | full
    on_failure: str = "refuse"  # refuse | log
    to_ehr: bool = False

    @classmethod
    def from_config(cls, config) -> Policy:
        policy = cls(
            str(config.get("AUDIT_QUESTION", "omit")),
            str(config.get("AUDIT_ON_FAILURE", "refuse")),
            bool(config.get("AUDIT_TO_EHR", False)),
        )
        if policy.question not in ("omit", "hash", "full") or policy.on_failure not in (
            "refuse",
            "log",
        ):
            raise ValueError(
                "AUDIT_QUESTION must be omit|hash|full and AUDIT_ON_FAILURE refuse|log"
            )
        return policy


class AuditTrail:
    """Records for one actor; ``send`` (optional) posts an AuditEvent to the EHR."""

    def __init__(self, store: AuditStore, actor: Actor, policy: Policy, send=None):
        self.store, self.actor, self.policy, self._send = store, actor, policy, send

    # -- FHIR interactions (called by FhirGateway) ---------------------------------------
    def fhir(
        self,
        interaction: str,
        rtype: str,
        *,
        rid: str | None = None,
        params: dict | None = None,
        result=None,
        error: errors.DocGemmaError | None = None,
    ) -> None:
        """One read / search-type / create: a record per patient whose data it touched (BALP)."""
        query = (
            f"{rtype}?{urlencode(params or {}, doseq=True)}"
            if interaction == "search-type"
            else None
        )
        outcome = outcome_of(error) if error else OUTCOMES["success"]
        found = result if isinstance(result, list) else [result] if isinstance(result, dict) else []
        by_patient = _by_patient(found, _asked_patient(rtype, rid, params))
        for patient, refs in by_patient.items():
            self._write(
                Access(
                    kind=interaction,
                    actor=self.actor,
                    patient=patient,
                    outcome=outcome,
                    resources=tuple(refs[:MAX_REFS]),
                    more=max(0, len(refs) - MAX_REFS),
                    query=query,
                    description=error.description if error else None,
                    detail={"target": f"{rtype}/{rid}" if rid else None},
                )
            )

    # -- the app's own actions -------------------------------------------------------------
    def action(
        self,
        kind: str,
        *,
        patient: str | None = None,
        resources=(),
        outcome: str = "0",
        description: str | None = None,
        question: str | None = None,
        **detail,
    ) -> None:
        """An answer shown, a proposal created / edited / decided, feedback, a CDS call."""
        facts = {
            **{k.replace("_", "-"): v for k, v in detail.items()},
            **question_detail(question, self.policy.question),
        }
        self._write(
            Access(
                kind=kind,
                actor=self.actor,
                patient=patient or self.actor.patient,
                outcome=outcome,
                resources=tuple(resources)[:MAX_REFS],
                description=description,
                detail=facts,
            )
        )

    # -- storing -----------------------------------------------------------------------------
    def _write(self, access: Access) -> None:
        try:
            self.store.append(access)
        except Exception as exc:  # any database failure: the policy decides what the caller sees
            metrics.audit_failed(access.kind)
            log.error(
                "audit record not stored (%s %s, patient %s): %s",
                access.kind,
                access.outcome,
                access.patient,
                type(exc).__name__,
            )
            if self.policy.on_failure == "refuse":
                raise errors.AuditUnavailable(
                    "The access could not be recorded in the audit trail, so "
                    "the data is not shown. Try again, or open the chart in the EHR."
                ) from exc
            return
        metrics.audited(access.kind)
        if self.policy.to_ehr and self._send is not None:
            self._export(access)

    def _export(self, access: Access) -> None:
        """Best effort: the app's own store is the record of authority; the EHR copy may fail."""
        try:
            ref = self._send(to_audit_event(replace(access)))
        except errors.DocGemmaError as exc:
            log.warning("audit record %s not sent to the EHR: %s", access.id, exc.error)
            metrics.audit_failed("ehr-export")
            return
        if ref:
            self.store.sent_to_ehr(access.id, ref)


def _asked_patient(rtype: str, rid: str | None, params: dict | None) -> str | None:
    if rtype == "Patient" and rid:
        return rid
    pairs = (
        list(params.items()) if isinstance(params, dict) else list(params or [])
    )  # dict or (k, v) pairs
    wanted = ("patient", "subject", "_id") if rtype == "Patient" else ("patient", "subject")
    for key, value in pairs:
        if key in wanted and isinstance(value, str) and value:
            return value.split("Patient/")[-1]
    return None


def patient_of(resource: dict) -> str | None:
    """The patient a resource is about (itself for a Patient; its subject or patient otherwise)."""
    if resource.get("resourceType") == "Patient":
        return resource.get("id")
    for key in ("subject", "patient", "beneficiary"):
        ref = (
            (resource.get(key) or {}).get("reference")
            if isinstance(resource.get(key), dict)
            else None
        )
        if ref and "Patient/" in ref:
            return ref.split("Patient/")[-1].split("/")[0]
    return None


def _by_patient(found: list[dict], asked: str | None) -> dict[str | None, list[str]]:
    groups: dict[str | None, list[str]] = defaultdict(list)
    for res in found:
        if isinstance(res, dict) and res.get("resourceType") and res.get("id"):
            groups[patient_of(res) or asked].append(f"{res['resourceType']}/{res['id']}")
    return dict(groups) or {asked: []}
