"""The fifth round's rules as a clinician reads them, through the one safety check
(``checks.drug_safety.check``) on charts built as an EHR sends them: the label cap and its
section on the card, the allowed dose, Cockcroft–Gault with its inputs, a weight in lb said in
kg, the second source's disagreement, asthma, and "not covered" for problems no rule covers."""

from __future__ import annotations

from smart_docgemma import knowledge as k
from smart_docgemma.checks import drug_safety, rules
from smart_docgemma.checks.context import HookData

from .round5_cases import chart


def data(case: dict) -> HookData:
    return HookData(resources=chart(case, f"pt-{case['id']}"))


def lines(drug: str, case: dict, dose: str | None = None) -> str:
    report = drug_safety.check([drug], data(case), dosage={"text": dose} if dose else None)
    return "\n".join(report.lines())


def test_an_order_over_the_label_cap_is_critical_and_says_the_dose_allowed():
    case = {
        "id": "t-simva",
        "age": 70,
        "medications": ["amiodarone hydrochloride 200 MG Oral Tablet"],
    }
    draft = {
        "resourceType": "MedicationRequest",
        "id": "d1",
        "status": "draft",
        "intent": "order",
        "medicationCodeableConcept": {"text": "simvastatin 80 MG Oral Tablet"},
        "dosageInstruction": [{"text": "80 mg at night"}],
    }
    found = [f for f in rules.order_checks([draft], data(case)) if "label cap" in f.summary]
    assert found, [f.summary for f in rules.order_checks([draft], data(case))]
    f = found[0]
    assert f.severity == "critical" and "label cap 20 mg a day" in f.summary
    assert "at most 20 mg of simvastatin a day with amiodarone" in f.management
    assert any("section 2" in s.label for s in f.sources)


def test_within_the_cap_the_pair_is_a_warning_that_states_the_cap():
    f = k.order_findings("simvastatin", k.dose_of(text="20 mg nocte"), ["amlodipine"])[0]
    assert f.severity == "warning" and "at most 20 mg" in f.summary


def test_cockcroft_gault_is_used_without_an_egfr_and_shows_its_inputs():
    case = {"id": "t-cg", "age": 82, "gender": "female", "weight": 50, "creatinine": 1.9}
    renal = rules.latest_renal(data(case))
    assert renal and renal.value.value == 18.0 and "Cockcroft" in renal.trend
    assert (
        "(140 − 82 years) × 50 kg × 0.85 (female)" in renal.trend
        and "creatinine 1.9 mg/dL" in renal.trend
    )


def test_a_weight_in_pounds_is_converted_and_the_conversion_said():
    case = {"id": "t-lb", "age": 3, "weight": {"value": 30.9, "unit": "[lb_av]"}}
    said = lines("acetaminophen 500 MG Oral Tablet", case, "500 mg every 6 hours")
    assert "14.02 kg" in said and "30.9 [lb_av]" not in said.split("kg")[0]


def test_the_second_source_disagreeing_is_said_with_each_grade():
    f = k.order_findings("fluconazole", None, ["warfarin"])[0]
    assert f.severity == "critical" and "CYP2C9" in f.summary
    assert (
        "Sources disagree" in f.management
        and "ANSM interaction thesaurus (2020-01): precaution" in f.management
    )


def test_cardioselective_beta_blockers_and_nsaids_in_asthma_are_warnings_with_their_source():
    case = {"id": "t-asthma", "age": 50, "conditions": [{"snomed": "195967001", "text": "Asthma"}]}
    for drug in ("bisoprolol fumarate 5 MG Oral Tablet", "ibuprofen 400 MG Oral Tablet"):
        said = lines(drug, case)
        assert "Asthma" in said and "nothing found" not in said, said


def test_problems_no_rule_covers_are_said_not_covered():
    case = {"id": "t-nc", "age": 50, "conditions": [{"snomed": "38341003", "text": "Hypertension"}]}
    said = lines("amoxicillin 500 MG Oral Capsule", case)
    assert "Not covered: the drug–disease rules have no rule for Hypertension" in said


def test_tablets_and_millilitres_are_read_in_the_four_languages():
    al = "artemether 20 MG / lumefantrine 120 MG Oral Tablet"
    for text in ("2 tabs bd", "2 cp 2x/j", "2 comprimés matin et soir", "2 comprimidos de 12/12h"):
        d = k.dose_of(text=text, product=al)
        assert d and d.units == 2 and d.per_day == 2, text
    syrup = "acetaminophen 160 MG/5ML Oral Suspension"
    for text in ("15.6 mL q6h", "15,6 ml toutes les 6 heures"):
        assert k.dose_of(text=text, product=syrup).per_dose_mg == 499.2, text
