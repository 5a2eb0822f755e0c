"""Given names that are also words, a relative's value pointed back to, and which pending card
a follow-up points at: pure readings, with the near-words that must not match."""
from __future__ import annotations

import pytest
from smart_docgemma.agent import amendments, card_picks
from smart_docgemma.reading.people import beside_people
from smart_docgemma.reading.word_names import word_name_people


@pytest.mark.parametrize("text, name", [
    ("Grace - any allergies?", "Grace"),
    ("PRECIOUS, a1c?", "PRECIOUS"),
    ("AIMÉ, HbA1c ?", "AIMÉ"),
    ("PACO, INR?", "PACO"),
    ("MBEKI - INR?", "MBEKI"),
    ("l'INR de Désiré ?", "Désiré"),
    ("what's Hope's potassium", "Hope"),
    ("Dona Rosário, INR?", "Rosário"),
    ("Ms Faith Okonkwo - allergies?", "Faith"),
    ("Doña Dolores, ¿el potasio?", "Dolores"),
    ("et Luz, elle prend quoi ?", "Luz"),
    ("K for Mercy?", "Mercy"),
])
def test_a_word_written_as_a_name_is_a_person(text: str, name: str) -> None:
    assert name in word_name_people(text)


@pytest.mark.parametrize("text", [
    "any hope we can stop his aspirin?",
    "Comfort measures only? check her allergies first",
    "Will his INR be back today?",
    "par prudence, sa dernière kaliémie ?",
    "tiene dolores de cabeza, ¿el potasio cómo está?",
    "socorro, o potássio dela subiu?",
    "Dr Blessing asked for the latest eGFR",
    "le Dr Aimé Diouf, son pneumologue, demande ses allergies",
    "URGENT, INR?",
    "STAT - K?",
    "NOTE, K 5.6",
    "PLAN - stop the aspirin",
    "is there a grace period for the missed dose?",
    "with joy and faith in the plan",
])
def test_the_same_words_as_words_are_no_one(text: str) -> None:
    assert word_name_people(text) == []


@pytest.mark.parametrize("text, who", [
    ("et celui de sa femme ?", "femme"),
    ("¿y el de la hija?", "hija"),
    ("and his daughter's?", "daughter"),
    ("e o da mãe dela?", "mae"),
    ("sa belle-mère prend du lisinopril aussi, elle peut continuer ?", "belle-mere"),
    ("¿y su suegra?", "suegra"),
])
def test_a_relatives_value_pointed_back_to_is_another_person(text: str, who: str) -> None:
    assert who in beside_people(text)


@pytest.mark.parametrize("text", [
    "she takes her mum's enalapril",
    "la dose de la fille",
    "his wife says he is dizzy",
])
def test_a_relative_only_mentioned_is_no_one_asked_about(text: str) -> None:
    assert not [w for w in beside_people(text) if w in {"mum", "fille", "wife"}]


@pytest.mark.parametrize("text, place, rest_cancels", [
    ("cancel the first one", 1, True),
    ("annule la première", 1, True),
    ("cancela el segundo", 2, True),
    ("cancel the last one", -1, True),
    ("change the second to bd", 2, False),
    ("muda a segunda para 2x/dia", 2, False),
])
def test_a_card_pointed_at_by_its_place(text: str, place: int, rest_cancels: bool) -> None:
    pointed = card_picks.pointed(text)
    assert pointed is not None and pointed.place == place
    assert amendments.cancels(pointed.rest) is rest_cancels


@pytest.mark.parametrize("text", ["segunda-feira às 8h", "the first and the second", "INR?",
                                  "on second thoughts, don't", "the first dose at 8"])
def test_no_card_pointed_at(text: str) -> None:
    assert card_picks.pointed(text) is None


@pytest.mark.parametrize("text", [
    "actually keep it", "undo", "desfaz", "non finalement garde-le",
    "espera, sí lo quiero, vuelve a ponerlo", "afinal quero",
])
def test_a_cancel_taken_back(text: str) -> None:
    assert card_picks.restores(text)


@pytest.mark.parametrize("text", ["keep it at 5", "keep it at 5mg", "I want the INR",
                                  "vuelve a ponerlo a 20 mg"])
def test_not_a_cancel_taken_back(text: str) -> None:
    assert not card_picks.restores(text)


@pytest.mark.parametrize("text", ["no, the other one", "non, l'autre", "não, a outra",
                                  "no, el otro"])
def test_the_other_card_meant(text: str) -> None:
    assert card_picks.points_at_other(text)


@pytest.mark.parametrize("text", ["cancélalo", "annule-la", "cancela-o"])
def test_a_cancel_with_its_pronoun_joined_on(text: str) -> None:
    assert amendments.cancels(text)


def test_a_number_after_the_drug_put_in_a_gram_card_s_place_is_mg() -> None:
    from smart_docgemma.agent.extraction import read
    from smart_docgemma.approval.types import PendingOrder

    card = PendingOrder("p1", "pt-1", "paracetamol", "acetaminophen", "1 g", "every 8 hours",
                        None)
    change = amendments.read(read("mejor ibuprofeno 600 cada 8"), card)
    assert change is not None and change.drug == "ibuprofen" and change.dose == "600 mg"
    change = amendments.read(read("actually naproxen instead, 250 bd"), card)
    # a bare number before a ward frequency code, the only drug named: mg, never the card's g
    assert change is not None and change.dose == "250 mg"


@pytest.mark.parametrize("text, names", [
    ("le Dr Aimé Diouf, son pneumologue, demande ses allergies", ()),
    ("la Dra. Luz Herrera, su obstetra, pregunta si puede seguir con el lisinopril", ()),
    ("a D. Socorro - potássio?", ("Socorro",)),
    ("Socorro, K?", ("Socorro",)),
    ("what is Dr Ana Silva on?", ("Ana Silva",)),  # a doctor asked about, not asking
])
def test_a_colleague_asking_is_no_patient_and_a_titled_word_name_is(text: str,
                                                                     names: tuple) -> None:
    from smart_docgemma.agent.extraction import extract

    assert extract(text).patient_names == names


def test_zocor_is_still_simvastatin() -> None:
    from smart_docgemma.agent.extraction import extract

    assert extract("zocor 20mg at night").drugs == ("simvastatin",)


@pytest.mark.parametrize("text", ["que medicação faz?", "e esta doente, que medicação faz?",
                                  "¿qué medicación toma?"])
def test_the_list_asked_with_a_verb_of_taking_is_hers(text: str) -> None:
    from smart_docgemma.agent.extraction import read

    assert "chart_question" in read(text).entities.actions


def test_brought_back_to_her_the_question_loses_the_other_name() -> None:
    from smart_docgemma.agent.clarification import referred_back
    from smart_docgemma.agent.extraction import extract

    said = "ok, and what about this patient's?"
    history = [{"role": "user", "content": "Mercy Otieno - allergies?"},
               {"role": "assistant", "content": "I work in this chart only"}]
    again = referred_back(said, extract(said), history) or ""
    assert "allergies" in again and "Mercy" not in again and "Otieno" not in again
    assert extract(again).patient_names == ()
