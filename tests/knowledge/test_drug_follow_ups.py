"""Follow-up drug questions read and answered without a chart or a model: which follow-up a
message asks in en/fr/pt/es (and what is not one), the strength and volume arithmetic, the
daily maxima the tables hold (and "not in the data" where they hold none), and which findings'
management states an alternative."""
from __future__ import annotations

import pytest
from smart_docgemma.agent import drug_follow_ups as follow
from smart_docgemma.agent.extraction import extract
from smart_docgemma.knowledge import Weight, daily_maximum, strengths


def _kind(message: str) -> str | None:
    return follow.asked(message, extract(message))


@pytest.mark.parametrize("message, kind", [
    ("max per day?", "max_day"),
    ("whats the max daily dose", "max_day"),
    ("max/day?", "max_day"),
    ("dose maxi par 24h ?", "max_day"),
    ("dose máxima diária?", "max_day"),
    ("¿máximo al día?", "max_day"),
    ("how much is that in ml of 120mg/5ml", "ml"),
    ("ça fait combien de ml ?", "ml"),
    ("quantos mls dá?", "ml"),
    ("¿cuántos ml son?", "ml"),
    ("in mg?", "mg"),
    ("¿en mg?", "mg"),
    ("ok and how many milligrams is that", "mg"),
    ("what would you use instead?", "alternative"),
    ("une alternative ?", "alternative"),
    ("tu mettrais quoi à la place ?", "alternative"),
    ("e uma alternativa?", "alternative"),
    ("¿qué uso en su lugar?", "alternative"),
    ("anything else I could use?", "alternative"),
])
def test_a_follow_up_is_read_in_every_language(message, kind):
    assert _kind(message) == kind


@pytest.mark.parametrize("message", [
    "max gabapentin for her kidneys?",           # names its drug: the drug's own question
    "use cefalexin instead",                      # a switch of the pending card
    "what's Grace Adeyemi's max dose of paracetamol?",
    "max temp today?",                            # no day or dose word: not a dose ceiling
    "give 10 ml of 120mg/5ml qds",                # an order, not a question of units
    "K and Mg?",
    "her K?",
    "low Mg? replete per protocol",
    "once daily instead",                         # changes of the pending card
    "give it iv instead",
    "let's do 2.5 instead",
    "uma vez ao dia em vez disso",
    "por 10 dias em vez de 5",
    "Mg replacement per protocol pls",
])
def test_what_is_not_a_follow_up(message):
    assert _kind(message) is None


@pytest.mark.parametrize("text, mg, ml", [
    ("how much is that in ml of 120mg/5ml", 120, 5),
    ("¿y en ml? (160 mg/5 ml)", 160, 5),
    ("sirop 24 mg/ml", 24, 1),
    ("1 g/10 ml", 1000, 10),
    ("250mg per 5ml", 250, 5),
])
def test_a_strength_as_written(text, mg, ml):
    s = strengths.strength_in(text)
    assert s is not None and (s.mg, s.ml) == (mg, ml)


def test_no_strength_is_read_from_a_dose_alone():
    assert strengths.strength_in("paracetamol 240mg qds") is None
    assert strengths.strength_in("40 mg/kg/day") is None


def test_volume_and_mass_arithmetic_with_the_sum_shown():
    s = strengths.strength_in("120mg/5ml")
    assert s is not None
    assert strengths.ml_for(301.5, s).amount == 12.6
    assert "301.5 mg ÷ 120mg/5ml (24 mg/ml) = 12.6 ml" == strengths.ml_for(301.5, s).arithmetic
    five = strengths.strength_in("250mg/5ml")
    assert five is not None and strengths.mg_for(7.5, five).amount == 375
    assert strengths.volume_in("7.5 ml of the 250mg/5ml, in mg?") == 7.5
    assert strengths.volume_in("in mg? it's 120mg/5ml") is None


def test_adult_maxima_with_the_rows_of_her_age():
    assert [c.text.split(" (")[0] for c in daily_maximum.adult_maximum("tramadol", 83)] == [
        "at most 400 mg a day", "at most 300 mg a day from age 75"]
    assert [c.text.split(" (")[0] for c in daily_maximum.adult_maximum("tramadol", 50)] == [
        "at most 400 mg a day"]
    assert daily_maximum.adult_maximum("amlodipine", 60) == []  # no row: said not in the data


def test_a_childs_ceiling_for_the_charted_weight_and_its_source():
    c = daily_maximum.child_maximum("ibuprofen", Weight(20.1, None))
    assert c is not None and "40 mg/kg a day" in c.text and "= 804 mg a day" in c.text
    capped = daily_maximum.child_maximum("acetaminophen", Weight(70, None))
    assert capped is not None and "capped at 4000 mg a day" in capped.text
    who = daily_maximum.child_maximum("gentamicin", Weight(20, None))
    assert who is not None and who.source.startswith("WHO Pocket Book")
    assert daily_maximum.child_maximum("ondansetron", Weight(20, None)) is None  # per dose only


