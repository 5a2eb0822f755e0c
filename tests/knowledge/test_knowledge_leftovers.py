"""The knowledge leftovers as data: the label's daily dose by kidney band said with the finding,
pregnancy flags the labels give (opioids, nitrofurantoin at term), metformin with iodinated
contrast, loperamide under 2, the nephrotoxic table and the RxNorm codes of common drugs."""
from __future__ import annotations

from datetime import date

import pytest
from smart_docgemma import knowledge as k
from smart_docgemma.knowledge.limits import Renal, renal_findings

ON = date(2026, 11, 10)


@pytest.mark.parametrize(("drug", "egfr", "said"), [
    ("gabapentin", 38, "400-1400 mg a day"),
    ("gabapentin", 22, "200-700 mg a day"),
    ("gabapentin", 9, "100-300 mg a day"),
    ("pregabalin", 38, "75-300 mg a day"),
    ("pregabalin", 20, "25-150 mg a day"),
    ("levetiracetam", 40, "250-750 mg every 12 hours"),
    ("enoxaparin", 25, "30 mg once daily"),
    ("metformin", 38, "not to be started at eGFR 30-45"),
    ("sitagliptin", 38, "50 mg once daily"),
    ("sitagliptin", 25, "25 mg once daily"),
    ("dabigatran", 25, "75 mg twice daily"),
])
def test_the_label_dose_of_the_kidney_band_is_said(drug: str, egfr: float, said: str) -> None:
    [finding] = renal_findings(drug, Renal(egfr, "eGFR", ON))
    assert said in finding.summary and said in finding.band


def test_a_band_without_a_label_dose_keeps_its_summary() -> None:
    [finding] = renal_findings("ibuprofen", Renal(38, "eGFR", ON))
    assert finding.summary == "Review ibuprofen — eGFR 38 on 2026-11-10: NSAIDs worsen kidney function"
    assert finding.band == ""


def test_no_band_above_the_label_threshold() -> None:
    assert renal_findings("gabapentin", Renal(75, "eGFR", ON)) == []
    assert k.renal_flags(["gabapentin"], None) == []


@pytest.mark.parametrize("drug", ["codeine", "tramadol", "oxycodone", "morphine"])
def test_opioids_in_pregnancy_name_neonatal_withdrawal(drug: str) -> None:
    [flag] = k.pregnancy_flags([drug])
    assert "neonatal opioid withdrawal" in flag.summary and "boxed warning" in flag.summary


def test_nitrofurantoin_in_pregnancy_names_term() -> None:
    [flag] = k.pregnancy_flags(["nitrofurantoin"])
    assert "at term" in flag.summary and flag.source.startswith("FDA label")


def test_loperamide_by_age() -> None:
    from smart_docgemma.knowledge.limits import child_findings
    infant = [f.severity for f in child_findings("loperamide", 400)]
    assert "critical" in infant  # under 2: contraindicated
    assert [f.severity for f in child_findings("loperamide", 4 * 365)] == ["warning"]
    assert child_findings("loperamide", int(6.5 * 365)) == []


@pytest.mark.parametrize(("said", "bleeding"), [
    ("inr 9 with melaena", True),
    ("inr a 8 avec melena", True),
    ("inr 7 e sangramento digestivo", True),
    ("inr 9 con melena", True),
    ("inr 6 and he's vomiting blood", True),
    ("inr 5.2 with haematuria - plan?", True),
    ("inr 5, no bleeding - plan?", False),
    ("inr 6 sans saignement", False),
    ("inr 6 sem sangramento", False),
    ("inr 4.8 - plan?", False),
    ("inr 6, no active bleeding", False),
    ("inr 9, not on aspirin, bleeding pr", True),
    ("inr 8 no melaena but haematuria", True),
    ("inr 4.5 - what's his bleeding risk?", False),
    ("inr 4 - risk of bleeding with the dental extraction?", False),
    ("inr 5, risco de sangramento?", False),
])
def test_bleeding_said_or_denied(said: str, bleeding: bool) -> None:
    from smart_docgemma.agent.ward_requests import bleeding_said
    assert bleeding_said(said) is bleeding


@pytest.mark.parametrize(("name", "code"), [
    ("insulin glargine", "274783"), ("insulin lispro", "86009"), ("cyclizine", "2977"),
    ("succinylcholine", "10154"), ("piperacillin", "8339"), ("tazobactam", "37617"),
])
def test_common_ingredients_carry_their_shipped_rxnorm_code(name: str, code: str) -> None:
    assert k.vocabulary.rxcui(name) == code


