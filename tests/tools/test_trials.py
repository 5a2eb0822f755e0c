"""find_clinical_trials against recorded ClinicalTrials.gov v2 bodies."""
from __future__ import annotations

import pytest
from smart_docgemma.tools import args
from smart_docgemma.tools.sources.trials import TOOLS, _line, summarise

from tests.support.servers import free_port
from tests.tools.conftest import recorded, requests_to

tool = TOOLS[0]
STUDIES = "/ctgov/studies"


def test_recruiting_by_default_with_projection_paging_and_registry_links(httpserver, ctx):
    httpserver.expect_request(STUDIES).respond_with_json(recorded("clinicaltrials/studies_page_melanoma_recruiting.json"))
    result = tool.run(args.ClinicalTrialsArgs(condition="melanoma"), ctx)
    (req,) = requests_to(httpserver, "/ctgov")
    assert req.args["query.cond"] == "melanoma" and req.args["filter.overallStatus"] == "RECRUITING"
    assert (req.args["pageSize"], req.args["countTotal"]) == ("5", "true")
    assert {"NCTId", "BriefTitle", "OverallStatus", "Phase", "LocationFacility"} <= set(req.args["fields"].split(","))
    assert result.status == "ok" and result.count == 3
    assert result.text.startswith('ClinicalTrials.gov: 480 recruiting trials for "melanoma"; the first 3:')
    assert ("1. NCT06970236 — Resistance Exercise in Patients With Ocular Melanoma. Status: Recruiting; "
            "Phase: N/A; Sponsor: University of Valencia; Enrolment: 40; Interventions: Exercise; "
            "Ages: 18 Years.") in result.text
    assert result.sources[0].url == "https://clinicaltrials.gov/study/NCT06970236"
    assert len(result.text) < 3000


@pytest.mark.parametrize("status,expected", [
    ("completed", "COMPLETED"),
    ("active", "RECRUITING,NOT_YET_RECRUITING,ENROLLING_BY_INVITATION,ACTIVE_NOT_RECRUITING"),
    ("any", None),
])
def test_status_maps_to_the_v2_filter(httpserver, ctx, status, expected):
    httpserver.expect_request(STUDIES).respond_with_json(recorded("clinicaltrials/studies_page_intr_keytruda.json"))
    result = tool.run(args.ClinicalTrialsArgs(condition="lung cancer", status=status), ctx)
    (req,) = requests_to(httpserver, "/ctgov")
    assert req.args.get("filter.overallStatus") == expected
    assert result.status == "ok"


def test_multi_phase_trials_and_first_locations_are_shown(httpserver, ctx):
    study = recorded("clinicaltrials/study_NCT02576665_fields_locations.json")
    httpserver.expect_request(STUDIES).respond_with_json({"studies": [study], "totalCount": 1})
    result = tool.run(args.ClinicalTrialsArgs(condition="solid tumor", status="any"), ctx)
    trial = result.data["trials"][0]
    assert trial["nct_id"] == "NCT02576665" and trial["status"] == "Terminated"
    assert ("Locations: Sarah Cannon Research Institute, Denver, Colorado, United States; University of Miami"
            in result.text)
    assert "more)" not in result.text  # exactly three recorded locations
    locations = study["protocolSection"]["contactsLocationsModule"]["locations"]
    five = {"protocolSection": {**study["protocolSection"], "contactsLocationsModule": {
        "locations": locations + locations[:2]}}}
    assert "MD Anderson Cancer Center, Houston, Texas, United States (+2 more)" in _line(1, summarise(five))


def test_full_unprojected_study_is_read_too():
    trial = summarise(recorded("clinicaltrials/study_NCT06927986_full.json"))
    assert trial["nct_id"] == "NCT06927986" and trial["status"] == "Recruiting" and trial["locations"]


def test_keytruda_page_phases_are_readable(httpserver, ctx):
    httpserver.expect_request(STUDIES).respond_with_json(recorded("clinicaltrials/studies_page_intr_keytruda.json"))
    result = tool.run(args.ClinicalTrialsArgs(condition="keytruda", status="any"), ctx)
    assert "PHASE" not in result.text and "Phase: Phase " in result.text


def test_no_trials_is_empty(httpserver, ctx):
    httpserver.expect_request(STUDIES).respond_with_json({"studies": [], "totalCount": 0})
    result = tool.run(args.ClinicalTrialsArgs(condition="zzqx syndrome", status="recruiting"), ctx)
    assert result.status == "empty" and result.error_kind is None
    assert result.text == 'No recruiting trials were found on ClinicalTrials.gov for "zzqx syndrome".'


def test_registry_down_or_busy_is_preformatted(httpserver, make_ctx):
    down = make_ctx(CTGOV_URL=f"http://127.0.0.1:{free_port()}/api/v2")
    result = tool.run(args.ClinicalTrialsArgs(condition="melanoma"), down)
    assert result.error_kind == "unreachable" and result.text == (
        "The ClinicalTrials.gov registry could not be reached, so the clinical-trials search is unavailable "
        "right now. Do not name trials from memory.")
    httpserver.expect_request(STUDIES).respond_with_data("Too Many Requests", status=429)
    busy = tool.run(args.ClinicalTrialsArgs(condition="melanoma"), make_ctx())
    assert busy.error_kind == "rate_limited" and len(requests_to(httpserver, "/ctgov")) == 3
