"""The checkpoints' checks: pure functions over the turn's answer, its cards and what reached
FHIR. Texts are compared case-insensitively with spacing squashed; "a | b" accepts either."""

from __future__ import annotations

import base64
import binascii
import re
from typing import Any

from .tasks import ExpectedResource

LETTER_TYPES = ("Composition", "DocumentReference")


def squash(text: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", text or "").split()).lower()


def found(want: str, text: str) -> bool:
    """One expected text ("a | b": either) in ``text`` (already squashed)."""
    return any(squash(alt) in text for alt in want.split(" | ") if alt.strip())


def _attachment(att: dict[str, Any]) -> str:
    try:
        return base64.b64decode(att.get("data") or "").decode("utf-8", "replace")
    except (binascii.Error, ValueError):
        return ""


def resource_text(resource: dict[str, Any]) -> str:
    """What a reader of the resource sees: titles, decoded attachments, section narratives,
    notes, reasons, code texts and displays, contained resources (the letter of a referral)."""
    parts: list[str] = []

    def walk(value: Any, key: str = "") -> None:
        if isinstance(value, dict):
            if "data" in value and "contentType" in value:
                parts.append(_attachment(value))
            for k, v in value.items():
                if k not in ("data", "id", "reference", "system", "url"):
                    walk(v, k)
        elif isinstance(value, list):
            for v in value:
                walk(v, key)
        elif isinstance(value, str) and key in (
            "text",
            "display",
            "title",
            "div",
            "description",
            "patientInstruction",
            "value",
            "priority",
        ):
            parts.append(value)

    walk(resource)
    return "\n".join(parts)


def _codes(cc: dict[str, Any] | None) -> set[str]:
    return {f"{c.get('system')}|{c.get('code')}" for c in (cc or {}).get("coding") or []}


def _type_codes(r: dict[str, Any]) -> set[str]:
    return (
        _codes(r.get("type")) | _codes(r.get("code")) | _codes(r.get("medicationCodeableConcept"))
    )


def linked_letters(r: dict[str, Any], written: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Documents a ServiceRequest names in ``supportingInfo``: contained ("#id") or written."""
    contained = {f"#{c.get('id')}": c for c in r.get("contained") or []}
    others = {f"{w.get('resourceType')}/{w.get('id')}": w for w in written}
    out = []
    for ref in r.get("supportingInfo") or []:
        target = contained.get(ref.get("reference") or "") or others.get(ref.get("reference") or "")
        if target and target.get("resourceType") in LETTER_TYPES:
            out.append(target)
    return out


def kind(resource_type: str) -> str:
    """ "Document" for either document resource (a task accepts a Composition or a
    DocumentReference), else the resource type."""
    return "Document" if resource_type in LETTER_TYPES else resource_type


def problems(
    want: ExpectedResource, got: dict[str, Any], patient: str, written: list[dict[str, Any]]
) -> list[str]:
    """Every part of ``want`` that ``got`` lacks (empty: it is right)."""
    out: list[str] = []
    if kind(got.get("resourceType") or "") != kind(want.resourceType):
        return [f"resourceType {want.resourceType}"]
    if (got.get("subject") or {}).get("reference") != f"Patient/{patient}":
        out.append(f"subject Patient/{patient}")
    if want.type and not _type_codes(got) & set(want.type):
        out.append(f"type one of {want.type}")
    if want.priority and got.get("priority") != want.priority:
        out.append(f"priority {want.priority}")
    text = squash(resource_text(got))
    out += [f"text {w!r}" for w in want.contains if not found(w, text)]
    out += [f"no text {w!r}" for w in want.excludes if found(w, text)]
    if want.letter:
        letters = [d for d in linked_letters(got, written) if _type_codes(d) & set(want.letter)]
        if not letters:
            out.append(f"a letter of type {want.letter} in supportingInfo")
        ltext = squash(" ".join(resource_text(d) for d in letters))
        out += [f"letter text {w!r}" for w in want.letter_contains if not found(w, ltext)]
    return out


def check_written(
    expected: list[ExpectedResource], written: list[dict[str, Any]], patient: str
) -> list[str]:
    """Each expected resource matched by a distinct written one, nothing more written."""
    left, wrong = list(written), []
    for want in expected:
        scored = sorted(
            ((problems(want, got, patient, written), i) for i, got in enumerate(left)),
            key=lambda p: len(p[0]),
        )
        if scored and not scored[0][0]:
            left.pop(scored[0][1])
        else:
            closest = scored[0][0] if scored else ["nothing written"]
            wrong.append(f"{want.resourceType}: " + ", ".join(closest))
    return wrong + [f"unexpected {r.get('resourceType')}/{r.get('id')}" for r in left]


def check_says(says: list[str], says_not: list[str], text: str) -> list[str]:
    low = squash(text)
    return [f"missing {w!r}" for w in says if not found(w, low)] + [
        f"present {w!r}" for w in says_not if found(w, low)
    ]
