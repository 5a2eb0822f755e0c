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


@pytest.mark.parametrize("said, new, old", [
    ("she's pregnant so swap the lisinopril for labetalol 100 bd", "labetalol", "lisinopril"),
    ("swap his aspirin for clopidogrel 75 od", "clopidogrel", "aspirin"),
    ("substitute the ramipril with losartan 50 od", "losartan", "ramipril"),
])
def test_a_swap_names_the_drug_replaced_first(said, new, old):
    from smart_docgemma.agent.ward_requests import switch_parts

    parts = switch_parts(said) or {}
    assert (parts.get("new_drug"), parts.get("replaces")) == (new, old)


@pytest.mark.parametrize("said", ["swap shifts with the reg", "swap the cannula for a new one"])
def test_a_swap_of_no_drug_switches_nothing(said):
    from smart_docgemma.agent.ward_requests import switch_parts

    assert switch_parts(said) is None


@pytest.mark.parametrize("said, dose", [
    ("wean amlodipine to 2.5", "2.5"), ("taper the amlodipine to 2.5mg od", "2.5"),
])
def test_lowering_in_steps_is_a_dose_change(said, dose):
    from smart_docgemma.reading.dose_change import dose_change

    found = dose_change(said, [("amlodipine", "amlodipine")])
    assert found is not None and dose in str(found)


def test_weaning_asked_changes_nothing():
    from smart_docgemma.reading.dose_change import dose_change

    assert dose_change("should we wean the amlodipine?", [("amlodipine", "amlodipine")]) is None


@pytest.mark.parametrize("said", [
    "no cancel that, leave him as he is", "leave her as she is", "laisse-le comme ça",
    "deixa como está", "déjalo como está",
])
def test_the_patient_left_as_he_is_withdraws_the_card(said):
    from smart_docgemma.agent.amendments import cancels

    assert cancels(said)


@pytest.mark.parametrize("said", ["leave him on the ward", "leave her a note for the GP"])
def test_leaving_him_elsewhere_cancels_nothing(said):
    from smart_docgemma.agent.amendments import cancels

    assert not cancels(said)


def _pending(drug: str = "omeprazole"):
    from smart_docgemma.approval.types import PendingOrder

    return PendingOrder("p1", "pt", drug, drug, "20 mg", "once daily", None)


@pytest.mark.parametrize("said, changes", [
    ("and add senna 15mg nocte", False), ("ajoute aussi du Movicol 1 sachet le soir", False),
    ("add 10mg instead", True), ("add another 10mg", True),
])
def test_a_drug_added_is_no_change_of_the_pending_card(said, changes):
    from smart_docgemma.agent.amendments import read
    from smart_docgemma.agent.extraction import read as read_message

    assert (read(read_message(said), _pending()) is not None) is changes


def test_a_word_no_vocabulary_knows_does_not_borrow_the_drug_before():
    from smart_docgemma.agent.clarification import completed

    history = [{"role": "user", "content": "thinking about omeprazole for him"},
               {"role": "assistant", "content": "Omeprazole: nothing found."}]
    assert "omeprazole" not in completed("and add senna 15mg nocte", history)
    assert completed("ok start it 20mg od", history).startswith("omeprazole")
