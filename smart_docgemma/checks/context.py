"""The data a hook needs: from ``prefetch`` when the EHR sent it, else fetched.

CDS Hooks 2.0 §Prefetch Template: a key that is *absent* was not satisfied
(fetch it ourselves); a key that is ``null`` means "no data" for a read; a
search result is a Bundle that may be paged or carry OperationOutcomes. When
a key is missing we search ``fhirServer`` with ``fhirAuthorization`` (the
token is used for these requests only and never stored or logged). If data a
check needs still cannot be had, the service answers 412 rather than
silently skipping a safety check.
"""
from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from fhir.resources.R4B import get_fhir_model_class
from pydantic import ValidationError

from .. import errors
from ..datafiles import safe_yaml
from ..errors import PreconditionFailed
from ..fhir import FhirGateway

log = logging.getLogger(__name__)

_TOKEN = re.compile(r"\{\{\s*context\.(\w+)\s*\}\}")


@dataclass
class HookData:
    """Resources by prefetch key (lists), plus which keys were unobtainable."""

    resources: dict[str, list[dict] | None] = field(default_factory=dict)  # None: could not be had
    missing: set[str] = field(default_factory=set)
    # the patient's state the clinician said in the conversation ("pregnant", "breastfeeding";
    # ``reading/states.py``): weighed beside the chart's, never written to it
    stated: frozenset[str] = field(default_factory=frozenset)

    def get(self, key: str) -> list[dict]:
        # An unobtainable key holds None and is in ``missing``, which the rules consult first.
        return self.resources.get(key, [])  # type: ignore[return-value]


def gather(request_body: dict, templates: dict[str, str], required: set[str],
           timeout_s: float = 5, audit=None) -> HookData:
    """Resolve every template from prefetch or ``fhirServer``; 412 when a required key fails.
    ``audit``: the call's ``AuditTrail``; each fetch from ``fhirServer`` is recorded in it."""
    prefetch = request_body.get("prefetch") or {}
    data = HookData()
    gateway = _gateway(request_body, timeout_s, audit)
    for key, template in templates.items():
        if key in prefetch:
            data.resources[key] = _from_prefetch(prefetch[key], key)
            if data.resources[key] is not None:
                continue
            data.resources.pop(key)
        found = fetch(gateway, template, request_body.get("context") or {}, key)
        if found is None:
            data.missing.add(key)
        else:
            data.resources[key] = found
    lacking = sorted(data.missing & required)
    if lacking:
        raise PreconditionFailed("Could not obtain: " + ", ".join(lacking))
    return data


def _from_prefetch(value, key: str) -> list[dict] | None:
    """Resources of a prefetch value; None when it signals a failure (OperationOutcome only)."""
    if value is None:
        return []  # explicit null: the EHR looked and there is no data
    if not isinstance(value, dict):
        return None
    if value.get("resourceType") == "Bundle":
        entry = value.get("entry") or []
        if not isinstance(entry, list):
            log.info("prefetch %s is a Bundle whose entry is not an array; fetching instead", key)
            return None  # unusable, not "no data": a safety check must not pass on it
        entries = [e.get("resource") for e in entry if isinstance(e, dict)]
        resources = [r for r in entries if isinstance(r, dict)]
        outcomes = [r for r in resources if r.get("resourceType") == "OperationOutcome"]
        if outcomes and len(outcomes) == len(resources):
            log.info("prefetch %s carried only OperationOutcome; fetching instead", key)
            return None
        return well_formed(
            [r for r in resources if r.get("resourceType") != "OperationOutcome"], key
        )
    if value.get("resourceType") == "OperationOutcome":
        return None
    return well_formed([value], key)


def shape_problem(resource: dict) -> str | None:
    """Where ``resource`` breaks FHIR R4's structure (e.g. a number for ``code.text``, a string
    for ``coding``), or None. Checked with the fhir.resources R4B models; a missing required
    element or an unknown resource type is not a structure problem (EHRs send drafts without
    ``intent``; the rules ignore types they do not know)."""
    try:
        model = get_fhir_model_class(resource.get("resourceType"))
    except (TypeError, ValueError):
        return None
    try:
        model.model_validate(resource)
    except ValidationError as exc:
        wrong = [e for e in exc.errors() if "missing" not in e["type"]]
        if wrong:
            return f"{resource.get('resourceType')}." + ".".join(
                str(part) for part in wrong[0]["loc"]
            )
    return None


def well_formed(resources: list[dict], key: str) -> list[dict] | None:
    """``resources``, or None (unobtainable, never "no data") when one is malformed."""
    for resource in resources:
        if (where := shape_problem(resource)) is not None:
            log.info("CDS data %s unusable: malformed at %s", key, where)
            return None
    return resources


def _gateway(body: dict, timeout_s: float, audit=None) -> FhirGateway | None:
    server = body.get("fhirServer")
    if not server or not isinstance(server, str) or not server.startswith(("http://", "https://")):
        return None
    auth = body.get("fhirAuthorization") or {}
    return FhirGateway(server, auth.get("access_token"), timeout=timeout_s, audit=audit)


def fetch(gateway: FhirGateway | None, template: str, context: dict, key: str) -> list[dict] | None:
    if gateway is None:
        return None
    query = _fill(template, context)
    if query is None:
        return None
    try:
        if "?" not in query:
            rtype, rid = query.split("/", 1)
            return well_formed([gateway.read(rtype, rid)], key)
        rtype, params = query.split("?", 1)
        pairs = _params(params)
        # a query that sets its own _count (the newest labs, the last weight) is one page, as an
        # EHR's prefetch of it would be; the others follow up to 3 pages of the server's size
        pages = 1 if any(name == "_count" for name, _ in pairs) else 3
        return well_formed(gateway.search(rtype, pairs, max_pages=pages), key)
    except errors.NotFound:
        return []
    except errors.DocGemmaError as exc:
        log.info("CDS fetch of %s failed: %s", key, exc.error)
        return None


def _fill(template: str, context: dict) -> str | None:
    """Substitute ``{{context.x}}`` tokens; None if a token has no value."""
    values = {}
    for name in _TOKEN.findall(template):
        if not isinstance(context.get(name), str) or not context[name]:
            return None
        values[name] = context[name]
    return _TOKEN.sub(lambda m: values[m.group(1)], template)


def _params(query: str) -> list[tuple[str, str]]:
    from urllib.parse import parse_qsl

    return parse_qsl(query, keep_blank_values=True)


@lru_cache(maxsize=1)
def services() -> dict[str, dict]:
    """The CDS services (``services.yaml``: hook, prefetch templates), keyed by id: discovery
    serves them, the chat and MCP read the same prefetch.

    Discovery entries keyed by service id (loaded once from services.yaml)."""
    data = safe_yaml(Path(__file__).with_name("services.yaml").read_text())
    return {entry["id"]: entry for entry in data.values()}
