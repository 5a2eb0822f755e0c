"""The audit trail over real HTTP against real HAPI: one test per audited action, the listing
(``docgemma-audit``), redaction, the EHR copy, and what happens when a record cannot be stored.

The app runs on a real port; its session is a stored launch whose ``iss`` is HAPI itself
(``tests.support.chat_session``), so every chart read goes over HTTP to HAPI through the
session's own FHIR gateway — the one the trail is attached to.
"""

from __future__ import annotations

import base64
import json
import re
import uuid

import pytest
import requests
from smart_docgemma import create_app
from smart_docgemma.audit import audit_store
from smart_docgemma.cli.audit import main as audit_cli
from sqlalchemy import text

from tests.cds.ehr_client import ISSUER, app_behind_mini_ehr
from tests.support.chat_session import scripted_app, session_cookie
from tests.support.launch_context import clone_patient
from tests.support.model_server import ScriptedModelServer
from tests.support.servers import serve

PATIENT = "pt-ckd-elder"
TOKEN = "view-test-token"  # the stored launch's access token (tests.support.chat_session)


class Page:
    """A browser on the app: the session cookie and the CSRF token of a stored launch."""

    def __init__(self, app, url: str, fhir_base: str, patient: str = PATIENT):
        self.app, self.url = app, url
        self.cookies, self.csrf = session_cookie(app, fhir_base, patient)

    def get(self, path: str) -> requests.Response:
        return requests.get(self.url + path, cookies=self.cookies, timeout=60)

    def post(self, path: str, **kw) -> requests.Response:
        headers = {"X-CSRF-Token": self.csrf, **kw.pop("headers", {})}
        return requests.post(
            self.url + path, cookies=self.cookies, headers=headers, timeout=120, **kw
        )

    def ask(self, message: str) -> tuple[str, str]:
        """The turn id and the whole event stream."""
        res = self.post("/api/chat", data={"message": message})
        assert res.status_code == 200, res.text
        return re.search(r'"id": "([0-9a-f]{32})"', res.text).group(1), res.text


@pytest.fixture
def served(app_config):
    """A degraded app (no model) on a real port, factory for more configs."""
    servers = []

    def make(**extra):
        app = create_app({**app_config, **extra})
        server = serve(app)
        servers.append(server)
        return app, server.__enter__().url

    yield make
    for server in servers:
        server.__exit__(None, None, None)


def records(app, **filters):
    return audit_store(app).accesses(**filters)


def test_opening_the_page_audits_every_chart_read_with_who_client_and_patient(served, fhir_base):
    app, url = served()
    page = Page(app, url, fhir_base)
    assert page.get("/app").status_code == 200
    rows = records(app, patient=PATIENT)
    kinds = {r.kind for r in rows}
    assert {"read", "search-type"} <= kinds
    reads = [r for r in rows if r.kind == "read"]
    assert any(f"Patient/{PATIENT}" in r.resources for r in reads)
    searches = [r for r in rows if r.kind == "search-type"]
    queries = [
        base64.b64decode(e["query"]).decode()
        for r in searches
        for e in r.event["entity"]
        if "query" in e
    ]
    assert any(q.startswith("Observation?patient=pt-ckd-elder") for q in queries)
    assert any(r.resources and r.resources[0].startswith("Observation/") for r in searches)
    for r in rows:  # who, through which client, in which session, with what outcome
        assert (
            r.who == "Practitioner/dr-okafor"
            and r.client == "docgemma"
            and r.sid
            and r.outcome == "0"
        )
        user, client = r.event["agent"]
        assert user["who"] == {"reference": "Practitioner/dr-okafor"} and user["requestor"] is True
        assert client["network"]["address"] == fhir_base
        patient = next(e for e in r.event["entity"] if e["role"]["code"] == "1")
        assert patient["what"] == {"reference": f"Patient/{PATIENT}"}


def test_audit_events_are_valid_fhir_and_hold_no_token(served, fhir_base):
    from fhir.resources.R4B.auditevent import AuditEvent

    app, url = served()
    page = Page(app, url, fhir_base)
    page.get("/app")
    page.ask("Summarise the chart")
    rows = records(app)
    assert rows
    for r in rows:
        AuditEvent.model_validate(r.event)
    with app.extensions["docgemma.storage"].read() as conn:
        dump = " ".join(
            str(v) for row in conn.execute(text("SELECT * FROM audit_events")) for v in row
        )
    assert (
        TOKEN not in dump and "Summarise the chart" not in dump
    )  # the default policy omits the question


