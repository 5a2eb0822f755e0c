"""The assistant page and its streaming question endpoint, through the Flask test client.

Real HAPI (the fixtures), a real scripted model server over HTTP, knowledge sources
served from recorded bodies. What is checked is what the clinician sees: the banner,
the chart at a glance with its trend plots, a streamed answer that is sanitised,
the clinical trace, the approval card inline, and clear refusals (400/401/403/409/413/
415/429) that leave nothing half-done.
"""
from __future__ import annotations

import io
import json
import re
import threading

import pytest
import requests
from smart_docgemma.turns.store import turn_store

from tests.support.chat_session import open_session, scripted_app
from tests.support.launch_context import clone_patient
from tests.support.model_server import ScriptedModelServer, http_error, reply

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 200


@pytest.fixture
def srv():
    with ScriptedModelServer() as server:
        yield server


@pytest.fixture
def chat_app(app_config, srv, sources):
    return scripted_app(app_config, sources, srv)


@pytest.fixture
def chat(chat_app, fhir_base):
    client = chat_app.test_client()
    client.csrf = open_session(chat_app, client, fhir_base, "pt-ckd-elder")
    return client


def ask(client, message, **extra):
    """POST a question and read the whole stream (the turn has ended when this returns)."""
    data = {"message": message, **extra}
    res = client.post("/api/chat", data=data, headers={"X-CSRF-Token": client.csrf},
                      content_type="multipart/form-data")
    res.get_data()
    return res


def events(res) -> list[tuple[str, dict]]:
    out = []
    for block in res.get_data(as_text=True).split("\n\n"):
        name = re.search(r"^event: (\w+)$", block, re.M)
        data = re.search(r"^data: (.*)$", block, re.M)
        if name and data:
            out.append((name.group(1), json.loads(data.group(1))))
    return out


def done_html(res) -> str:
    return [d for e, d in events(res) if e == "done"][0]["html"]


# ------------------------------------------------------------------ the page
def test_page_shows_banner_and_chart_at_a_glance_with_trend_plots(chat):
    page = chat.get("/app")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert 'class="patient-banner"' in html and "MRN" in html
    assert "Chart at a glance" in html and "Chronic kidney disease" in html
    plot = re.search(r'<svg class="spark spark-high"[^>]*aria-label="(Potassium[^"]+)"', html)
    assert plot and "mmol/L" in plot.group(1)  # K+ trend drawn, latest flagged high
    assert "<polyline" in html and "eGFR" in html
    assert "Model unavailable" not in html  # a model is configured
    assert "view-test-token" not in html  # the token never reaches the page


def test_page_without_model_is_labelled_degraded(client, app, fhir_base):
    open_session(app, client, fhir_base, "pt-warfarin")
    html = client.get("/app").get_data(as_text=True)
    assert "Model unavailable" in html and 'role="status"' in html


def test_banner_is_left_to_the_ehr_when_it_says_so(client, app, fhir_base):
    open_session(app, client, fhir_base, "pt-warfarin", need_patient_banner=False)
    html = client.get("/app").get_data(as_text=True)
    assert 'class="patient-banner"' not in html and "compact-header" in html


def test_page_still_works_when_the_chart_cannot_be_read(client, app, fhir_base):
    open_session(app, client, fhir_base, None)  # a launch without a patient
    res = client.get("/app")
    assert res.status_code == 200 and "No patient is in context" in res.get_data(as_text=True)


def test_page_is_embeddable_and_locked_down(chat):
    res = chat.get("/app")
    csp = res.headers["Content-Security-Policy"]
    assert "frame-ancestors 'self' http://127.0.0.1:9000" in csp and "script-src 'self'" in csp
    assert "X-Frame-Options" not in res.headers
    assert res.headers["Referrer-Policy"] == "no-referrer" and res.headers["X-Content-Type-Options"] == "nosniff"
    html = res.get_data(as_text=True)
    assert "<script>" not in html and 'src="/static/app.js"' in html
    assert 'for="message"' in html and 'for="image"' in html  # labelled controls


def test_without_a_session_the_page_and_the_api_answer_401(client):
    page = client.get("/app")
    assert page.status_code == 401 and "open the assistant again" in page.get_data(as_text=True)
    api = client.post("/api/chat", data={"message": "hi"})
    assert api.status_code in (401, 403)  # no session and no CSRF token: refused either way


# ------------------------------------------------------------------ asking
def test_a_question_streams_progress_then_tokens_then_a_sanitised_answer(chat, srv):
    srv.say("Warfarin with aspirin raises **bleeding risk**. <script>alert(1)</script>")
    res = ask(chat, "Check interactions between warfarin and aspirin")
    assert res.status_code == 200 and res.mimetype == "text/event-stream"
    stream = events(res)
    names = [e for e, _ in stream]
    assert names[0] == "turn" and names[-1] == "done"
    assert names.index("progress") < names.index("token") < names.index("done")
    labels = [d.get("label") for e, d in stream if e == "progress"]
    assert "Drug interaction check" in labels and "Writing the answer" in labels
    html = done_html(res)
    assert "<strong>bleeding risk</strong>" in html
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert "Clinical trace" in html and "drug names: warfarin, aspirin" in html
    assert re.search(r'<a href="https?://[^"]+" target="_blank" rel="noopener noreferrer">', html)  # sources


