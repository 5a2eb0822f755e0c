"""A drug written as the start of its name with a dose after it ("amoxi 30 mg/kg", "paracet
1 g") is that drug when the start is at least 5 letters and begins one ingredient's names only;
never a start shared by two ingredients, a short one, or a word with no dose after it. Pure."""
from __future__ import annotations

import pytest
from smart_docgemma.knowledge.mentions import find_drugs


def _names(text):
    return [(m.name, m.match) for m in find_drugs(text)]


@pytest.mark.parametrize("text, drug", [
    # ("amoxi" itself is now a listed short name: a longer start is the prefix read here)
    ("amoxici 30 mg/kg por dia divididos em 3 tomadas", "amoxicillin"),
    ("amoxici 30 mg/kg al día en 3 tomas", "amoxicillin"),
    ("amoxici 500mg tds", "amoxicillin"),
    ("levoth 50 mcg od", "levothyroxine"),
    ("metfo 500 mg bd", "metformin"),
])
def test_a_unique_start_of_a_name_with_a_dose_is_that_drug(text, drug):
    assert _names(text)[0] == (drug, "prefix")


def test_paracetamol_shorthand_is_its_ingredient():
    found = find_drugs("paracet 1 g qds")
    assert found and found[0].match == "prefix" and found[0].name
    assert found[0].name == find_drugs("paracetamol 1 g qds")[0].name


@pytest.mark.parametrize("text", [
    "predni 40 mg",      # prednisone and prednisolone both begin so: the clinician says which
    "amox 500 mg",       # four letters: too short to be one drug's
    "amoxi please",      # no dose after it
    "human 2 units",     # an ordinary word with a number after it
    "total 3 doses",
    "after 2 days",
    "potas 3.2 this am",  # the start of a lab's name: a result, never a drug
    "magne 0.6",
])
def test_shared_short_or_doseless_starts_name_no_drug(text):
    assert all(m.match != "prefix" for m in find_drugs(text))


def test_a_verb_that_is_also_a_brand_is_the_verb():
    """"cambia la dosis a 150 mg" changes the pending dose; Cambia (a diclofenac brand) is not
    named."""
    from smart_docgemma.knowledge.mentions import find_drugs

    assert find_drugs("cambia la dosis a 150 mg") == []


@pytest.mark.parametrize("text, dose", [
    ("ibuprofeno 100mg/5ml 7,5 ml de 8/8h", "150 mg (7.5 mL of 100 mg/5 mL)"),
    ("ibuprofen 7.5 ml of 100mg/5ml tds", "150 mg (7.5 mL of 100 mg/5 mL)"),
    ("paracetamol 120mg/5ml 10ml qds", "240 mg (10 mL of 120 mg/5 mL)"),
    ("amoxicillin 500mg tds", "500 mg"),
    ("ibuprofen 100mg/5ml tds", None),  # the strength alone is no dose: it is asked
])
def test_a_liquids_volume_is_its_mg_never_its_strength(text, dose):
    from smart_docgemma.agent.extraction import extract

    said = extract(text).dose
    assert (said.written if said else None) == dose
