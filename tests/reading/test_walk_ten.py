"""What the lead's tenth blind walk found read wrongly, read rightly: a relative who opens a
clause is its subject unless they report for the patient; a time said in a clause that holds a
drug is not the order's; "is his diabetes controlled?" asks the HbA1c; "nothing found" is never
said of a drug the knowledge could not name."""
from __future__ import annotations

from datetime import UTC, datetime

import pytest
from smart_docgemma import knowledge
from smart_docgemma.checks.drug_safety import Report
from smart_docgemma.checks.rules import _unchecked
from smart_docgemma.reading.people import beside_people
from smart_docgemma.reading.ward import when_words
from smart_docgemma.tools.chart.answers import focus_of
from smart_docgemma.tools.words import when


@pytest.mark.parametrize("message, relative", [
    ("his wife Abena - is she on anything that interacts?", "wife"),
    ("Samuel's brother also diabetic, what's his a1c", "brother"),
    ("his wife is also on warfarin, any issue?", "wife"),
    ("sa fille aussi diabétique, son hba1c ?", "fille"),
    ("a filha dela também diabética, qual a hba1c?", "filha"),
    ("su hijo tiene asma, puede tomar ibuprofeno?", "hijo"),
])
def test_a_relative_opening_a_clause_is_its_subject(message, relative):
    assert relative in beside_people(message)


@pytest.mark.parametrize("message", [
    "his daughter is worried about his INR - what is it?",
    "his wife says he is on ginseng",
    "INR 3.4, his wife gives him the tablets",
    "seen with his wife, BP ok?",
    "her daughter Ama says she missed doses",
    "son fils a appelé, il demande son INR",
    "lives alone, his daughter visits daily; INR?",
    "the patient's wife wants to know the INR",
    "his son rang, worried about the INR",
])
def test_a_relative_who_reports_for_the_patient_leaves_the_question_hers(message):
    assert beside_people(message) == []


@pytest.mark.parametrize("message, said", [
    ("hold warfarin tonight, INR in am", "in am"),
    ("stop metformin, creat tomorrow", "tomorrow"),
    ("fbc tomorrow at 7, u+e", "tomorrow at 7, u+e"),  # one time, kept whole
    ("hold warfarin tonight", "tonight"),  # the only time said
])
def test_a_time_in_a_clause_that_holds_a_drug_is_not_the_orders(message, said):
    assert when_words(message) == said


def test_in_am_said_at_noon_is_the_next_morning():
    noon = datetime(2026, 12, 5, 11, 50, tzinfo=UTC)
    assert when.parse(when_words("hold warfarin tonight, INR in am"), "UTC", noon).at == \
        datetime(2026, 12, 6, 8, 0, tzinfo=UTC)


@pytest.mark.parametrize("message, focus", [
    ("is his diabetes controlled?", "lab:HbA1c"),
    ("diabète bien équilibré ?", "lab:HbA1c"),
    ("o diabetes está controlado?", "lab:HbA1c"),
    ("is the pain controlled?", None),  # near words: no lab
    ("sugars?", "lab:Glucose"),
    ("and his kidneys?", "lab:eGFR"),  # after a drug question: her kidney function
    ("et ses reins ?", "lab:eGFR"),
    ("y los riñones?", "lab:eGFR"),
    ("her kidney stones again?", None),
])
def test_diabetes_control_and_her_kidneys_ask_their_results(message, focus):
    assert focus_of(message) == focus


def test_nothing_found_is_never_said_of_a_drug_not_recognised():
    unknown = knowledge.identify(text="zzqlamycin")
    report = Report(drugs=["zzqlamycin"], findings=[_unchecked(unknown, None, "med:x")])
    said = " ".join(report.lines())
    assert "nothing found" not in said
    both = Report(drugs=["zzqlamycin", "paracetamol"],
                  findings=[_unchecked(unknown, None, "med:x")])
    assert "Patient safety check of paracetamol: nothing found" in " ".join(both.lines())


def test_a_class_said_in_the_plural_or_by_its_allergy_word_is_the_class():
    assert knowledge.class_named("sulfonamides") == "sulfonamide_antibiotic"
    assert knowledge.class_named("statins") == "statin"
    assert knowledge.class_named("aspirin") is None  # a drug, not its class


def test_two_findings_of_one_sentence_are_told_apart_on_the_card():
    from smart_docgemma.checks.findings import Finding
    from smart_docgemma.languages import N_, message

    said = message(N_("Monitor closely if giving %(a)s with %(b)s"), a="trimethoprim",
                   b="lisinopril")
    pair = Finding("draft", "warning", ["Monitor closely — hyperkalaemia risk"],
                   "drug-interaction", message=said)
    rule = Finding("draft", "warning", ["Monitor closely — no potassium on file: hyperkalaemia"],
                   "drug-interaction", message=said)
    texts = [f.get("message") and "short" or f["text"]
             for f in Report(drugs=["trimethoprim"], findings=[pair, rule]).flags()]
    assert texts == ["short", "Monitor closely — no potassium on file: hyperkalaemia"]


@pytest.mark.parametrize("message, dose", [
    ("co-codamol 30/500 2 qds", "2 × 30/500 mg"),  # not 30 mg: two tablets of both strengths
    ("co-codamol 8/500 two tablets four times a day", "2 × 8/500 mg"),
    ("Bactrim forte 800/160 1 cp 12/12h", "1 × 800/160 mg"),
    ("augmentin 875/125 bd", "1 × 875/125 mg"),
    ("BP 160/100, amlodipine 5 od", "5 mg"),  # a blood pressure is no strength
    ("amoxicilina 500 mg 8/8h", "500 mg"),  # nor a frequency
])
def test_a_combinations_two_strengths_are_its_product_not_its_dose(message, dose):
    from smart_docgemma.agent.extraction import read

    assert read(message).dose.written == dose


def test_a_combination_counted_writes_no_dose_quantity_of_one_strength():
    from smart_docgemma.tools.words.dosing import order

    written = order("2 × 30/500 mg", "four times daily", None).dosage
    assert "doseAndRate" not in written and written["text"].startswith("2 × 30/500 mg")
