"""How many FHIR requests a drug question costs: the turn's chart read (for the prompt) is
shared with the patient-safety check of the same turn, which reads only what the chart read
does not have (pregnancy status, the renal and potassium labs, weight).

Counted on a real HAPI through the app's own ``/metrics`` (``docgemma_fhir_requests``, one per
HTTP request the gateway sends), degraded mode, the question posted over the chat endpoint.
"""
from __future__ import annotations

import re

import pytest
from smart_docgemma.checks.drug_safety import READ_KEYS, SHARED_SECTIONS, _order_sign_prefetch
from smart_docgemma.tools.chart.chart import SECTIONS

from tests.support.chat_session import open_session
from tests.support.launch_context import clone_patient
from tests.web.test_chat import ask, done_html

# the safety check's own searches on a turn that read the chart: what no chart section covers
SAFETY_ONLY = len(READ_KEYS) - 1 - len(SHARED_SECTIONS)  # less the Patient and the shared parts
CHART = {"read": 1, "search": len(SECTIONS)}  # the Patient and one search per chart section


def fhir_requests(client) -> dict[str, float]:
    text = client.get("/metrics").get_data(as_text=True)
    return {m.group(1): float(m.group(2)) for m in
            re.finditer(r'^docgemma_fhir_requests_total\{interaction="(\w+)"\} (\S+)$', text, re.M)}


def counted(client, message: str) -> tuple[dict[str, int], str]:
    before = fhir_requests(client)
    res = ask(client, message)
    assert res.status_code == 200
    after = fhir_requests(client)
    changed = {k: int(after[k] - before.get(k, 0)) for k in after if after[k] != before.get(k, 0)}
    return changed, done_html(res)


@pytest.fixture
def clinician(app_config, sources, fhir_base):
    from smart_docgemma import create_app

    app = create_app({**app_config, **sources})  # degraded: no model; recorded knowledge sources
    client = app.test_client()
    client.patient = clone_patient(fhir_base, "pt-ckd-elder")
    client.csrf = open_session(app, client, fhir_base, client.patient)
    return client


def test_a_drug_question_reads_the_chart_once_and_the_safety_check_adds_its_parts(clinician):
    """pt-ckd-elder takes amlodipine: "can I give ibuprofen?" is the interaction check against her
    medications, with the patient-safety check of ibuprofen on her chart."""
    calls, html = counted(clinician, "can I give ibuprofen?")
    assert "Drug interaction check" in html and "Patient safety check" in html
    assert calls == {"read": CHART["read"], "search": CHART["search"] + SAFETY_ONLY}, calls
    assert SAFETY_ONLY == 3  # pregnancy, labs, weight: Observation searches the chart does not make
    assert "egfr" in html.lower()  # her renal finding came through the shared read


def test_on_a_synthea_chart_the_drug_question_costs_the_same_requests(
        app_config, sources, fhir_base, synthea):
    """The largest loaded Synthea chart (hundreds of observations, a dozen active medications):
    the same 11 requests, whatever the chart's size."""
    from smart_docgemma import create_app

    app = create_app({**app_config, **sources})
    client = app.test_client()
    elder = max(synthea.patients, key=lambda p: p.resources)
    client.csrf = open_session(app, client, fhir_base, elder.id)
    calls, html = counted(client, "can I give ibuprofen?")
    assert "Patient safety check" in html
    assert calls == {"read": CHART["read"], "search": CHART["search"] + SAFETY_ONLY}, calls


def test_after_the_page_the_checks_read_their_parts_themselves(clinician):
    """The page's read is reused for the prompt (``CHART_FRESH_S``) but only as text: the checks
    then read what they need (the interaction tool's two lists, the safety check's six parts)."""
    assert clinician.get("/app").status_code == 200
    calls, html = counted(clinician, "can I give ibuprofen?")
    assert calls == {"read": 1, "search": 2 + len(READ_KEYS) - 1}, calls
    assert "egfr" in html.lower()


def test_an_order_reads_its_safety_checks_afresh(clinician):
    """A proposal's checks never take the turn's read: after the brief's read, all seven parts
    again for the card, then the card's subject and the prescriber's roles."""
    calls, html = counted(clinician, "prescribe ibuprofen 400 mg tds for 5 days")
    assert "approv" in html.lower()
    safety = {"read": 1, "search": len(READ_KEYS) - 1}
    card = {"read": 2, "search": 1}  # Patient (named on the card), Practitioner + PractitionerRole
    assert calls == {k: CHART[k] + safety[k] + card[k] for k in CHART}, calls


def test_the_shared_parts_are_the_ones_the_order_sign_prefetch_reads():
    """A shared part must read the same resources as the CDS prefetch query it stands for: the
    same type and the same filters (the chart's section is only bounded and sorted more)."""
    templates = _order_sign_prefetch()
    for key, section in SHARED_SECTIONS.items():
        rtype, query = templates[key].split("?")
        filters = dict(p.split("=") for p in query.split("&"))
        filters.pop("patient")
        chart_type, params = SECTIONS[section]
        assert chart_type == rtype
        assert filters.items() <= {k: str(v) for k, v in params.items()}.items(), key
