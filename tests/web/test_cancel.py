"""Cancelling a running turn (real app, real HAPI, the scripted model server over HTTP): the
worker stops at its next step, nothing is written, the turn is stored as cancelled."""
from __future__ import annotations

import threading
import time

from smart_docgemma.proposals.store import proposal_store
from smart_docgemma.turns.store import turn_store

from tests.support.chat_session import open_session
from tests.support.launch_context import clone_patient, count
from tests.support.model_server import reply
from tests.web.test_chat import ask, chat_app, done_html, srv  # noqa: F401 (fixtures)


def sid(client) -> str:
    with client.session_transaction() as s:
        return s["sid"]


def running_turn(app, client, srv, *, requests_seen: int) -> str:
    """The id of the session's running turn once the model has received ``requests_seen`` requests."""
    for _ in range(200):
        if len(srv.requests) >= requests_seen:
            break
        time.sleep(0.05)
    return [t for t in turn_store(app).for_session(sid(client)) if t.status == "running"][0].id


def test_a_slow_turn_is_cancelled_between_steps_and_writes_nothing(chat_app, fhir_base, srv):  # noqa: F811
    chat = chat_app.test_client()
    patient = clone_patient(fhir_base, "pt-ckd-elder")
    chat.csrf = open_session(chat_app, chat, fhir_base, patient)
    before = count(fhir_base, "MedicationRequest", patient=patient)
    srv.script("IntentClassification", reply({"intent": "TOOL_NEEDED", "task_summary": "Start amlodipine",
                                              "suggested_tool": "prescribe_medication"}, delay=3))
    out = {}
    # a question code cannot route, so the turn waits on the model's intent ("get her going on
    # amlodipine" is now understood by code and never waits)
    question = "Her pressure is still high, what should we do about it?"
    worker = threading.Thread(target=lambda: out.update(res=ask(chat, question)))
    worker.start()
    turn_id = running_turn(chat_app, chat, srv, requests_seen=1)  # the model is thinking (3 s)
    res = chat.post(f"/app/turns/{turn_id}/cancel", headers={"X-CSRF-Token": chat.csrf, "Accept": "application/json"})
    assert res.status_code == 200 and res.get_json()["status"] == "cancelled"
    worker.join(60)
    assert "Cancelled. Nothing was written to the chart." in done_html(out["res"])
    stored = turn_store(chat_app).get(turn_id)
    assert stored.status == "cancelled" and not stored.turn.answer
    nodes = [e["node"] for e in stored.turn.events if e.get("type") == "node_start"]
    assert nodes[-1] == "INTENT_CLASSIFY" and "TOOL_EXECUTE" not in nodes  # stopped at the next step
    assert [p for p in proposal_store(chat_app).for_session(sid(chat)) if p.status == "pending"] == []
    assert count(fhir_base, "MedicationRequest", patient=patient) == before
    srv.say("Amlodipine is a calcium channel blocker.")
    assert ask(chat, "What is amlodipine?").status_code == 200  # the next question is not blocked
    assert chat.post(f"/app/turns/{turn_id}/cancel", headers={"X-CSRF-Token": chat.csrf}).status_code == 409


def test_cancel_needs_csrf_and_the_turns_own_session(chat_app, fhir_base, srv):  # noqa: F811
    chat = chat_app.test_client()
    chat.csrf = open_session(chat_app, chat, fhir_base, "pt-ckd-elder")
    srv.say("Hypertension is persistently raised blood pressure.")
    ask(chat, "What is hypertension?")
    turn_id = turn_store(chat_app).for_session(sid(chat))[-1].id
    assert chat.post(f"/app/turns/{turn_id}/cancel").status_code == 403
    other = chat_app.test_client()
    other.csrf = open_session(chat_app, other, fhir_base, "pt-ckd-elder")
    assert other.post(f"/app/turns/{turn_id}/cancel", headers={"X-CSRF-Token": other.csrf}).status_code == 404
    finished = chat.post(f"/app/turns/{turn_id}/cancel", headers={"X-CSRF-Token": chat.csrf})
    assert finished.status_code == 409


def test_a_proposal_made_before_the_cancel_is_withdrawn(chat_app, fhir_base, srv):  # noqa: F811
    chat = chat_app.test_client()
    chat.csrf = open_session(chat_app, chat, fhir_base, clone_patient(fhir_base, "pt-ckd-elder"))
    srv.script("SecondLookReview", reply({"severity": "none"}, delay=3))  # the second look takes 3 s
    out = {}
    worker = threading.Thread(target=lambda: out.update(res=ask(chat, "Prescribe amlodipine 5 mg once daily")))
    worker.start()
    turn_id = running_turn(chat_app, chat, srv, requests_seen=1)
    assert chat.post(f"/app/turns/{turn_id}/cancel", headers={"X-CSRF-Token": chat.csrf}).status_code == 303
    worker.join(60)
    stored = turn_store(chat_app).get(turn_id)
    cards = proposal_store(chat_app).for_session(sid(chat))
    assert stored.status == "cancelled" and cards and all(p.status == "rejected" for p in cards)
    assert "cancelled the question" in cards[0].reason
