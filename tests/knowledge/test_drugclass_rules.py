"""The drug-class knowledge as a prescriber reads it, without a server: classes from the FDA's
pharmacologic classes, duplication per ingredient, packs, SNOMED CT code sets, children's age
rules and weight-based orders worked out from a dated weight."""
from __future__ import annotations

from datetime import date

import pytest
from smart_docgemma import knowledge as k
from smart_docgemma.knowledge import disease

RXNORM = "http://www.nlm.nih.gov/research/umls/rxnorm"


def test_classes_come_from_the_fda_pharmacologic_classes():
    assert k.pharmacologic("metoprolol") == ("beta-Adrenergic Blocker",)
    assert "beta_blocker" in k.classes_of("atenolol") and "dihydropyridine_ccb" in k.classes_of("nifedipine")
    assert "p2y12_inhibitor" in k.classes_of("prasugrel") and "ppi" in k.classes_of("pantoprazole")
    assert "opioid" not in k.classes_of("loperamide")  # an opioid agonist acting in the gut only
    assert "anticoagulant" not in k.classes_of("potassium citrate")  # "Anti-coagulant" EPC left out


@pytest.mark.parametrize("drug, other, severity, said", [
    ("atorvastatin", "simvastatin", "warning", "two statins"),
    ("prasugrel", "clopidogrel", "critical", "two P2Y12 inhibitors"),
    ("losartan", "lisinopril", "critical", "ACE inhibitor + angiotensin receptor blocker"),
    ("aliskiren", "valsartan", "critical", "renin inhibitor"),
    ("venlafaxine", "sertraline", "warning", "SSRI + SNRI"),
])
def test_a_second_drug_of_a_class_says_switch_and_names_the_drug_already_ordered(drug, other, severity, said):
    [found] = k.duplication_findings(drug, [other])
    assert found.severity == severity and said in found.summary and f"{other} is already ordered" in found.summary


def test_a_combination_counts_for_each_of_its_ingredients():
    found = k.duplication_findings("oxycodone/acetaminophen", ["hydrocodone/acetaminophen"])
    assert {f.key for f in found} == {"dup:ingredient:acetaminophen", "dup:class:opioid+opioid"}
    assert not k.duplication_findings("amlodipine", ["lisinopril", "metoprolol", "atorvastatin"])


def test_contraceptive_packs_resolve_to_ingredients_with_codes():
    yaz = k.identify(concept={"coding": [{"system": RXNORM, "code": "748856"}]})
    assert [(i.name, i.rxcui) for i in yaz.ingredients] == [("drospirenone", "11636"), ("ethinyl estradiol", "4124")]
    assert k.identify(text="Sprintec 28 Day Pack").names == ["ethinyl estradiol", "norgestimate"]
    assert [i.name for i in k.identify(text="NuvaRing 0.12/0.015 MG per 24HR 21 Day Vaginal Ring").ingredients] \
        == ["ethinyl estradiol", "etonogestrel"]
    [hit] = k.interaction_findings(["rifampin", "ethinyl estradiol/levonorgestrel"], focus="rifampin")
    assert hit.critical and "contraceptive failure" in hit.summary


def test_a_coded_problem_matches_by_its_snomed_code_and_ckd_stage_means_an_egfr():
    mi = disease.Problem("Myocardial infarction (disorder)", frozenset({"22298006"}))
    [flag] = k.disease_flags(["ibuprofen"], [mi])
    assert flag.severity == "warning" and flag.condition == "Myocardial infarction (disorder)"
    # a coded problem is read by its code, not by words in its text
    assert not k.disease_flags(["ibuprofen"], [disease.Problem("Heart failure screening", frozenset({"123"}))])
    stage4 = disease.Problem("Chronic kidney disease stage 4 (disorder)", frozenset({"431857002"}))
    assert disease.ckd_stage([stage4]) == (stage4, 29.0)


def test_childrens_age_rules():
    [reye] = k.child_findings("aspirin", 6 * 365)
    assert reye.critical and "Reye" in reye.summary
    assert k.child_findings("acetaminophen/codeine", 9 * 365)[0].critical
    assert k.child_findings("ceftriaxone", 10)[0].severity == "warning"
    assert not k.child_findings("ceftriaxone", 400) and not k.child_findings("aspirin", 17 * 365)


@pytest.mark.parametrize("written, per, doses, per_dose_kg", [
    ("90mg/kg/day divided bd", "day", 2, 45), ("15 mg/kg qds", "dose", 4, 15),
    ("40 mg/kg/day in 3 doses", "day", 3, 40 / 3), ("10 mg/kg every 8 hours", "dose", 3, 10),
    # "/dose" is a dose, never "/d" (a day): read as a day it was quartered
    ("15 mg/kg/dose qds", "dose", 4, 15), ("7.5 mg/kg per dose bd", "dose", 2, 7.5),
    # a day in French, Spanish and Portuguese: read as a dose it was tripled
    ("50 mg/kg/j en 3 prises", "day", 3, 50 / 3), ("50 mg/kg/día en 3 tomas", "day", 3, 50 / 3),
    ("50mg/kg/dia 8/8h", "day", 3, 50 / 3), ("10 mg/kg/24h in 2 doses", "day", 2, 5),
])
def test_weight_based_orders_are_read_as_clinicians_write_them(written, per, doses, per_dose_kg):
    wd = k.read_weight_dose(written)
    assert (wd.per, wd.doses_per_day) == (per, doses) and wd.per_dose_mg_per_kg == pytest.approx(per_dose_kg)


def test_a_weight_based_order_is_worked_out_from_the_dated_weight_and_checked():
    ok = k.paediatric_dose("amoxicillin", 20.1, date(2026, 11, 1), "90mg/kg/day divided bd")
    assert ok.severity == "info" and "= 904.5 mg a dose" in ok.text and "weighed 2026-11-01" in ok.text
    double = k.paediatric_dose("amoxicillin", 20.1, date(2026, 11, 1), "90 mg/kg bd")
    assert double.severity == "critical" and "45 mg/kg a dose" in double.text
    usual = k.paediatric_dose("paracetamol", 18)
    assert usual.per_dose_mg == 270 and usual.max_day_mg == 1350