def test_the_card_code_of_a_combination_and_of_a_drug_no_table_holds() -> None:
    from smart_docgemma.tools.writes.orders import code_shown, rxnorm_coding
    pip = code_shown("piperacillin and tazobactam", rxnorm_coding("piperacillin and tazobactam"))
    assert "8339 (piperacillin)" in pip and "37617 (tazobactam)" in pip
    said = code_shown("flucloxacillin", rxnorm_coding("flucloxacillin"))
    assert said == "not in the shipped RxNorm tables (text only)"


def test_the_coverage_counts_are_held() -> None:
    from smart_docgemma.knowledge.code_coverage import report
    assert report("tuned")["coded"] >= 71 and report("holdout")["coded"] >= 68


@pytest.mark.parametrize(("text", "drug", "form"), [
    ("nifedipine MR 20 bd", "nifedipine", "MR"),
    ("nifédipine LP 20 mg 2x/j", "nifedipine", "LP"),
    ("nifedipino retard 20 mg cada 12 horas", "nifedipino", "retard"),
    ("metformin SR 500mg od", "metformin", "SR"),
    ("isosorbide mononitrate XL 60mg mane", "isosorbide mononitrate", "XL"),
    ("quetiapine prolonged-release 50 nocte", "quetiapine", "prolonged-release"),
    ("nifedipino la 20", "nifedipino", None),  # "la" in lower case is an article
    ("amoxicillin 500 tds", "amoxicillin", None),
])
def test_the_release_form_written_after_the_drug(text: str, drug: str, form: str | None) -> None:
    from smart_docgemma.tools.words.dosing import release_form
    assert release_form(text, drug) == form


def test_the_dosage_text_carries_the_form() -> None:
    from smart_docgemma.tools.writes.orders import _with_form
    assert _with_form({"text": "20 mg twice daily"}, "nifedipine MR")["text"] == (
        "20 mg twice daily, MR")
    assert _with_form({"text": "4.5 g"}, "piperacillin and tazobactam")["text"] == "4.5 g"


@pytest.mark.parametrize(("drug", "listed"), [
    ("gentamicin", True), ("ibuprofen", True), ("vancomycin", True), ("iohexol", True),
    ("tacrolimus", True), ("amlodipine", False), ("aspirin", False), ("lisinopril", False),
])
def test_the_nephrotoxic_table(drug: str, listed: bool) -> None:
    found = k.nephrotoxic(drug)
    assert (found is not None) is listed
    if found:
        assert found.source.startswith("FDA")


@pytest.mark.parametrize("asked", [
    "any nephrotoxics she's on?", "is he on anything nephrotoxic", "anything bad for her kidneys?",
    "anything nephrotoxic on board?",
    "des néphrotoxiques dans son traitement ?", "algum medicamento nefrotóxico?",
    "¿toma algún nefrotóxico?", "algo tóxico para los riñones?",
])
def test_nephrotoxic_questions_read_in_four_languages(asked: str) -> None:
    from smart_docgemma.tools.chart.answers import chart_focus
    assert chart_focus(asked) == "nephrotoxic"


def _pregnant_chart(pregnant: bool):
    from smart_docgemma.checks.context import HookData
    condition = {"resourceType": "Condition", "id": "c1", "clinicalStatus": {"coding": [
        {"code": "active"}]}, "code": {"coding": [
            {"system": "http://snomed.info/sct", "code": "77386006", "display": "Pregnancy"}]},
        "subject": {"reference": "Patient/p1"}}
    patient = {"resourceType": "Patient", "id": "p1", "gender": "female", "birthDate": "1994-04-22"}
    return HookData(resources={"patient": [patient], "medications": [], "allergies": [],
                               "conditions": [condition] if pregnant else [], "pregnancy": [],
                               "labs": [], "weight": []})


def test_a_drug_the_pregnancy_table_lacks_is_said_not_covered_in_pregnancy() -> None:
    from smart_docgemma.checks import drug_safety
    said = "\n".join(drug_safety.check(["amoxicillin"], _pregnant_chart(True)).lines())
    assert "Not covered: the pregnancy table has no entry for amoxicillin" in said
    listed = "\n".join(drug_safety.check(["codeine"], _pregnant_chart(True)).lines())
    assert "pregnancy table has no entry" not in listed
    not_pregnant = "\n".join(drug_safety.check(["amoxicillin"], _pregnant_chart(False)).lines())
    assert "pregnancy table" not in not_pregnant
