"""Ward shorthand through the chat without a model in a real SMART launch (sandbox + HAPI): a
bare list of tests with a time is an order for that hour in the site's zone, "stat trop" a stat
troponin; a reading carries the time it was taken; French and Spanish vital words are recorded;
a reading refused for being implausible is said while the others are carded; an ECG is said to
be out of reach here, never carded as something else."""
from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from tests.ward.conftest import SITE_ZONE, answer_text, cards, written

LOINC = "http://loinc.org"


def _codes(resource: dict) -> set[str]:
    return {c["code"] for c in resource["code"]["coding"] if c["system"] == LOINC}


def test_a_bare_list_of_tests_with_a_time_is_an_order(doctor, fhir_base):
    ids = cards(doctor.ask("NFS + iono demain à 7h"))
    assert len(ids) == 2
    for pid in ids:
        assert doctor.approve(pid).status_code == 200
    orders = [sr for pid in ids for sr in written(fhir_base, "ServiceRequest", pid)]
    assert set().union(*map(_codes, orders)) == {"58410-2", "24326-1"}
    tomorrow = (datetime.now(ZoneInfo(SITE_ZONE)) + timedelta(days=1)).date()
    for sr in orders:
        at = datetime.fromisoformat(sr["occurrenceDateTime"]).astimezone(ZoneInfo(SITE_ZONE))
        assert (at.date(), at.hour, at.minute) == (tomorrow, 7, 0)


def test_stat_trop_is_a_stat_troponin(doctor, fhir_base):
    [pid] = cards(doctor.ask("stat trop"))
    doctor.approve(pid)
    [sr] = written(fhir_base, "ServiceRequest", pid)
    assert sr["priority"] == "stat" and _codes(sr) == {"10839-9"}


def test_a_reading_carries_the_time_it_was_taken(nurse, fhir_base):
    [pid] = cards(nurse.ask("cbg 3.2 at 0600 - pls record"))
    nurse.approve(pid)
    [obs] = written(fhir_base, "Observation", pid)
    at = datetime.fromisoformat(obs["effectiveDateTime"]).astimezone(ZoneInfo(SITE_ZONE))
    now = datetime.now(ZoneInfo(SITE_ZONE))
    assert (at.hour, at.minute) == (6, 0) and timedelta(0) <= now - at < timedelta(days=1)
    assert _codes(obs) == {"41653-7"}


def test_spanish_vital_words_are_recorded_as_bp_and_hr(nurse, fhir_base):
    ids = cards(nurse.ask("TA 172/104 FC 96 - registrar"))
    assert len(ids) == 2
    for pid in ids:
        nurse.approve(pid)
    found = {code for pid in ids for obs in written(fhir_base, "Observation", pid) for code in _codes(obs)}
    assert {"85354-9", "8867-4"} <= found


def test_an_implausible_reading_is_refused_aloud_and_the_others_recorded(nurse, fhir_base):
    html = nurse.ask("sats 9 on RA, rr 18 - record")
    [pid] = cards(html)
    assert "not a plausible reading" in answer_text(html).split("Clinical trace")[0]
    nurse.approve(pid)
    [obs] = written(fhir_base, "Observation", pid)
    assert _codes(obs) == {"9279-1"} and obs["valueQuantity"]["value"] == 18


def test_an_ecg_is_said_to_be_out_of_reach(doctor):
    html = doctor.ask("ECG + trop stat")
    assert "ECG orders are not supported here" in answer_text(html)
    assert len(cards(html)) == 1  # the troponin only
