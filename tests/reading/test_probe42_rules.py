"""Rules from the forty-second unseen English set (probe42_en): each a pure reading of words,
with the near words that must not trigger it."""
from __future__ import annotations

import pytest
from smart_docgemma.agent import clarification, drug_follow_ups
from smart_docgemma.agent.extraction import asks_chart, extract, read
from smart_docgemma.knowledge.mentions import find_drugs
from smart_docgemma.reading.lower_names import lower_ordered_for
from smart_docgemma.reading.people import beside_people
from smart_docgemma.tools.chart.answers import chart_focus
from smart_docgemma.tools.words.when import clock_said
from smart_docgemma.tools.writes.dose_change import orders_of


def _order(text: str) -> dict:
    return {"resourceType": "MedicationRequest", "medicationCodeableConcept": {"text": text}}


_HIS = [_order("warfarin sodium 5 MG Oral Tablet"), _order("aspirin 81 MG Oral Tablet")]
_HERS = [_order("lisinopril 10 MG Oral Tablet")]


# "discontinue the ace-i" (p42-11), "stop the anticoagulant" (p42-12): a class stopped is her
# drug of that class
@pytest.mark.parametrize(("drug", "active", "found"), [
    ("ACE inhibitor", _HERS, ["lisinopril 10 MG Oral Tablet"]),
    ("anticoagulant", _HIS, ["warfarin sodium 5 MG Oral Tablet"]),
    ("antiplatelet", _HIS, ["aspirin 81 MG Oral Tablet"]),
    ("aspirin", _HIS, ["aspirin 81 MG Oral Tablet"]),  # a drug by its name, as before
])
def test_a_class_named_is_her_orders_of_that_class(drug, active, found):
    assert [o["medicationCodeableConcept"]["text"] for o in orders_of(drug, active)] == found


@pytest.mark.parametrize(("drug", "active"), [
    ("NSAID", _HIS),  # aspirin is no NSAID of the class the word names (nsaid_non_aspirin)
    ("statin", _HERS),
    ("ACE inhibitor", _HIS),
    ("clopidogrel", _HIS),
])
def test_a_class_or_drug_she_is_not_on_finds_no_order(drug, active):
    assert orders_of(drug, active) == []


@pytest.mark.parametrize("said", ["discontinue the ace-i", "is he taking an ace-i", "ace-is ok?"])
def test_the_hyphenated_ace_i_is_the_class(said):
    assert [d.name for d in find_drugs(said)] == ["ACE inhibitor"]


@pytest.mark.parametrize("said", ["place it in the notes", "ace the exam", "race in bed 2"])
def test_words_beside_ace_are_no_class(said):
    assert not [d for d in find_drugs(said) if d.name == "ACE inhibitor"]


# "quick scan of his tabs before ward round?" (p42-1): a glance at her list is its review, the
# scan's word naming no image to analyse
@pytest.mark.parametrize("said", [
    "quick scan of his tabs before ward round?",
    "skim his regular pills pls",
    "eyeball her meds",
    "quick look at her drugs before discharge",
])
def test_a_glance_at_her_tablets_is_the_review(said):
    assert chart_focus(said) == "review"
    assert asks_chart(said, ["this_patient", "image"], [])


@pytest.mark.parametrize("said", ["CT scan of his chest today?", "scan her abdomen",
                                  "quick look at the wound"])
def test_a_scan_of_her_body_is_no_review(said):
    assert chart_focus(said) != "review"


# "is he on a blood thinner?" (p42-4), "is she on a statin?" (p42-5): the kind asked of her list
@pytest.mark.parametrize("said", ["is he on a blood thinner?", "is she on a statin?",
                                  "is he taking an ace-i", "is she on an antidepressant",
                                  "is he still on a PPI?"])
def test_a_kind_asked_of_her_is_her_list(said):
    assert chart_focus(said) == "medications"


@pytest.mark.parametrize("said", ["is he on a drip?", "is she on a ward round", "is he on a diet?",
                                  "is she on a waiting list?"])
def test_other_things_she_is_on_are_no_list(said):
    assert chart_focus(said) != "medications"