def test_the_transcript_survives_a_reload_and_feeds_the_next_question(chat, srv):
    srv.say("Potassium is rising: 4.9 to 5.6 mmol/L.")
    ask(chat, "Summarise her potassium results")
    html = chat.get("/app").get_data(as_text=True)
    assert "Summarise her potassium results" in html and "Potassium is rising" in html
    srv.say("Yes.")
    ask(chat, "Is that dangerous?")
    last_synthesis = [b for b in srv.requests if "response_format" not in b][-1]
    contents = [m["content"] for m in last_synthesis["messages"]]
    # the earlier question as the model read it (with what the turn read), and its answer
    assert any(c.startswith("Clinician's question: Summarise her potassium results") for c in contents)
    assert "Potassium is rising: 4.9 to 5.6 mmol/L." in contents


def test_a_prescription_arrives_as_an_approval_card_and_writes_only_when_approved(chat_app, srv, fhir_base):
    chat = chat_app.test_client()  # a copy of the scenario patient: this test writes to the chart
    chat.csrf = open_session(chat_app, chat, fhir_base, clone_patient(fhir_base, "pt-ckd-elder"))
    srv.say("Amlodipine 5 mg once daily is prepared for your approval.")
    html = done_html(ask(chat, "Prescribe amlodipine 5 mg once daily"))
    card = re.search(r'id="proposal-([0-9a-f]+)"', html)
    assert card and "Approve and write to chart" in html and "Reason for rejecting" in html
    pid = card.group(1)
    search = {"identifier": f"urn:docgemma:proposal|{pid}", "_summary": "count"}
    count = lambda: requests.get(f"{fhir_base}/MedicationRequest", params=search, timeout=30,  # noqa: E731
                                 headers={"Cache-Control": "no-cache"}).json()["total"]
    assert count() == 0
    done = chat.post(f"/proposals/{pid}/approve", data={"csrf_token": chat.csrf, "version": "1"},
                     headers={"X-Requested-With": "fetch"})  # as the page's script posts it
    assert done.status_code == 200 and "MedicationRequest/" in done.get_data(as_text=True)
    assert count() == 1
    page = chat.get("/app").get_data(as_text=True)  # the transcript shows the decided card
    assert f'id="proposal-{pid}"' in page and "Approved" in page and "Approve and write to chart" not in page


def test_image_attachments_are_checked_for_size_and_type(chat, chat_app, srv):
    chat_app.config["IMAGE_MAX_BYTES"] = 1024
    big = ask(chat, "What does this show?", image=(io.BytesIO(PNG + b"\x00" * 2000), "cxr.png", "image/png"))
    assert big.status_code == 413 and "larger than" in big.get_json()["error_description"]
    text = ask(chat, "What does this show?", image=(io.BytesIO(b"just text"), "notes.txt", "text/plain"))
    assert text.status_code == 415 and "PNG, JPEG and DICOM" in text.get_json()["error_description"]
    assert turn_store(chat_app).for_session(_sid(chat)) == []  # refused before any turn started


def test_an_attached_xray_reaches_the_vision_model_and_is_noted_in_the_transcript(chat, srv):
    import PIL.Image

    buf = io.BytesIO()
    PIL.Image.new("L", (64, 64), 128).save(buf, format="PNG")
    srv.script("ImageFindings", {"modality": "chest X-ray", "findings": ["Right lower lobe opacity"],
                                 "impression": "Right lower lobe consolidation.", "confidence": "moderate",
                                 "specialist_review": False})
    srv.say("The radiograph shows right lower lobe consolidation.")
    res = ask(chat, "What does this chest X-ray show?", image=(io.BytesIO(buf.getvalue()), "cxr.png", "image/png"))
    html = done_html(res)
    sent = srv.requests_for("ImageFindings")[0]["messages"][-1]["content"]
    assert any(part.get("image_url", {}).get("url", "").startswith("data:image/png;base64,") for part in sent)
    assert "consolidation" in html and "with png image" in html
    assert "base64" not in html  # the image is described, never echoed into the page or the record


def test_an_upload_is_sniffed_once(chat, srv, monkeypatch):
    """The chat checks the upload's kind by its magic bytes and hands that reading to the agent:
    the bytes are not sniffed again on the way (one image check per upload)."""
    import PIL.Image
    from smart_docgemma.tools.sources import imaging

    calls = []
    real = imaging.sniff
    monkeypatch.setattr(imaging, "sniff", lambda data: calls.append(len(data)) or real(data))
    buf = io.BytesIO()
    PIL.Image.new("L", (32, 32), 90).save(buf, format="PNG")
    srv.say("Nothing to see.")
    res = ask(chat, "What does this show?", image=(io.BytesIO(buf.getvalue()), "x.png", "image/png"))
    assert "with png image" in done_html(res)
    assert calls == [len(buf.getvalue())]


