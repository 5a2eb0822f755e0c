"""A decision on a card resumes the turn that proposed it: one follow-up stating the outcome,
seen by the next question (real app, real HAPI, the scripted model server over HTTP)."""
from __future__ import annotations

import json
import re

import requests
from smart_docgemma.turns.store import turn_store

from tests.support.chat_session import open_session
from tests.support.launch_context import clone_patient
from tests.web.test_chat import ask, chat_app, done_html, srv  # noqa: F401 (fixtures)

FETCH = {"X-Requested-With": "fetch"}


def sid(client) -> str:
    with client.session_transaction() as s:
        return s["sid"]


def prescribe(chat_app, srv, fhir_base):  # noqa: F811
    chat = chat_app.test_client()  # a copy of the scenario patient: approving writes to the chart
    chat.csrf = open_session(chat_app, chat, fhir_base, clone_patient(fhir_base, "pt-ckd-elder"))
    html = done_html(ask(chat, "Prescribe amlodipine 5 mg once daily"))
    assert "Awaiting your decision on the card below" in html  # the turn paused on the card
    pid = re.search(r'id="proposal-([0-9a-f]+)"', html).group(1)
    turn = re.search(r'id="turn-([0-9a-f]+)"', html).group(1)
    return chat, pid, turn


def turn_html(chat, turn) -> str:
    return chat.get(f"/app/turns/{turn}").get_data(as_text=True)


def follow_up(chat, turn) -> tuple[str, str]:
    """What the page's script reads after a decision: the streamed tokens, then the turn's HTML."""
    res = chat.get(f"/app/turns/{turn}/follow-up")
    assert res.status_code == 200 and res.mimetype == "text/event-stream"
    tokens, html = "", None
    for block in res.get_data(as_text=True).split("\n\n"):
        name = re.search(r"^event: (\w+)$", block, re.M)
        data = re.search(r"^data: (.*)$", block, re.M)
        if name and name.group(1) == "token":
            tokens += json.loads(data.group(1))["text"]
        elif name and name.group(1) == "done":
            html = json.loads(data.group(1))["html"]
    return tokens, html


def test_approve_resumes_the_turn_with_the_created_resource_and_the_next_question_sees_it(chat_app, srv, fhir_base):  # noqa: F811
    chat, pid, turn = prescribe(chat_app, srv, fhir_base)
    srv.say("The amlodipine order is in the chart.")
    done = chat.post(f"/proposals/{pid}/approve", headers=FETCH, data={"csrf_token": chat.csrf, "version": "1"})
    assert done.status_code == 200
    tokens, html = follow_up(chat, turn)
    assert tokens.startswith("The amlodipine order is in the chart.")  # streamed as the model wrote it
    assert html == turn_html(chat, turn)  # then the stored turn
    follow = re.search(r'class="answer follow-up".*?</div></div>', html, re.S).group(0)
    ref = re.search(r"MedicationRequest/[\w-]+", follow).group(0)
    assert "Done: Start amlodipine 5 mg once daily" in follow and "Provenance/" in follow
    assert requests.get(f"{fhir_base}/{ref}", timeout=30).status_code == 200
    srv.say("Yes, it was ordered.")
    ask(chat, "Did the amlodipine order go in?")
    last = [b for b in srv.requests if "response_format" not in b][-1]
    assert any(ref in m["content"] for m in last["messages"])  # the decision is in the history


def test_reject_resumes_the_turn_saying_so_with_the_reason(chat_app, srv, fhir_base):  # noqa: F811
    chat, pid, turn = prescribe(chat_app, srv, fhir_base)
    srv.say("Understood, nothing was ordered.")
    res = chat.post(f"/proposals/{pid}/reject", data={"csrf_token": chat.csrf, "reason": "already on nifedipine"})
    assert res.status_code == 303 and res.headers["Location"].endswith(f"#proposal-{pid}")
    html = turn_html(chat, turn)
    assert "You rejected it (already on nifedipine); nothing was written to the chart." in html


def test_an_edited_approval_says_what_the_clinician_changed(chat_app, srv, fhir_base):  # noqa: F811
    chat, pid, turn = prescribe(chat_app, srv, fhir_base)
    edited = chat.post(f"/proposals/{pid}/edit", headers=FETCH,
                       data={"csrf_token": chat.csrf, "version": "1", "dose": "10"})
    assert edited.status_code == 200, edited.get_data(as_text=True)
    srv.say("Done.")
    chat.post(f"/proposals/{pid}/approve", headers=FETCH, data={"csrf_token": chat.csrf, "version": "2"})
    _, html = follow_up(chat, turn)
    assert "Done: Start amlodipine 10 mg" in html and "You edited it first: Dose 5" in html


def test_without_a_model_the_follow_up_is_templated(app_config, fhir_base):
    from smart_docgemma import create_app

    app = create_app(app_config)  # no model endpoint: degraded mode
    chat = app.test_client()
    chat.csrf = open_session(app, chat, fhir_base, clone_patient(fhir_base, "pt-ckd-elder"))
    html = done_html(ask(chat, "Prescribe amlodipine 5 mg once daily"))
    pid = re.search(r'id="proposal-([0-9a-f]+)"', html).group(1)
    turn = re.search(r'id="turn-([0-9a-f]+)"', html).group(1)
    chat.post(f"/proposals/{pid}/reject", data={"csrf_token": chat.csrf, "reason": "wrong drug"})
    html = turn_html(chat, turn)
    assert "You rejected it (wrong drug)" in html and "Model unavailable" in html


def test_two_tabs_deciding_resume_the_turn_once(chat_app, srv, fhir_base):  # noqa: F811
    chat, pid, turn = prescribe(chat_app, srv, fhir_base)
    srv.say("Ordered.")
    for _ in range(2):  # the second tab's approve finds it approved: no second follow-up
        chat.post(f"/proposals/{pid}/approve", headers=FETCH, data={"csrf_token": chat.csrf, "version": "1"})
    follow_up(chat, turn)
    assert len(turn_store(chat_app).get(turn).turn.approvals) == 1
    assert len([b for b in srv.requests if "response_format" not in b]) <= 1  # one synthesis at most


def test_another_session_cannot_read_the_follow_up(chat_app, srv, fhir_base):  # noqa: F811
    chat, pid, turn = prescribe(chat_app, srv, fhir_base)
    other = chat_app.test_client()
    open_session(chat_app, other, fhir_base, "pt-t2dm")
    assert other.get(f"/app/turns/{turn}/follow-up").status_code == 404
