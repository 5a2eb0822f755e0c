"""Lab orders, referrals and vital signs asked in the clinician's words, through the chat without
a model, in a real SMART launch (sandbox + HAPI): a card, the approval, and exactly what HAPI
then holds (codes, units, timing, requester, Provenance), once; nothing before approval."""
from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from tests.ward.conftest import SITE_ZONE, answer_text, cards, of_patient, provenance, written

SBAR = ("Situation: acute left knee injury, Background: radiology report indicates ACL tear. "
        "Assessment: ACL tear grade II. Recommendation: request for Orthopedic service to evaluate "
        "and provide management recommendations.")


def test_a_basic_metabolic_panel_is_one_lab_service_request_after_approval(doctor, fhir_base):
    html = doctor.ask("Order a basic metabolic panel")
    [pid] = cards(html)
    assert "Order basic metabolic panel" in html and "LOINC 51990-0" in html
    assert written(fhir_base, "ServiceRequest", pid) == []  # nothing before approval
    assert doctor.approve(pid).status_code == 200
    assert doctor.approve(pid).status_code == 200  # a second click is the same approval
    [sr] = written(fhir_base, "ServiceRequest", pid)
    assert sr["code"]["coding"][0] == {"system": "http://loinc.org", "code": "51990-0",
                                       "display": "Basic metabolic panel - Blood"}
    assert sr["category"][0]["coding"][0]["code"] == "108252007"
    assert (sr["status"], sr["intent"], sr["priority"]) == ("active", "order", "routine")
    assert sr["subject"]["reference"] == f"Patient/{doctor.patient}"
    assert sr["requester"]["reference"] == "Practitioner/dr-okafor" and sr["authoredOn"]
    [prov] = provenance(fhir_base, f"ServiceRequest/{sr['id']}")
    assert prov["agent"][0]["who"]["reference"] == "Practitioner/dr-okafor"


def test_a_timed_lab_order_is_for_that_time_in_the_sites_zone(doctor, fhir_base):
    [pid] = cards(doctor.ask("order a serum potassium level tomorrow at 8am"))
    assert doctor.approve(pid).status_code == 200
    [sr] = written(fhir_base, "ServiceRequest", pid)
    at = datetime.fromisoformat(sr["occurrenceDateTime"])
    tomorrow = (datetime.now(ZoneInfo(SITE_ZONE)) + timedelta(days=1)).date()
    assert at.astimezone(ZoneInfo(SITE_ZONE)).replace(tzinfo=None) == datetime(
        tomorrow.year, tomorrow.month, tomorrow.day, 8, 0)
    assert sr["code"]["coding"][0]["code"] == "2823-3"


def test_an_hba1c_in_three_months_and_a_stat_cbc(doctor, fhir_base):
    [pid] = cards(doctor.ask("repeat HbA1c in 3 months"))
    doctor.approve(pid)
    [sr] = written(fhir_base, "ServiceRequest", pid)
    assert sr["code"]["coding"][0]["code"] == "4548-4"
    days = (datetime.fromisoformat(sr["occurrenceDateTime"]) - datetime.fromisoformat(sr["authoredOn"])).days
    assert 85 <= days <= 92
    [stat] = cards(doctor.ask("CBC stat please, order it"))
    doctor.approve(stat)
    [sr] = written(fhir_base, "ServiceRequest", stat)
    assert sr["priority"] == "stat" and sr["code"]["coding"][0]["code"] == "58410-2"


def test_a_referral_keeps_the_clinicians_text_verbatim(doctor, fhir_base):
    html = doctor.ask(f'Order orthopedic surgery referral for this patient. Specify within the free text of the '
                      f'referral, "{SBAR}"')
    [pid] = cards(html)
    doctor.approve(pid)
    [sr] = written(fhir_base, "ServiceRequest", pid)
    codes = [(c["system"], c["code"]) for c in sr["code"]["coding"]]
    assert ("http://snomed.info/sct", "308481009") in codes and ("http://snomed.info/sct", "306181000000106") in codes
    assert sr["note"] == [{"text": SBAR}]
    assert sr["category"][0]["coding"][0]["code"] == "3457005" and sr["intent"] == "order"


def test_a_referral_for_a_reason(doctor, fhir_base):
    [pid] = cards(doctor.ask("Refer her to orthopedic surgery for knee pain"))
    doctor.approve(pid)
    [sr] = written(fhir_base, "ServiceRequest", pid)
    assert sr["reasonCode"] == [{"text": "knee pain"}] and "note" not in sr


