"""The chart a question's prompt sees: the page's read is reused for a question asked soon
after, never across sessions or patients, and never after an approved write.

Real HAPI (a copy of a scenario patient, changed directly as another EHR user would), a real
scripted model server over HTTP (what the prompt carried is what it received).
"""
from __future__ import annotations

import time

import requests
from smart_docgemma.extensions import get_storage
from smart_docgemma.storage import chart_snapshots as table
from smart_docgemma.web import snapshots
from smart_docgemma.web.snapshots import ChartRead, ChartSnapshots
from sqlalchemy import select

from tests.proposals.test_approval_loop import card_id
from tests.support.chat_session import open_session, scripted_app
from tests.support.fixture_charts import chart as fixture_chart
from tests.support.launch_context import clone_patient
from tests.web.test_chat import ask, done_html, srv  # noqa: F401  (fixtures)

QUESTION = "What is the mechanism of action of metformin?"


def clinician(app, fhir_base):
    client = app.test_client()
    client.patient = clone_patient(fhir_base, "pt-ckd-elder")
    client.csrf = open_session(app, client, fhir_base, client.patient)
    return client


def add_allergy(fhir_base: str, patient: str, substance: str) -> None:
    """Another EHR user records an allergy (straight to FHIR, not through the app)."""
    res = requests.post(f"{fhir_base}/AllergyIntolerance", timeout=30, json={
        "resourceType": "AllergyIntolerance", "patient": {"reference": f"Patient/{patient}"},
        "clinicalStatus": {"coding": [{"system": "http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical",
                                       "code": "active"}]},
        "code": {"text": substance}}, headers={"Content-Type": "application/fhir+json"})
    res.raise_for_status()


def prompted(srv, client, message=QUESTION) -> str:  # noqa: F811
    """The patient context the model received while answering ``message`` (lower case)."""
    before = len(srv.requests)
    srv.say("Answered.")
    assert ask(client, message).status_code == 200
    texts = [m["content"] for r in srv.requests[before:] for m in r["messages"] if isinstance(m.get("content"), str)]
    found = [line for t in texts for line in t.splitlines() if line.startswith("Patient in context:")]
    assert found, "the prompt carried no patient context"
    return found[0].lower()


def test_a_question_soon_after_the_page_uses_the_page_read_then_reads_again(
        app_config, sources, srv, fhir_base, monkeypatch):  # noqa: F811
    app = scripted_app(app_config, sources, srv)
    client = clinician(app, fhir_base)
    assert client.get("/app").status_code == 200
    add_allergy(fhir_base, client.patient, "Latex")  # after the page was read
    assert "latex" not in prompted(srv, client)  # the page's read, seconds old: no second read
    later = time.time() + app.config["CHART_FRESH_S"] + 1
    monkeypatch.setattr(snapshots, "now", lambda: later)
    assert "allergies: latex" in prompted(srv, client)  # older than the window: read again


def test_with_the_window_at_zero_every_question_reads_the_chart(app_config, sources, srv, fhir_base):  # noqa: F811
    app = scripted_app({**app_config, "CHART_FRESH_S": 0}, sources, srv)
    client = clinician(app, fhir_base)
    assert client.get("/app").status_code == 200
    add_allergy(fhir_base, client.patient, "Latex")
    assert "allergies: latex" in prompted(srv, client)
    with app.app_context():
        assert get_storage().engine.connect().execute(select(table)).first() is None  # nothing kept


def test_an_approved_write_is_in_the_next_question(app_config, sources, srv, fhir_base):  # noqa: F811
    app = scripted_app(app_config, sources, srv)
    client = clinician(app, fhir_base)
    assert client.get("/app").status_code == 200
    srv.say("Prepared for your approval.")
    pid = card_id(done_html(ask(client, "Prescribe amoxicillin 500 mg three times daily")))
    approved = client.post(f"/proposals/{pid}/approve", data={"csrf_token": client.csrf, "version": "1"})
    assert approved.status_code == 303
    assert "amoxicillin" in prompted(srv, client)


def test_a_snapshot_is_the_session_and_patient_own_and_sealed(app):
    with app.app_context():
        store = ChartSnapshots(get_storage(), fresh_s=60)
        store.keep("session-a", "pt-1", ChartRead("Ama Owusu, 71 y female; meds: warfarin",
                                                  "Active medications (1):\n- warfarin 5 mg daily"))
        kept = store.fresh("session-a", "pt-1")
        assert kept.brief.endswith("meds: warfarin") and kept.text.endswith("warfarin 5 mg daily")
        assert store.fresh("session-b", "pt-1") is None  # another clinician's session
        assert store.fresh("session-a", "pt-2") is None  # the same session, another patient
        with get_storage().engine.connect() as conn:
            assert "warfarin" not in conn.execute(select(table.c.brief)).scalar()  # sealed at rest
        store.forget("session-a")
        assert store.fresh("session-a", "pt-1") is None


def test_a_snapshot_keeps_the_chart_typed_for_the_reading(app):
    """The next question reads its message against the same typed chart the page's read made
    (her name, MRN, medications): the snapshot keeps it with the brief and the text; a snapshot
    kept before the chart was typed is read again, never used without it."""
    read = fixture_chart("02-warfarin.json")
    with app.app_context():
        store = ChartSnapshots(get_storage(), fresh_s=60)
        store.keep("session-a", "pt-warfarin", ChartRead.of(read))
        kept = store.fresh("session-a", "pt-warfarin")
        assert kept is not None and kept.chart == read.in_context
        assert kept.chart.drugs == ("warfarin", "aspirin")
        with get_storage().begin() as conn:
            conn.execute(table.update().values(brief=get_storage().seal({"brief": read.brief,
                                                                         "text": read.text})))
        assert store.fresh("session-a", "pt-warfarin") is None


def test_chart_data_does_not_outlive_its_window(app, monkeypatch):
    with app.app_context():
        store = ChartSnapshots(get_storage(), fresh_s=60)
        store.keep("session-a", "pt-1", ChartRead("meds: warfarin", ""))
        later = time.time() + 61
        monkeypatch.setattr(snapshots, "now", lambda: later)
        assert store.fresh("session-a", "pt-1") is None
        store.keep("session-b", "pt-2", ChartRead("meds: none recorded", ""))  # any later read sweeps old ones
        with get_storage().engine.connect() as conn:
            assert [r.sid for r in conn.execute(select(table.c.sid))] == ["session-b"]
