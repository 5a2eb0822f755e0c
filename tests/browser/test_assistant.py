"""End to end in headless Chromium: launch from the EHR sandbox, ask, watch, approve, reject.

The clinician's path, as a browser runs it (JavaScript, CSP, cookies, SSE over fetch):
launch → patient banner → a question answered through the scripted model with live
progress → the clinical trace → a prescription proposal → Approve → the
MedicationRequest exists in HAPI; and Reject with a reason → nothing is written.
"""
from __future__ import annotations

import re

import requests
from playwright.sync_api import expect

from tests.browser.conftest import element_shot, shot, shot_path
from tests.support.launch_context import clone_patient
from tests.support.model_server import reply


def launch(page, sandbox, app_url, patient="pt-ckd-elder"):
    page.goto(f"{sandbox.url}/launch?patient={patient}&practitioner=dr-okafor&launch_url={app_url}/launch")
    page.wait_for_url(f"{app_url}/app")


def created(fhir_base: str, proposal_id: str) -> int:
    res = requests.get(f"{fhir_base}/MedicationRequest", timeout=30, headers={"Cache-Control": "no-cache"},
                       params={"identifier": f"urn:docgemma:proposal|{proposal_id}", "_summary": "count"})
    return res.json()["total"]


def test_launch_ask_watch_progress_and_approve_a_prescription(page, sandbox, assistant, model, fhir_base):
    launch(page, sandbox, assistant, patient=clone_patient(fhir_base, "pt-ckd-elder"))  # this test writes
    expect(page.locator(".patient-banner")).to_contain_text("Margaret Testcopy")
    expect(page.locator(".patient-banner")).to_contain_text("DOB 1943-05-12")
    expect(page.locator(".glance svg.spark").first).to_be_visible()
    shot(page, "assistant-launched")

    model.script("IntentClassification", {"intent": "TOOL_NEEDED", "task_summary": "potassium trend",
                                          "suggested_tool": "get_patient_chart"})
    model.say(reply("Potassium has risen to **5.6 mmol/L** over three results; with eGFR 38 "
                    "review ACE inhibitor and potassium intake.", delay=2.0))
    page.fill("#message", "Check interactions between lisinopril and spironolactone")
    page.click("#send")
    running = page.locator(".turn-running .progress")
    expect(running).to_contain_text("Drug interaction check")  # streamed progress, before the answer
    shot(page, "assistant-streaming")
    answer = page.locator(".turn-done").last
    expect(answer.locator(".answer-text strong").first).to_have_text("5.6 mmol/L", timeout=20_000)
    # The scripted answer leaves out the pair's hyperkalaemia finding: code adds it, visibly.
    expect(answer.locator(".answer-text")).to_contain_text("did not state")
    answer.locator(".trace > summary").click()
    expect(answer.locator(".trace-step").first).to_be_visible()
    expect(answer.locator(".trace")).to_contain_text("Consulting: Drug interaction check")
    shot(page, "assistant-answer-with-trace")

    model.say("A prescription for amlodipine 5 mg once daily is ready for your approval.")
    page.fill("#message", "Prescribe amlodipine 5 mg once daily")
    page.press("#message", "Enter")  # keyboard: Enter sends
    card = page.locator(".proposal-pending").last
    expect(card).to_contain_text("amlodipine", timeout=20_000)
    expect(card.locator(".proposal-fields")).to_contain_text("once daily")
    proposal_id = card.get_attribute("id").removeprefix("proposal-")
    assert created(fhir_base, proposal_id) == 0  # nothing written before approval
    page.eval_on_selector("#ask", "form => form.style.position = 'static'")  # unpin for the picture
    card.screenshot(path=str(shot_path("approval-card")))
    page.eval_on_selector("#ask", "form => form.style.position = ''")

    card.get_by_role("button", name="Approve and write to chart").click()
    decided = page.locator(f"#proposal-{proposal_id}")
    expect(decided.locator(".proposal-result")).to_contain_text(re.compile(r"MedicationRequest/\S+"))
    expect(decided.get_by_role("button", name="Approve and write to chart")).to_have_count(0)
    assert created(fhir_base, proposal_id) == 1
    page.eval_on_selector("#ask", "form => form.style.position = 'static'")
    element_shot(decided, "approval-card-approved")

    page.reload()  # the transcript and the decided card survive a reload
    expect(page.locator(f"#proposal-{proposal_id} .proposal-status")).to_have_text("Approved")
    assert page.console_errors == []  # no CSP violation, no script error


def test_reject_with_a_reason_writes_nothing(page, sandbox, assistant, model, fhir_base):
    launch(page, sandbox, assistant, patient="pt-warfarin")
    model.say("A prescription for aspirin 81 mg once daily is ready for your review.")
    page.fill("#message", "Prescribe aspirin 81 mg once daily")
    page.click("#send")
    card = page.locator(".proposal-pending").last
    expect(card.locator(".proposal-flags")).to_contain_text("warfarin", timeout=20_000)  # the interaction flag
    proposal_id = card.get_attribute("id").removeprefix("proposal-")
    card.get_by_label("Reason for rejecting").fill("Bleeding risk with warfarin")
    card.get_by_role("button", name="Reject").click()
    decided = page.locator(f"#proposal-{proposal_id}")
    expect(decided.locator(".proposal-result")).to_contain_text("Bleeding risk with warfarin")
    expect(decided.locator(".proposal-status")).to_have_text("Rejected")
    assert created(fhir_base, proposal_id) == 0
    assert page.console_errors == []


