"""The approval loop as the clinician meets it, over the app's own views with real HAPI and a
scripted model server: whose chart a card is for, what it will do in one sentence, forms that
work without JavaScript, and the server's refusal of a proposal about another patient.
"""
from __future__ import annotations

import re

import pytest
import requests

from smart_docgemma import errors
from smart_docgemma.proposals.store import proposal_store
from tests.support.chat_session import open_session
from tests.support.launch_context import clone_patient
from tests.test_chat import ask, chat_app, done_html, sources, srv  # noqa: F401  (fixtures)


def made(fhir_base: str, pid: str, rtype: str = "MedicationRequest") -> list[dict]:
    bundle = requests.get(f"{fhir_base}/{rtype}", params={"identifier": f"urn:docgemma:proposal|{pid}"},
                          headers={"Cache-Control": "no-cache"}, timeout=30).json()
    return [e["resource"] for e in bundle.get("entry") or []]


def card_id(html: str) -> str:
    return re.search(r'id="proposal-([0-9a-f]+)"', html).group(1)


@pytest.fixture
def clinician(chat_app, fhir_base):  # noqa: F811
    """A session on a copy of a scenario patient (approving writes to its chart)."""
    client = chat_app.test_client()
    client.patient = clone_patient(fhir_base, "pt-ckd-elder")
    client.csrf = open_session(chat_app, client, fhir_base, client.patient)
    return client


def fetch_headers(client) -> dict:
    """What the page's script sends: the card comes back as a partial, not a redirect."""
    return {"X-CSRF-Token": client.csrf, "X-Requested-With": "fetch", "Accept": "text/html"}


# ------------------------------------------------------------------ the card
def test_card_names_the_patient_says_the_action_and_puts_safety_first(chat_app, fhir_base, srv):  # noqa: F811
    chat = chat_app.test_client()  # the scenario patient itself: nothing is approved here
    chat.csrf = open_session(chat_app, chat, fhir_base, "pt-pen-allergy")
    srv.say("Amoxicillin is prepared for your approval.")
    html = done_html(ask(chat, "Prescribe amoxicillin 500 mg three times daily"))
    card = html[html.index('<article class="proposal'):]
    who = re.search(r'<p class="proposal-patient"[^>]*>(.*?)</p>', card, re.S).group(1)
    assert "Grace Adeyemi" in who and "DOB 1985-02-17" in who and "MRN MRN-100712" in who
    assert re.search(r'<h3[^>]*>Start amoxicillin 500 mg three times daily</h3>', card)
    assert "Critical:" in card and "Penicillin" in card
    assert card.index('class="proposal-flags"') < card.index('class="proposal-fields"') < card.index("<details")
    assert '<details class="proposal-json">' in card and "<details open" not in card


def test_json_callers_get_the_action_sentence(chat_app, fhir_base, srv, clinician):  # noqa: F811
    srv.say("Prepared.")
    pid = card_id(done_html(ask(clinician, "Prescribe amoxicillin 500 mg three times daily")))
    shown = clinician.get(f"/proposals/{pid}", headers={"Accept": "application/json"}).get_json()
    assert shown["action"] == "Start amoxicillin 500 mg three times daily"
    assert shown["patient_id"] == clinician.patient


# ------------------------------------------------------------------ without JavaScript
def test_forms_without_javascript_answer_303_back_to_the_card(chat_app, fhir_base, srv, clinician):  # noqa: F811
    srv.say("Prepared.")
    first = card_id(done_html(ask(clinician, "Prescribe amlodipine 5 mg once daily")))
    approved = clinician.post(f"/proposals/{first}/approve", data={"csrf_token": clinician.csrf})
    assert approved.status_code == 303 and approved.headers["Location"].endswith(f"/app#proposal-{first}")
    assert len(made(fhir_base, first)) == 1
    page = clinician.get("/app").get_data(as_text=True)
    assert f'id="proposal-{first}"' in page and "Approve and write to chart" not in page
    srv.say("Prepared.")
    second = card_id(done_html(ask(clinician, "Prescribe metformin 500 mg twice daily")))
    rejected = clinician.post(f"/proposals/{second}/reject", data={"csrf_token": clinician.csrf,
                                                                   "reason": "eGFR too low"})
    assert rejected.status_code == 303 and rejected.headers["Location"].endswith(f"/app#proposal-{second}")
    assert made(fhir_base, second) == [] and "eGFR too low" in clinician.get("/app").get_data(as_text=True)


def test_the_page_script_still_gets_the_card_partial(chat_app, fhir_base, srv, clinician):  # noqa: F811
    srv.say("Prepared.")
    pid = card_id(done_html(ask(clinician, "Prescribe amlodipine 5 mg once daily")))
    res = clinician.post(f"/proposals/{pid}/approve", data={"csrf_token": clinician.csrf},
                         headers=fetch_headers(clinician))
    assert res.status_code == 200 and res.get_data(as_text=True).lstrip().startswith("<article")
    as_json = clinician.post(f"/proposals/{pid}/approve", json={}, headers={
        "X-CSRF-Token": clinician.csrf, "Accept": "application/json"})
    assert as_json.status_code == 200 and as_json.get_json()["result_ref"].startswith("MedicationRequest/")


# ------------------------------------------------------------------ another patient
def test_the_store_refuses_a_proposal_about_another_patient(chat_app, fhir_base, clinician):  # noqa: F811
    with chat_app.app_context():
        store = proposal_store()
        sid = _sid(chat_app, clinician)
        other = {"resourceType": "MedicationRequest", "status": "active", "intent": "order",
                 "medicationCodeableConcept": {"text": "amoxicillin"}, "subject": {"reference": "Patient/pt-warfarin"}}
        with pytest.raises(errors.Forbidden, match="patient in context"):
            store.create(sid=sid, patient_id=clinician.patient, tool="prescribe_medication",
                         resource=other, summary={})
        with pytest.raises(errors.Forbidden, match="different patient"):  # subject and id agree, session does not
            store.create(sid=sid, patient_id="pt-warfarin", tool="prescribe_medication", resource=other, summary={})
        assert store.for_session(sid) == []


def _sid(app, client) -> str:
    with client.session_transaction() as s:
        return s["sid"]
