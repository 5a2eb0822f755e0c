"""The Provenance written with an approved chart write: the practitioner who approved it (author)
and the assistant that drafted it (assembler), FHIR R4 Provenance with W3C PROV roles; the
clinician's edits and an MCP client that asked are said in its reason.
"""
from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from ..approval.types import Change
from ..fhir import local_ref

ASSISTANT = "DocGemma assistant"


def provenance_for(target: str, user: str | None, proposal_id: str,
                   edits: list[Change] | None = None,
                   via: str | None = None) -> dict[str, Any]:
    """A Provenance for ``target``: the practitioner authored it, the assistant assembled it;
    when the clinician edited the proposal first, the reason says what they changed; when an
    MCP client asked for it (``via``), the assembler names that client."""
    participant = "http://terminology.hl7.org/CodeSystem/provenance-participant-type"
    author = {
        "type": {"coding": [{"system": participant, "code": "author", "display": "Author"}]},
        "who": {"reference": local_ref(user)}
        if local_ref(user)
        else {"display": user or "unknown user"},
    }
    assembler = {
        "type": {"coding": [{"system": participant, "code": "assembler", "display": "Assembler"}]},
        "who": {"display": f"{ASSISTANT} for MCP client {via}" if via else ASSISTANT},
        "onBehalfOf": author["who"],
    }
    return {
        "resourceType": "Provenance",
        "target": [{"reference": target}],
        "recorded": datetime.now(UTC).isoformat(timespec="seconds"),
        "activity": {
            "coding": [
                {
                    "system": "http://terminology.hl7.org/CodeSystem/v3-DataOperation",
                    "code": "CREATE",
                    "display": "create",
                }
            ]
        },
        "reason": [
            {
                "text": f"Approved by the clinician from assistant proposal {proposal_id}"
                + (f" requested by MCP client {via}" if via else "")
                + _edited(edits)
            }
        ],
        "agent": [author, assembler],
    }


def _edited(edits: list[Change] | None) -> str:
    if not edits:
        return ""
    changes = "; ".join(f"{e['field']} {e['before']} → {e['after']}" for e in edits)
    return f", edited by the clinician before approval ({changes})"