def test_refusals_are_shown_next_to_the_form(page, sandbox, assistant, model):
    launch(page, sandbox, assistant, patient="pt-t2dm")
    page.set_input_files("#image", files=[{"name": "notes.txt", "mimeType": "text/plain", "buffer": b"not an image"}])
    page.fill("#message", "What does this image show?")
    page.click("#send")
    expect(page.locator("#ask-error")).to_contain_text("PNG, JPEG and DICOM")
    expect(page.locator(".turn")).to_have_count(0)  # nothing started


def test_desktop_layout_shows_chart_beside_the_conversation(page, sandbox, assistant, model):
    page.set_viewport_size({"width": 1280, "height": 860})
    launch(page, sandbox, assistant, patient="pt-ckd-elder")
    glance = page.locator(".glance-column").bounding_box()
    chat = page.locator(".assistant").bounding_box()
    assert glance["x"] + glance["width"] <= chat["x"]  # side by side, not stacked
    model.say("Her eGFR has fallen from 45 to 38 mL/min/1.73m2 over the last year.")
    page.fill("#message", "How is her kidney function changing?")
    page.click("#send")
    expect(page.locator(".turn-done")).to_have_count(1, timeout=20_000)
    shot(page, "assistant-desktop")


def test_works_inside_an_ehr_iframe_and_only_where_allowed(browser, app_config, sandbox, sources, model, httpserver):
    """The EHR frames the app: allowed origins render it (cookies, launch, streaming all work
    inside the frame); an origin not in FRAME_ANCESTORS gets a blocked frame."""
    from smart_docgemma import create_app

    from tests.support.servers import serve

    # The sandbox's EHR and the app are same-site (127.0.0.1, ports differ), as in the
    # default set-up, so the Lax session cookie flows inside the frame; cross-site EHRs
    # need https (SameSite=None; Secure; Partitioned — see security.cookie_flags).
    ehr_origin = f"http://127.0.0.1:{httpserver.port}"
    app = create_app({**app_config, **sources, "ISS_ALLOWLIST": [sandbox.fhir_url], "ENDPOINT": model.url,
                      "MODEL": model.model, "SCHEMA_DIALECT": "json_schema", "FRAME_ANCESTORS": ehr_origin})
    with serve(app) as server:
        launch_url = (f"{sandbox.url}/launch?patient=pt-t2dm&practitioner=dr-okafor"
                      f"&launch_url={server.url}/launch")
        httpserver.expect_request("/chart").respond_with_data(
            f'<!doctype html><title>EHR</title><iframe id="app" src="{launch_url}" width="400" height="800"></iframe>',
            content_type="text/html")
        context = browser.new_context()
        pg = context.new_page()
        try:
            pg.goto(f"{ehr_origin}/chart")
            frame = pg.frame_locator("#app")
            expect(frame.locator(".patient-banner")).to_be_visible(timeout=20_000)
            model.say("HbA1c is 7.2 %, above target.")
            frame.locator("#message").fill("What is her latest HbA1c?")
            frame.locator("#send").click()
            expect(frame.locator(".turn-done .answer-text")).to_contain_text("7.2", timeout=20_000)
        finally:
            context.close()

        # CSP frame-ancestors decides who may frame the app: any app page (here the 401 page
        # of /app without a session) renders for the allowed EHR origin and not for another.
        httpserver.expect_request("/frame-app").respond_with_data(
            f'<!doctype html><title>EHR</title><iframe id="app" src="{server.url}/app"></iframe>',
            content_type="text/html")
        assert _framed_page_renders(browser, f"{ehr_origin}/frame-app")
        assert not _framed_page_renders(browser, f"http://localhost:{httpserver.port}/frame-app")


def _framed_page_renders(browser, url: str) -> bool:
    context = browser.new_context()
    try:
        pg = context.new_page()
        pg.goto(url)
        pg.wait_for_timeout(1000)
        return pg.frame_locator("#app").locator(".error-page").count() == 1
    finally:
        context.close()


def test_a_reload_during_a_turn_loses_nothing(page, sandbox, assistant, model):
    launch(page, sandbox, assistant, patient="pt-t2dm")
    model.say(reply("Her HbA1c of 7.2 % is above the usual 7 % target.", delay=3.0))
    page.fill("#message", "Is her diabetes controlled?")
    page.click("#send")
    expect(page.locator(".turn-running .progress li").first).to_be_visible()
    page.reload()  # the worker owns the turn; the page picks it up again
    expect(page.locator('.turn[data-status="running"]')).to_have_count(1)
    expect(page.locator(".turn-done .answer-text")).to_contain_text("7.2 %", timeout=20_000)
    assert page.console_errors == []
