"""Granted SMART scopes, parsed in both v1 and v2 syntax (SMART App Launch 2.x §Scopes).

v1: ``patient/Observation.read``, ``user/*.write``, ``patient/*.*``.
v2: ``patient/Observation.rs``, ``user/MedicationRequest.cruds``, optional
query suffix ``?category=…`` (treated as the broader permission's subset: we
grant the interaction but callers must not rely on the unfiltered set).

``GrantedScopes.allows("MedicationRequest", "c")`` answers whether a create
is covered; the tool registry uses it to decide which tools exist.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

_V1 = {"read": "rs", "write": "cud", "*": "cruds"}
_SCOPE = re.compile(r"^(patient|user|system)/([A-Za-z*]+)\.([a-z*]+)(\?.*)?$")


@dataclass(frozen=True)
class Permission:
    level: str  # patient | user | system
    resource: str  # a type or "*"
    interactions: frozenset  # subset of "cruds"
    query: str = ""


@dataclass
class GrantedScopes:
    raw: str = ""
    permissions: list[Permission] = field(default_factory=list)
    other: set[str] = field(default_factory=set)  # openid, fhirUser, launch, offline_access…

    @classmethod
    def parse(cls, scope: str | None) -> GrantedScopes:
        granted = cls(raw=scope or "")
        for token in (scope or "").split():
            perm = _permission(token)
            if perm:
                granted.permissions.append(perm)
            else:
                granted.other.add(token)
        return granted

    def allows(self, resource: str, interaction: str, level: str | None = None) -> bool:
        """True when some granted scope covers every letter of ``interaction``."""
        need = set(interaction)
        for p in self.permissions:
            if level and p.level != level:
                continue
            if p.resource in ("*", resource) and need <= p.interactions:
                return True
        return False

    @property
    def patient_level_only(self) -> bool:
        """True when data access is limited to the launch patient's compartment."""
        return bool(self.permissions) and all(p.level == "patient" for p in self.permissions)

    def has(self, name: str) -> bool:
        return name in self.other

    def __str__(self) -> str:
        return self.raw


def _permission(token: str) -> Permission | None:
    m = _SCOPE.match(token)
    if not m:
        return None
    level, resource, action, query = m.groups()
    if action in _V1:
        letters = _V1[action]
    elif set(action) <= set("cruds") and _in_order(action):
        letters = action
    else:
        return None  # malformed: grant nothing rather than guess
    return Permission(level, resource, frozenset(letters), query or "")


def _in_order(action: str) -> bool:
    # v2 requires the letters in c-r-u-d-s order, each at most once.
    return "".join(sorted(action, key="cruds".index)) == action and len(set(action)) == len(action)
