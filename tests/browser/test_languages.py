"""In headless Chromium with a French, then a Portuguese browser: the page, a question typed as a
French clinician types it, its approval card, an edit and the approval, all in the language."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import shot_path
from tests.browser.test_assistant import launch
from tests.support.launch_context import clone_patient


@pytest.fixture
def localized(browser):
    contexts = []

    def open_page(locale: str):
        context = browser.new_context(viewport={"width": 400, "height": 860}, locale=locale)
        contexts.append(context)
        pg = context.new_page()
        pg.console_errors = []
        pg.on("pageerror", lambda e: pg.console_errors.append(str(e)))
        return pg

    yield open_page
    for context in contexts:
        context.close()


def test_french_question_card_edit_and_approval(localized, sandbox, assistant, model, fhir_base):
    page = localized("fr-FR")
    launch(page, sandbox, assistant, patient=clone_patient(fhir_base, "pt-ckd-elder"))
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.locator(".glance summary")).to_contain_text("Le dossier en un coup d'œil")
    page.fill("#message", "prescrire amlodipine 5 mg une fois par jour")
    page.press("#message", "Enter")
    card = page.locator(".proposal-pending").last
    expect(card.locator(".proposal-status")).to_have_text("En attente de votre validation", timeout=30_000)
    expect(card.locator(".proposal-action")).to_have_text("Débuter amlodipine 5 mg une fois par jour")
    expect(card.locator(".proposal-fields")).to_contain_text("Médicament")
    card.get_by_text("Modifier avant de valider").click()
    card.get_by_label("Dose").fill("10")
    page.eval_on_selector("#ask", "form => form.style.position = 'static'")
    card.screenshot(path=str(shot_path("languages-fr-card-editing")))
    card.get_by_role("button", name="Enregistrer et revérifier").click()
    card = page.locator(".proposal-pending").last
    expect(card.locator(".proposal-changes")).to_contain_text("(version 2)", timeout=20_000)
    expect(card.locator(".proposal-action")).to_have_text("Débuter amlodipine 10 mg une fois par jour")
    card.get_by_role("button", name="Valider et écrire dans le dossier").click()
    expect(page.locator(".proposal-approved .proposal-status").last).to_have_text("Validé", timeout=30_000)
    expect(page.locator("#send")).to_have_text("Demander")  # app.js writes the page's words
    expect(page.locator("details.trace > summary").last).to_contain_text("Trace clinique")
    expect(page.locator(".trace-step .step-label").first).to_have_text("Lecture de la question")
    page.screenshot(path=str(shot_path("languages-fr-approved")), full_page=True)
    assert page.console_errors == []


def test_portuguese_page(localized, sandbox, assistant, fhir_base):
    page = localized("pt-BR")
    launch(page, sandbox, assistant, patient=clone_patient(fhir_base, "pt-warfarin"))  # as the fixture has it
    expect(page.locator("html")).to_have_attribute("lang", "pt")
    expect(page.locator("label[for=message]")).to_contain_text("Pergunta sobre")
    expect(page.locator("#send")).to_have_text("Perguntar")
    expect(page.locator(".patient-banner")).to_contain_text("Nasc. 30 de set. de 1950")
    page.screenshot(path=str(shot_path("languages-pt-page")), full_page=True)
    assert page.console_errors == []
