"""In Chromium: a serious second look disables Approve until the clinician acknowledges it."""
from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.conftest import shot_path
from tests.browser.test_assistant import created, launch
from tests.support.launch_context import clone_patient


def test_second_look_blocks_approve_until_acknowledged(page, sandbox, assistant, model, fhir_base):
    launch(page, sandbox, assistant, patient=clone_patient(fhir_base, "pt-pen-allergy"))  # this test writes
    model.say("A prescription for amoxicillin 500 mg three times daily is ready for your review.")
    model.script("SecondLookReview", {"severity": "high", "unsupported_claims": [],
                                  "contradictions": ["documented penicillin anaphylaxis"], "missing_checks": []})
    page.fill("#message", "Prescribe amoxicillin 500 mg three times daily")
    page.click("#send")
    card = page.locator(".proposal-pending").last
    look = card.locator(".second-look")
    expect(look).to_contain_text("Second look (high)", timeout=20_000)
    expect(look).to_contain_text("Contradicts the chart: documented penicillin anaphylaxis")
    approve = card.get_by_role("button", name="Approve and write to chart")
    expect(approve).to_be_disabled()
    proposal_id = card.get_attribute("id").removeprefix("proposal-")
    page.eval_on_selector("#ask", "form => form.style.position = 'static'")  # unpin for the picture
    card.screenshot(path=str(shot_path("second-look-card")))

    card.get_by_role("button", name="I have read the second look").click()
    card = page.locator(f"#proposal-{proposal_id}")
    expect(card.get_by_role("button", name="Approve and write to chart")).to_be_enabled()
    assert created(fhir_base, proposal_id) == 0  # acknowledging writes nothing
    card.get_by_role("button", name="Approve and write to chart").click()
    expect(page.locator(f"#proposal-{proposal_id} .proposal-result")).to_contain_text(
        re.compile(r"MedicationRequest/\S+"))
    assert created(fhir_base, proposal_id) == 1
    assert page.console_errors == []
