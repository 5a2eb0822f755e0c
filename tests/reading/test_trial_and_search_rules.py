"""A therapeutic trial of a drug told from a search for studies of it; follow-ups of follow-ups;
the replacement table's sources; figures worked out from the records' figures (pure: no HAPI)."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from smart_docgemma.agent import drug_follow_ups
from smart_docgemma.agent.extraction import extract
from smart_docgemma.agent.therapeutic_trials import tried_on_her
from smart_docgemma.checks import lookups
from smart_docgemma.grounding.check import ground
from smart_docgemma.grounding.computed import worked_out
from smart_docgemma.grounding.evidence import Evidence

KNOWLEDGE = Path(__file__).parents[2] / "smart_docgemma" / "knowledge" / "data"


@pytest.mark.parametrize("said", [
    "trial of losartan?", "give her a trial of amitriptyline", "therapeutic trial of naproxen?",
    "worth a short trial of gabapentin for her?", "essai de prégabaline ?",
    "on tente un essai thérapeutique de losartan ?", "prueba terapéutica con gabapentina",
    "¿hacemos una prueba con naproxeno?", "teste terapêutico com losartana?",
    "vale um teste terapêutico com amitriptilina?",
])
def test_a_therapeutic_trial_is_tried_on_her_and_searches_nothing(said):
    assert tried_on_her(said)
    assert not {"trials", "literature"} & set(extract(said).actions)


@pytest.mark.parametrize("said", [
    "trials of losartan in pregnancy", "any RCTs on losartan in pregnancy?",
    "ongoing trials recruiting for gabapentin in neuropathic pain",
    "is there a trial of losartan in pregnancy?", "clinical trial of pembrolizumab in melanoma",
    "des essais cliniques sur le losartan pendant la grossesse ?",
    "ensayos clínicos de losartán en el embarazo", "ensaios clínicos com gabapentina",
])
def test_a_search_for_studies_stays_a_search(said):
    assert not tried_on_her(said)
    assert {"trials", "literature"} & set(extract(said).actions)


def _history(*said: str) -> list[dict]:
    turns: list[dict] = []
    for text in said:
        turns += [{"role": "user", "content": text}, {"role": "assistant", "content": "…"}]
    return turns


@pytest.mark.parametrize("said", [
    ("ibuprofen for his knee pain?", "max per day?"),
    ("ibuprofen for his knee pain?", "max per day?", "in ml of 100mg/5ml?"),
    ("ibuprofeno para a dor no joelho?", "dose máxima diária?", "e uma alternativa?"),
])
def test_a_follow_up_of_a_follow_up_keeps_the_drug(said):
    assert drug_follow_ups.discussed(None, _history(*said)).drug == "ibuprofen"


def test_a_strength_said_in_an_earlier_follow_up_is_kept():
    about = drug_follow_ups.discussed(None, _history("paracetamol 240mg qds",
                                                     "how much is that in ml of 120mg/5ml"))
    assert about.drug == "acetaminophen" and "120mg/5ml" in about.said


def test_a_message_naming_nothing_that_is_no_follow_up_stops_the_walk():
    assert drug_follow_ups.discussed(None, _history("ibuprofen for his knee?",
                                                    "thanks, and his INR?")).drug is None


def test_each_replacement_names_the_source_that_states_it():
    pairs = yaml.safe_load((KNOWLEDGE / "label_pairs.yaml").read_text())
    rows = pairs["pairs"]
    stated = {(str(r.get("cites")), " ".join(str(r.get("management")).split()))
              for r in rows if isinstance(r, dict)}
    for kind, entries in lookups.table()["alternatives"].items():
        for key, entry in entries.items():
            assert any(entry["source"] == cites and entry["says"] in said
                       for cites, said in stated), (kind, key)
    alt = lookups.alternative("interaction", "ibuprofen", "warfarin")
    assert alt and alt["display"].startswith("acetaminophen")
    assert alt["source"] == "FDA Drug Label — Warfarin"


@pytest.mark.parametrize("kind, drug, context", [
    ("pregnancy", "losartan", ""), ("pregnancy", "lisinopril", ""),
    ("allergy", "amoxicillin", "penicillin"), ("renal", "ibuprofen", ""),
    ("interaction", "ibuprofen", "apixaban"),
])
def test_no_replacement_is_drafted_that_no_shipped_source_states(kind, drug, context):
    assert lookups.alternative(kind, drug, context) is None


WEIGHT = Evidence(key="Observation/w1", label="Body weight", url=None, date="2026-11-19",
                  text="Body weight 20.1 kg on 2026-11-19")
DOSE = Evidence(key="run:1", label="Drug check", url=None, date=None,
                text="paracetamol 15 mg/kg a dose")


def test_a_figure_worked_out_from_the_records_is_marked_computed_with_its_sum():
    done = ground("Paracetamol 15 mg/kg × 20.1 kg = 301.5 mg a dose.", [WEIGHT, DOSE])
    assert done.checks[0].verdict == "computed"
    assert "*(computed: 15 mg/kg × 20.1 kg = 301.5)*" in done.shown
    assert "not found" not in done.shown


@pytest.mark.parametrize("answer, missing", [
    ("Give 301.5 mg of paracetamol a dose.", "301.5 mg"),  # no sum, in no record
    ("Paracetamol 15 mg/kg × 20.1 kg = 400 mg a dose.", "400 mg"),  # a sum that does not hold
    ("Paracetamol 15 mg/kg × 22 kg = 330 mg a dose.", "22 kg"),  # an input in no record
])
def test_a_figure_neither_in_a_record_nor_worked_out_stays_flagged(answer, missing):
    done = ground(answer, [WEIGHT, DOSE])
    assert done.checks[0].verdict == "unsupported" and missing in done.checks[0].missing


def test_sums_as_the_app_and_the_ward_write_them():
    chain = worked_out("40 mg/kg/day ÷ 3 doses = 13.3 mg/kg a dose; × 20.1 kg = 268 mg a dose")
    assert [w.result for w in chain] == [13.3, 268.0]
    assert [w.result for w in worked_out("mean (5.1 + 4.2 + 3.9) / 3 = 4.4 mmol/L")] == [4.4]
    assert [w.result for w in worked_out("301.5 mg ÷ 24 mg/ml = 12.6 ml")] == [12.6]
    assert worked_out("BP 150/95 = high") == []


@pytest.mark.parametrize("said", ["and for a child?", "for a child?", "and in kids?",
                                  "et pour un enfant ?", "e para uma criança?", "¿y para un niño?",
                                  "paeds dose?"])
def test_and_for_a_child_is_a_follow_up(said):
    assert drug_follow_ups.asked(said, extract(said)) == "child"


@pytest.mark.parametrize("said", ["is it ok for a child?", "child protection referral",
                                  "and the child?"])
def test_a_child_named_otherwise_is_no_such_follow_up(said):
    assert drug_follow_ups.asked(said, extract(said)) != "child"


def test_a_child_dose_is_the_paediatric_row_per_kg_with_its_source_or_said_missing():
    said = drug_follow_ups.answer(
        "child", "and for a child?", drug_follow_ups.Discussed("acetaminophen", "", ""), None)
    assert "75 mg/kg a day" in said.text and "BNF for Children" in said.text
    none = drug_follow_ups.answer(
        "child", "and for a child?", drug_follow_ups.Discussed("amlodipine", "", ""), None)
    assert "not in the data I have" in none.text