def test_a_question_audits_its_reads_and_the_answer_shown_with_what_it_cites(served, fhir_base):
    app, url = served()
    page = Page(app, url, fhir_base)
    turn, _ = page.ask("Summarise the chart")
    shown = records(app, kinds=("answer-shown",))
    assert len(shown) == 1
    answer = shown[0]
    assert answer.detail()["turn"] == turn and answer.patient_id == PATIENT
    assert any(
        ref.startswith("Condition/") for ref in answer.resources
    )  # the records the answer cites
    reads = records(app, kinds=("search-type",), sid=answer.sid)
    assert reads and all(
        r.recorded <= answer.recorded for r in reads
    )  # recorded before it was shown
    assert (
        page.get(f"/app/turns/{turn}").status_code == 200
    )  # shown again on a reload: recorded again
    assert len(records(app, kinds=("answer-shown",))) == 2


def test_question_redaction_policy_hash_keeps_a_digest_not_the_text(served, fhir_base):
    import hashlib

    app, url = served(AUDIT_QUESTION="hash")
    Page(app, url, fhir_base).ask("Summarise the chart")
    detail = records(app, kinds=("answer-shown",))[0].detail()
    assert detail["question-sha256"] == hashlib.sha256(b"Summarise the chart").hexdigest()
    assert "question" not in detail


def test_feedback_on_an_answer_is_recorded_and_linked_to_it(served, fhir_base):
    app, url = served()
    page = Page(app, url, fhir_base)
    turn, _ = page.ask("Summarise the chart")
    res = page.post(f"/app/turns/{turn}/rating", json={"useful": "no", "reason": "missed the eGFR"})
    assert res.status_code == 200
    feedback = records(app, kinds=("answer-feedback",))
    assert len(feedback) == 1 and feedback[0].detail() == {
        "turn": turn,
        "useful": "False",
        "reason-given": "True",
    }
    assert "missed the eGFR" not in json.dumps(feedback[0].event)


@pytest.fixture
def srv():
    with ScriptedModelServer() as server:
        yield server


def test_proposal_created_edited_rejected_approved_are_each_recorded(
    app_config, sources, srv, fhir_base
):
    app = scripted_app(app_config, sources, srv)
    patient = clone_patient(fhir_base, PATIENT)  # this test writes to the chart
    with serve(app) as server:
        page = Page(app, server.url, fhir_base, patient)
        srv.say("Amlodipine 5 mg once daily is prepared for your approval.")
        _, stream = page.ask("Prescribe amlodipine 5 mg once daily")
        first = re.search(r'id=\\"proposal-([0-9a-f]+)\\"', stream).group(1)
        srv.say("Lisinopril 10 mg once daily is prepared for your approval.")
        _, stream = page.ask("Prescribe lisinopril 10 mg once daily")
        second = re.search(r'id=\\"proposal-([0-9a-f]+)\\"', stream).group(1)
        script = {"X-Requested-With": "fetch"}
        edited = page.post(
            f"/proposals/{first}/edit",
            data={"csrf_token": page.csrf, "version": "1", "dose": "10"},
            headers=script,
        )
        assert edited.status_code == 200, edited.text
        approved = page.post(
            f"/proposals/{first}/approve",
            data={"csrf_token": page.csrf, "version": "2"},
            headers=script,
        )
        assert approved.status_code == 200 and "MedicationRequest/" in approved.text
        rejected = page.post(
            f"/proposals/{second}/reject",
            data={"csrf_token": page.csrf, "reason": "already on an ACE inhibitor"},
            headers=script,
        )
        assert rejected.status_code == 200
    by_kind = {}
    for r in records(app, patient=patient):
        by_kind.setdefault(r.kind, []).append(r)
    assert {r.detail()["proposal"] for r in by_kind["proposal-created"]} == {first, second}
    assert by_kind["proposal-edited"][0].detail()["proposal"] == first
    assert by_kind["proposal-edited"][0].detail()["version"] == "2"
    approval = by_kind["proposal-approved"][0]
    created = [ref for ref in approval.resources if ref.startswith("MedicationRequest/")]
    assert approval.outcome == "0" and len(created) == 1
    assert by_kind["proposal-rejected"][0].detail()["proposal"] == second
    assert "ACE inhibitor" not in json.dumps(
        by_kind["proposal-rejected"][0].event
    )  # the reason stays on the card
    writes = [r for r in by_kind["create"] if created[0] in r.resources]
    assert len(writes) == 1 and writes[0].who == "Practitioner/dr-okafor"  # the FHIR create itself


