"""The ward cases' side of a run: results placed on the chart before a turn, the turn's
proposals approved as a clinician would on their cards, and what reached FHIR read back.

- ``Injector``: a case's ``setup`` is its patient's whole injected state. Results are PUT with
  their stable ids and a tag, effective ``hours_ago`` before now (so "within the last 24 hours"
  holds on any day); the patient's tagged results the case does not name (another case's, a
  previous run's) are deleted first.
- ``approve_all``: every pending proposal of the turn's session approved through the proposal
  store (the one path to the EHR: exactly-once create, Provenance, the prescriber rule), then
  each created resource read back from the server.
- ``unapproved``: resources of the write types created for the patient during the turn, before
  anything was approved (must be none).
- ``remove``: what the approvals wrote, deleted once scored (unless the run keeps it).
- ``warped_hours``: a case asked by the calendar ("latest magnesium today", "since yesterday
  evening") run in the early hours, when its window is shorter than at the day-shift hour its
  author wrote for: the results meant inside it are placed inside, in their order, and those
  meant before it stay before it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from typing import Any

import requests

from .. import errors
from ..fhir import FhirGateway
from ..proposals.store import IDENTIFIER_SYSTEM, ProposalStore
from ..smart.scopes import GrantedScopes
from ..tools.chart.records import age_on
from ..tools.words.windows import asked, bounds
from .cases import Case, Injected

LOINC = "http://loinc.org"
CATEGORY = "http://terminology.hl7.org/CodeSystem/observation-category"
WRITE_TYPES = (
    "MedicationRequest",
    "ServiceRequest",
    "Observation",
    "AllergyIntolerance",
    "DocumentReference",
    "Composition",
    "MedicationStatement",
)
TIMEOUT = 30
DAY_SHIFT = 14  # the hour a case's "today" is taken to be asked at, as its author wrote it
_CALENDAR = re.compile(r"^(?:today|yesterday|night|morning|shift|since-[0-6])$")
# what marks a result the evaluation placed (and may delete)
TAG = {"system": "https://github.com/smart-docgemma/evaluation", "code": "injected"}


@dataclass(frozen=True)
class Launch:
    """What the proposal store reads of a launch, for the evaluation's clinician."""

    sid: str
    patient_id: str | None
    user: str | None
    scopes: GrantedScopes
    fhir: FhirGateway


class Injector:
    """Places each case's results on its patient's chart, and only those: every injected result
    carries the ``TAG``, and a patient's tagged results that the case does not name are deleted
    before its turn (a previous run's or another case's)."""

    def __init__(self, fhir_base: str):
        self.base = fhir_base.rstrip("/")
        self.http = requests.Session()
        self.placed: dict[str, str] = {}  # id -> patient, on the chart now
        self.swept: set[str] = set()  # patients whose tagged results this run has listed

    def prepare(self, case: Case, now: datetime, tz: tzinfo = UTC) -> None:
        if case.patient is None:
            return
        if case.patient not in self.swept:
            self.placed.update({rid: case.patient for rid in self._tagged(case.patient)})
            self.swept.add(case.patient)
        keep = {i.id for i in case.setup}
        for rid, patient in list(self.placed.items()):
            if patient == case.patient and rid not in keep:
                self._delete(rid)
                del self.placed[rid]
        for item in case.setup:
            hours = warped_hours(item.hours_ago, windowed(case), now, tz)
            self._put(item, case.patient, now - timedelta(hours=hours))
            self.placed[item.id] = case.patient

    def _tagged(self, patient: str) -> list[str]:
        params: dict[str, str] = {
            "patient": patient,
            "_tag": f"{TAG['system']}|{TAG['code']}",
            "_elements": "id",
            "_count": "500",
        }
        answer = self.http.get(f"{self.base}/Observation", timeout=TIMEOUT, params=params)
        answer.raise_for_status()
        return [e["resource"]["id"] for e in answer.json().get("entry") or []]

    def _put(self, item: Injected, patient: str, at: datetime) -> None:
        when = at.isoformat(timespec="seconds")
        resource = {
            "resourceType": "Observation",
            "id": item.id,
            "meta": {"tag": [TAG]},
            "status": "final",
            "category": [{"coding": [{"system": CATEGORY, "code": "laboratory"}]}],
            "code": {"coding": [{"system": LOINC, "code": item.code}]},
            "subject": {"reference": f"Patient/{patient}"},
            "effectiveDateTime": when,
            "issued": when,
            "valueQuantity": {
                "value": item.value,
                "unit": item.unit,
                "system": "http://unitsofmeasure.org",
                "code": item.unit,
            },
        }
        answer = self.http.put(f"{self.base}/Observation/{item.id}", json=resource, timeout=TIMEOUT,
                               headers={"Content-Type": "application/fhir+json"})
        answer.raise_for_status()

    def _delete(self, rid: str) -> None:
        answer = self.http.delete(f"{self.base}/Observation/{rid}", timeout=TIMEOUT)
        if answer.status_code not in (200, 202, 204, 404, 410):
            answer.raise_for_status()

    def clear(self) -> None:
        """Delete every result this run placed: the charts end as the run found them, so later
        readers of the same patients (tests, another run) never see a result "from today"."""
        for rid in list(self.placed):
            self._delete(rid)
            del self.placed[rid]

    def close(self) -> None:
        self.http.close()


@dataclass
class Approved:
    """What the clinician's approvals of one turn did."""

    written: list[dict[str, Any]]  # the created resources, read back from the server
    refused: list[str]  # why an approval could not write
    acknowledged: list[str]  # cards whose high-severity second look was read and acknowledged first
    # what an approval updated, as it was before (a dose change stops the order it replaces):
    # put back by ``restore`` once the case is scored, so a shared chart keeps its orders
    replaced: list[dict[str, Any]] = field(default_factory=list)


