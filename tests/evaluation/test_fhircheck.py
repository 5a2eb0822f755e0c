"""The evaluation's check of what reached FHIR (evaluation/fhircheck.py): R4 shapes accepted,
each wrong field named, nothing more written than expected, the subject always checked."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

from smart_docgemma.evaluation.fhircheck import ExpectedWrite, check_writes, problems

NOW = datetime(2026, 11, 27, 15, 0, tzinfo=UTC)
UTC = UTC
MG = ExpectedWrite(resourceType="MedicationRequest", status="active", intent="order", code_text=["magnesium"],
                   dose={"value": 2, "unit": "g"}, route="intravenous", duration_hours=2)


def _magnesium(**changes):
    order = {"resourceType": "MedicationRequest", "id": "m1", "status": "active", "intent": "order",
             "subject": {"reference": "Patient/p1"}, "authoredOn": NOW.isoformat(),
             "medicationCodeableConcept": {"text": "magnesium sulfate 500 MG/ML Injectable Solution"},
             "dosageInstruction": [{"route": {"coding": [{"system": "http://snomed.info/sct", "code": "47625008",
                                                          "display": "Intravenous route"}]},
                                    "timing": {"repeat": {"duration": 2, "durationUnit": "h"}},
                                    "doseAndRate": [{"doseQuantity": {"value": 2, "unit": "g",
                                                                      "system": "http://unitsofmeasure.org",
                                                                      "code": "g"}}]}]}
    order.update(changes)
    return order


def test_a_right_infusion_order_passes_and_a_rate_counts_as_its_duration():
    assert problems(MG, _magnesium(), "p1", NOW, UTC) == []
    by_rate = _magnesium()
    by_rate["dosageInstruction"][0].pop("timing")
    by_rate["dosageInstruction"][0]["doseAndRate"][0]["rateQuantity"] = {"value": 1, "unit": "g/h", "code": "g/h"}
    assert problems(MG, by_rate, "p1", NOW, UTC) == []


def test_each_wrong_field_is_named():
    wrong = _magnesium(subject={"reference": "Patient/other"}, intent="proposal")
    wrong["dosageInstruction"][0]["doseAndRate"][0]["doseQuantity"]["value"] = 4
    wrong["dosageInstruction"][0]["route"] = {"text": "oral"}
    found = problems(MG, wrong, "p1", NOW, UTC)
    assert found == ["subject Patient/p1", "intent order", "dose 2.0 g", "route intravenous"]


def test_nothing_expected_means_anything_written_is_wrong_and_a_missing_write_is_named():
    assert check_writes([], [_magnesium()], "p1", NOW, UTC) == ["unexpected MedicationRequest/m1"]
    assert check_writes([MG], [], "p1", NOW, UTC) == ["MedicationRequest: nothing written"]
    assert check_writes([MG], [_magnesium()], "p1", NOW, UTC) == []


def test_a_recheck_at_8_tomorrow_and_a_verbatim_note():
    want = ExpectedWrite(resourceType="ServiceRequest", code=["http://loinc.org|2823-3"], occurrence="tomorrow 08:00",
                         note_contains="Situation: knee pain.  Background: ACL tear.")
    tomorrow = (NOW + timedelta(days=1)).replace(hour=8, minute=0, second=0)
    order = {"resourceType": "ServiceRequest", "subject": {"reference": "Patient/p1"}, "authoredOn": "2026-11-27",
             "code": {"coding": [{"system": "http://loinc.org", "code": "2823-3"}]},
             "occurrenceDateTime": tomorrow.isoformat(),
             "note": [{"text": "Situation: knee pain. Background: ACL tear."}]}
    assert problems(want, order, "p1", NOW, UTC) == []
    late = dict(order, occurrenceDateTime=(tomorrow + timedelta(hours=1)).isoformat(), note=[{"text": "knee"}])
    assert problems(want, late, "p1", NOW, UTC) == ["occurrence tomorrow 08:00", "note text verbatim"]


def test_a_blood_pressure_is_a_panel_with_its_two_components_taken_now():
    want = ExpectedWrite(resourceType="Observation", category="vital-signs", code=["http://loinc.org|85354-9"],
                         components=[{"code": "http://loinc.org|8480-6", "value": 118, "unit": "mm[Hg]"},
                                     {"code": "http://loinc.org|8462-4", "value": 77, "unit": "mm[Hg]"}],
                         effective="now")
    bp = {"resourceType": "Observation", "status": "final", "subject": {"reference": "Patient/p1"},
          "category": [{"coding": [{"system": "http://terminology.hl7.org/CodeSystem/observation-category",
                                    "code": "vital-signs"}]}],
          "code": {"coding": [{"system": "http://loinc.org", "code": "85354-9"}]},
          "effectiveDateTime": NOW.isoformat(),
          "component": [{"code": {"coding": [{"system": "http://loinc.org", "code": c}]},
                         "valueQuantity": {"value": v, "unit": "mmHg", "code": "mm[Hg]"}}
                        for c, v in (("8480-6", 118), ("8462-4", 77))]}
    assert problems(want, bp, "p1", NOW, UTC) == []
    swapped = dict(bp, component=list(reversed([dict(c, valueQuantity=dict(c["valueQuantity"], value=v))
                                                for c, v in zip(bp["component"], (77, 118), strict=False)])))
    assert "component http://loinc.org|8480-6 = 118.0 mm[Hg]" in problems(want, swapped, "p1", NOW, UTC)


def test_a_reading_taken_at_a_clock_time_is_its_latest_such_time_not_after_now():
    want = ExpectedWrite(resourceType="Observation", effective="14:30")
    pulse = {"resourceType": "Observation", "subject": {"reference": "Patient/p1"},
             "effectiveDateTime": NOW.replace(hour=14, minute=30).isoformat()}
    assert problems(want, pulse, "p1", NOW, UTC) == []  # asked at 15:00: today's 14:30
    earlier = NOW.replace(hour=9)  # asked at 09:00: "at 14:30" was yesterday
    assert problems(want, pulse, "p1", earlier, UTC) == ["effective 14:30"]
    yesterday = {**pulse, "effectiveDateTime": (NOW - timedelta(days=1)).replace(
        hour=14, minute=30).isoformat()}
    assert problems(want, yesterday, "p1", earlier, UTC) == []
    assert problems(ExpectedWrite(resourceType="Observation", effective="now"), pulse, "p1",
                    NOW, UTC) == []


def test_a_reading_said_with_its_night_is_yesterdays_even_an_hour_later():
    # "last night at 10pm" asked at 23:05: yesterday's 22:00, not the 22:00 just gone
    want = ExpectedWrite(resourceType="Observation", effective="yesterday 22:00")
    late = NOW.replace(hour=23, minute=5)
    night = {"resourceType": "Observation", "subject": {"reference": "Patient/p1"},
             "effectiveDateTime": (late - timedelta(days=1)).replace(hour=22, minute=0).isoformat()}
    assert problems(want, night, "p1", late, UTC) == []
    tonight = {**night, "effectiveDateTime": late.replace(hour=22, minute=0).isoformat()}
    assert problems(want, tonight, "p1", late, UTC) == ["effective yesterday 22:00"]
    assert problems(want, night, "p1", NOW.replace(hour=9), UTC) == []  # and asked in the morning


def test_a_recheck_said_with_its_morning_is_the_next_such_time():
    # "recheck in the morning at 8": asked at 23:00, tomorrow's 08:00; at 00:05, this morning's
    want = ExpectedWrite(resourceType="ServiceRequest", occurrence="next 08:00")
    evening, night = NOW.replace(hour=23, minute=0), NOW.replace(hour=0, minute=5)
    at_8 = (evening + timedelta(days=1)).replace(hour=8, minute=0).isoformat()
    tomorrow = {"resourceType": "ServiceRequest", "subject": {"reference": "Patient/p1"},
                "authoredOn": "2026-11-27", "occurrenceDateTime": at_8}
    this_morning = {**tomorrow, "occurrenceDateTime": night.replace(hour=8, minute=0).isoformat()}
    assert problems(want, tomorrow, "p1", evening, UTC) == []
    assert problems(want, this_morning, "p1", night, UTC) == []
    assert problems(want, tomorrow, "p1", night, UTC) == ["occurrence next 08:00"]


def test_an_allergy_is_checked_by_its_patient_as_r4_names_it():
    want = ExpectedWrite(resourceType="AllergyIntolerance", code_text=["amoxicillin"])
    allergy = {"resourceType": "AllergyIntolerance", "id": "a1", "patient": {"reference": "Patient/p1"},
               "code": {"text": "amoxicillin-clavulanate"}}
    assert problems(want, allergy, "p1", NOW, UTC) == []
    assert problems(want, {**allergy, "patient": {"reference": "Patient/p2"}}, "p1", NOW, UTC) == [
        "patient Patient/p1"]


def test_an_allergy_names_its_patient_in_patient_not_subject():
    allergy = {
        "resourceType": "AllergyIntolerance",
        "patient": {"reference": "Patient/pt-child"},
        "code": {"text": "amoxicillin", "coding": [{"display": "amoxicillin"}]},
    }
    want = ExpectedWrite(resourceType="AllergyIntolerance", code_text=["amoxicillin"])
    assert problems(want, allergy, "pt-child", NOW, UTC) == []
    # another patient's allergy is still wrong, and a subject on a MedicationRequest still checked
    assert problems(want, allergy, "pt-warfarin", NOW, UTC) == ["patient Patient/pt-warfarin"]
    order = {"resourceType": "MedicationRequest", "patient": {"reference": "Patient/pt-child"},
             "authoredOn": "2026-12-07"}
    assert "subject Patient/pt-child" in problems(
        ExpectedWrite(resourceType="MedicationRequest"), order, "pt-child", NOW, UTC)


def test_the_patient_of_a_written_resource_is_read_where_r4_puts_it():
    from smart_docgemma.evaluation.fhircheck import patient_of

    assert patient_of({"resourceType": "AllergyIntolerance",
                       "patient": {"reference": "Patient/a"}}) == "Patient/a"
    assert patient_of({"resourceType": "MedicationRequest",
                       "subject": {"reference": "Patient/b"}}) == "Patient/b"
    # a MedicationRequest names no patient in `patient`
    assert patient_of({"resourceType": "MedicationRequest",
                       "patient": {"reference": "Patient/b"}}) is None
