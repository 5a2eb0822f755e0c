"""Deterministic extraction measured on the labelled set: precision
and recall of drug names (brands, misspellings, multi-word names) and of all
entities, with floors; figures printed for the README."""
from __future__ import annotations

import pytest
import yaml
from smart_docgemma.agent.extraction import extract
from smart_docgemma.agent.prompts import DATA, rules
from smart_docgemma.knowledge.mentions import find_drugs

CASES = yaml.safe_load((DATA / "extraction_cases.yaml").read_text())
FIELDS = {"drugs": "drugs", "names": "patient_names", "patient_ids": "patient_ids"}


def _score(pairs):
    tp = sum(len(exp & got) for exp, got in pairs)
    fp = sum(len(got - exp) for exp, got in pairs)
    fn = sum(len(exp - got) for exp, got in pairs)
    return tp / ((tp + fp) or 1), tp / ((tp + fn) or 1)


def _pairs(field):
    out = []
    for case in CASES:
        got = extract(case["text"])
        out.append((set(case.get(field, [])), set(getattr(got, FIELDS[field]))))
    return out


def test_labelled_set_is_large_and_varied():
    text = (DATA / "extraction_cases.yaml").read_text()
    assert len(CASES) >= 50
    assert text.count("# typo") >= 5 and text.count("# brand") >= 8
    assert any(" " in d for c in CASES for d in c.get("drugs", []))  # multi-word names


def test_drug_precision_and_recall_floors():
    precision, recall = _score(_pairs("drugs"))
    print(f"\ndrug extraction: precision {precision:.3f}, recall {recall:.3f} on {len(CASES)} phrasings")
    assert precision >= 0.95 and recall >= 0.95


def test_all_entities_precision_and_recall_floors():
    pairs = [p for field in FIELDS for p in _pairs(field)]
    precision, recall = _score(pairs)
    print(f"\nall entities: precision {precision:.3f}, recall {recall:.3f}")
    assert precision >= 0.95 and recall >= 0.95


def test_dose_and_frequency():
    for case in (c for c in CASES if c.get("dose")):
        got = extract(case["text"]).dose
        assert got is not None, case["text"]
        assert (got.written, got.frequency) == (case["dose"], case["frequency"]), case["text"]


def test_misspellings_map_to_the_generic_name():
    assert list(extract("metfromin 500 mg").drugs) == ["metformin"]
    assert list(extract("Is Augmentin ok?").drugs) == ["amoxicillin-clavulanate"]
    assert list(extract("start insulin glargine").drugs) == ["insulin glargine"]


def test_no_request_word_is_read_as_a_misspelt_drug():
    """The words of every language's requests ("prescribe", "ordonnance", "interacción") are
    never a drug one edit away: the knowledge core's ``not_drugs`` (knowledge/data/drug_words.yaml)
    keeps them out, and a request word added one edit from a drug's name belongs there too."""
    words = {w for phrases in rules()["actions"].values() for p in phrases for w in p.split()}
    misread = sorted((w, d.name) for w in words for d in find_drugs(w) if d.match != "exact")
    assert misread == []


def test_allergy_and_actions():
    got = extract("Document a severe penicillin allergy with hives")
    assert got.allergy is not None
    assert got.allergy.said() == {"reaction": "hives", "severity": "severe"}
    assert "document_allergy" in got.actions
    assert "check_interactions" in extract("interactions between warfarin and aspirin").actions


@pytest.mark.parametrize("message, names", [
    ("How about Mr Boateng's potassium?", ["Boateng"]),  # title + surname, without the "'s"
    ("Kwame Asante's last INR", ["Kwame Asante"]),  # a possessive name with no cue word
    ("Mrs Thompson’s record", ["Thompson"]),  # typographic apostrophe
    ("Give Robert Mensah's dose", ["Robert Mensah"]),  # a verb opening the sentence is not a name
    ("St John's wort with warfarin?", []),  # a herbal product
    ("Dr Smith's advice on warfarin", []),  # a colleague, not a patient
    ("Parkinson's disease meds", []),  # a disease named after a person
    ("Warfarin Sodium's half-life", []),  # a drug
])
def test_names_read_the_way_clinicians_write_them(message, names):
    assert list(extract(message).patient_names) == names
