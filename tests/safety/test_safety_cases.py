"""The labelled patient-safety cases through the three paths a clinician meets: the chat answer
(the real chat view, degraded mode: the answer is what code wrote), the approval card (the
prescribe tool's proposal) and CDS order-sign (real HTTP, data fetched from HAPI). Every path
must hold the expected findings, with the same sentence and severity — all three agree.

Tuned cases (cases.yaml) must all pass; the holdout (holdout.yaml, written before tuning) is
reported separately: ``python -m pytest -q -s tests/safety/test_safety_cases.py``.
"""

from __future__ import annotations

import re
import uuid

import pytest
from smart_docgemma.tools.args import PrescribeMedicationArgs
from smart_docgemma.tools.writes.orders import run_prescribe

from tests.cds.ehr_client import ISSUER, MiniEHR
from tests.safety import charts
from tests.support.chat_session import open_session, post_question
from tests.support.launch_context import launch, tool_context

LINE = re.compile(r"(CRITICAL|WARNING|INFO) — (.+?)\s*$", re.M)
CARD_LINE = re.compile(r"Safety flag \((critical|warning|info)\): (.+?)\s*$", re.M)
DETAIL = re.compile(r"\*\*(.+?)\*\* \((critical|warning|info)\)")


@pytest.fixture(scope="module")
def stack(fhir_base, sources, tmp_path_factory):
    from smart_docgemma import create_app
    from smart_docgemma.proposals.store import proposal_store

    from tests.support.servers import free_port, serve

    port, tmp = free_port(), tmp_path_factory.mktemp("safety")
    ehr = MiniEHR(f"http://127.0.0.1:{port}")
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "k",
            "DATABASE_URL": f"sqlite:///{tmp / 'app.sqlite'}",
            "CACHE_PATH": str(tmp / "cache"),
            "ENDPOINT": None,
            **sources,
            "CDS_ISSUERS": {ISSUER: {"jwks": ehr.jwks()}},
        }
    )
    with serve(app, port=port):
        with app.app_context():
            store = proposal_store(app)
        yield app, ehr, store, fhir_base


def chat_answer(app, fhir_base: str, pid: str, message: str) -> str:
    from smart_docgemma.turns.store import turn_store

    client = app.test_client()
    client.csrf = open_session(app, client, fhir_base, pid)
    turn_id = post_question(client, message)
    with app.app_context():
        return turn_store(app).get(turn_id).turn.answer or ""


def in_chat(answer: str) -> set[tuple[str, str]]:
    found = {(s.lower(), t) for s, t in LINE.findall(answer)}
    return found | {(s, t) for s, t in CARD_LINE.findall(answer)}


def in_card(store, fhir_base: str, pid: str, case: dict) -> tuple[set[tuple[str, str]], list[dict]]:
    ctx = tool_context(launch(fhir_base, pid), store)
    args = PrescribeMedicationArgs(
        patient_id=pid,
        medication_name=case["drug"],
        dosage=case.get("dose") or "as directed",
        frequency="as directed",  # no timing: the CDS draft states none either
    )
    flags = store.get(run_prescribe(args, ctx).proposal_id).summary["flags"]
    mine = [
        f for f in flags if "terms" in f
    ]  # the safety check's (the label's boxed warning aside)
    return {(f["severity"], f["text"]) for f in mine}, mine


def in_cds(ehr, fhir_base: str, pid: str, case: dict) -> set[tuple[str, str]]:
    body = {
        "hook": "order-sign",
        "hookInstance": str(uuid.uuid4()),
        "fhirServer": fhir_base,
        "context": {
            "userId": "Practitioner/dr-okafor",
            "patientId": pid,
            "draftOrders": {
                "resourceType": "Bundle",
                "entry": [{"resource": charts.draft_order(pid, case["drug"], case.get("dose"))}],
            },
        },
    }
    res = ehr.call("docgemma-order-sign", body)
    assert res.status_code == 200, res.text
    found = set()
    for card in res.json()["cards"]:
        found.add((card["indicator"], card["summary"]))
        found |= {(sev, text) for text, sev in DETAIL.findall(card.get("detail", ""))}
    return found


def run_case(stack, case: dict) -> dict:
    app, ehr, store, fhir_base = stack
    pid = charts.load(fhir_base, case)
    question = (
        f"Is {case['drug']} {case['dose']} safe for this patient?"
        if case.get("dose")
        else f"Is {case['drug']} safe for this patient?"
    )
    answer = chat_answer(app, fhir_base, pid, question)
    paths = {"chat": in_chat(answer), "cds": in_cds(ehr, fhir_base, pid, case)}
    paths["card"], flags = in_card(store, fhir_base, pid, case)
    # asking about a drug already taken, only a new order of it (card, CDS) is a duplicate
    asked_active = case["drug"] in (case["chart"].get("meds") or [])
    severe = {
        name: {
            f
            for f in found
            if f[0] != "info" and not (asked_active and f[1].startswith("Remove dup"))
        }
        for name, found in paths.items()
    }
    agree = severe["chat"] == severe["card"] == severe["cds"]
    held = all(
        _holds(
            found,
            flags if name == "card" else None,
            [e for e in case["expect"] if name == "card" or e["topic"] != "duplicate-order"],
        )
        for name, found in paths.items()
    )
    if not case["expect"]:
        # the clean check is said: "nothing found in …", or, where a table lacks the drug or her
        # problem, "no finding in the rules that hold it" with the gaps named, or, where a check
        # lacked its result (no eGFR on file), "no finding in the checks that ran"
        said = answer.lower()
        clean = any(w in said for w in ("nothing found in", "no finding in the rules that hold it",
                                        "no finding in the checks that ran"))
        held = held and not severe["card"] and clean
    return {"id": case["id"], "agree": agree, "expected": held, "paths": severe, "answer": answer}


def _holds(found: set, flags: list | None, expect: list[dict]) -> bool:
    for e in expect:
        hits = [t for s, t in found if s == e["severity"] and e["says"].lower() in t.lower()]
        if not hits:
            return False
        if flags is not None and not any(
            f["kind"] == e["topic"] and f["text"] in hits for f in flags
        ):
            return False
    return True


def _report(split: str, results: list[dict]) -> tuple[int, int, int]:
    agree = sum(r["agree"] for r in results)
    held = sum(r["expected"] for r in results)
    print(
        f"\n{split}: {len(results)} chart cases; all three paths agree on {agree}; "
        f"expected findings on every path in {held}"
    )
    for r in results:
        if not (r["agree"] and r["expected"]):
            print(f"  {r['id']}: agree={r['agree']} expected={r['expected']} {r['paths']}")
    return len(results), agree, held


def chart_cases(split: str) -> list[dict]:
    return [c for c in charts.cases(split) if "chart" in c]


def test_tuned_cases_hold_on_chat_card_and_cds_and_all_three_agree(stack):
    total, agree, held = _report("tuned", [run_case(stack, c) for c in chart_cases("tuned")])
    assert (agree, held) == (total, total)


def test_holdout_cases_all_three_paths_agree(stack):
    """Agreement is required on the holdout too; how many hold their expected findings is reported
    (docs/safety.md) and must stay at least 90 %."""
    total, agree, held = _report("holdout", [run_case(stack, c) for c in chart_cases("holdout")])
    assert agree == total and held >= 0.9 * total
