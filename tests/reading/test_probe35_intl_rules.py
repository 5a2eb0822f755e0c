"""Rules added for probe35_intl (fr/pt/es), pinned by pure tests with near wordings that must not
trigger them."""

from __future__ import annotations

import pytest
from smart_docgemma.agent import drug_follow_ups as follow
from smart_docgemma.knowledge import Weight


@pytest.fixture
def child(monkeypatch):
    monkeypatch.setattr(follow, "_fresh_weight", lambda data: Weight(20.1, None))


# p35-pt-7: the liquid's strength, a per-kg dose and the volume asked in one message
@pytest.mark.parametrize("message, ml", [
    ("Amoxil 400 mg/5 mL, 90 mg/kg/dia de 12/12h, quantos mL por dose?", "11.3 ml"),
    ("Clamoxyl sirop 500 mg/5 ml, 80 mg/kg/j en 2 prises, ca fait combien de ml ?", "8 ml"),
    ("ibuprofeno jarabe 100 mg/5 ml a 10 mg/kg por dosis, cuantos ml le doy?", "10.1 ml"),
])
def test_the_volume_a_dose_beside_the_check(child, message, ml):
    said = follow.volume_beside_check(message, ["amoxicillin"], None)
    assert said is not None and f"give {ml} a dose" in said


def test_a_dose_in_mg_with_its_strength_needs_no_weight():
    said = follow.volume_beside_check("paracetamol 240 mg, sirop 120 mg/5 ml, combien de ml ?",
                                      ["acetaminophen"], None)
    assert said is not None and "give 10 ml a dose" in said


@pytest.mark.parametrize("message, drugs", [
    # no volume asked
    ("Amoxil 400 mg/5 mL, 90 mg/kg/dia de 12/12h", ["amoxicillin"]),
    # the mg asked, not the ml
    ("Amoxil 400 mg/5 mL, 90 mg/kg/dia de 12/12h, quantos mg por dose?", ["amoxicillin"]),
    # no strength written: none is assumed
    ("amoxicilina 90 mg/kg/dia de 12/12h, quantos mL por dose?", ["amoxicillin"]),
    # two drugs named
    ("Amoxil 400 mg/5 mL e ibuprofeno, 90 mg/kg/dia, quantos mL?", ["amoxicillin", "ibuprofen"]),
    # a strength and ml asked but no dose to work from
    ("Amoxil 400 mg/5 mL, quantos mL?", ["amoxicillin"]),
])
def test_no_volume_when_the_message_does_not_give_it_all(child, message, drugs):
    assert follow.volume_beside_check(message, drugs, None) is None


# p35-es-12: a relative asking, with the subject unsaid, to take the patient's same medicines
@pytest.mark.parametrize("said, relative", [
    ("la hermana de la paciente pregunta si puede tomar las mismas pastillas para la presion",
     "hermana"),
    ("a filha quer saber se pode usar o mesmo remedio", "filha"),
    ("su hijo pregunta si puede tomar los mismos comprimidos", "hijo"),
])
def test_a_relative_asking_for_the_patients_same_medicines_is_asked_about(said, relative):
    from smart_docgemma.reading.people import beside_people
    assert relative in beside_people(said)


@pytest.mark.parametrize("said", [
    # no pronoun and nothing "the same": the patient is asked about (probe27_intl)
    "su hijo pregunta si puede tomar ibuprofeno",
    "el esposo de la paciente pregunta si puede tomar ibuprofeno",
    # giving the same to the patient
    "la mama pregunta si puede darle las mismas gotas",
    # the same said of something else than taking
    "la hija pregunta si puede venir el mismo dia",
])
def test_near_wordings_name_no_one_else(said):
    from smart_docgemma.reading.people import beside_people
    assert beside_people(said) == []


# p35-pt-6: the eponym of a severe skin reaction alone, as every language says it
@pytest.mark.parametrize("said", [
    "ela tem alergia a sulfa, deu Stevens-Johnson, registra no prontuario",
    "alergico al cotrimoxazol, hizo un Stevens Johnson, registralo",
    "allergie au Bactrim : SJS en 2019, a noter",
])
def test_stevens_johnson_alone_is_a_reaction_of_high_criticality(said):
    from smart_docgemma.agent.extraction import find_allergy
    from smart_docgemma.tools.writes.orders import manifestation

    found = find_allergy(said)
    assert found is not None and found["criticality"] == "high"
    assert manifestation(found["reaction"])["coding"][0]["code"] == "73442001"


@pytest.mark.parametrize("said", [
    # a name like it, and the letters inside a word: no reaction
    "johnson & johnson paracetamol, registra",
    "ela tem alergia a sulfa, registra no prontuario",
])
def test_near_words_are_no_stevens_johnson(said):
    from smart_docgemma.agent.extraction import find_allergy

    found = find_allergy(said)
    assert found is None or found.get("reaction") is None


# p35-es-10: Argentina's "hs" for hours in a window; a bedtime "hs" is none
@pytest.mark.parametrize("said, window", [
    ("cual fue el potasio mas alto en las ultimas 72 hs?", "3d"),
    ("glucemias de las ultimas 12 hs", "12h"),
    ("insulina nph 10 u hs, glucemia?", None),
    ("humalog hs", None),
])
def test_hours_written_hs_in_a_window(said, window):
    from smart_docgemma.tools.words import windows

    assert windows.asked(said).window == window


# walk after probe35_intl: French's "s'il" is the "si il" of a relative asking for himself
@pytest.mark.parametrize("said, relative", [
    ("le mari de la patiente demande s'il peut prendre le meme traitement", "mari"),
    ("son fils demande s'il peut prendre du doliprane", "fils"),
])
def test_a_relative_asking_s_il_peut_for_himself(said, relative):
    from smart_docgemma.reading.people import beside_people
    assert relative in beside_people(said)


@pytest.mark.parametrize("said", [
    # the pronoun of the other sex: the patient is asked about
    "sa fille demande s'il peut prendre du paracetamol",
    # giving it to the patient
    "la maman demande s'il peut lui donner de l'aspirine",
    # no modal of taking
    "son fils demande s'il faut arreter",
])
def test_near_s_il_wordings_name_no_one_else(said):
    from smart_docgemma.reading.people import beside_people
    assert beside_people(said) == []


def test_s_il_is_read_with_its_apostrophe_folded_too():
    from smart_docgemma.agent.extraction import extract

    said = "le mari de la patiente demande s'il peut prendre le meme traitement"
    assert "mari" in extract(said).patient_names
    assert extract("sa fille demande s'il peut prendre du paracetamol").patient_names == ()
