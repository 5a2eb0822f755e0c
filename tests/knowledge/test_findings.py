"""The typed findings API: reconciled severity with the sources that agree, English text with the
French source kept, doses read from orders, daily maxima, kidney and age limits."""
from __future__ import annotations

from datetime import date

import pytest
from smart_docgemma import knowledge as k


def one(findings, topic):
    [found] = [f for f in findings if f.topic == topic]
    return found


def test_sertraline_with_tramadol_takes_the_higher_grade_and_says_the_sources_disagree():
    # the labels and ANSM grade it a precaution, the second source (drug-interaction-mcp) "danger":
    # one finding at the higher grade, every source cited, the disagreement said
    f = one(k.order_findings("tramadol", others=["sertraline"]), "interaction")
    assert f.severity == "critical" and "serotonin syndrome" in f.summary and "seizure" in f.summary
    assert any("tramadol" in s for s in f.source_labels) and any(s.startswith("ANSM") for s in f.source_labels)
    assert any(s.startswith("drug-interaction-mcp") for s in f.source_labels)
    assert "Sources disagree" in f.management and "precaution" in f.management
    assert f.quote and "sérotoninergique" in f.quote  # the French original is kept
    assert f.quote.endswith("Niveau ANSM : à prendre en compte.")  # the thesaurus' own grade
    assert not k.looks_french(f.summary + f.effect + f.management)


@pytest.mark.parametrize("drug, other, words", [
    ("amiodarone", "digoxin", "Halve the digoxin dose"),
    ("verapamil", "digoxin", "Reduce the digoxin dose"),
    ("fluconazole", "warfarin", "INR within 3-5 days"),
    ("rifampin", "warfarin", "INR within 3-5 days"),
])
def test_management_gives_the_numbers_the_labels_give(drug, other, words):
    f = one(k.order_findings(drug, others=[other]), "interaction")
    assert words in f.management


@pytest.mark.parametrize("drug, other, severity, source", [
    ("oxycodone", "alprazolam", "critical", "boxed warning"),
    ("ondansetron", "citalopram", "critical", "CredibleMeds"),
    ("trimethoprim", "lisinopril", "warning", "trimethoprim FDA label"),
    ("potassium chloride", "losartan", "critical", "ARB"),
    ("ibuprofen", "apixaban", "critical", "anticoagulant and NSAID FDA labels"),
    ("sertraline", "apixaban", "warning", "SSRI FDA labels"),
    ("zolpidem", "oxycodone", "critical", "boxed warning"),
    ("pregabalin", "morphine", "warning", "FDA drug safety communication"),
])
def test_class_rules_raise_the_level_and_name_their_source(drug, other, severity, source):
    f = one(k.order_findings(drug, others=[other]), "interaction")
    assert f.severity == severity and any(source in s for s in f.source_labels), f


def test_triple_whammy_needs_all_three():
    found = k.order_findings("naproxen", others=["ramipril", "furosemide"])
    trio = one(found, "combination")
    assert trio.critical and set(trio.drugs) == {"naproxen", "ramipril", "furosemide"}
    assert not [f for f in k.order_findings("naproxen", others=["ramipril"]) if f.topic == "combination"]


@pytest.mark.parametrize("text, product, daily", [
    ("1 g four times a day", "acetaminophen", 4000),
    ("2 tablets qid", "acetaminophen 500 MG Oral Tablet", 4000),
    ("6 g/day", "acetaminophen", 6000),
    ("500 mg q6h", "", 2000),
    ("600 mg three times daily", "", 1800),
    ("0.6 mg bid", "", 1.2),
])
def test_dose_from_free_text(text, product, daily):
    assert k.dose_of(text=text, product=product).daily_mg == pytest.approx(daily)


def test_dose_from_fhir_dosage_instruction_and_rxnorm_strength():
    order = {"dosageInstruction": [{"timing": {"repeat": {"frequency": 3, "period": 1, "periodUnit": "d"}},
                                    "doseAndRate": [{"doseQuantity": {"value": 2, "unit": "TAB"}}]}]}
    dose = k.dose_of(order, product="acetaminophen 1000 MG Oral Tablet")
    assert dose.daily_mg == 6000
    order = {"dosageInstruction": [{"timing": {"code": {"coding": [{"code": "WK"}]}},
                                    "doseAndRate": [{"doseQuantity": {"value": 15, "unit": "mg"}}]}]}
    assert k.dose_of(order).weekly


@pytest.mark.parametrize("drug, text, severity", [
    ("acetaminophen", "1 g every 4 hours", "critical"),
    ("ibuprofen", "800 mg qid", None),
    ("ibuprofen", "1200 mg qid", "critical"),
    ("colchicine", "0.6 mg bid", None),
    ("colchicine", "0.6 mg tid", "warning"),
    ("colchicine", "1.2 mg bid", "critical"),
    ("methotrexate", "10 mg daily", "critical"),
    ("methotrexate", "15 mg once weekly", None),
    ("methotrexate", "40 mg weekly", "warning"),
    # a tenfold warfarin dose (50 mg for 5 mg) is flagged; the label's 2-10 mg range is not
    ("warfarin", "50 mg daily", "warning"),
    ("warfarin", "7.5 mg once daily", None),
    ("warfarin", "10 mg daily", None),
])
def test_daily_maxima_and_weekly_methotrexate(drug, text, severity):
    found = [f for f in k.order_findings(drug, k.dose_of(text=text)) if f.topic == "dose"]
    assert (found[0].severity if found else None) == severity, found


