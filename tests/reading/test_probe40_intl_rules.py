"""Rules added for probe40_intl (pt/es/fr), pinned by pure tests with near wordings and the ones
that must not trigger them."""

from __future__ import annotations

import pytest
from smart_docgemma.agent.amendments import read
from smart_docgemma.agent.extraction import read as read_message
from smart_docgemma.agent.ward_requests import _low, stop_of
from smart_docgemma.approval.types import PendingOrder
from smart_docgemma.tools.words.ward_words import readings
from smart_docgemma.tools.writes.drafts import request_kind

LOSARTAN_50 = PendingOrder("p1", "pt", "losartan", "losartan", "50 mg", "once daily", None)


# p40-pt-8: a reading told with its state after a new dose is the change's reason, never a chart
# question of its own that leaves the card pending and a second one beside it
@pytest.mark.parametrize("said", [
    "melhor fazer 100, a PA continua alta",
    "make it 100, bp still high",
    "faz 100 que a pressao segue alta",
    "mejor 100, la presion sigue alta",
    "plutot 100, la TA reste elevee",
    "go with 100, bp remains high",
])
def test_a_reading_told_with_its_state_is_the_changes_reason(said):
    change = read(read_message(said), LOSARTAN_50)
    assert change is not None and change.dose is not None and change.dose.startswith("100")


@pytest.mark.parametrize("said", [
    "melhor fazer 100, a PA ta como?",       # asked: a question of its own
    "make it 100, what was his bp?",
    "make it 100 and what is his bp",        # a chart question, no state told
])
def test_a_reading_asked_stays_a_request_of_its_own(said):
    assert read(read_message(said), LOSARTAN_50) is None


# p40-fr-2: "no more" opening a message or a clause, its drug ending the clause, stops the drug
@pytest.mark.parametrize(("said", "drug"), [
    ("plus de Kardegic pour lui, INR a 3,4", "aspirin"),
    ("plus de kardegic", "aspirin"),
    ("INR a 3,4. plus de Kardegic", "aspirin"),
    ("fini le Kardegic", "aspirin"),
    ("chega de AAS pra ele, INR 3,4", "aspirin"),
    ("basta de aspirina", "aspirin"),
])
def test_no_more_opening_the_clause_stops_its_drug(said, drug):
    assert stop_of(_low(said)) == drug


@pytest.mark.parametrize("said", [
    "plus de Kardegic ?",                           # asked
    "un peu plus de furosemide ce soir",            # more of it
    "pas plus de 3 g de paracetamol par jour",      # a ceiling
    "il lui faut plus de furosemide",               # more, mid-clause
    "plus de kardegic que prevu",                   # the drug does not end the clause
])
def test_more_or_a_ceiling_stops_nothing(said):
    assert stop_of(_low(said)) is None


# p40-es-12: the stay's summary written for a transfer to another service is the discharge draft
@pytest.mark.parametrize("said", [
    "hazme la nota de traslado a medicina interna",
    "preparame el resumen de traslado",
    "faz o resumo de transferencia pro HU",
    "redige la lettre de transfert en SSR",
    "write the transfer summary",
])
def test_a_transfer_note_is_the_stays_summary(said):
    assert request_kind(said) == "discharge"


@pytest.mark.parametrize("said", [
    "el traslado es a las 3?",
    "organiza o transporte da transferencia",
    "le transfert est prevu demain",
])
def test_the_transfer_itself_drafts_nothing(said):
    assert request_kind(said) is None


# p40-es-10: a single sign's value said before its word with "de" is a reading, when plausible
@pytest.mark.parametrize(("said", "value"), [
    ("hizo 39.4 de temperatura a las 5 de la manana, anotalo", 39.4),
    ("tuvo 39,2 de temp a las 4", 39.2),
    ("fez 38,9 de febre as 3h", 38.9),
    ("il a fait 39 de fievre cette nuit", 39.0),
    ("92% de sat en aa a las 6", 92.0),
])
def test_a_value_before_its_sign_is_a_reading(said, value):
    assert [r.values for r in readings(said)] == [(value,)]


@pytest.mark.parametrize("said", [
    "dia 2 de febre",                # a day of the fever
    "hizo 5 de temperatura",         # no plausible temperature
    "10 de la manana",
    "3 de fiebre alta",
])
def test_no_plausible_value_before_its_sign_is_no_reading(said):
    assert readings(said) == []