# "check k for samuel" (p42-14): a lower-case name ending a chart question after "for"
@pytest.mark.parametrize(("said", "who"), [
    ("check k for samuel", "samuel"),
    ("fbc tmrw for okafor pls", "okafor"),
    ("inr for robert please", "robert"),
])
def test_a_lower_case_name_after_for_is_the_one_asked_for(said, who):
    assert lower_ordered_for(said) == [who]


@pytest.mark.parametrize("said", [
    "check inr for review", "fbc for icu", "u&e for theatre", "bloods for tomorrow",
    "check k for me", "refer to neurology for parkinson", "fbc for hdu pls",
    "check k for grace period", "refer to ortho for arthroplasty", "bloods for preop",
    "fbc for colectomy tmrw",
])
def test_ordinary_words_after_for_are_no_name(said):
    assert lower_ordered_for(said) == []


# "d/c the 2nd one" after her list was shown (p42-30): the drug at that place
_LIST = ("**Chart review** — Patient: …\nActive medications (2):\n"
         "- warfarin sodium 5 MG Oral Tablet — 5 mg once per day\n"
         "- aspirin 81 MG Oral Tablet — 81 mg once per day\nMedication review …")


def _shown(answer: str = _LIST) -> list[dict[str, str]]:
    return [{"role": "user", "content": "list his meds"}, {"role": "assistant", "content": answer}]


def _place(said: str, answer: str = _LIST) -> str | None:
    return clarification.listed_by_place(said, read(said).entities, _shown(answer))


@pytest.mark.parametrize(("said", "meant"), [
    ("d/c the 2nd one", "d/c aspirin"),
    ("hold the first tonight", "hold warfarin tonight"),
    ("stop the last one pls", "stop aspirin pls"),
    ("is the second ok?", "is aspirin ok?"),
])
def test_a_place_on_the_list_shown_is_that_drug(said, meant):
    assert _place(said) == meant


@pytest.mark.parametrize(("said", "answer"), [
    ("give the first dose now", _LIST),  # a dose's place, no drug's
    ("stop the third one", _LIST),  # past the list's end: never a guess
    ("d/c the 2nd one", "Latest INR: 3.4 on 2026-10-05."),  # no list shown
    ("stop the aspirin", _LIST),  # a drug named
    ("second opinion from renal?", _LIST),
])
def test_no_drug_by_place_without_a_list_and_a_place_of_it(said, answer):
    assert _place(said, answer) is None


# "is she spiking?" (p42-38): her temperatures; "aki?" (p42-40): her creatinine
@pytest.mark.parametrize("said", ["is she spiking?", "still febrile?", "has he spiked?",
                                  "is he pyrexial", "spiking again?"])
def test_a_fever_asked_of_her_is_her_temperature(said):
    assert chart_focus(said) == "lab:Temperature"


@pytest.mark.parametrize("said", ["is her glucose spiking?", "febrile neutropenia guidelines?",
                                  "is his bp spiking at night?"])
def test_other_spikes_are_no_temperature_question(said):
    assert chart_focus(said) != "lab:Temperature"


@pytest.mark.parametrize("said", ["aki?", "any aki?", "is she in AKI?", "evidence of aki",
                                  "AKI stage?"])
def test_aki_asked_alone_is_her_creatinine(said):
    assert chart_focus(said) == "lab:Creatinine"


@pytest.mark.parametrize("said", ["aki risk with gentamicin?", "aki in sepsis guidelines",
                                  "what is aki"])
def test_aki_of_something_else_is_no_creatinine_question(said):
    assert chart_focus(said) != "lab:Creatinine"


# "mum's asthmatic, can she have some of his brufen for her back?" (p42-20)
@pytest.mark.parametrize(("said", "who"), [
    ("mum's asthmatic, can she have some of his brufen for her back?", "mum"),
    ("dad has gout too - colchicine ok for him?", "dad"),
    ("and wife is pregnant, can she take it?", "wife"),
])
def test_a_relative_ill_in_their_own_right_is_someone_else(said, who):
    assert who in beside_people(said)


@pytest.mark.parametrize("said", [
    "mum's worried about his fever, calpol dose?",
    "mum says he's asthmatic - ibuprofen ok?",
    "mum's here, his temp is 38.5 - paracetamol?",
])
def test_a_relative_reporting_for_the_patient_names_no_one(said):
    assert beside_people(said) == []


