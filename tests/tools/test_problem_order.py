"""The problem list a clinician scans: the weightiest disorders first (ischaemic heart disease
before a gingivitis recorded last week), newest first within a weight, findings and social
findings after the disorders."""
from __future__ import annotations

from smart_docgemma.tools.chart.records import problems


def _conditions(*items):
    return [{"resourceType": "Condition", "id": str(i), "code": {"text": text}, "onsetDateTime": onset}
            for i, (text, onset) in enumerate(items)]


def test_ischaemic_heart_disease_comes_before_a_newer_gingivitis():
    listed = problems(_conditions(
        ("Gingivitis (disorder)", "2026-11-15"), ("Ischemic heart disease (disorder)", "2011-03-02"),
        ("Diabetic kidney disease (disorder)", "2016-06-01"), ("Essential hypertension (disorder)", "1998-01-10"),
        ("Acute viral pharyngitis (disorder)", "2026-02-01"), ("Prediabetes (finding)", "2009-01-01"),
        ("Full-time employment (finding)", "2020-01-01"), ("Osteoarthritis of knee (disorder)", "2019-01-01")))
    texts = [p.text for p in listed]
    assert texts[:3] == ["Diabetic kidney disease", "Ischemic heart disease", "Essential hypertension"]
    assert texts[3] == "Osteoarthritis of knee"  # neither serious nor minor: between them
    assert texts[4:6] == ["Gingivitis", "Acute viral pharyngitis"]
    assert texts[6:] == ["Prediabetes", "Full-time employment"]


def test_chronic_counts_as_serious_and_a_serious_word_wins_over_a_minor_one():
    texts = [p.text for p in problems(_conditions(
        ("Sprain of ankle", "2026-01-01"), ("Chronic pain", "2001-01-01"),
        ("Chronic viral hepatitis C", "1990-01-01")))]
    assert texts == ["Chronic pain", "Chronic viral hepatitis C", "Sprain of ankle"]
