"""The care-gap CDS service against a real HAPI: one card per programme with open gaps, each gap
with its last date or "none on file", the source named, overdue labs suggested as orders; no
FHIR access is a 412, never an empty list that would read as "no gaps"."""
from __future__ import annotations

import pytest

from tests.cds.test_cds_fetch import body, ehr  # noqa: F401  (the fixture)

pytestmark = pytest.mark.slow


def test_the_diabetic_gets_a_card_with_each_gap_dated_and_the_labs_suggested(ehr, fhir_base):  # noqa: F811
    res = ehr.call("docgemma-care-gaps", body("patient-view", "pt-t2dm", fhir_base))
    assert res.status_code == 200, res.text
    [card] = res.json()["cards"]
    assert card["summary"].startswith("Diabetes: 7 care gap(s) open") and len(card["summary"]) <= 140
    assert "ADA Standards of Care" in card["source"]["label"]
    assert "2025-06-10" in card["detail"] and "none on file" in card["detail"] and "14959-1" in card["detail"]
    codes = [s["actions"][0]["resource"]["code"]["coding"][0]["code"] for s in card["suggestions"]]
    assert codes == ["4548-4", "9318-7", "51990-0"]
    assert all(s["actions"][0]["resource"]["subject"] == {"reference": "Patient/pt-t2dm"} for s in card["suggestions"])


def test_a_chart_without_a_programme_gets_no_gap_card(ehr, fhir_base):  # noqa: F811
    res = ehr.call("docgemma-care-gaps", body("patient-view", "pt-demo-only", fhir_base))
    assert res.status_code == 200 and res.json()["cards"] == []


def test_without_fhir_access_the_gaps_are_not_reported_as_none(ehr, fhir_base):  # noqa: F811
    call = body("patient-view", "pt-t2dm", fhir_base)
    del call["fhirServer"]
    call["prefetch"] = {"patient": {"resourceType": "Patient", "id": "pt-t2dm"},
                        "medications": {"resourceType": "Bundle", "type": "searchset", "entry": []},
                        "allergies": {"resourceType": "Bundle", "type": "searchset", "entry": []}}
    res = ehr.call("docgemma-care-gaps", call)
    assert res.status_code == 412
