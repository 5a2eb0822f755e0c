"""In headless Chromium: a decision on a card resumes the conversation, streamed under the card."""
from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.conftest import shot_path
from tests.browser.test_assistant import created, launch
from tests.support.launch_context import clone_patient
from tests.support.model_server import reply


def test_approve_streams_the_follow_up_under_the_card(page, sandbox, assistant, model, fhir_base):
    launch(page, sandbox, assistant, patient=clone_patient(fhir_base, "pt-ckd-elder"))  # this test writes
    page.fill("#message", "Prescribe amlodipine 5 mg once daily")
    page.press("#message", "Enter")
    card = page.locator(".proposal-pending").last
    expect(card).to_contain_text("amlodipine", timeout=20_000)
    turn = page.locator(".turn").last
    expect(turn.locator(".answer")).to_contain_text("Awaiting your decision on the card below")
    proposal_id = card.get_attribute("id").removeprefix("proposal-")

    model.say(reply("Amlodipine 5 mg once daily is now on her medication list.", delay=1.0))
    card.get_by_role("button", name="Approve and write to chart").click()
    follow = page.locator(f"#proposal-{proposal_id} ~ .follow-up")
    expect(follow).to_contain_text("Amlodipine 5 mg once daily is now on her medication list.", timeout=20_000)
    expect(follow).to_contain_text(re.compile(r"Created MedicationRequest/\S+ in the chart \(Provenance: Provenance/"))
    assert created(fhir_base, proposal_id) == 1
    page.eval_on_selector("#ask", "form => form.style.position = 'static'")  # unpin for the picture
    page.locator(".turn").last.screenshot(path=str(shot_path("approval-follow-up")))
    assert page.console_errors == []
