"""In headless Chromium at 400 px: edit a proposed dose on the card, approve the edited version,
and cancel a slow question with Escape."""
from __future__ import annotations

import requests
from playwright.sync_api import expect

from tests.browser.conftest import shot_path
from tests.browser.test_assistant import launch
from tests.support.launch_context import clone_patient
from tests.support.model_server import reply


def written(fhir_base: str, proposal_id: str) -> list[dict]:
    bundle = requests.get(f"{fhir_base}/MedicationRequest", timeout=30, headers={"Cache-Control": "no-cache"},
                          params={"identifier": f"urn:docgemma:proposal|{proposal_id}"}).json()
    return [e["resource"] for e in bundle.get("entry") or []]


def test_edit_the_dose_on_the_card_then_approve_writes_the_edited_dose(page, sandbox, assistant, model, fhir_base):
    launch(page, sandbox, assistant, patient=clone_patient(fhir_base, "pt-ckd-elder"))  # this test writes
    page.fill("#message", "Prescribe amlodipine 5 mg once daily")
    page.press("#message", "Enter")
    card = page.locator(".proposal-pending").last
    expect(card.locator(".proposal-action")).to_have_text("Start amlodipine 5 mg once daily", timeout=20_000)
    expect(card.locator(".proposal-patient")).to_contain_text("DOB 1943-05-12")
    proposal_id = card.get_attribute("id").removeprefix("proposal-")

    card.get_by_text("Edit before approving").click()  # keyboard users: the summary is focusable
    card.get_by_label("Dose").fill("10")
    card.get_by_label("Duration (days)").fill("30")
    page.eval_on_selector("#ask", "form => form.style.position = 'static'")  # unpin for the picture
    card.locator(".proposal-edit").screenshot(path=str(shot_path("approval-card-editing")))
    page.eval_on_selector("#ask", "form => form.style.position = ''")
    card.get_by_role("button", name="Save changes and re-check").click()
    card = page.locator(f"#proposal-{proposal_id}")
    expect(card.locator(".proposal-action")).to_have_text("Start amlodipine 10 mg once daily for 30 days")
    expect(card.locator(".proposal-changes")).to_contain_text("Dose: 5 mg → 10 mg")
    expect(card.locator(".proposal-changes")).to_contain_text("(version 2)")
    assert written(fhir_base, proposal_id) == []  # an edit writes nothing
    page.eval_on_selector("#ask", "form => form.style.position = 'static'")  # unpin for the picture
    card.screenshot(path=str(shot_path("approval-card-edited")))
    page.eval_on_selector("#ask", "form => form.style.position = ''")

    card.get_by_role("button", name="Approve and write to chart").click()
    expect(page.locator(f"#proposal-{proposal_id} .proposal-status")).to_have_text("Approved", timeout=20_000)
    [order] = written(fhir_base, proposal_id)
    dose = order["dosageInstruction"][0]["doseAndRate"][0]["doseQuantity"]
    assert dose["value"] == 10 and dose["unit"] == "mg"
    assert order["dispenseRequest"]["expectedSupplyDuration"]["value"] == 30
    assert page.console_errors == []


def test_an_invalid_edit_is_refused_on_the_card(page, sandbox, assistant, model, fhir_base):
    launch(page, sandbox, assistant, patient=clone_patient(fhir_base, "pt-ckd-elder"))
    page.fill("#message", "Prescribe amlodipine 5 mg once daily")
    page.press("#message", "Enter")
    card = page.locator(".proposal-pending").last
    expect(card).to_contain_text("amlodipine", timeout=20_000)
    card.get_by_text("Edit before approving").click()
    card.get_by_label("Dose").fill("abc")
    card.get_by_role("button", name="Save changes and re-check").click()
    expect(page.locator(".proposal .proposal-error").last).to_contain_text("The dose must be a number")
    expect(page.locator(".proposal-pending").last.locator(".proposal-action")).to_have_text(
        "Start amlodipine 5 mg once daily")


def test_escape_cancels_a_slow_question(page, sandbox, assistant, model):
    launch(page, sandbox, assistant)
    model.script("IntentClassification", reply({"intent": "DIRECT", "task_summary": "definition"}, delay=4))
    page.fill("#message", "What is the mechanism of amlodipine?")
    page.press("#message", "Enter")
    expect(page.locator("#cancel")).to_be_visible()
    expect(page.locator(".turn-running .progress")).not_to_be_empty()
    page.keyboard.press("Escape")
    turn = page.locator(".turn").last
    expect(turn.locator(".answer")).to_contain_text("Cancelled. Nothing was written to the chart.", timeout=20_000)
    expect(page.locator("#cancel")).to_be_hidden()
    assert page.console_errors == []
