"""probe18_en's rules: her kidneys said in the conversation reach the renal check; an order line
asked for by someone else ("the reg wants …", "nurse asks can we write him up for …") or carried
on in ward words ("cont …", "restart …") is the order; "40 on" is at night. Each with the near
words that must not trigger."""
from __future__ import annotations

import pytest
from smart_docgemma.agent.extraction import extract
from smart_docgemma.checks import drug_safety
from smart_docgemma.checks.context import HookData
from smart_docgemma.reading.states import said_in


@pytest.mark.parametrize("said, states", [
    ("she's on dialysis three times a week - metformin ok?", {"dialysis": True}),
    ("on haemodialysis since march", {"dialysis": True}),
    ("elle est dialysée", {"dialysis": True}), ("está em hemodiálise", {"dialysis": True}),
    ("his kidneys are shot, should he stay on metformin?", {"kidneys_poor": True}),
    ("her kidneys aren't great", {"kidneys_poor": True}),
    ("known CKD, gabapentin ok?", {"kidneys_poor": True}),
    ("elle a une insuffisance rénale", {"kidneys_poor": True}),
    ("tiene insuficiencia renal", {"kidneys_poor": True}),
    # denied, asked, or words that begin otherwise: nothing said
    ("not on dialysis", {"dialysis": False}), ("is she on dialysis?", {}),
    ("are her kidneys bad?", {}), ("kidney function?", {}), ("her kidneys are fine", {}),
    ("akinetic mutism", {}), ("ERCP tomorrow", {}), ("step down to HDU", {}),
    ("on hdu overnight", {}),
])
def test_her_kidneys_are_said_only_when_the_clinician_says_so(said, states):
    assert said_in(said) == states


def _lines(drug: str, stated: frozenset[str]) -> list[tuple[str, str]]:
    data = HookData(resources={"conditions": [], "pregnancy": [], "labs": []}, stated=stated)
    return [(f.severity, f.summary) for f in drug_safety.check([drug], data, None, True).findings]


def test_dialysis_said_judges_the_drug_at_end_stage_kidney_disease():
    said = _lines("metformin", frozenset({"dialysis"}))
    assert any(s.startswith("Avoid metformin — on dialysis (said by the clinician)")
               for _, s in said)
    assert not any("dialysis" in s for _, s in _lines("metformin", frozenset()))
    assert not any("dialysis" in s for _, s in _lines("amlodipine", frozenset({"dialysis"})))


def test_kidneys_said_poor_make_the_missing_egfr_a_warning():
    poor = _lines("metformin", frozenset({"kidneys_poor"}))
    assert ("warning", "Not checked: renal dosing of metformin — kidney impairment said by the "
            "clinician, no eGFR on file") in poor
    plain = _lines("metformin", frozenset())
    assert ("info", "Not checked: renal dosing of metformin — no eGFR on file") in plain


@pytest.mark.parametrize("said", [
    "the reg wants naproxen 500 bd for him", "Dr Otieno would like him on ramipril 2.5 od",
    "nurse asks can we write him up for paracetamol 1g qds prn",
    "consultant suggested doxycycline 100 od", "cont abx - amoxicillin 500 tds for another 3/7",
    "restart ramipril 2.5 od", "simva 40 on", "atorva 20 on",
])
def test_an_order_line_asked_for_or_carried_on_is_the_order(said):
    assert "order_line" in extract(said).actions


@pytest.mark.parametrize("said", [
    "mum asks if he can have ibuprofen 200 tds", "GP wants to know if naproxen 500 bd is ok",
    "the reg wants him on naproxen", "he needs naproxen 500 bd?",
    "she needs her metformin 500 bd reviewed", "amlodipine 5 on hold", "warfarin 5 on monday",
    "pharmacy says amoxicillin 500 tds is out of stock",
])
def test_near_words_order_nothing(said):
    assert "order_line" not in extract(said).actions