def approve_all(store: ProposalStore, launch: Launch) -> Approved:
    """Approve every pending proposal of the session as the clinician does on its card: a
    second look that blocks approval is acknowledged first (and reported), then Approve."""
    done = Approved([], [], [])
    for p in store.for_session(launch.sid):
        if p.status != "pending":
            continue
        try:
            look = p.summary.get("second_look")
            if look is not None and look.blocks_approval:
                p = store.acknowledge(p.id, launch)
                done.acknowledged.append(f"{p.resource_type}: {'; '.join(look.findings)[:200]}")
            before = [launch.fhir.read(*e["request"]["url"].split("/", 1))
                      for e in p.resource.get("entry") or []
                      if (e.get("request") or {}).get("method") == "PUT"]
            approved = store.approve(p.id, launch, p.version)
            done.replaced.extend(before)
        except errors.DocGemmaError as exc:
            done.refused.append(f"{p.resource_type}: approval refused ({exc.description})")
            continue
        kind, _, rid = (approved.result_ref or "").partition("/")
        done.written.append(launch.fhir.read(kind, rid))
    return done


def remove(fhir_base: str, written: list[dict[str, Any]]) -> None:
    """Delete what a case's approvals wrote, and the Provenance of each, once it is scored: the
    population stays as generated for the next case, the next run and the other chart tests (an
    order approved here would otherwise be one more active medication on a shared chart)."""
    base = fhir_base.rstrip("/")
    with requests.Session() as http:
        for r in written:
            ref = f"{r['resourceType']}/{r['id']}"
            found = http.get(
                f"{base}/Provenance", params={"target": ref, "_elements": "id"}, timeout=TIMEOUT
            )
            found.raise_for_status()
            for e in found.json().get("entry") or []:
                http.delete(
                    f"{base}/Provenance/{e['resource']['id']}", timeout=TIMEOUT
                ).raise_for_status()
            http.delete(f"{base}/{ref}", timeout=TIMEOUT).raise_for_status()


def restore(fhir_base: str, replaced: list[dict[str, Any]]) -> None:
    """Put back what a case's approvals updated, as it was before (its content; the server keeps
    the history)."""
    base = fhir_base.rstrip("/")
    with requests.Session() as http:
        for r in replaced:
            body = {k: v for k, v in r.items() if k != "meta"}
            http.put(f"{base}/{r['resourceType']}/{r['id']}", json=body, timeout=TIMEOUT,
                     headers={"Content-Type": "application/fhir+json"}).raise_for_status()


def unapproved(fhir: FhirGateway, patient: str | None, since: datetime, known: set[str],
               proposals: set[str]) -> list[str]:
    """Resources of the write types created for the patient since ``since`` (the turn's start):
    nothing may reach the chart before the clinician approves it. Not counted: ``known`` (what
    this run placed or approved), results the evaluation tagged, and resources approved from
    another session's proposals (their identifier names a proposal that is not this turn's:
    another run on the same shared server)."""
    if not patient:
        return []
    # to the millisecond: a put-back of the run before (a stopped order restored when its case
    # ended, by another evaluation's run on the same chart) can land in the same second as this
    # turn's start, and is no write of this turn's
    stamp = since.astimezone(UTC).isoformat(timespec="milliseconds")
    found = []
    for kind in WRITE_TYPES:
        for r in fhir.search(
            kind, {"patient": patient, "_lastUpdated": f"ge{stamp}", "_count": 20}, max_pages=1
        ):
            ref = f"{kind}/{r.get('id')}"
            tagged = any(
                t.get("code") == TAG["code"] for t in (r.get("meta") or {}).get("tag") or []
            )
            named = {
                i.get("value")
                for i in r.get("identifier") or []
                if i.get("system") == IDENTIFIER_SYSTEM
            }
            if ref in known or r.get("id") in known or tagged or (named and not named & proposals):
                continue
            found.append(ref)
    return found


def age_today(fhir: FhirGateway, patient: str | None, today: date | None = None) -> str | None:
    """The patient's age in whole years today ("{age}" in a case's expected answer)."""
    if not patient:
        return None
    born = fhir.read("Patient", patient).get("birthDate") or ""
    age = age_on(born, today)
    return None if age is None else str(age)



def windowed(case: Case) -> str:
    """The message whose window the case's results are set out for: the query's, else the
    latest earlier message's ("Mg today?" then "and in mmol per litre?": today's)."""
    said = [case.query, *reversed(case.before)]
    return next((m for m in said if asked(m).window), case.query)


def warped_hours(hours_ago: float, query: str, now: datetime, tz: tzinfo) -> float:
    """``hours_ago`` as the case means it. A calendar window asked ("today", "since yesterday
    evening") is shorter in the early hours than at ``DAY_SHIFT`` o'clock, when the case's
    results were set out: a result meant inside it (fewer hours ago than the window held then)
    is placed inside it now, the intervals scaled so their order holds; one meant before it stays
    as far before its start. Rolling windows ("the last 24 hours") and later hours: as written."""
    window = asked(query).window
    if not window or not _CALENDAR.match(window):
        return hours_ago
    then = datetime.combine(now.astimezone(tz).date(), time(DAY_SHIFT), tzinfo=tz)
    held = (then - bounds(window, then, tz).start).total_seconds() / 3600
    holds = (now - bounds(window, now, tz).start).total_seconds() / 3600
    if holds >= held or held <= 0 or holds <= 0:  # before "this morning" began: as written
        return hours_ago
    return hours_ago * holds / held if hours_ago < held else hours_ago - held + holds
