"""What a SMART access token may do to the FHIR server: scopes and patient compartments.

Pure logic, no HTTP: the proxy classifies each request into a ``FhirRequest``
and calls ``authorize``; resources the decision depends on (the current version
of a resource being read, updated or deleted, a Provenance target) come from
the ``fetch(path) -> dict | None`` callable the proxy passes in.

Rules (SMART App Launch 2.2, scopes-and-launch-context):
- v2 scopes ``(patient|user|system)/(Type|*).[c][r][u][d][s][?k=v]`` and v1
  ``.read`` (= rs), ``.write`` (= cud), ``.*`` (= cruds) are both understood.
- interaction -> permission: read/vread/history -> r, search -> s, create -> c,
  update/patch -> u, delete -> d. A transaction/batch needs each entry allowed.
- A request allowed by a ``user/`` or ``system/`` scope has no compartment limit.
  One allowed only by ``patient/`` scopes must stay inside the launch patient's
  compartment: Patient reads only that patient; searches on compartment types are
  constrained to it (a search naming another patient is refused; one naming none
  gets ``patient=<id>`` added); writes must reference it; Provenance targets must
  lie in it. System-wide searches and operations are refused.
- v2 scopes with ``?param=value`` restrictions grant only searches that carry
  exactly those parameters (reads cannot be checked against them; refused).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

CONTEXT_SCOPES = {"launch", "launch/patient", "launch/encounter", "openid", "fhirUser",
                  "profile", "online_access", "offline_access"}
_SCOPE = re.compile(r"^(patient|user|system)/(\*|[A-Z][A-Za-z]+)\.([a-z*]+)(?:\?(.+))?$")
_V1 = {"read": "rs", "write": "cud", "*": "cruds"}
LETTER = {"read": "r", "vread": "r", "history": "r", "search": "s", "create": "c",
          "update": "u", "patch": "u", "delete": "d"}

# R4 Patient compartment (CompartmentDefinition/patient) for the types a chart
# holds, each with the search parameter that names the patient.
COMPARTMENT = {t: "patient" for t in (
    "AllergyIntolerance", "Appointment", "Basic", "BodyStructure", "CarePlan", "CareTeam",
    "Claim", "ClinicalImpression", "Communication", "CommunicationRequest", "Composition",
    "Condition", "Consent", "Coverage", "DetectedIssue", "DeviceRequest", "DeviceUseStatement",
    "DiagnosticReport", "DocumentReference", "Encounter", "EpisodeOfCare",
    "ExplanationOfBenefit", "FamilyMemberHistory", "Flag", "Goal", "ImagingStudy",
    "Immunization", "Invoice", "List", "Media", "MedicationAdministration",
    "MedicationDispense", "MedicationRequest", "MedicationStatement", "NutritionOrder",
    "Observation", "Procedure", "Provenance", "QuestionnaireResponse", "RiskAssessment",
    "ServiceRequest", "Specimen")}
COMPARTMENT["AdverseEvent"] = "subject"
_PATIENT_FIELDS = ("subject", "patient", "beneficiary")
_PATIENT_PARAMS = {"patient", "subject", "patient:Patient", "subject:Patient", "beneficiary"}


class Forbidden(Exception):
    """The token's grant does not allow this request (HTTP 403, OperationOutcome)."""


@dataclass(frozen=True)
class Scope:
    level: str  # patient | user | system
    type: str  # a resource type or "*"
    perms: str  # subset of "cruds"
    restrictions: tuple = ()  # v2 (param, value) pairs

    def covers(self, rtype: str, letter: str, params=()) -> bool:
        if self.type not in ("*", rtype) or letter not in self.perms:
            return False
        if not self.restrictions:
            return True
        return letter == "s" and all(pair in params for pair in self.restrictions)


def parse_scope(text: str) -> Scope | None:
    """A v1 or v2 resource scope, or None when ``text`` is not one."""
    match = _SCOPE.match(text)
    if not match:
        return None
    level, rtype, perms, query = match.groups()
    perms = _V1.get(perms, perms)
    if not perms or any(c not in "cruds" for c in perms) or "".join(sorted(perms, key="cruds".index)) != perms:
        return None  # v2: letters must be a subset of cruds, in that order
    pairs = tuple(tuple(p.split("=", 1)) for p in query.split("&") if "=" in p) if query else ()
    return Scope(level, rtype, perms, pairs)


def known_scope(text: str) -> bool:
    """True for scopes the sandbox grants (context, identity, refresh, resource)."""
    return text in CONTEXT_SCOPES or parse_scope(text) is not None


@dataclass
class Grant:
    """What an access token carries: its scopes and the launch patient."""

    scopes: list[Scope]
    patient: str | None = None

    @classmethod
    def from_claims(cls, scope: str, patient: str | None) -> "Grant":
        return cls([s for s in map(parse_scope, (scope or "").split()) if s], patient)

    def levels(self, rtype: str, letter: str, params=()) -> set[str]:
        return {s.level for s in self.scopes if s.covers(rtype, letter, params)}


