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
from tests.web.test_chat import ask, chat_app, done_html, srv  # noqa: F401  (fixtures)


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
    approved = clinician.post(f"/proposals/{first}/approve", data={"csrf_token": clinician.csrf, "version": "1"})
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
    res = clinician.post(f"/proposals/{pid}/approve", data={"csrf_token": clinician.csrf, "version": "1"},
                         headers=fetch_headers(clinician))
    assert res.status_code == 200 and res.get_data(as_text=True).lstrip().startswith("<article")
    as_json = clinician.post(f"/proposals/{pid}/approve", json={"version": 1}, headers={
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


# ------------------------------------------------------------------ editing
def propose(app, client, fhir_base, tool: str, args) -> str:
    """Run a write tool as the agent would inside ``client``'s session; returns the proposal id."""
    from smart_docgemma.tools.registry import tools_for

    from tests.support.launch_context import launch, tool_context

    with app.app_context():
        lc = launch(fhir_base, client.patient, sid=_sid(app, client))
        result = tools_for(lc.scopes)[tool].run(args, tool_context(lc, proposal_store()))
    assert result.status == "proposal", result.text
    return result.proposal_id


def prescription(app, client, fhir_base, dose="500 mg", frequency="three times daily") -> str:
    from smart_docgemma.tools.args import PrescribeMedicationArgs

    return propose(app, client, fhir_base, "prescribe_medication", PrescribeMedicationArgs(
        patient_id=client.patient, medication_name="amoxicillin", dosage=dose, frequency=frequency))


def edit(client, pid, version=1, **fields):
    return client.post(f"/proposals/{pid}/edit", data={"csrf_token": client.csrf, "version": version, **fields},
                       headers=fetch_headers(client))


def approve(client, pid, version):
    return client.post(f"/proposals/{pid}/approve", data={"csrf_token": client.csrf, "version": version},
                       headers=fetch_headers(client))


def as_json(client, pid) -> dict:
    return client.get(f"/proposals/{pid}", headers={"Accept": "application/json"}).get_json()


def test_an_edited_dose_is_rechecked_shown_and_written_with_provenance(chat_app, fhir_base, clinician):  # noqa: F811
    pid = prescription(chat_app, clinician, fhir_base)
    res = edit(clinician, pid, dose="1000", duration_days="7", quantity="21")
    card = res.get_data(as_text=True)
    assert res.status_code == 200
    assert "Start amoxicillin 1000 mg three times daily for 7 days; dispense 21" in card
    assert "Dose: <del>500 mg</del> → <ins>1000 mg</ins>" in card and "(version 2)" in card
    assert 'name="version" value="2"' in card
    shown = as_json(clinician, pid)
    assert shown["version"] == 2 and shown["summary"]["flags"] is not None  # the safety checks ran again
    assert dict(shown["summary"]["fields"])["Dose"] == "1000 mg"
    assert made(fhir_base, pid) == []  # an edit writes nothing
    assert approve(clinician, pid, 2).status_code == 200
    [written] = made(fhir_base, pid)
    inst = written["dosageInstruction"][0]
    assert inst["doseAndRate"][0]["doseQuantity"]["value"] == 1000 and inst["text"] == "1000 mg three times daily"
    assert written["dispenseRequest"]["expectedSupplyDuration"]["value"] == 7
    provenance = requests.get(f"{fhir_base}/Provenance", params={"target": f"MedicationRequest/{written['id']}"},
                              headers={"Cache-Control": "no-cache"}, timeout=30).json()["entry"][0]["resource"]
    assert "edited by the clinician" in provenance["reason"][0]["text"]
    assert "Dose 500 mg → 1000 mg" in provenance["reason"][0]["text"]


def test_the_safety_checks_run_again_on_the_edited_resource(chat_app, fhir_base):  # noqa: F811
    client = chat_app.test_client()
    client.patient = clone_patient(fhir_base, "pt-pen-allergy")
    client.csrf = open_session(chat_app, client, fhir_base, client.patient)
    pid = prescription(chat_app, client, fhir_base)
    with chat_app.app_context():  # what the allergy check said when the tool ran, then forgotten
        store = proposal_store()
        p = store.get(pid)
        store.edit(p, 1, p.resource, {**p.summary, "flags": []})
    assert edit(client, pid, 2, dose="250").status_code == 200
    flags = as_json(client, pid)["summary"]["flags"]
    assert any(f["kind"] == "allergy" and f["severity"] == "critical" for f in flags)


def test_approving_a_version_that_has_since_changed_is_refused(chat_app, fhir_base, clinician):  # noqa: F811
    pid = prescription(chat_app, clinician, fhir_base)
    assert edit(clinician, pid, dose="1000").status_code == 200
    stale = approve(clinician, pid, 1)
    assert stale.status_code == 409 and "version 2" in stale.get_data(as_text=True)
    assert made(fhir_base, pid) == [] and as_json(clinician, pid)["status"] == "pending"
    assert edit(clinician, pid, 1, dose="2000").status_code == 409  # an edit of the old version too
    missing = clinician.post(f"/proposals/{pid}/approve", data={"csrf_token": clinician.csrf},
                             headers=fetch_headers(clinician))
    assert missing.status_code == 400 and made(fhir_base, pid) == []


@pytest.mark.parametrize("fields, message", [
    ({"dose": "abc"}, "The dose must be a number"),
    ({"quantity": "-5"}, "The quantity must be greater than zero"),
    ({"duration_days": "1.5"}, "The duration must be a whole number of days"),
    ({"frequency": "whenever"}, "was not understood"),
    ({"route": "rectal-ish"}, "Route must be one of"),
])
def test_an_invalid_edit_is_refused_clearly_and_changes_nothing(chat_app, fhir_base, clinician, fields, message):  # noqa: F811
    pid = prescription(chat_app, clinician, fhir_base)
    before = as_json(clinician, pid)
    res = clinician.post(f"/proposals/{pid}/edit", json={"version": 1, **fields},
                         headers={"X-CSRF-Token": clinician.csrf, "Accept": "application/json"})
    assert res.status_code == 400 and message in res.get_json()["error_description"], res.get_json()
    after = as_json(clinician, pid)
    assert after["version"] == 1 and after["resource"] == before["resource"] and made(fhir_base, pid) == []


def test_another_session_cannot_edit_the_card(chat_app, fhir_base, clinician):  # noqa: F811
    pid = prescription(chat_app, clinician, fhir_base)
    other = chat_app.test_client()
    other.csrf = open_session(chat_app, other, fhir_base, clinician.patient)
    assert edit(other, pid, dose="5000").status_code == 404
    assert as_json(clinician, pid)["version"] == 1


def test_an_edit_without_javascript_answers_303_to_the_card(chat_app, fhir_base, clinician):  # noqa: F811
    pid = prescription(chat_app, clinician, fhir_base)
    res = clinician.post(f"/proposals/{pid}/edit", data={"csrf_token": clinician.csrf, "version": "1", "dose": "750",
                                                         "as_needed": "no"})
    assert res.status_code == 303 and res.headers["Location"].endswith(f"/app#proposal-{pid}")
    assert as_json(clinician, pid)["action"] == "Start amoxicillin 750 mg three times daily"


def test_edit_and_approve_from_two_tabs_have_one_outcome(chat_app, fhir_base, clinician):  # noqa: F811
    import threading

    for _ in range(3):
        pid = prescription(chat_app, clinician, fhir_base)
        barrier, out = threading.Barrier(2), {}

        def tab(name, action):
            barrier.wait()
            out[name] = action().status_code

        tabs = [threading.Thread(target=tab, args=("edit", lambda: edit(clinician, pid, dose="1000"))),
                threading.Thread(target=tab, args=("approve", lambda: approve(clinician, pid, 1)))]
        [t.start() for t in tabs]
        [t.join(60) for t in tabs]
        written = made(fhir_base, pid)
        if out["approve"] == 200:  # the approval won: the original dose, and the edit was refused
            assert out["edit"] == 409 and len(written) == 1
            assert written[0]["dosageInstruction"][0]["doseAndRate"][0]["doseQuantity"]["value"] == 500
        else:  # the edit won: nothing written, version 2 awaits review
            assert (out["edit"], out["approve"]) == (200, 409) and written == []
            assert as_json(clinician, pid)["version"] == 2


def test_allergy_and_note_fields_are_editable(chat_app, fhir_base, clinician):  # noqa: F811
    from smart_docgemma.tools.args import AddAllergyArgs, ClinicalNoteArgs

    allergy = propose(chat_app, clinician, fhir_base, "add_allergy", AddAllergyArgs(
        patient_id=clinician.patient, substance="penicillin", reaction="rash", severity="mild"))
    assert edit(clinician, allergy, substance="latex", category="environment", criticality="high",
                reaction="anaphylaxis", severity="severe").status_code == 200
    shown = as_json(clinician, allergy)
    r = shown["resource"]
    assert r["code"]["coding"][0]["code"] == "111088007" and r["category"] == ["environment"]
    assert r["criticality"] == "high" and r["reaction"][0]["severity"] == "severe"
    assert r["reaction"][0]["manifestation"][0]["coding"][0]["code"] == "39579001"
    assert shown["action"] == "Record a high-criticality environment allergy to latex (anaphylaxis, severe)"
    assert edit(clinician, allergy, 2, severity="fatal").status_code == 400
    note = propose(chat_app, clinician, fhir_base, "save_clinical_note", ClinicalNoteArgs(
        patient_id=clinician.patient, note_type="progress note", note_text="Stable."))
    assert edit(clinician, note, note_type="discharge summary", note_text="Discharged home, well.").status_code == 200
    shown = as_json(clinician, note)
    assert shown["resource"]["type"]["coding"][0]["code"] == "18842-5"
    assert shown["summary"]["preview"] == "Discharged home, well."
    assert approve(clinician, note, 2).status_code == 200
    [written] = made(fhir_base, note, "DocumentReference")
    import base64
    assert base64.b64decode(written["content"][0]["attachment"]["data"]).decode() == "Discharged home, well."