def test_empty_and_overlong_questions_are_refused_clearly(chat, chat_app):
    assert ask(chat, "   ").status_code == 400
    chat_app.config["CHAT_MAX_CHARS"] = 50
    res = ask(chat, "x" * 51)
    assert res.status_code == 400 and "limit is 50" in res.get_json()["error_description"]


def test_a_post_without_the_csrf_token_is_refused(chat):
    res = chat.post("/api/chat", data={"message": "hello"})
    assert res.status_code == 403


def test_rate_limit_per_session_answers_429_with_retry_after(chat, chat_app, srv):
    chat_app.config["CHAT_RATE_PER_MIN"] = 2
    for _ in range(2):
        srv.say("ok")
        assert ask(chat, "Hello").status_code == 200
    res = ask(chat, "Hello again")
    assert res.status_code == 429 and int(res.headers["Retry-After"]) > 0
    assert "Too many questions" in res.get_json()["error_description"]


def test_one_turn_at_a_time_per_session(chat, srv):
    srv.script("IntentClassification", reply({"intent": "DIRECT", "task_summary": "greeting"}, delay=1.5))
    first = {}
    worker = threading.Thread(target=lambda: first.update(res=ask(chat, "Hello")))
    worker.start()
    try:
        _wait_running(chat)
        second = ask(chat, "Are you there?")
        assert second.status_code == 409 and "still answering" in second.get_json()["error_description"]
    finally:
        worker.join()
    assert first["res"].status_code == 200


def test_when_the_model_fails_the_turn_is_labelled_degraded_and_still_answers(chat, srv):
    srv.inject(http_error(500, "CUDA out of memory"), times=20)
    html = done_html(ask(chat, "Check interactions between warfarin and aspirin"))
    assert 'class="turn turn-done"' in html and "Model unavailable" in html
    assert "warfarin" in html.lower()  # a templated summary of what the source returned


def test_a_turn_of_another_session_is_not_visible(chat, chat_app, fhir_base, srv):
    srv.say("Private answer")
    turn_id = [d for e, d in events(ask(chat, "Hello")) if e == "turn"][0]["id"]
    assert chat.get(f"/app/turns/{turn_id}").status_code == 200
    other = chat_app.test_client()
    open_session(chat_app, other, fhir_base, "pt-ckd-elder")
    assert other.get(f"/app/turns/{turn_id}").status_code == 404


def test_ehr_style_becomes_css_variables(client, app, fhir_base, httpserver):
    httpserver.expect_request("/style.json").respond_with_json(
        {"color_highlight": "#0b6e4f", "color_text": "red;}body{display:none", "dim_border_radius": "6px"})
    open_session(app, client, fhir_base, "pt-warfarin", smart_style_url=httpserver.url_for("/style.json"))
    assert 'href="/app/style.css"' in client.get("/app").get_data(as_text=True)
    css = client.get("/app/style.css")
    assert css.mimetype == "text/css"
    body = css.get_data(as_text=True)
    assert "--accent:#0b6e4f;" in body and "--radius:6px;" in body and "display:none" not in body


def _sid(client) -> str:
    with client.session_transaction() as s:
        return s["sid"]


def _wait_running(client, timeout: float = 10) -> None:
    import time

    from smart_docgemma.storage import turns

    app = client.application
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with app.extensions["docgemma.storage"].begin() as conn:
            if conn.execute(turns.select().where(turns.c.status == "running")).first():
                return
        time.sleep(0.05)
    raise AssertionError("no turn started")


def test_session_cookie_works_in_a_cross_site_ehr_iframe_over_https(app_config):
    from flask import session
    from smart_docgemma import create_app

    app = create_app({**app_config, "PUBLIC_URL": "https://docgemma.example.org"})
    with app.test_request_context("/app", base_url="https://docgemma.example.org"):
        session["sid"] = "opaque"
        response = app.make_response("")
        app.session_interface.save_session(app, session, response)
    cookie = response.headers["Set-Cookie"]
    assert all(flag in cookie for flag in ("HttpOnly", "Secure", "SameSite=None", "Partitioned")), cookie


def test_events_that_queue_up_under_load_leave_together_in_order():
    """A stream that waited for the CPU sends what queued in one write: the answer's tokens
    joined (the clinician reads the same text), steps in the order they happened."""
    from smart_docgemma.web.relay import relay

    queued = [{"type": "token", "text": "Warfarin "}, {"type": "token", "text": "with aspirin"},
              {"type": "node_end", "node": "synthesize", "duration_ms": 5},
              {"type": "token", "text": " raises bleeding risk."}, {"type": "thinking", "text": "hidden"}]
    stream = [(e, d) for block in relay(queued)
              for e, d in [(re.search(r"^event: (\w+)$", block, re.M).group(1),
                            json.loads(re.search(r"^data: (.*)$", block, re.M).group(1)))]]
    assert stream == [("token", {"text": "Warfarin with aspirin"}),
                      ("progress", {"kind": "step", "node": "synthesize", "label": "Synthesize",
                                    "phase": "end", "duration_ms": 5}),
                      ("token", {"text": " raises bleeding risk."})]