@dataclass
class FhirRequest:
    """One classified FHIR interaction (see ``classify``)."""

    interaction: str  # read vread history search create update patch delete transaction operation
    type: str | None = None
    id: str | None = None
    params: list = field(default_factory=list)  # query (key, value) pairs
    resource: dict | None = None  # create/update body, transaction Bundle
    path: str = ""  # path under the FHIR base, for fetches
    conditional: bool = False


def classify(method: str, path: str, params: list, body: dict | None) -> FhirRequest:
    """Map an HTTP request under the FHIR base to a FHIR interaction (FHIR R4 http.html)."""
    parts = [p for p in path.strip("/").split("/") if p]
    req = FhirRequest("operation", params=list(params), resource=body, path="/".join(parts))
    if any(p.startswith("$") for p in parts):
        req.type = parts[0] if parts and not parts[0].startswith("$") else None
        return req
    if not parts:
        req.interaction = "transaction" if method == "POST" else "operation"  # system search/paging
        return req
    req.type = parts[0]
    if len(parts) == 1:
        req.interaction = {"GET": "search", "POST": "create", "PUT": "update", "DELETE": "delete",
                           "PATCH": "patch"}.get(method, "operation")
        req.conditional = method in ("PUT", "DELETE", "PATCH")
    elif len(parts) == 2 and parts[1] == "_search" and method == "POST":
        req.interaction = "search"
    elif len(parts) == 2 and parts[1] == "_history":
        req.interaction = "operation"  # type-level history: system-ish, user scopes only
    elif len(parts) == 2:
        req.id = parts[1]
        req.interaction = {"GET": "read", "PUT": "update", "PATCH": "patch",
                           "DELETE": "delete"}.get(method, "operation")
    elif len(parts) == 3 and parts[2] == "_history" and method == "GET":
        req.id, req.interaction = parts[1], "history"
    elif len(parts) == 4 and parts[2] == "_history" and method == "GET":
        req.id, req.interaction = parts[1], "vread"
    elif len(parts) == 3 and parts[0] == "Patient" and method == "GET":
        # compartment search Patient/{id}/{Type}: a search on Type naming the patient
        req.type, req.interaction = parts[2], "search"
        req.params.append((COMPARTMENT.get(parts[2], "patient"), parts[1]))
    return req


def authorize(req: FhirRequest, grant: Grant, fetch) -> list:
    """Check ``req`` against ``grant``; returns query params to add (search constraint).

    Raises Forbidden with a message fit for an OperationOutcome.
    """
    if req.interaction == "transaction":
        _authorize_bundle(req, grant, fetch)
        return []
    if req.interaction == "operation":
        if grant.levels(req.type or "*", "r") & {"user", "system"} and grant.levels(req.type or "*", "s"):
            return []
        raise Forbidden("Operations, history and system-wide searches need user-level read and search scopes.")
    letter = LETTER[req.interaction]
    levels = grant.levels(req.type, letter, req.params)
    if not levels:
        raise Forbidden(f"The granted scopes do not permit {req.interaction} on {req.type} "
                        f"(needs '{letter}').")
    if levels & {"user", "system"}:
        return []
    return _patient_rules(req, grant, fetch)


def _patient_rules(req: FhirRequest, grant: Grant, fetch, local: dict | None = None) -> list:
    pid = grant.patient
    if not pid:
        raise Forbidden("Patient-level scopes were granted without a patient in context.")
    if req.conditional:
        raise Forbidden("Conditional update/delete is not allowed with patient-level scopes.")
    if req.interaction == "search":
        return constrain_search(req.type, req.params, pid)
    if req.interaction in ("read", "vread", "history", "update", "patch", "delete"):
        _check_existing(req, pid, fetch)
    if req.interaction in ("create", "update"):
        _check_body(req, pid, fetch, local or {})
    if req.interaction == "patch":
        _check_patch(req.resource)
    return []


def _check_existing(req: FhirRequest, pid: str, fetch) -> None:
    if req.type == "Patient":
        if req.id != pid:
            raise Forbidden("Patient-level scopes allow only the launch patient.")
        return
    if req.type not in COMPARTMENT:
        return  # e.g. Practitioner, Medication: outside any patient compartment
    current = fetch(f"{req.type}/{req.id}")
    if current is None:
        if req.interaction == "update":
            return  # update-as-create: the body check decides
        raise Forbidden(f"{req.type}/{req.id} is not in the launch patient's compartment.")
    if not in_compartment(current, pid, fetch):
        raise Forbidden(f"{req.type}/{req.id} is not in the launch patient's compartment.")


