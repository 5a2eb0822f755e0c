"""probe34_intl's rules, each with near words that must not trigger: a birth date's word is a
word of its own ("éruption cutanée en 2019" names no one born in 2019); whether to replace a
value told, asked in the first person ("potasio en 3.4, ¿lo repongo?"), asks its replacement
protocol; a reaction had with the one drug named, told to be recorded ("fez urticária com
dipirona, anota aí"), is the allergy to record."""
from __future__ import annotations

import pytest
from smart_docgemma.agent.extraction import read
from smart_docgemma.agent.ward_requests import workflow_of


@pytest.mark.parametrize("said", [
    "elle est allergique a l'Augmentin, eruption cutanee en 2019, a noter dans le dossier",  # p34-fr-7
    "allergie à l'amoxicilline, réaction cutanée en 2018",
    "urticaire généralisée en 2020 sous Bactrim",
])
def test_a_birth_dates_word_inside_another_word_names_no_one(said):
    assert read(said).entities.patient_names == ()


@pytest.mark.parametrize(("said", "name"), [
    ("marie dupont nee en 1950, allergies ?", "marie dupont"),
    ("beverley mosciski dob 07/09/1986 allergies?", "beverley mosciski"),
    ("MARIE DUPONT NEE EN 1950", "MARIE DUPONT"),
])
def test_near_words_a_name_before_its_birth_dates_word_is_still_a_person(said, name):
    assert read(said).entities.patient_names == (name,)


@pytest.mark.parametrize(("said", "value"), [
    ("potasio en 3.4 en el control de hoy, lo repongo?", 3.4),  # p34-es-10
    ("K 3,2 ce matin, je le supplemente ?", 3.2),
    ("K 3.3 - do I replace?", 3.3),
    ("potássio 3,1 hoje, preciso repor?", 3.1),
])
def test_whether_to_replace_a_value_told_asks_its_protocol(said, value):
    assert "protocol" in read(said).entities.actions
    assert "order_lab" not in read(said).entities.actions
    assert workflow_of(said).protocol_value == value


@pytest.mark.parametrize("said", [
    "potasio en 3.4, ya lo repuse",      # told done: nothing to replace asked
    "pedir potasio para manana",         # an order of the test
    "potasio 4.8 hoy, lo repongo?",      # a normal value: no replacement protocol
])
def test_near_words_a_replacement_told_done_an_order_or_a_normal_value_ask_no_protocol(said):
    assert "protocol" not in read(said).entities.actions


@pytest.mark.parametrize(("said", "drug"), [
    ("ele fez urticaria com dipirona ano passado, anota ai", "metamizole"),  # p34-pt-7
    ("urticaire sous Augmentin, a noter", "amoxicillin-clavulanate"),
    ("hives after codeine - document it", "codeine"),
    ("a dipirona deu urticaria nele, registra", "metamizole"),
    ("le dio urticaria con el ibuprofeno, anotalo", "ibuprofen"),
    ("rash after co-trimoxazole last year, pls document", "sulfamethoxazole/trimethoprim"),
])
def test_a_reaction_had_with_the_drug_told_to_record_is_its_allergy(said, drug):
    found = read(said).entities
    assert "document_allergy" in found.actions and found.drugs == (drug,)


@pytest.mark.parametrize("said", [
    "melhorou a urticaria com loratadina, anota",          # treated with it
    "rash treated with hydrocortisone, document",          # treated with it
    "fez urticaria com dipirona?",                         # asked, nothing to record
    "fez urticaria com dipirona ano passado",              # told, no word of recording
    "urticaria com dipirona e amoxicilina, anota",         # two drugs: which one is not guessed
])
def test_near_words_a_reaction_treated_asked_untold_or_of_two_drugs_records_nothing(said):
    assert "document_allergy" not in read(said).entities.actions


# ---- the holdout's rules (after its one blind run): a lowering said as going down ("on descend
# l'amlodipine à 2.5"); a factor of her dose on the chart ("reduz a metformina pra metade"); what
# the assistant proposes, asked ("tu proposes quoi ?"); "o que faço?" orders nothing; "agora" is
# when a result was taken; a comma after a value is punctuation; "ronchas" is a reaction and
# "regístralo" a word of recording; "7 hs" is a clock.

from smart_docgemma.agent.extraction import _her_dose_times, _on_her_list  # noqa: E402
from smart_docgemma.reading.ward import read_ward  # noqa: E402
from smart_docgemma.tools.chart.in_context import ChartInContext, Medication  # noqa: E402
from smart_docgemma.tools.words import when  # noqa: E402