def test_a_blood_pressure_just_measured_is_a_vital_signs_observation(nurse, fhir_base):
    html = nurse.ask("BP 150/95 just now, please chart it")
    [pid] = cards(html)
    assert nurse.approve(pid).status_code == 200  # any clinician records a vital sign
    [obs] = written(fhir_base, "Observation", pid)
    assert obs["category"][0]["coding"][0]["code"] == "vital-signs" and obs["status"] == "final"
    assert obs["code"]["coding"][0]["code"] == "85354-9"
    parts = {c["code"]["coding"][0]["code"]: c["valueQuantity"] for c in obs["component"]}
    assert parts["8480-6"] == {"value": 150, "unit": "mmHg", "system": "http://unitsofmeasure.org", "code": "mm[Hg]"}
    assert parts["8462-4"]["value"] == 95
    assert obs["performer"] == [{"reference": "Practitioner/nurse-ali"}] and obs["effectiveDateTime"]
    assert provenance(fhir_base, f"Observation/{obs['id']}")


def test_the_benchmarks_wording_records_the_quoted_reading(doctor, fhir_base):
    html = doctor.ask(f"I just measured the blood pressure for patient {doctor.patient}, and it is \"118/77 mmHg\". "
                      "Help me record it.")
    [pid] = cards(html)
    doctor.approve(pid)
    [obs] = written(fhir_base, "Observation", pid)
    assert [c["valueQuantity"]["value"] for c in obs["component"]] == [118, 77]


def test_several_readings_are_one_card_each(nurse, fhir_base):
    pids = cards(nurse.ask("Please record: temp 38.2, HR 112, sats 93%, RR 22"))
    assert len(pids) == 4
    for pid in pids:
        nurse.approve(pid)
    got = {o["code"]["coding"][0]["code"]: o["valueQuantity"]
           for p in pids for o in written(fhir_base, "Observation", p)}
    assert got["8310-5"]["value"] == 38.2 and got["8310-5"]["code"] == "Cel"
    assert got["8867-4"]["value"] == 112 and got["59408-5"]["code"] == "%" and got["9279-1"]["value"] == 22


def test_an_implausible_reading_is_refused_and_nothing_is_written(nurse, fhir_base):
    html = nurse.ask("BP 300/20, please record it")
    assert cards(html) == []
    assert "300/20 mmHg is not a plausible reading" in answer_text(html)
    assert of_patient(fhir_base, "Observation", nurse.patient) == []


def test_a_nurse_records_but_cannot_approve_a_lab_order(nurse, fhir_base):
    [pid] = cards(nurse.ask("Order a basic metabolic panel"))
    refused = nurse.approve(pid)
    assert refused.status_code == 403 and "ordering clinician" in refused.text
    assert written(fhir_base, "ServiceRequest", pid) == []


def test_an_order_for_another_patient_is_refused(doctor, fhir_base):
    html = doctor.ask("Order a basic metabolic panel for the patient with MRN S2016972")
    assert cards(html) == [] and "cannot look up or act for S2016972" in answer_text(html)
    assert of_patient(fhir_base, "ServiceRequest", doctor.patient) == []


def test_an_infusion_carries_its_route_dose_rate_and_duration(doctor, fhir_base):
    html = doctor.ask("give magnesium sulfate 2 g IV over 2 hours")
    [pid] = cards(html)
    assert "Start magnesium sulfate 2 g intravenously once over 2 h" in html
    assert doctor.approve(pid).status_code == 200
    [med] = written(fhir_base, "MedicationRequest", pid)
    inst = med["dosageInstruction"][0]
    assert inst["route"]["coding"][0]["code"] == "47625008"
    dose, rate = inst["doseAndRate"][0]["doseQuantity"], inst["doseAndRate"][0]["rateQuantity"]
    assert (dose["value"], dose["code"], rate["value"], rate["code"]) == (2, "g", 1, "g/h")
    assert inst["timing"]["repeat"] == {"count": 1, "duration": 2, "durationUnit": "h"}


def test_a_second_order_of_an_active_test_is_flagged_on_its_card(doctor, fhir_base):
    [first] = cards(doctor.ask("Order a lipid panel"))
    assert "already active" not in str(doctor.proposal(first)["summary"]["flags"])
    doctor.approve(first)
    [second] = cards(doctor.ask("Order a lipid panel"))
    flags = doctor.proposal(second)["summary"]["flags"]
    assert any(f["kind"] == "duplicate" and "lipid panel order is already active" in f["text"] for f in flags)