# "can mum give him a bit of aspro for the fever" (p42-9): Aspro is aspirin
@pytest.mark.parametrize("said", ["can mum give him a bit of aspro for the fever",
                                  "Aspro Clear for his temp?"])
def test_aspro_is_aspirin(said):
    found = extract(said)
    assert "aspirin" in found.drugs and not found.patient_names


# "obs 2300: T 39.1, HR 104 - record pls" (p42-33): the four-figure time heading the readings
@pytest.mark.parametrize(("said", "hhmm"), [
    ("obs 2300: T 39.1, HR 104 - record pls", "23:00"),
    ("2300: T 39.1", "23:00"),
    ("T 39 at 2300hrs", "23:00"),
    ("vitals 1415 - BP 120/80", "14:15"),
])
def test_a_four_figure_time_heading_the_readings_is_when_taken(said, hhmm):
    clock = clock_said(said)
    assert clock is not None and clock.at.strftime("%H:%M") == hhmm


@pytest.mark.parametrize("said", ["obs 1200 ml", "2300 units heparin overnight?",
                                  "fluid balance +2300", "k 4.5"])
def test_a_volume_or_count_is_no_time(said):
    assert clock_said(said) is None


# "what strength syrup?" after a weight-based card (p42-27): the volume's question
@pytest.mark.parametrize("said", ["what strength syrup?", "which suspension?",
                                  "suspension strength?", "quelle concentration de sirop ?"])
def test_the_syrup_strength_asked_is_the_volume_question(said):
    assert drug_follow_ups.asked(said, read(said).entities) == "ml"


@pytest.mark.parametrize("said", ["what strength tablets?", "syrup?", "what strength is her K?"])
def test_other_strengths_are_no_volume_question(said):
    assert drug_follow_ups.asked(said, read(said).entities) != "ml"


# found by the walk after the set: "hubby's INR?" answered from his chart, "hba1c for emeka
# tomorrow" ordered in this chart, "switch her ace-i to labetalol" stopping nothing
@pytest.mark.parametrize(("said", "who"), [
    ("hubby's INR?", "hubby"),
    ("wife's K 5.9 - do anything?", "wife"),
    ("and mum's meds?", "mum"),
])
def test_a_relative_owning_a_result_or_list_is_someone_else(said, who):
    assert who in beside_people(said)


@pytest.mark.parametrize("said", [
    "mum's here, his temp is 38.5 - paracetamol?", "mum's worried, weight today?",
    "baby's weight?", "the baby has a fever", "kid's temp?",
])
def test_a_relative_here_or_the_child_itself_names_no_one(said):
    assert beside_people(said) == []


@pytest.mark.parametrize(("said", "who"), [
    ("hba1c for emeka tomorrow", "emeka"),
    ("fbc for okafor at 6am", "okafor"),
])
def test_a_lower_case_name_before_its_orders_time(said, who):
    assert lower_ordered_for(said) == [who]


@pytest.mark.parametrize("said", ["hba1c for review tomorrow", "fbc for theatre at 6am",
                                  "u&e for icu tomorrow"])
def test_ordinary_words_before_a_time_are_no_name(said):
    assert lower_ordered_for(said) == []


def test_a_switch_from_a_class_replaces_her_drug_of_it():
    from smart_docgemma.tools.writes.switch import replaced

    hit, _ = replaced("labetalol", "ACE inhibitor", _HERS)
    assert [o["medicationCodeableConcept"]["text"] for o in hit] == ["lisinopril 10 MG Oral Tablet"]
    assert replaced("labetalol", "statin", _HERS)[0] == []


# "her bf is on lisinopril too, fine for him?" (a second walk): answered with her own check
@pytest.mark.parametrize(("said", "who"), [
    ("her bf is on lisinopril too, fine for him?", "bf"),
    ("his other half takes warfarin, ok with his aspirin?", "other half"),
])
def test_a_partners_short_name_after_a_possessive_is_someone_else(said, who):
    assert who in beside_people(said)


@pytest.mark.parametrize("said", ["is she bf?", "BF going well, any issue with amoxicillin?",
                                  "bf is painful on the left"])
def test_bf_alone_is_breastfeeding(said):
    assert beside_people(said) == []
