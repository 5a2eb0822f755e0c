"""The CDS cards the scenario patients get, drawn in headless Chromium as the cds-hooks sandbox draws them.

The service answers real hook calls (signed JWTs, data fetched from HAPI); the
page shows each patient's patient-view cards and the card for a risky order.
The screenshot and a Markdown table of the summaries go to ``artifacts/``.
"""
from __future__ import annotations

import uuid

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ARTIFACTS, shot_path
from tests.cds.ehr_client import app_behind_mini_ehr, med_request
from tests.support.cds_preview import page as preview_page

ORDERS = {  # patient → a risky draft order (text, RxNorm SCD)
    "pt-warfarin": ("ketorolac tromethamine 10 MG Oral Tablet", "834022"),
    "pt-pen-allergy": ("amoxicillin 500 MG Oral Capsule", "308191"),
    "pt-pregnant": ("losartan potassium 50 MG Oral Tablet", "979485"),
    "pt-t2dm": ("metformin hydrochloride 1000 MG Oral Tablet", "861004"),
    "pt-ckd-elder": ("ibuprofen 400 MG Oral Tablet", "197805"),
}


@pytest.fixture
def ehr(app_config):
    with app_behind_mini_ehr(app_config) as client:
        yield client


def call(ehr, hook: str, patient: str, fhir_base: str, drafts=None) -> list[dict]:
    ctx = {"userId": "Practitioner/dr-okafor", "patientId": patient}
    if drafts:
        ctx["draftOrders"] = {"resourceType": "Bundle", "entry": [{"resource": d} for d in drafts]}
    res = ehr.call(f"docgemma-{hook}", {"hook": hook, "hookInstance": str(uuid.uuid4()), "context": ctx,
                                        "fhirServer": fhir_base})
    assert res.status_code == 200, res.text
    return res.json()["cards"]


def test_scenario_cards_render_like_the_sandbox(ehr, fhir_base, browser):
    sections, rows = [], ["| patient | patient-view | risky order → card |", "|---|---|---|"]
    for patient, (text, code) in ORDERS.items():
        viewed = [c for c in call(ehr, "patient-view", patient, fhir_base)]
        order = med_request("draft-1", text, code, patient, status="draft")
        ordered = call(ehr, "order-sign", patient, fhir_base, [order])
        sections += [(f"{patient} · patient-view", viewed), (f"{patient} · order-sign: {text}", ordered)]
        problems = [c for c in viewed if c["source"]["label"] != "DocGemma Connect"]
        rows.append(f"| `{patient}` | " + ("<br>".join(f"{c['indicator']}: {c['summary']}" for c in problems)
                                           or "assistant link only")
                    + f" | {text.split()[0]} → "
                    + "<br>".join(f"{c['indicator']}: {c['summary']}" for c in ordered) + " |")
    pg = browser.new_page(viewport={"width": 1280, "height": 900})
    pg.set_content(preview_page("DocGemma CDS cards for the scenario patients", sections))
    expect(pg.locator(".card.critical").first).to_be_visible()
    expect(pg.locator(".card.critical .summary").filter(has_text="Avoid ketorolac with warfarin")).to_have_count(1)
    expect(pg.get_by_text("Remove the amoxicillin 500 MG Oral Capsule draft")).to_be_visible()
    pg.screenshot(path=str(shot_path("cds-cards")), full_page=True)
    (ARTIFACTS / "cds-cards.md").write_text("\n".join(rows) + "\n")
    pg.close()
