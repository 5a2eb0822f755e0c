"""The ward's words read by code, without a server: times in the site's zone, readings and their
units, what is refused as implausible, a referral's verbatim text, and an infusion's rate kept
true after an edit of its dose."""
from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from smart_docgemma.proposals import editing
from smart_docgemma.tools.words import ward_words, when

NY = ZoneInfo("America/New_York")
NOW = datetime(2026, 11, 27, 15, 30, tzinfo=NY)


@pytest.mark.parametrize("said, expected", [
    ("tomorrow at 8am", "2026-11-28T08:00:00-05:00"),
    ("the next day at 08:00", "2026-11-28T08:00:00-05:00"),
    ("recheck tomorrow morning", "2026-11-28T08:00:00-05:00"),
    ("in 3 months", "2027-02-27T15:30:00-05:00"),
    ("in 2 weeks", "2026-12-11T15:30:00-05:00"),
    ("at 8am", "2026-11-28T08:00:00-05:00"),  # said at 15:30: tomorrow's
    ("today at 17:00", "2026-11-27T17:00:00-05:00"),
    ("stat", "2026-11-27T15:30:00-05:00"),
])
def test_times_are_read_in_the_sites_zone(said, expected):
    assert when.parse(said, "America/New_York", NOW).fhir() == expected


def test_no_time_said_is_unscheduled_and_an_unknown_zone_is_an_error_not_utc():
    assert when.parse("", "UTC", NOW).at is None and when.parse("order a CBC", "UTC", NOW).at is None
    with pytest.raises(Exception, match="SITE_TIMEZONE"):
        when.parse("tomorrow at 8am", "Mars/Olympus", NOW)


@pytest.mark.parametrize("said, vital, values", [
    ("temp 101.3", "body temperature", (38.5,)),  # a bare number above 50 is °F
    ("temperature 38.2 C", "body temperature", (38.2,)),
    ("BM 6.2", "capillary glucose", (111.7,)),  # below 35: mmol/L
    ("fingerstick glucose 145 mg/dL", "capillary glucose", (145.0,)),
    ("weight 180 lbs", "body weight", (81.65,)),
    ("sats 94% on air", "oxygen saturation", (94.0,)),
])
def test_readings_are_recorded_in_the_profiles_unit(said, vital, values):
    [reading] = ward_words.readings(said)
    assert (reading.vital, reading.values) == (vital, values)


@pytest.mark.parametrize("said", ["BP 300/20", "BP 80/120", "HR 400", "sats 140%", "temp 52 C"])
def test_implausible_readings_are_refused_with_the_range(said):
    [reading] = ward_words.readings(said)
    why = ward_words.implausible(reading)
    assert why and "not a plausible reading" in why and "not recorded" in why


def test_the_referral_text_is_kept_verbatim_and_the_reason_is_read():
    sbar = "Situation: acute left knee injury, Background: ACL tear. Assessment: grade II. Recommendation: review."
    assert ward_words.referral_note(f'Refer to ortho. Specify within the free text of the referral, "{sbar}"') == sbar
    assert ward_words.referral_note(f"Refer her to orthopedics. {sbar}") == sbar
    reason = ward_words.referral_reason("Refer her to orthopedic surgery for knee pain", "orthopedic surgery")
    assert reason == "knee pain"
    assert ward_words.specialties("send him to ENT") == ["ear nose and throat"]
    assert ward_words.specialties("order an X-ray") == []


def test_an_edited_infusion_dose_keeps_its_length_and_its_rate_follows():
    resource = {"resourceType": "MedicationRequest", "status": "active", "intent": "order",
                "subject": {"reference": "Patient/x"}, "medicationCodeableConcept": {"text": "magnesium sulfate"},
                "dosageInstruction": [{"text": "1 g intravenous route over 1 h",
                                       "timing": {"repeat": {"count": 1, "duration": 1, "durationUnit": "h"}},
                                       "doseAndRate": [{"doseQuantity": {"value": 1, "unit": "g", "code": "g",
                                                                         "system": "http://unitsofmeasure.org"},
                                                        "rateQuantity": {"value": 1, "unit": "g/h", "code": "g/h"}}]}]}
    inst = editing.apply(resource, {"dose": "2"})["dosageInstruction"][0]
    assert inst["doseAndRate"][0]["rateQuantity"]["value"] == 2 and inst["timing"]["repeat"]["duration"] == 1
    assert inst["text"].endswith("over 1 h")