def _check_body(req: FhirRequest, pid: str, fetch, local: dict) -> None:
    resource = req.resource or {}
    if resource.get("resourceType") != req.type:
        raise Forbidden("The resource type in the body does not match the URL.")
    if req.type == "Patient" and req.interaction == "create":
        raise Forbidden("Patient-level scopes cannot create patients.")
    if req.interaction == "update" and resource.get("id") != req.id:
        raise Forbidden("The resource id in the body does not match the URL.")
    if not in_compartment(resource, pid, fetch, local):
        raise Forbidden(f"A {req.type} written with patient-level scopes must reference Patient/{pid}.")


def _check_patch(body) -> None:
    ops = body if isinstance(body, list) else []
    if not ops:
        raise Forbidden("Only JSON Patch is allowed with patient-level scopes.")
    for op in ops:
        if str(op.get("path", "")).split("/")[1:2] and op["path"].split("/")[1] in _PATIENT_FIELDS + ("target", "id"):
            raise Forbidden("A patch may not change which patient a resource belongs to.")


def constrain_search(rtype: str, params: list, pid: str) -> list:
    """Params to add so a search stays in the compartment; Forbidden if it names another patient."""
    if rtype not in COMPARTMENT and rtype != "Patient":
        return []
    names = {"_id"} if rtype == "Patient" else _PATIENT_PARAMS | {COMPARTMENT[rtype]}
    named = [v for k, v in params if k in names]
    for value in named:
        for item in value.split(","):
            if not refers_to_patient(item, pid, bare_id_ok=True):
                raise Forbidden(f"Patient-level scopes allow searches on Patient/{pid} only.")
    if named:
        return []
    return [("_id" if rtype == "Patient" else COMPARTMENT[rtype], pid)]


def in_compartment(resource: dict, pid: str, fetch, local: dict | None = None) -> bool:
    """True when ``resource`` lies in Patient/``pid``'s compartment (or in none at all)."""
    rtype = resource.get("resourceType")
    if rtype == "Patient":
        return resource.get("id") == pid
    if rtype == "Provenance":
        targets = [t.get("reference", "") for t in resource.get("target") or []]
        return bool(targets) and all(_target_ok(t, pid, fetch, local or {}) for t in targets)
    if rtype not in COMPARTMENT:
        return True
    refs = _patient_refs(resource)
    return bool(refs) and all(refers_to_patient(r, pid) for r in refs)


def _target_ok(ref: str, pid: str, fetch, local: dict) -> bool:
    if refers_to_patient(ref, pid):
        return True
    if ref in local:  # urn:uuid of an entry in the same transaction
        return in_compartment(local[ref], pid, fetch)
    parts = ref.split("/")
    if len(parts) < 2 or parts[-2] not in COMPARTMENT:
        return False
    target = fetch(f"{parts[-2]}/{parts[-1]}")
    return target is not None and in_compartment(target, pid, fetch)


def _patient_refs(resource: dict) -> list[str]:
    refs = []
    for name in _PATIENT_FIELDS:
        value = resource.get(name)
        for item in value if isinstance(value, list) else [value] if value else []:
            refs.append(item.get("reference", "") if isinstance(item, dict) else "")
    return refs


def refers_to_patient(ref: str, pid: str, bare_id_ok: bool = False) -> bool:
    """``Patient/pid``, an absolute URL ending so, or (in search params) the bare id."""
    ref = ref.split("/_history/")[0]
    if bare_id_ok and ref == pid:
        return True
    parts = ref.rstrip("/").split("/")
    return len(parts) >= 2 and parts[-2] == "Patient" and parts[-1] == pid


def _authorize_bundle(req: FhirRequest, grant: Grant, fetch) -> None:
    bundle = req.resource or {}
    if bundle.get("resourceType") != "Bundle" or bundle.get("type") not in ("transaction", "batch"):
        raise Forbidden("POST to the base accepts only transaction or batch Bundles.")
    entries = bundle.get("entry") or []
    local = {e["fullUrl"]: e.get("resource") or {} for e in entries if e.get("fullUrl")}
    for entry in entries:
        sub = _entry_request(entry)
        letter = LETTER.get(sub.interaction)
        levels = grant.levels(sub.type, letter, sub.params) if letter and sub.type else set()
        if not levels:
            raise Forbidden(f"Bundle entry {sub.interaction} {sub.path or sub.type} is not permitted "
                            f"by the granted scopes.")
        if levels & {"user", "system"}:
            continue
        if sub.interaction == "search" and constrain_search(sub.type, sub.params, grant.patient or ""):
            raise Forbidden("With patient-level scopes a search inside a Bundle must name the launch patient.")
        _patient_rules(sub, grant, fetch, local)


def _entry_request(entry: dict) -> FhirRequest:
    from urllib.parse import parse_qsl, urlsplit

    request = entry.get("request") or {}
    url = urlsplit(request.get("url", ""))
    sub = classify(request.get("method", "GET").upper(), url.path, parse_qsl(url.query), entry.get("resource"))
    if sub.interaction == "create" and request.get("ifNoneExist"):
        sub.conditional = False  # conditional create is still a create in the compartment
    return sub
