"""The patient's state said in the conversation reaches the safety check: a drug asked for a
woman said to breastfeed is checked for breastfeeding though nothing on file says so."""
from __future__ import annotations

import pytest
from smart_docgemma.checks import drug_safety
from smart_docgemma.checks.context import HookData
from smart_docgemma.reading.states import said_in, stated


@pytest.mark.parametrize("said, states", [
    ("she's pregnant, can I give lisinopril?", {"pregnant": True}),
    ("she is breastfeeding - ok to give codeine?", {"breastfeeding": True}),
    ("elle allaite, je peux donner de la codéine ?", {"breastfeeding": True}),
    ("está grávida de 12 semanas", {"pregnant": True}),
    ("lactancia materna, puedo dar ibuprofeno?", {"breastfeeding": True}),
    ("can I give codeine while breastfeeding?", {"breastfeeding": True}),
    # denied, stopped, asked or a test: not said
    ("she is not pregnant", {"pregnant": False}), ("elle n'est pas enceinte", {"pregnant": False}),
    ("no está embarazada", {"pregnant": False}), ("ela não está grávida", {"pregnant": False}),
    ("she stopped breastfeeding last month", {"breastfeeding": False}),
    ("elle a arrêté d'allaiter", {"breastfeeding": False}),
    ("is she pregnant?", {}), ("est-elle enceinte ?", {}), ("¿está embarazada?", {}),
    ("pregnancy test negative", {}), ("pt in nursing home", {}),
    # her in other words; the same words of something else are not her state
    ("she's expecting - is doxycycline alright?", {"pregnant": True}),
    ("she's nursing her baby, can I give tramadol?", {"breastfeeding": True}),
    ("I'm expecting the potassium back soon", {}), ("nursing staff say she is drowsy", {}),
])
def test_a_state_is_said_only_when_the_clinician_says_she_is(said, states):
    assert said_in(said) == states


def test_the_latest_message_that_says_either_wins():
    assert stated(["fyi she's breastfeeding", "ok to give codeine?"]) == ("breastfeeding",)
    assert stated(["she is pregnant", "sorry - not pregnant, wrong patient"]) == ()


@pytest.mark.parametrize("state, drug, finding", [
    ("breastfeeding", "codeine", "Avoid codeine while breastfeeding"),
    ("pregnant", "lisinopril", "Avoid lisinopril in pregnancy"),
])
def test_the_check_weighs_the_state_said_and_only_then(state, drug, finding):
    said = HookData(resources={"conditions": [], "pregnancy": []}, stated=frozenset({state}))
    unsaid = HookData(resources={"conditions": [], "pregnancy": []})
    lines = [f.summary for f in drug_safety.check([drug], said, None, True).findings]
    assert any(line.startswith(finding) for line in lines)
    assert not any(finding in f.summary
                   for f in drug_safety.check([drug], unsaid, None, True).findings)


def test_dialysis_said_in_french_is_no_brand():
    from smart_docgemma.knowledge.mentions import find_drugs
    assert [d.name for d in find_drugs("elle est dialysée, metformine ?")] == ["metformin"]