@pytest.mark.parametrize(("said", "drug", "dose"), [
    ("on descend l'amlodipine a 2.5, elle fait des hypotensions orthostatiques", "amlodipine", "2.5 mg"),
    ("desce a losartana para 25", "losartan", "25 mg"),
    ("abaixa o enalapril pra 10", "enalapril", "10 mg"),
    ("subi el enalapril a 20", "enalapril", "20 mg"),
])
def test_a_lowering_said_as_going_down_is_a_dose_change(said, drug, dose):
    change = workflow_of(said).dose_change
    assert change is not None and (change.drug, change.dosage) == (drug, dose)


@pytest.mark.parametrize("said", [
    "on descend au scanner avec l'amlodipine",       # no new dose
    "desce a losartana?",                            # asked
    "elle descend les escaliers, amlodipine 5 mg",   # the verb is not said of the drug
])
def test_near_words_going_down_without_the_drug_and_its_dose_changes_nothing(said):
    assert workflow_of(said).dose_change is None


def _hers(text: str, name: str, dose: str = "") -> ChartInContext:
    return ChartInContext(medications=(Medication(text=text, names=(name,), dose=dose),))


def test_a_factor_of_her_dose_is_her_orders_dose_times_it():
    flow = workflow_of("reduz a metformina pra metade, ta com diarreia")  # p34-pt-4
    assert flow.dose_change is not None and flow.dose_change.factor == 0.5
    chart = _hers("Metformin hydrochloride 500 MG Oral Tablet", "metformin", "500 mg twice daily")
    assert _on_her_list(flow, chart).dose_change.dosage == "250 mg"
    half = workflow_of("baja el enalapril a la mitad")
    assert _on_her_list(half, _hers("Enalapril 20 MG Oral Tablet", "enalapril")).dose_change.dosage \
        == "10 mg"
    assert _her_dose_times(_hers("Amoxicillin 1 G", "amoxicillin"), "amoxicillin", 0.5) == "500 mg"


def test_near_words_a_factor_with_no_dose_on_her_order_or_not_on_her_list_changes_nothing():
    flow = workflow_of("reduz a metformina pra metade")
    assert _on_her_list(flow, _hers("Metformin oral tablet", "metformin")).dose_change is None
    assert _on_her_list(flow, _hers("Amlodipine 5 MG", "amlodipine")).dose_change is None
    two = ChartInContext(medications=(Medication(text="Metformin 500 MG", names=("metformin",)),
                                      Medication(text="Metformin 850 MG", names=("metformin",))))
    assert _on_her_list(flow, two).dose_change is None
    assert workflow_of("corta a metformina").dose_change is None     # a stop
    assert workflow_of("a metade da metformina?").dose_change is None  # asked


@pytest.mark.parametrize(("said", "value"), [
    ("kaliemie a 3,2 ce matin, tu proposes quoi ?", 3.2),   # p34-fr-10
    ("potasio 3,1, que sugieres?", 3.1),                    # a comma after the value
    ("Mg 1,3 no exame de agora, o que faço?", 1.3),          # p34-pt-10
    ("potássio 3,0 agora, o que você sugere?", 3.0),
])
def test_a_value_told_with_a_proposal_asked_asks_its_protocol(said, value):
    actions = read(said).entities.actions
    assert "protocol" in actions and "prescribe_drug" not in actions
    assert workflow_of(said).protocol_value == value


@pytest.mark.parametrize("said", [
    "tu proposes quoi pour sa douleur ?",          # no value told
    "faço Benzetacil 1.200.000 UI IM dose unica",  # a note's plan of an order
    "K 3,1,5 ?",                                   # no value read from a slip
])
def test_near_words_a_proposal_asked_of_no_value_or_an_order_asks_no_protocol(said):
    assert "protocol" not in read(said).entities.actions


def test_faco_in_a_note_still_orders():
    assert "prescribe_drug" in read("faço Benzetacil 1.200.000 UI IM dose unica").entities.actions


def test_ronchas_is_a_reaction_and_registralo_records():
    found = read("es alergica a la penicilina, le dio ronchas; registralo").entities  # p34-es-7
    assert "document_allergy" in found.actions and found.allergy.reaction == "ronchas"
    assert read_ward("FC 48 a las 7, regístralo").record_words
    assert not read_ward("FC 48 a las 7, ¿la registraron?").record_words


@pytest.mark.parametrize(("said", "hour"), [
    ("hemograma, ionograma y urea pa manana 7 hs", 7),   # p34-es-11
    ("manana a las 6hs", 6),
])
def test_hs_after_an_hour_is_a_clock(said, hour):
    assert when.parse(said, "UTC").at.hour == hour


def test_near_words_hs_after_a_slash_is_an_interval():
    said = when.parse("amoxicilina 500 c/8 hs", "UTC")  # every 8 hours, no clock
    assert said is None or said.at is None
