"""Deterministic planning: which tools a query needs and when code alone can
fill their arguments (the fast path — zero model calls before synthesis).

Task patterns (``data/rules.yaml``) decide what "done" means for a question;
whenever extraction fixes a needed tool and all its required arguments, no
model is asked to select it.
"""
from __future__ import annotations

import re

from pydantic import ValidationError

from ..tools import catalog

from .prompts import rules
from .state import Turn

def required_tools(state: Turn) -> list[str]:
    """Tools the query's task patterns require, in running order."""
    ent = state.entities
    needed = set()
    for pattern in rules()["task_patterns"].values():
        if pattern.get("action") in ent.get("actions", ()) or ent.get(pattern.get("entity", "")):
            needed.update(pattern["requires"])
    needed.update(ent.get("lesson_tools", ()))  # an approved lesson acts as one more task pattern
    if "check_drug_interactions" in needed and "check_drug_safety" in needed:
        if len(ent.get("drugs", ())) >= 2 and not asks_for_label(state.message):
            needed.discard("check_drug_safety")  # "is it safe to combine X and Y"
    if "add_allergy" in needed:
        needed.discard("prescribe_medication")
    if state.image and not needed:
        needed.add("analyze_medical_image")
    return [t for t in catalog.running_order() if t in needed]


def asks_for_label(message: str) -> bool:
    """True when the clinician names something only the FDA label answers (boxed warning…)."""
    low = message.lower()
    return any(re.search(rf"\b{re.escape(w)}\b", low) for w in rules()["label_words"])


def done_tools(state: Turn) -> set[str]:
    """Tools that ran without error, or were given up on by ERROR_HANDLER."""
    ok = {r.tool for r in state.tool_runs if r.result.status != "error"}
    return ok | set(state.skipped)


def missing_tools(state: Turn, available) -> list[str]:
    done = done_tools(state)
    return [t for t in required_tools(state) if t not in done and t in available]


def patient_id(state: Turn) -> str | None:
    """Explicit id in the message > single search match > the launch patient."""
    ids = state.entities.get("patient_ids") or []
    if ids:
        return ids[0]
    for r in reversed(state.tool_runs):
        if r.tool == "search_patient" and r.result.count == 1:
            found = _first_id(r.result.data or {})
            if found:
                return found
    return state.patient_id


def _first_id(data: dict) -> str | None:
    for key in ("patients", "matches", "entries"):
        items = data.get(key)
        if items and isinstance(items[0], dict) and items[0].get("id"):
            return items[0]["id"]
    return data.get("patient_id") or data.get("id")


def deterministic_args(tool: str, state: Turn) -> dict | None:
    """Validated arguments when extraction alone fixes every required field."""
    ent, pid = state.entities, patient_id(state)
    drugs, dose = ent.get("drugs") or [], ent.get("dose") or {}
    allergy = ent.get("allergy") or {}
    candidates = {
        "check_drug_safety": {"drug_name": drugs[0]} if len(drugs) == 1 else None,
        "check_drug_interactions": {"drug_names": drugs[:6]} if len(drugs) >= 2 else None,
        "search_patient": {"name": ent["patient_names"][0]} if ent.get("patient_names") else None,
        "get_patient_chart": {"patient_id": pid} if pid else None,
        "prescribe_medication": ({"patient_id": pid, "medication_name": drugs[0],
                                  "dosage": dose.get("dose"), "frequency": dose.get("frequency")}
                                 if pid and len(drugs) == 1 else None),
        "add_allergy": ({"patient_id": pid, "substance": drugs[0],
                         "reaction": allergy.get("reaction"), "severity": allergy.get("severity")}
                        if pid and len(drugs) == 1 else None),
        "analyze_medical_image": ({"query": state.message[:160]}
                                  if state.image and len(state.message) >= 2 else None),
    }
    args = candidates.get(tool)
    if not args:
        return None
    try:
        return catalog.spec(tool).args_model(**args).model_dump(exclude_none=True)
    except ValidationError:
        return None


def fast_choice(state: Turn, available) -> tuple[str, dict] | None:
    """The next needed tool whose arguments code can fill, if any."""
    missing = missing_tools(state, available)
    if not missing:
        return None
    args = deterministic_args(missing[0], state)
    return (missing[0], args) if args else None


def seed_budget(state: Turn) -> dict:
    """Model calls the reference design would spend on the same turn (docs/agent-design.md).

    ``spec`` counts every node as a model call (two-stage TOOL_SELECT = 2
    calls); ``headline`` counts TOOL_SELECT as one call (2 / 4 / 4+N). The
    reference analyses images in INPUT_ASSEMBLY, so an image-tool step counts
    as that one vision call.
    """
    image = 1 if state.image else 0
    steps = sum(1 for r in state.tool_runs if r.tool != "analyze_medical_image")
    retries = sum(1 for e in state.events if e.get("type") == "retry_decision")
    return {"spec": image + 1 + 3 * steps + retries + 1,
            "headline": image + 1 + 2 * steps + retries + 1}