def test_a_cds_hook_call_and_its_fetches_are_recorded_for_the_ehr_user(app_config, fhir_base):
    with app_behind_mini_ehr(app_config) as ehr:
        body = {
            "hook": "patient-view",
            "hookInstance": str(uuid.uuid4()),
            "fhirServer": fhir_base,
            "context": {"userId": "Practitioner/dr-okafor", "patientId": "pt-warfarin"},
        }
        res = ehr.call("docgemma-patient-view", body)
        assert res.status_code == 200, res.text
        cards = res.json()["cards"]
        feedback = ehr.feedback(
            "docgemma-patient-view",
            [
                {
                    "card": cards[0]["uuid"],
                    "outcome": "overridden",
                    "outcomeTimestamp": "2026-11-25T10:00:00Z",
                    "overrideReason": {
                        "reason": {
                            "code": "benefit-outweighs-risk",
                            "system": "urn:docgemma:override-reason",
                        }
                    },
                }
            ],
        )
        assert feedback.status_code == 200, feedback.text
    app = create_app(app_config)
    rows = records(app, patient="pt-warfarin")
    call = [r for r in rows if r.kind == "cds-hook"]
    assert len(call) == 1 and call[0].client == ISSUER and call[0].who == "Practitioner/dr-okafor"
    assert (
        call[0].detail()["cards"] == str(len(cards))
        and call[0].detail()["service"] == "docgemma-patient-view"
    )
    fetched = [r for r in rows if r.kind in ("read", "search-type")]
    assert fetched and all(r.client == ISSUER for r in fetched)
    assert [r.detail()["card"] for r in records(app, kinds=("cds-feedback",))] == [cards[0]["uuid"]]


def test_docgemma_audit_lists_a_patients_accesses_over_a_period(served, fhir_base, capsys):
    app, url = served()
    Page(app, url, fhir_base).ask("Summarise the chart")
    config = {"DATABASE_URL": app.config["DATABASE_URL"], "SECRET_KEY": "test-secret-key"}
    assert audit_cli([PATIENT, "--since", "2020-01-01", "--until", "2099-12-31"], config) == 0
    out = capsys.readouterr()
    lines = out.out.strip().splitlines()
    assert any(" read " in line and f"Patient/{PATIENT}" in line for line in lines)
    assert any("answer-shown" in line and "Practitioner/dr-okafor" in line for line in lines)
    assert f"record(s) for patient {PATIENT}" in out.err
    assert audit_cli([PATIENT, "--until", "2020-01-01"], config) == 0
    assert capsys.readouterr().out == ""  # nothing before the period
    assert audit_cli([PATIENT, "--json", "--kind", "answer-shown"], config) == 0
    events = json.loads(capsys.readouterr().out)
    assert len(events) == 1 and events[0]["resourceType"] == "AuditEvent"
    assert audit_cli([PATIENT, "--since", "yesterday"], config) == 2


def test_when_the_audit_record_cannot_be_stored_the_chart_is_withheld(served, fhir_base):
    app, url = served()
    page = Page(app, url, fhir_base)
    with app.extensions["docgemma.storage"].begin() as conn:
        conn.execute(text("DROP TABLE audit_events"))  # the audit database refuses every insert
    html = page.get("/app").text
    assert "The chart is unavailable just now" in html and "audit trail" in html
    assert "Margaret" not in html  # the patient's name, read from HAPI, is not shown
    _, stream = page.ask("Summarise the chart")
    assert "eGFR" not in stream and "chronic kidney" not in stream.lower()
    metrics = requests.get(url + "/metrics", timeout=30).text
    assert re.search(r'docgemma_audit_failures_total\{kind="read"\} [1-9]', metrics)


