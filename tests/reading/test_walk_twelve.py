"""What the lead's nineteenth blind walk found read wrongly, read rightly: "Surname, Given"
opening a message names the given name too, so her surname does not make "Roberta" hers; a
draft for her own name with her surname's initial is hers; a chronic disease's review, and
what is missing for her in Spanish, Portuguese and French, ask her care gaps."""
from __future__ import annotations

import pytest
from smart_docgemma.agent.ward_requests import _low, workflow_actions, workflow_of
from smart_docgemma.reading.people import heading_names
from smart_docgemma.tools.writes.drafts import says_all


@pytest.mark.parametrize("message, named", [
    ("Mensah, Roberta INR?", ["Roberta Mensah"]),
    ("Thompson, Joan - egfr?", ["Joan Thompson"]),
    ("Okafor, Samuel: meds", ["Samuel Okafor"]),
    ("Adeyemi : allergies ?", ["Adeyemi"]),
])
def test_a_surname_then_a_given_name_heading_the_message_is_both(message, named):
    assert heading_names(message) == named


@pytest.mark.parametrize("message", ["Thompson, what is her K?", "Mensah, INR?",
                                     "Warfarin, Aspirin: ok?", "Hello, Dr Smith here"])
def test_a_question_or_a_drug_after_the_comma_is_no_given_name(message):
    assert all(" " not in n for n in heading_names(message))


@pytest.mark.parametrize("words, hers", [
    (["Samuel", "O."], True), (["Samuel", "O"], True), (["S.", "Okoro"], True),
    (["Samuel", "B."], False), (["Samuel", "Okafor"], False), (["Sam", "Okoro"], False),
])
def test_an_initial_in_a_draft_request_is_hers_only_when_her_name_begins_with_it(words, hers):
    assert says_all("Samuel Okoro", words) is hers


@pytest.mark.parametrize("message", [
    "diabetes review", "diabetic review: hba1c, egfr, acr, lipids", "ckd review",
    "annual review due?", "¿le falta alguna vacuna o control?", "revisão da diabetes",
    "bilan annuel du diabète ?", "falta algum exame?",
])
def test_a_chronic_disease_review_or_what_is_missing_asks_the_care_gaps(message):
    low = _low(message)
    assert workflow_actions(low, workflow_of(message)) == ["care_gaps"]


@pytest.mark.parametrize("message", [
    "review of his diabetes meds", "diabetes review of her meds", "she has diabetes",
    "review the INR", "le falta el aire",
])
def test_a_medicine_review_or_a_disease_named_is_not_the_care_gaps(message):
    low = _low(message)
    assert workflow_actions(low, workflow_of(message)) != ["care_gaps"]
