"""probe31_en's rules, each with near words that must not trigger: "up to 40" changes the pending
card; a person told apart by an event of their own ("the lady who delivered last night") or by a
word before their noun ("the asthmatic lad from resus") is someone else; a sign's own word said
again with a value is a second reading at its own time; a plan told ahead and put as a question
("gonna start her on trimethoprim, problems?") is asked, not ordered."""
from __future__ import annotations

import pytest
from smart_docgemma.agent.amendments import _folded, changes_a_field
from smart_docgemma.agent.extraction import read
from smart_docgemma.reading.people import beside_people
from smart_docgemma.tools.words import when
from smart_docgemma.tools.words.ward_words import readings


@pytest.mark.parametrize("said", ["up to 40 please", "down to 10", "raise it to 80",
                                  "bring it down to 5"])
def test_up_to_and_down_to_change_the_card(said):
    assert changes_a_field(_folded(said))


@pytest.mark.parametrize("said", [
    "can you check the lady who delivered last night - Hb?", "the man who fell in the bathroom",
    "la señora que dio a luz anoche, ¿Hb?", "the asthmatic lad from resus needs salbutamol nebs",
    "the old man next door wants paracetamol",
])
def test_someone_told_apart_by_an_event_or_a_word_is_another(said):
    assert beside_people(said)


@pytest.mark.parametrize("said", ["he had pain from yesterday", "the patient fell last night",
                                  "she delivered last night, Hb?"])
def test_near_words_her_own_events(said):
    assert not beside_people(said)


def test_a_signs_own_word_said_again_is_a_second_reading():
    got = readings("BM 2.8 at 04:00, hypostop given, BM 5.9 at 04:20 - chart both")
    assert [f"{when.clock_said(r.clock).at:%H:%M}" for r in got] == ["04:00", "04:20"]
    assert len(readings("bp 150/90 hr 88 temp 37")) == 3


def _asked(said: str) -> bool:
    from smart_docgemma.agent.order_lines import asks_about_drug
    from smart_docgemma.languages import fold
    ent = read(said).entities
    return asks_about_drug(fold(said).lower(), list(ent.actions), list(ent.drugs))


@pytest.mark.parametrize("said", [
    "gonna start her on trimethoprim for a UTI, problems?", "going to give him tramadol - ok?",
    "je vais lui mettre de l'ibuprofène, ça pose problème ?",
])
def test_a_plan_told_ahead_as_a_question_is_asked(said):
    assert _asked(said)


@pytest.mark.parametrize("said", ["gonna start her on trimethoprim 200 bd",
                                  "i will start amlodipine 10 od"])
def test_near_words_a_plan_told_ahead_without_a_question_orders(said):
    assert not _asked(said)


@pytest.mark.parametrize(("said", "year"), [("Esther B. 1971 - last glucose?", "1971"),
                                            ("b. 1950 - INR?", "1950")])
def test_b_dot_before_a_year_is_born(said, year):
    from smart_docgemma.agent.extraction import born_words
    from smart_docgemma.reading.subject import said_birth_year
    assert said_birth_year(said, born_words()) == year


@pytest.mark.parametrize("said", ["vitamin b. 12 level", "hep b. 2 doses", "B. cereus 2024"])
def test_near_words_b_dot_without_a_year_is_no_birth(said):
    from smart_docgemma.agent.extraction import born_words
    from smart_docgemma.reading.subject import said_birth_year
    assert said_birth_year(said, born_words()) is None


@pytest.mark.parametrize(("said", "held"), [
    ("allergic to amoxicillin - rash. please record", True), ("amoxicillin allergy, hives", True),
    ("add allergy: codeine - vomiting", True), ("alergia a dipirona, registra", True),
    ("Handover: Grace, 41, asthma, pen allergy (anaphylaxis). Started on clarithromycin 500 bd",
     False),
    ("add it", True),
])
def test_the_allergy_card_records_only_the_drug_named_beside_the_allergy(said, held):
    from smart_docgemma.agent.planning import _the_allergen
    assert _the_allergen(said, read(said).entities) is held


@pytest.mark.parametrize("said", ["Handover: Grace, 41, asthma", "WR: 76M AF on warfarin",
                                  "Overnight: K 5.9, repeated"])
def test_a_ward_heading_is_no_name(said):
    from smart_docgemma.reading.people import heading_names
    assert heading_names(said) == []


@pytest.mark.parametrize("said", [
    "Seen in clinic. HbA1c overdue, sugars ok at home. Will check a1c next visit.",
    "a1c à la prochaine consultation", "check inr at the next appointment",
    "hemograma na próxima consulta",
])
def test_a_test_planned_for_a_later_visit_orders_nothing(said):
    from smart_docgemma.agent.ward_requests import actions
    assert "order_lab" not in actions(said)


@pytest.mark.parametrize("said", ["HbA1c tomorrow", "repeat K next week", "inr on friday"])
def test_near_words_a_test_for_a_day_ahead_is_ordered(said):
    from smart_docgemma.agent.ward_requests import actions
    assert actions(said) == ["order_lab"]


def test_a_handover_naming_an_allergy_and_a_drug_started_checks_the_drug():
    said = ("Handover: Grace, 41, asthma, pen allergy (anaphylaxis). Started on clarithromycin "
            "500 bd by night team.")
    assert "document_allergy" not in read(said).entities.actions
    assert "document_allergy" in read("allergie à l'amoxicilline, urticaire").entities.actions


@pytest.mark.parametrize("said", ["es alergica a las sulfas, rash", "allergic to all penicillins",
                                  "allergique aux sulfamides", "alérgica aos sulfas, registra"])
def test_an_allergy_to_a_class_with_its_article_is_recorded(said):
    assert "document_allergy" in read(said).entities.actions
