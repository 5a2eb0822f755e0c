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
  compartment: Patient reads only that patient; searches on compartment types
  always carry ``patient=<id>`` (one naming another patient is refused); writes
  must reference it; Provenance targets must lie in it; conditional creates
  (``If-None-Exist``) match only inside it; conditional update/delete is refused.
  Types neither in the compartment nor in ``PUBLIC`` (RelatedPerson, Group,
  Binary …) are out of reach of patient-level scopes.
- Operations (``$everything``, ``$graphql`` …), history across a type or the
  server, and system-wide searches need user-level read+search on all types
  (``user/*.rs``): what they return cannot be judged from the request.
- Without that all-types access, search parameters that reach across resources
  are refused: names outside ``name[:modifier]``, chains (``subject.name``), ``_has``, ``_filter``,
  ``_query``, ``_contained``, ``_list``, ``_type``, any other unknown ``_`` parameter, any modifier
  on ``_id`` and any modifier but ``:Patient`` on the patient parameters.
  ``_include``/``_revinclude`` are allowed: the proxy screens every resource of every response
  (``visibility.py``).
- v2 scopes with ``?param=value`` restrictions grant only searches that carry
  exactly those parameters (reads cannot be checked against them; refused).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import parse_qsl, urlencode, urlsplit

from .paths import FhirPath, Malformed, parse

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
# Types outside every patient compartment that patient-level scopes may reach
# unconstrained (the people and things a chart refers to, and definitions).
PUBLIC = {"Practitioner", "PractitionerRole", "Organization", "Location", "HealthcareService",
          "Endpoint", "Medication", "MedicationKnowledge", "Substance", "Questionnaire",
          "ValueSet", "CodeSystem", "ConceptMap", "StructureDefinition", "PlanDefinition",
          "ActivityDefinition", "Library"}
# Search control parameters that stay inside the searched type (others: see module doc).
CONTROL_PARAMS = {"_id", "_lastUpdated", "_tag", "_profile", "_security", "_source", "_text",
                  "_content", "_sort", "_count", "_include", "_revinclude", "_summary", "_total",
                  "_elements", "_format", "_pretty"}
_PARAM_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*(:[A-Za-z][A-Za-z0-9_-]*)?$")  # name[:modifier]
_PATIENT_FIELDS = ("subject", "patient", "beneficiary")
_PATIENT_PARAMS = {"patient", "subject", "patient:Patient", "subject:Patient", "beneficiary"}


class Forbidden(Exception):
    """The token's grant does not allow this request (HTTP 403, OperationOutcome).

    Its sibling ``paths.Malformed`` (HTTP 400) is for requests outside the FHIR grammar.
    """


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
    if (
        not perms
        or any(c not in "cruds" for c in perms)
        or "".join(sorted(perms, key="cruds".index)) != perms
    ):
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
    def from_claims(cls, scope: str, patient: str | None) -> Grant:
        return cls([s for s in map(parse_scope, (scope or "").split()) if s], patient)

    def levels(self, rtype: str, letter: str, params=()) -> set[str]:
        return {s.level for s in self.scopes if s.covers(rtype, letter, params)}

    def all_access(self) -> bool:
        """User- or system-level read and search on every type (``user/*.rs``)."""
        return any(s.level in ("user", "system") and s.type == "*" and not s.restrictions
                   and "r" in s.perms and "s" in s.perms for s in self.scopes)


@dataclass
class FhirRequest:
    """One classified FHIR interaction (see ``classify``)."""

    interaction: str  # read vread history search create update patch delete transaction operation
    type: str | None = None
    id: str | None = None
    params: list = field(default_factory=list)  # query (key, value) pairs
    resource: dict | None = None  # create/update body, transaction Bundle
    path: str = ""  # path under the FHIR base, rebuilt from its parts
    conditional: bool = False  # update/delete/patch addressed by search params
    route: FhirPath = field(default_factory=lambda: FhirPath("base"))
    if_none_exist: list | None = None  # conditional create's search params


def classify(
    method: str, path: str, params: list, body, if_none_exist: str | None = None
) -> FhirRequest:
    """Map an HTTP request under the FHIR base to a FHIR interaction (FHIR R4 http.html).

    Raises ``Malformed`` for paths outside the grammar (``paths.py``).
    """
    route = parse(path)
    req = FhirRequest(route.interaction(method), route.type, route.id, list(params), body,
                      route.upstream(), route=route)
    if route.shape == "compartment":  # Patient/{id}/{Type}: a search on Type naming the patient
        if route.compartment_type not in COMPARTMENT:
            raise Malformed(f"{route.compartment_type} is not in the Patient compartment.")
        req.type, req.id = route.compartment_type, None
        req.params.append((COMPARTMENT[req.type], f"Patient/{route.id}"))
    req.conditional = route.shape == "type" and method in ("PUT", "DELETE", "PATCH")
    if req.interaction == "create" and if_none_exist is not None:
        req.if_none_exist = parse_qsl(if_none_exist.lstrip("?"), keep_blank_values=True)
    return req


def authorize(req: FhirRequest, grant: Grant, fetch, local: dict | None = None) -> list:
    """Check ``req`` against ``grant``; returns query params to add (search constraint).

    May rewrite ``req.if_none_exist`` and a transaction's entries so they stay in
    the compartment. Raises Forbidden with a message fit for an OperationOutcome.
    """
    if req.interaction == "transaction":
        _authorize_bundle(req, grant, fetch)
        return []
    if req.interaction == "operation":
        if grant.all_access():
            return []
        raise Forbidden("Operations, history and system-wide searches need user-level read "
                        "and search scopes on all types.")
    letter = LETTER[req.interaction]
    levels = grant.levels(req.type, letter, req.params)
    if not levels:
        raise Forbidden(f"The granted scopes do not permit {req.interaction} on {req.type} "
                        f"(needs '{letter}').")
    if not grant.all_access():
        screen_params(req.params + (req.if_none_exist or []))
    if req.if_none_exist is not None:
        _constrain_if_none_exist(req, grant)
    if levels & {"user", "system"}:
        return []
    return _patient_rules(req, grant, fetch, local)


def screen_params(params: list) -> None:
    """Refuse search parameters that reach beyond the searched type (module doc)."""
    for key, value in params:
        base, _, modifier = key.partition(":")
        if "." not in key and not _PARAM_NAME.match(key):
            raise Forbidden(f"'{key}' is not a search parameter name.")
        if "." in key:
            raise Forbidden(
                f"Chained search parameters ({key}) need user-level access to all types."
            )
        if base.startswith("_") and base not in CONTROL_PARAMS:
            raise Forbidden(f"The search parameter {key} needs user-level access to all types.")
        if base == "_id" and modifier:
            raise Forbidden(f"Modifiers on _id ({key}) need user-level access to all types.")
        if base in _PATIENT_FIELDS and modifier not in ("", "Patient"):
            raise Forbidden(
                f"The modifier on {key} is not allowed; name the patient as Patient/<id>."
            )
        if base == "_format" and "json" not in value:
            raise Forbidden("Only JSON responses can be checked for patient isolation (_format).")


def _constrain_if_none_exist(req: FhirRequest, grant: Grant) -> None:
    """A conditional create searches the type: it needs 's', and stays in the compartment."""
    levels = grant.levels(req.type, "s", req.if_none_exist)
    if not levels:
        raise Forbidden(
            f"A conditional create (If-None-Exist) needs search permission on {req.type}."
        )
    if levels & {"user", "system"}:
        return
    if not grant.patient:
        raise Forbidden("Patient-level scopes were granted without a patient in context.")
    _require_reachable(req.type)
    req.if_none_exist = req.if_none_exist + constrain_search(
        req.type, req.if_none_exist, grant.patient
    )


def _require_reachable(rtype: str | None) -> None:
    if rtype not in COMPARTMENT and rtype not in PUBLIC and rtype != "Patient":
        raise Forbidden(
            f"{rtype} may hold data of any patient; patient-level scopes cannot reach it."
        )


def _patient_rules(req: FhirRequest, grant: Grant, fetch, local: dict | None = None) -> list:
    pid = grant.patient
    if not pid:
        raise Forbidden("Patient-level scopes were granted without a patient in context.")
    if req.conditional:
        raise Forbidden("Conditional update/delete is not allowed with patient-level scopes.")
    _require_reachable(req.type)
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
    resource = req.resource if isinstance(req.resource, dict) else {}
    if resource.get("resourceType") != req.type:
        raise Forbidden("The resource type in the body does not match the URL.")
    if req.type == "Patient" and req.interaction == "create":
        raise Forbidden("Patient-level scopes cannot create patients.")
    if req.interaction == "update" and resource.get("id") != req.id:
        raise Forbidden("The resource id in the body does not match the URL.")
    if not in_compartment(resource, pid, fetch, local):
        raise Forbidden(
            f"A {req.type} written with patient-level scopes must reference Patient/{pid}."
        )


def _check_patch(body) -> None:
    ops = body if isinstance(body, list) else []
    if not ops:
        raise Forbidden("Only JSON Patch is allowed with patient-level scopes.")
    for op in ops:
        if str(op.get("path", "")).split("/")[1:2] and op["path"].split("/")[
            1
        ] in _PATIENT_FIELDS + ("target", "id"):
            raise Forbidden("A patch may not change which patient a resource belongs to.")


def constrain_search(rtype: str, params: list, pid: str) -> list:
    """Params to add so a search stays in the compartment; Forbidden if it names another patient.

    The constraint is added even when the search already names the launch patient,
    so no parameter the policy does not understand can widen it.
    """
    if rtype not in COMPARTMENT and rtype != "Patient":
        return []
    names = {"_id"} if rtype == "Patient" else _PATIENT_PARAMS | {COMPARTMENT[rtype]}
    for key, value in params:
        if key in names and not all(
            refers_to_patient(item, pid, bare_id_ok=True) for item in value.split(",")
        ):
            raise Forbidden(f"Patient-level scopes allow searches on Patient/{pid} only.")
    name = "_id" if rtype == "Patient" else COMPARTMENT[rtype]
    value = pid if name in ("_id", "patient") else f"Patient/{pid}"
    return [] if (name, value) in params else [(name, value)]


def in_compartment(resource: dict, pid: str, fetch, local: dict | None = None) -> bool:
    """True when ``resource`` lies in Patient/``pid``'s compartment (or in none at all)."""
    rtype = resource.get("resourceType")
    if rtype == "Patient":
        return resource.get("id") == pid
    if rtype == "Provenance":
        targets = [t.get("reference", "") for t in resource.get("target") or []]
        return bool(targets) and all(_target_ok(t, pid, fetch, local or {}) for t in targets)
    if rtype not in COMPARTMENT:
        return rtype in PUBLIC
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
    """Check every entry as if it were sent alone, and rewrite its URL (and
    ``ifNoneExist``) from the classified parts plus the compartment constraint."""
    bundle = req.resource if isinstance(req.resource, dict) else {}
    if bundle.get("resourceType") != "Bundle" or bundle.get("type") not in ("transaction", "batch"):
        raise Forbidden("POST to the base accepts only transaction or batch Bundles.")
    entries = bundle.get("entry") or []
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise Malformed("Bundle.entry must be a list of entries.")
    local = {e["fullUrl"]: e.get("resource") or {} for e in entries if e.get("fullUrl")}
    for entry in entries:
        sub = _entry_request(entry)
        if sub.interaction == "transaction":
            raise Forbidden("A Bundle entry cannot post another Bundle to the base.")
        _rewrite_entry(entry, sub, authorize(sub, grant, fetch, local))


def _entry_request(entry: dict) -> FhirRequest:
    request = entry.get("request") if isinstance(entry.get("request"), dict) else {}
    url = urlsplit(str(request.get("url", "")))
    if url.scheme or url.netloc:
        raise Malformed("Bundle entry URLs must be relative to the FHIR base.")
    return classify(
        str(request.get("method", "GET")).upper(),
        url.path,
        parse_qsl(url.query, keep_blank_values=True),
        entry.get("resource"),
        request.get("ifNoneExist"),
    )


def _rewrite_entry(entry: dict, sub: FhirRequest, extra: list) -> None:
    params = sub.params + extra
    request = entry.setdefault("request", {})
    request["url"] = sub.path + ("?" + urlencode(params) if params else "")
    if sub.if_none_exist is not None:
        request["ifNoneExist"] = urlencode(sub.if_none_exist)