@pytest.mark.parametrize("management, advises", [
    ("Prefer acetaminophen; if an NSAID is needed add a PPI.", True),
    ("avoid; use a non-sedating antihistamine", True),
    ("only a 3-7 day course; otherwise choose another antibiotic", True),
    ("avoid, or use a much lower dose", False),
    ("check potassium within 3-5 days", False),
])
def test_which_management_states_an_alternative(management, advises):
    assert bool(follow._ADVICE.search(management)) is advises


def test_without_a_drug_in_the_conversation_the_drug_is_asked():
    about = follow.discussed(None, [{"role": "user", "content": "her K?"}])
    reply = follow.answer("max_day", "max per day?", about, None)
    assert about.drug is None and reply.asks and "Which drug" in reply.text


def test_the_drug_of_the_last_message_not_of_several():
    one = follow.discussed(None, [{"role": "user", "content": "tramadol 50 mg 3x/j"}])
    assert one.drug == "tramadol" and "50 mg" in one.dose
    two = follow.discussed(None, [{"role": "user", "content": "ibuprofen and naproxen?"}])
    assert two.drug is None


def test_ml_without_a_strength_asks_for_it_and_assumes_none():
    about = follow.Discussed("acetaminophen", "240 mg qds", "paracetamol 240mg qds")
    reply = follow.answer("ml", "how many ml is that?", about, None)
    assert reply.asks and "strength" in reply.text and "10 ml" not in reply.text
    done = follow.answer("ml", "in ml of 120mg/5ml?", about, None)
    assert not done.asks and "10 ml" in done.text


def test_the_cards_own_liquid_strength_is_used_when_none_is_said():
    about = follow.Discussed("acetaminophen", "320 mg", "acetaminophen 160 MG/5ML Oral "
                             "Suspension 320 mg qds", "acetaminophen 160 MG/5ML Oral Suspension")
    reply = follow.answer("ml", "how many ml?", about, None)
    assert not reply.asks and "10 ml a dose" in reply.text
    assert strengths.of_product("amoxicillin 500 MG Oral Capsule") is None


def test_the_drug_just_discussed_before_a_pending_card_of_another():
    from smart_docgemma.approval.types import PendingOrder

    card = PendingOrder("p1", "pt", "amoxicillin", "amoxicillin", "500 mg", "tds", None)
    asked_of = follow.discussed(card, [{"role": "user", "content": "is ibuprofen ok for him?"}])
    assert asked_of.drug == "ibuprofen"
    amended = follow.discussed(card, [{"role": "user", "content": "actually make it 250"}])
    assert amended.drug == "amoxicillin" and amended.dose == "500 mg tds"


@pytest.mark.parametrize("text, caps", [
    ("Keep simvastatin to at most 20 mg of simvastatin a day with amlodipine", True),
    ("Do not exceed: at most 20 mg a day with amlodipine", True),
    ("Limit simvastatin to 20mg/day when co-administered with amlodipine.", True),
    ("check the INR within 3-5 days", False),
])
def test_which_finding_states_a_daily_cap_beside_another_drug(text, caps):
    assert bool(follow._CAP.search(text)) is caps


# probe43 left: the volume asked in the message that names the drug, its dose and its strength
def test_the_volume_asked_beside_the_drug_is_worked_out_from_the_strength_given(monkeypatch):
    monkeypatch.setattr(follow, "_fresh_weight", lambda data: Weight(20.1, None))
    said = "paracetamol syrup 120mg/5ml, 15mg/kg qds - how many ml?"
    text = follow.volume_beside_check(said, list(extract(said).drugs), None)
    assert text is not None and "301.5 mg" in text and "12.6 ml a dose" in text


@pytest.mark.parametrize("said", [
    "paracetamol 15mg/kg qds - how many ml?",  # no strength: asked by the follow-up, not guessed
    "paracetamol syrup 120mg/5ml, 15mg/kg qds",  # no volume asked
    "paracetamol and ibuprofen syrup 120mg/5ml - how many ml?",  # two drugs
])
def test_no_volume_beside_without_one_drug_its_strength_and_the_question(said, monkeypatch):
    monkeypatch.setattr(follow, "_fresh_weight", lambda data: Weight(20.1, None))
    assert follow.volume_beside_check(said, list(extract(said).drugs), None) is None


def test_no_volume_without_a_recent_weight():
    said = "paracetamol syrup 120mg/5ml, 15mg/kg qds - how many ml?"
    assert follow.volume_beside_check(said, list(extract(said).drugs), None) is None
