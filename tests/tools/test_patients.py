"""search_patient against real HAPI with the scenario patients (fhir_fixtures/)."""
from __future__ import annotations

from smart_docgemma.tools.args import PatientSearchArgs
from smart_docgemma.tools.chart.patients import run_search_patient

from tests.support.launch_context import USER_SCOPES, launch, tool_context


def search(fhir_base, name, birth_date=None, patient_id="pt-pen-allergy", scopes=USER_SCOPES):
    ctx = tool_context(launch(fhir_base, patient_id, scopes))
    return run_search_patient(PatientSearchArgs(name=name, birth_date=birth_date), ctx)


def test_three_james_wilsons_are_ambiguous_with_what_tells_them_apart(fhir_base):
    result = search(fhir_base, "James Wilson")
    assert result.status == "ambiguous" and result.count == 3
    matches = {m["id"]: m for m in result.data["matches"]}
    assert set(matches) == {"pt-jw-1958", "pt-jw-1971", "pt-jw-1990"}
    assert matches["pt-jw-1971"]["birth_date"] == "1971-09-02" and matches["pt-jw-1971"]["mrn"] == "MRN-200171"
    for line in ("1958-03-14", "MRN-200190", "pt-jw-1971"):
        assert line in result.text
    assert all(s.url.startswith(fhir_base) for s in result.sources)


def test_birth_date_disambiguates(fhir_base):
    result = search(fhir_base, "james wilson", birth_date="1971-09-02")
    assert result.status == "ok" and result.count == 1
    assert result.data["matches"][0]["id"] == "pt-jw-1971" and "pt-jw-1971" in result.text


def test_no_match_is_empty_not_error(fhir_base):
    result = search(fhir_base, "Zebulon Nobody")
    assert result.status == "empty" and result.count == 0 and "Zebulon Nobody" in result.text


def test_patient_level_scopes_never_look_up_someone_else(fhir_base):
    result = search(fhir_base, "James Wilson", scopes="patient/Patient.rs patient/Observation.rs")
    assert result.status == "error" and result.error_kind == "forbidden"
    assert "limited to the patient in context: Grace Adeyemi" in result.text
    assert "pt-jw" not in result.text and not result.data


def test_patient_level_scopes_find_the_launch_patient_by_name(fhir_base):
    result = search(fhir_base, "Grace Adeyemi", scopes="patient/Patient.rs")
    assert result.status == "ok" and result.data["matches"][0]["id"] == "pt-pen-allergy"


def test_patient_level_with_wrong_birth_date_is_refused(fhir_base):
    result = search(fhir_base, "Grace", birth_date="1990", scopes="patient/Patient.rs")
    assert result.error_kind == "forbidden"