def test_under_the_log_policy_the_chart_is_shown_and_the_failure_counted(served, fhir_base):
    app, url = served(AUDIT_ON_FAILURE="log")
    page = Page(app, url, fhir_base)
    with app.extensions["docgemma.storage"].begin() as conn:
        conn.execute(text("DROP TABLE audit_events"))
    html = page.get("/app").text
    assert "Margaret" in html
    metrics = requests.get(url + "/metrics", timeout=30).text
    assert re.search(r'docgemma_audit_failures_total\{kind="read"\} [1-9]', metrics)


def test_records_are_copied_to_the_ehr_when_configured(served, fhir_base):
    app, url = served(AUDIT_TO_EHR=True)
    Page(app, url, fhir_base).get("/app")
    rows = records(app, patient=PATIENT, kinds=("read",))
    assert rows and all(r.ehr_ref and r.ehr_ref.startswith("AuditEvent/") for r in rows)
    copy = requests.get(f"{fhir_base}/{rows[0].ehr_ref}", timeout=30).json()
    assert copy["resourceType"] == "AuditEvent" and copy["outcome"] == "0"
    assert {"reference": f"Patient/{PATIENT}"} in [e.get("what") for e in copy["entity"]]


def test_the_trail_is_the_same_on_postgresql(postgres, app_config, fhir_base):
    app = create_app({**app_config, "DATABASE_URL": postgres.new_database()})
    with serve(app) as server:
        Page(app, server.url, fhir_base).ask("Summarise the chart")
    rows = records(app, patient=PATIENT)
    assert {"read", "search-type", "answer-shown"} <= {r.kind for r in rows}
    assert records(app, patient=PATIENT, until=rows[0].recorded) == []


OPERATOR = "operator-test-credential-1234"


def test_the_admin_page_lists_a_patients_accesses_only_to_the_operator(served, fhir_base):
    """/admin/audit over real HTTP: 401 without the operator credential, 403 with a wrong one
    or a clinician's session, the CLI's listing with it (Basic or Bearer), bad dates 400; no
    token and no question on the page, even when the policy keeps the question."""
    app, url = served(OPERATOR_TOKEN=OPERATOR, AUDIT_QUESTION="full")
    page = Page(app, url, fhir_base)
    question = "Summarise the chart please, confidential wording 7731"
    turn_id, _ = page.ask(question)
    admin = f"{url}/admin/audit"
    period = {"patient": PATIENT, "since": "2020-01-01", "until": "2099-12-31"}

    bare = requests.get(admin, params=period, timeout=30)
    assert bare.status_code == 401 and bare.headers["WWW-Authenticate"].startswith("Basic ")
    assert "Operator credential required" in bare.text
    assert requests.get(admin, params=period, auth=("operator", "wrong"), timeout=30
                        ).status_code == 403
    assert page.get("/admin/audit?patient=" + PATIENT).status_code == 401  # a session is not it

    res = requests.get(admin, params=period, auth=("operator", OPERATOR), timeout=30)
    assert res.status_code == 200 and res.headers["Cache-Control"] == "no-store"
    html = res.text
    rows = records(app, patient=PATIENT)
    assert f"{len(rows)} record(s) for Patient/{PATIENT}" in html
    assert f"turn={turn_id}" in html and "answer-shown" in html and "Practitioner/dr-okafor" in html
    assert f"Patient/{PATIENT}" in html and " read " in re.sub(r"<[^>]+>", " ", html)
    assert any("question" in r.detail() for r in rows)  # the policy kept it in the trail …
    assert "7731" not in html and TOKEN not in html and OPERATOR not in html  # … not on the page

    bearer = {"Authorization": f"Bearer {OPERATOR}"}
    kinds = requests.get(admin, params={**period, "kind": "answer-shown"}, headers=bearer,
                         timeout=30)
    assert kinds.status_code == 200 and " read " not in re.sub(r"<[^>]+>", " ", kinds.text)
    assert "1 record(s)" in kinds.text
    for bad in ({"since": "yesterday"}, {"until": "2026-13-45"}, {"since": "2026-11-30",
                                                                  "until": "2026-11-01"}):
        refused = requests.get(admin, params={"patient": PATIENT, **bad}, headers=bearer,
                               timeout=30)
        assert refused.status_code == 400, (bad, refused.status_code)


def test_without_an_operator_credential_configured_the_admin_page_refuses_everyone(served):
    app, url = served()
    assert requests.get(f"{url}/admin/audit?patient={PATIENT}", auth=("operator", "anything"),
                        timeout=30).status_code == 403
