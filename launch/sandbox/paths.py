"""The path grammar of the sandbox FHIR API: what may follow ``{sandbox}/fhir/``.

A path is split into its parts (type, id, version, operation, compartment) by a
strict grammar and the upstream path is rebuilt from those parts, so what HAPI
receives is exactly what the access policy judged. Anything else is refused
with ``Malformed`` (HTTP 400):

- percent-encoding of any kind (a FHIR type, id, version or ``$operation``
  never needs it; ``%2E%2E``, ``..%2F`` and ``%5C`` smuggle dot segments and
  slashes past the split), backslashes, empty segments;
- dot segments (``.``/``..``), which a server or HTTP library may resolve into
  a different resource than the one checked;
- any sequence of segments not in ``SHAPES``, or a method that shape does not take.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

TYPE = re.compile(r"^[A-Z][A-Za-z]{1,63}$")
ID = re.compile(r"^[A-Za-z0-9\-.]{1,64}$")  # the FHIR R4 id datatype
OPERATION = re.compile(r"^\$[A-Za-z][A-Za-z0-9\-]{0,63}$")

# shape -> {HTTP method: FHIR interaction}; a method not listed is refused
SHAPES = {
    "base": {"GET": "operation", "POST": "transaction"},  # system search / paging; batch
    "history-all": {"GET": "operation"},
    "operation": {"GET": "operation", "POST": "operation"},
    "type": {
        "GET": "search",
        "POST": "create",
        "PUT": "update",
        "PATCH": "patch",
        "DELETE": "delete",
    },
    "type-search": {"POST": "search"},
    "type-history": {"GET": "operation"},
    "type-operation": {"GET": "operation", "POST": "operation"},
    "instance": {"GET": "read", "PUT": "update", "PATCH": "patch", "DELETE": "delete"},
    "instance-history": {"GET": "history"},
    "vread": {"GET": "vread"},
    "instance-operation": {"GET": "operation", "POST": "operation"},
    "compartment": {"GET": "search"},
}


class Malformed(Exception):
    """A request the FHIR grammar does not allow (HTTP 400, OperationOutcome)."""


@dataclass(frozen=True)
class FhirPath:
    """One classified path under the FHIR base."""

    shape: str
    type: str | None = None
    id: str | None = None
    version: str | None = None
    operation: str | None = None
    compartment_type: str | None = None  # Patient/{id}/{compartment_type}

    def interaction(self, method: str) -> str:
        found = SHAPES[self.shape].get(method)
        if found is None:
            raise Malformed(f"{method} is not a FHIR interaction on this path.")
        return found

    def upstream(self) -> str:
        """The path to send upstream, rebuilt from the validated parts."""
        parts = {
            "base": [], "history-all": ["_history"], "operation": [self.operation],
            "type": [self.type], "type-search": [self.type, "_search"],
            "type-history": [self.type, "_history"], "type-operation": [self.type, self.operation],
            "instance": [self.type, self.id], "instance-history": [self.type, self.id, "_history"],
            "vread": [self.type, self.id, "_history", self.version],
            "instance-operation": [self.type, self.id, self.operation],
            "compartment": [self.compartment_type],  # searched as Type?patient=id (see policy)
        }[self.shape]
        return "/".join(parts)


def parse(path: str) -> FhirPath:
    """Classify ``path`` (raw, as sent, without the ``/fhir`` prefix or query)."""
    if "%" in path or "\\" in path:
        raise Malformed("Percent-encoded characters and backslashes are not allowed in FHIR paths.")
    segments = path.strip("/").split("/") if path.strip("/") else []
    if any(s in ("", ".", "..") for s in segments):
        raise Malformed("Empty and dot segments ('.', '..') are not allowed in FHIR paths.")
    found = _shape(segments)
    if found is None:
        raise Malformed(f"'{path}' is not a FHIR path this server understands.")
    return found


def _shape(s: list[str]) -> FhirPath | None:
    if len(s) <= 1:
        return _system(s)
    if not TYPE.match(s[0]):
        return None
    if len(s) == 2:
        if s[1] in ("_search", "_history"):
            return FhirPath("type-" + s[1][1:], s[0])
        if OPERATION.match(s[1]):
            return FhirPath("type-operation", s[0], operation=s[1])
        return FhirPath("instance", s[0], s[1]) if ID.match(s[1]) else None
    return _instance(s) if ID.match(s[1]) else None


def _system(s: list[str]) -> FhirPath | None:
    if not s:
        return FhirPath("base")
    if s[0] == "_history":
        return FhirPath("history-all")
    if OPERATION.match(s[0]):
        return FhirPath("operation", operation=s[0])
    return FhirPath("type", s[0]) if TYPE.match(s[0]) else None


def _instance(s: list[str]) -> FhirPath | None:
    """Type/id/… with three or four segments."""
    if len(s) == 4:
        return (
            FhirPath("vread", s[0], s[1], version=s[3])
            if s[2] == "_history" and ID.match(s[3])
            else None
        )
    if len(s) != 3:
        return None
    if s[2] == "_history":
        return FhirPath("instance-history", s[0], s[1])
    if OPERATION.match(s[2]):
        return FhirPath("instance-operation", s[0], s[1], operation=s[2])
    if s[0] == "Patient" and TYPE.match(s[2]):
        return FhirPath("compartment", s[0], s[1], compartment_type=s[2])
    return None
