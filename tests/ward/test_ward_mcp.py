"""An MCP client orders a lab test: a pending proposal for the token's patient, approved once on
the patient's page by a clinician, written to HAPI with its LOINC code and a Provenance naming
the client."""
from __future__ import annotations

import re

from tests.mcpserver.test_mcp import count, search, stack, with_sdk_client  # noqa: F401  (the MCP stack fixture)
from tests.support.launch_context import clone_patient
from tests.support.smart_browser import Browser, ehr_launch, finish


def test_a_lab_order_over_mcp_is_a_proposal_approved_once_on_the_page(stack):  # noqa: F811
    patient = clone_patient(stack.upstream, "pt-warfarin")

    async def work(client):
        listed = {t.name for t in (await client.list_tools()).tools}
        made = await client.call_tool("order_lab_test", {"patient_id": patient, "test": "basic metabolic panel",
                                                         "when": "tomorrow at 8am"})
        return listed, made

    (listed, made), _ = with_sdk_client(stack, patient, work)
    assert {"order_lab_test", "refer_patient", "record_vital_sign", "apply_protocol"} <= listed
    pid, card_url = made.structured_content["proposal_id"], made.structured_content["card_url"]
    assert count(stack.upstream, "ServiceRequest", pid) == 0  # nothing before approval

    class Sandbox:  # what ehr_launch needs of the sandbox fixture
        url = stack.sandbox_url

    browser = Browser()
    _, hop3 = ehr_launch(browser, Sandbox, stack.app_url, patient=patient)
    assert f'href="/proposals/{pid}"' in finish(browser, hop3, stack.app_url).text
    page = browser.get(card_url)
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page.text).group(1)
    assert browser.post(f"{card_url}/approve", data={"csrf_token": csrf, "version": "1"}).status_code == 303
    assert browser.post(f"{card_url}/approve", data={"csrf_token": csrf, "version": "1"}).status_code in (303, 409)
    [sr] = search(stack.upstream, "ServiceRequest", identifier=f"urn:docgemma:proposal|{pid}")
    assert sr["code"]["coding"][0]["code"] == "51990-0" and sr["subject"]["reference"] == f"Patient/{patient}"
    assert sr["occurrenceDateTime"] and sr["intent"] == "order"
    [prov] = search(stack.upstream, "Provenance", target=f"ServiceRequest/{sr['id']}")
    assert "MCP client" in prov["agent"][1]["who"]["display"]
