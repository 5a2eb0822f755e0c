"""Protocols asked in the clinician's words, through the chat without a model, in a real SMART
launch: the latest result with its date and window, the protocol's orders on their cards, and
exactly what HAPI holds after approval; a normal value or no result in the window orders
nothing, said in one sentence."""
from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from tests.ward.conftest import SITE_ZONE, answer_text, cards, of_patient, result, written

K_BENCH = ("Check patient {pid}'s most recent potassium level. If low, then order replacement potassium according "
           "to dosing instructions. Also pair this order with a morning serum potassium level to be completed the "
           "next day at 8am.")
MG_BENCH = ("Check patient {pid}'s last serum magnesium level within last 24 hours. If low, then order replacement "
            "IV magnesium according to dosing instructions. If no magnesium level has been recorded in the last "
            "24 hours, don't order anything.")
A1C_BENCH = ("What's the last HbA1C (hemoglobin A1C) value in the chart for patient {pid} and when was it recorded? "
             "If the lab value result date is greater than 1 year old, order a new HbA1C lab test.")


def approved(clinician, fhir_base, pids):
    out = {}
    for pid in pids:
        assert clinician.approve(pid).status_code == 200
        for rtype in ("MedicationRequest", "ServiceRequest"):
            for r in written(fhir_base, rtype, pid):
                out[rtype] = r
    return out


def test_low_potassium_gets_the_oral_dose_and_a_recheck_at_8_tomorrow(doctor, fhir_base):
    result(fhir_base, doctor.patient, "2823-3", 3.1, "mmol/L", hours_ago=2)
    html = doctor.ask("K low? replace per protocol and recheck tomorrow morning")
    pids = cards(html)
    assert len(pids) == 2 and "Potassium oral replacement" in html and "version" in html
    assert "3.1 mmol/L" in answer_text(html)
    made = approved(doctor, fhir_base, pids)
    med, lab = made["MedicationRequest"], made["ServiceRequest"]
    assert med["medicationCodeableConcept"]["coding"][0]["code"] == "8591"
    inst = med["dosageInstruction"][0]
    assert inst["doseAndRate"][0]["doseQuantity"] == {"value": 40, "unit": "mEq",
                                                      "system": "http://unitsofmeasure.org", "code": "meq"}
    assert inst["route"]["coding"][0]["code"] == "26643006"
    assert lab["code"]["coding"][0]["code"] == "2823-3"
    at = datetime.fromisoformat(lab["occurrenceDateTime"]).astimezone(ZoneInfo(SITE_ZONE))
    assert (at.date(), at.hour, at.minute) == ((datetime.now(ZoneInfo(SITE_ZONE)) + timedelta(days=1)).date(), 8, 0)


def test_the_benchmarks_potassium_wording_and_a_normal_value_orders_nothing(doctor, fhir_base):
    result(fhir_base, doctor.patient, "6298-4", 4.2, "mmol/L", hours_ago=1)
    html = doctor.ask(K_BENCH.format(pid=doctor.patient))
    assert cards(html) == []
    said = answer_text(html)
    assert "4.2 mmol/L" in said and "not below 3.5 mmol/L" in said and "nothing is ordered" in said
    assert of_patient(fhir_base, "MedicationRequest", doctor.patient) == []
    assert of_patient(fhir_base, "ServiceRequest", doctor.patient) == []


def test_low_magnesium_gets_the_iv_infusion_of_its_tier(doctor, fhir_base):
    result(fhir_base, doctor.patient, "19123-9", 1.3, "mg/dL", hours_ago=3)
    [pid] = cards(doctor.ask(MG_BENCH.format(pid=doctor.patient)))
    med = approved(doctor, fhir_base, [pid])["MedicationRequest"]
    inst = med["dosageInstruction"][0]
    assert inst["route"]["coding"][0] == {"system": "http://snomed.info/sct", "code": "47625008",
                                          "display": "Intravenous route"}
    dose, rate = inst["doseAndRate"][0]["doseQuantity"], inst["doseAndRate"][0]["rateQuantity"]
    assert (dose["value"], dose["code"], rate["value"], rate["code"]) == (2, "g", 1, "g/h")
    assert inst["timing"]["repeat"] == {"count": 1, "duration": 2, "durationUnit": "h"}
    assert med["medicationCodeableConcept"]["coding"][0]["code"] == "6585"


def test_magnesium_in_mmol_is_converted_before_the_tier_is_chosen(doctor, fhir_base):
    result(fhir_base, doctor.patient, "2601-3", 0.7, "mmol/L", hours_ago=1)  # 1.70 mg/dL: 1 g over 1 h
    html = doctor.ask("check her magnesium and if low replace per protocol")
    [pid] = cards(html)
    assert "1.7 mg/dL" in answer_text(html)
    inst = approved(doctor, fhir_base, [pid])["MedicationRequest"]["dosageInstruction"][0]
    assert inst["doseAndRate"][0]["doseQuantity"]["value"] == 1 and inst["timing"]["repeat"]["duration"] == 1


def test_no_magnesium_in_the_window_orders_nothing(doctor, fhir_base):
    result(fhir_base, doctor.patient, "19123-9", 1.2, "mg/dL", hours_ago=30)
    html = doctor.ask(MG_BENCH.format(pid=doctor.patient))
    said = answer_text(html)
    assert cards(html) == [] and "No magnesium result in the last 24 hours" in said and "1.2 mg/dL" in said
    assert of_patient(fhir_base, "MedicationRequest", doctor.patient) == []


def test_an_hba1c_older_than_a_year_is_reordered_and_a_recent_one_is_not(doctor, fhir_base):
    result(fhir_base, doctor.patient, "4548-4", 7.4, "%", hours_ago=24 * 500)
    html = doctor.ask(A1C_BENCH.format(pid=doctor.patient))
    [pid] = cards(html)
    assert "7.4 %" in answer_text(html) and "more than 365 days ago" in answer_text(html)
    lab = approved(doctor, fhir_base, [pid])["ServiceRequest"]
    assert lab["code"]["coding"][0]["code"] == "4548-4"
    result(fhir_base, doctor.patient, "4548-4", 6.9, "%", hours_ago=24 * 30)
    html = doctor.ask(A1C_BENCH.format(pid=doctor.patient))
    assert cards(html) == [] and "6.9 %" in answer_text(html) and "no new test is ordered" in answer_text(html)
    [sooner] = cards(doctor.ask("HbA1c: reorder if it is more than 3 weeks old"))  # the interval said wins
    assert "more than 21 days ago" in doctor.proposal(sooner)["summary"]["fields"][-1][1]