def test_low_and_high_dose_aspirin_are_told_apart():
    low, high = k.dose_of(text="81 mg daily"), k.dose_of(text="650 mg every 6 hours")
    assert k.aspirin_band(low) == "antiplatelet" and k.aspirin_band(high) == "analgesic"
    assert k.aspirin_band(k.dose_of(text="1 g tid")) == "anti-inflammatory"
    with_acei = [f for f in k.order_findings("aspirin", low, ["lisinopril"]) if f.topic == "interaction"]
    assert with_acei == []  # the ANSM entry is written for analgesic doses
    assert k.order_findings("aspirin", high, ["lisinopril"])
    renal = k.Renal(22, "eGFR", date(2026, 11, 1))
    assert not k.renal_findings("aspirin", renal, low) and k.renal_findings("aspirin", renal, high)


def test_renal_limits_name_the_result_and_its_date():
    renal = k.Renal(24, "eGFR", date(2026, 11, 1))
    [f] = k.renal_findings("metformin", renal)
    assert f.critical and "eGFR 24 on 2026-11-01" in f.summary
    assert k.renal_findings("nitrofurantoin", k.Renal(25, "CrCl"))[0].critical
    assert k.renal_findings("dabigatran", k.Renal(20, "CrCl"))[0].critical
    assert not k.renal_findings("metformin", k.Renal(75))
    assert not k.renal_findings("metformin", None)  # nothing claimed without a value


def test_gabapentin_renal_band_follows_the_dose():
    renal = k.Renal(25, "CrCl", date(2026, 11, 1))
    assert k.renal_findings("gabapentin", renal, k.dose_of(text="300 mg tid"))
    # within the band's daily maximum: only a note that the kidney dose was checked
    assert [f.severity for f in k.renal_findings("gabapentin", renal,
                                                 k.dose_of(text="300 mg bid"))] == ["info"]
    assert k.renal_findings("gabapentin", renal)  # dose unknown: the band is said


def test_age_list_applies_from_65():
    assert one(k.order_findings("diphenhydramine", age=82), "age").severity == "warning"
    assert one(k.order_findings("diazepam", age=70), "age").source_labels[0].startswith("AGS Beers")
    assert not k.age_findings("diphenhydramine", 50) and not k.age_findings("diphenhydramine", None)
    assert k.age_on("1948-03-14", date(2026, 3, 13)) == 77 and k.age_on("1948", date(2026, 11, 25)) == 78


def test_hidden_acetaminophen_in_a_combination_product_counts_toward_4_g():
    product = "oxycodone hydrochloride 5 MG / acetaminophen 325 MG Oral Tablet"
    dose = k.dose_of(text="2 tablets every 4 hours", product=product)
    assert dose.daily_mg_of("acetaminophen") == pytest.approx(3900) and dose.daily_mg_of("oxycodone") == 60
    over = k.dose_of(text="2 tablets every 3 hours", product=product)
    [f] = [f for f in k.order_findings("oxycodone/acetaminophen", over) if "acetaminophen" in f.drugs]
    assert f.critical and "5200 mg a day" in f.summary
    in_mg = k.dose_of(text="650 mg every 6 hours", product=product)  # whose 650 mg? not claimed
    assert not [f for f in k.order_findings("oxycodone/acetaminophen", in_mg) if f.topic == "dose"]


@pytest.mark.parametrize("text, daily", [("1-2 tablets q4-6h prn", 6000), ("10 mg/kg every 6 hours", None)])
def test_ranges_take_the_highest_frequency_and_weight_based_doses_are_not_guessed(text, daily):
    dose = k.dose_of(text=text, product="acetaminophen 500 MG Oral Tablet")
    assert dose.daily_mg == daily


def test_one_ingredient_in_several_orders_counts_once_toward_its_maximum():
    combo = "oxycodone hydrochloride 5 MG / acetaminophen 325 MG Oral Tablet"
    active = {"oxycodone/acetaminophen": k.dose_of(text="2 tablets every 6 hours", product=combo)}  # 2600 mg
    order = k.dose_of(text="1 g three times a day")  # 3000 mg alone: within 4 g
    [f] = [f for f in k.order_findings("acetaminophen", order, list(active), doses=active) if f.topic == "dose"]
    assert f.critical and "5600 mg a day in all" in f.summary
    assert any(e.startswith("Also ordered: oxycodone/acetaminophen") for e in f.evidence)
    assert not [f for f in k.order_findings("acetaminophen", k.dose_of(text="500 mg bid"), list(active),
                                            doses=active) if f.topic == "dose"]


def test_a_whole_medication_list_is_reviewed_once_per_problem():
    doses = {"acetaminophen": k.dose_of(text="1 g every 4 hours")}
    found = k.list_findings(["lisinopril", "furosemide", "ibuprofen", "acetaminophen", "diazepam"], doses,
                            k.Renal(25, "eGFR", date(2026, 11, 1)), age=80)
    topics = {(f.topic, f.drugs[0]) for f in found}
    assert ("dose", "acetaminophen") in topics and ("renal", "ibuprofen") in topics
    assert ("age", "diazepam") in topics and any(f.topic == "combination" for f in found)
    assert found[0].critical and len({f.key for f in found}) == len(found)


@pytest.mark.parametrize("text, per_day", [("1 g qds", 4), ("500 mg tds", 3), ("1 g bd", 2), ("10 mg nocte", 1),
                                           ("1 g 6/6h", 4), ("500 mg 8-hourly", 3), ("1 g q4-6h", 6)])
def test_shorthand_frequencies(text, per_day):
    assert k.dose_of(text=text).per_day == per_day
