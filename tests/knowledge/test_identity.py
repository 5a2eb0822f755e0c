"""Drug identity from order texts, codes and Medication resources (offline)."""
from __future__ import annotations

from smart_docgemma import knowledge
from smart_docgemma.knowledge import identify

RXNORM = "http://www.nlm.nih.gov/research/umls/rxnorm"


def test_combination_scd_with_salt_gives_both_ingredients_with_codes():
    ident = identify(text="amoxicillin 875 MG / clavulanate potassium 125 MG Oral Tablet")
    assert [(i.name, i.rxcui) for i in ident.ingredients] == [("amoxicillin", "723"), ("clavulanate", "48203")]
    assert ident.strength == "875 MG / 125 MG" and ident.dose_form == "Oral Tablet"


def test_branded_drug_keeps_its_brand():
    ident = identify(text="metoprolol succinate 50 MG 24HR Extended Release Oral Tablet [Toprol XL]")
    assert ident.names == ["metoprolol"] and ident.brand == "Toprol XL"


def test_code_alone_resolves_from_the_shipped_table():
    ident = identify(concept={"coding": [{"system": RXNORM, "code": "617993"}]})
    assert ident.names == ["amoxicillin", "clavulanate"] and ident.via == "rxnorm-table"


def test_international_names_brands_and_one_edit_misspellings():
    assert identify(text="paracetamol 500mg").names == ["acetaminophen"]
    assert identify(text="co-trimoxazole 960 mg").names == ["sulfamethoxazole", "trimethoprim"]
    assert identify(text="Augmentin 625").names == ["amoxicillin", "clavulanate"]
    assert identify(text="warfrin 5 mg").names == ["warfarin"]


def test_unknown_text_is_unidentified_with_a_reason():
    ident = identify(text="Take as directed")
    assert not ident.identified and ident.reason


def test_an_unknown_code_without_a_resolver_is_unidentified_not_empty():
    ident = identify(concept={"coding": [{"system": RXNORM, "code": "999999999"}]})
    assert not ident.identified and "RxNorm" in ident.reason


def test_an_unreachable_resolver_is_stated():
    def down(code):
        raise ConnectionError("no route")

    ident = identify(concept={"coding": [{"system": RXNORM, "code": "999999999"}]}, resolver=down)
    assert not ident.identified and "could not be reached" in ident.reason


def test_ketorolac_is_an_nsaid_and_interacts_with_warfarin():
    assert "nsaid" in knowledge.classes_of("ketorolac")
    [hit] = knowledge.interactions(["warfarin"], with_=["ketorolac"])
    assert hit.critical and hit.source
