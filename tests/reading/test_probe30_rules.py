"""probe30_mix's rules, each with near words that must not trigger: a sign said again after a
word of rechecking is a second reading at its own time; a drug asked for her beside a problem is
checked, not lost to the problem's plan; someone asking whether is a question reported, never
an order of the test named beside it."""
from __future__ import annotations

import pytest
from smart_docgemma.agent.ward_requests import actions
from smart_docgemma.reading.ward import read_ward
from smart_docgemma.tools.words import when
from smart_docgemma.tools.words.ward_words import readings


@pytest.mark.parametrize(("said", "values", "clocks"), [
    ("Pls chart: CBG 3.1 at 02:30, treated, repeat 6.4 at 02:50", 2, ["02:30", "02:50"]),
    ("à noter : glycémie capillaire 0,55 g/l à 3h, resucré, contrôle 1,10 g/l à 3h30", 2,
     ["03:00", "03:30"]),
    ("anota: HGT 52 às 3h, corrigido, controle 110 às 3h30", 2, ["03:00", "03:30"]),
    ("registra: glucometría 54 a las 3, se corrigió, control 112 a las 3:30", 2,
     ["03:00", "03:30"]),
])
def test_a_sign_rechecked_is_two_readings_each_at_its_time(said, values, clocks):
    got = readings(said)
    assert len(got) == values
    assert [f"{when.clock_said(r.clock).at:%H:%M}" for r in got] == clocks


@pytest.mark.parametrize("said", [
    "cbg 8 after 4 units insulin", "temp 38.5 then paracetamol given", "hr 110 then 2 L fluids",
    "cbg 3.2 at 0600 - pls record",
])
def test_near_words_one_reading_stays_one(said):
    got = readings(said)
    assert len(got) == 1 and got[0].clock == ""


@pytest.mark.parametrize("said", [
    "Seen on ward round. 83F CKD3, K 5.6 today. Family asking whether she can have ibuprofen "
    "for her knees. Thoughts?",
    "K 5.9 - can she take naproxen? thoughts?",
])
def test_a_drug_asked_for_her_beside_a_problem_is_no_plan(said):
    assert "plan" not in actions(said)


@pytest.mark.parametrize("said", [
    "K 6.1 on amlodipine - thoughts?", "INR 6.2, no bleeding - what should I do?", "K 5.9, plan?",
])
def test_near_words_a_problem_alone_is_still_planned(said):
    assert actions(said) == ["plan"]


@pytest.mark.parametrize("said", [
    "Vue ce matin, K à 5,6. La famille demande si elle peut prendre de l'ibuprofène ?",
    "a família pergunta se pode dar ibuprofeno, K 5,6 hoje",
    "the family asked if the K from this morning was ok",
])
def test_someone_asking_whether_orders_nothing(said):
    assert not read_ward(said).order_words


@pytest.mark.parametrize("said", ["le Dr demande une NFS demain", "demande une NFS demain 7h",
                                  "pide una BH mañana"])
def test_near_words_an_order_word_still_orders(said):
    assert read_ward(said).order_words
