"""The fourteenth stop's walk leftovers (probe_left5), each rule with near words that must not
trigger: a bare number after a drug that cannot count tablets is its dose in mg; one amount "a
day" is once daily; "same again" is the last order again; a dose alone after a drug's name is its
dose; a lower-case given name a word list holds but rarely uses is someone else where a subject
stands; a low value told in alarm asks the replacement protocol; a patient described by an
arrival and its time, and a sibling fed at the breast, are someone else."""
from __future__ import annotations

import pytest
from smart_docgemma.agent import amendments, clarification
from smart_docgemma.agent.extraction import extract
from smart_docgemma.agent.ward_requests import actions, workflow_of
from smart_docgemma.reading.people import beside_people
from smart_docgemma.reading.unknown_words import subject_lower_names


def _history(*said: str) -> list[dict[str, str]]:
    out = []
    for text in said:
        out += [{"role": "user", "content": text}, {"role": "assistant", "content": "(checked)"}]
    return out


# --- a bare number after a drug: its dose in mg when it cannot count tablets

@pytest.mark.parametrize(("said", "dose", "frequency"), [
    ("shall we start lisinopril 5", "5 mg", None),
    ("shall we start ramipril 2.5", "2.5 mg", None),
    ("start lisinopril 5 please", "5 mg", None),
    ("amlodipine 5 daily", "5 mg", "daily"),
    ("metformin 500 bd", "500 mg", "twice daily"),
    ("warfarin 3 od", "3 mg", "once daily"),  # a ward code after it: mg, as before
])
def test_a_bare_number_after_a_drug_is_its_dose(said, dose, frequency):
    ent = extract(said)
    assert ent.dose is not None and ent.dose.written == dose
    assert ent.dose.frequency == frequency


@pytest.mark.parametrize("said", [
    "metformin 2 bd",          # below metformin's smallest strength: two tablets
    "amlodipine 2 daily",      # may count tablets before "daily"
    "start lisinopril 2",      # may count tablets, no frequency
    "lisinopril 5 for his bp",  # the number does not end the message
    "metformin 2 a day",
])
def test_near_words_a_bare_number_that_may_count_is_no_dose(said):
    ent = extract(said)
    assert ent.dose is None or ent.dose.written is None


# --- one amount "a day" is once daily

@pytest.mark.parametrize(("said", "dose"), [
    ("metformin 850 a day", "850 mg"),
    ("sertraline 50mg per day", "50 mg"),
    ("amlodipine 5mg every day", "5 mg"),
    ("amoxicillin 1 g per day", "1 g"),
])
def test_one_amount_a_day_is_once_daily(said, dose):
    ent = extract(said)
    assert ent.dose is not None and (ent.dose.written, ent.dose.frequency) == (dose, "once daily")
    assert "order_line" in ent.actions


@pytest.mark.parametrize(("said", "frequency"), [
    ("amoxicillin 1 g a day in 2 doses", "twice daily"),   # divided: its doses
    ("paracetamol 1g qds max 4g per day", "four times daily"),  # the maximum, not the frequency
    ("metformin 500 twice a day", "twice a day"),
    ("how many mg a day is she on?", None),
    ("walk 30 min a day", None),
])
def test_near_words_a_day_keeps_its_frequency_or_none(said, frequency):
    ent = extract(said)
    assert (ent.dose.frequency if ent.dose else None) == frequency


# --- the last order again

@pytest.mark.parametrize("said", ["repeat the last order", "same again", "Same again please",
                                  "refais la même prescription", "repite la última orden",
                                  "repete a última prescrição", "lo mismo otra vez"])
def test_the_last_order_asked_again(said):
    assert amendments.repeats(said)


@pytest.mark.parametrize("said", ["same again on friday", "same but 250", "same again?",
                                  "repeat the INR tomorrow", "repeat the last order of amoxicillin",
                                  "what was the last order"])
def test_near_words_no_order_again(said):
    assert not amendments.repeats(said)


# --- a dose alone after a drug's name

@pytest.mark.parametrize(("before", "said", "read"), [
    ("warfarin", "10", "warfarin 10"),
    ("start atorvastatin", "10 mg", "start atorvastatin 10 mg"),
    ("gliclazide", "40mg with breakfast", "gliclazide 40mg with breakfast"),
])
def test_a_dose_alone_after_a_drug_is_its_dose(before, said, read):
    assert clarification.dose_after_drug(said, extract(said), _history(before)) == read


@pytest.mark.parametrize(("before", "said"), [
    ("warfarin 5mg od", "10"),          # the drug had its dose
    ("what is her INR?", "10"),         # no drug
    ("warfarin?", "10"),                # a question
    ("warfarin", "10 days"),            # a length, not a dose
    ("warfarin", "10 then stop the aspirin"),
    ("gliclazide", "40mg? is that ok"),     # a question of its own
    ("what is her INR?", "40mg with breakfast"),
])
def test_near_words_a_number_after_no_bare_drug(before, said):
    assert clarification.dose_after_drug(said, extract(said), _history(before)) is None


# --- a lower-case given name where a subject stands

@pytest.mark.parametrize(("said", "name"), [
    ("whats amara on", "amara"),            # a Spanish word, rarely used
    ("whats esther on", "esther"),          # one letter from a vocabulary word
    ("amara prend quoi ?", "amara"),
    ("o que a fatima toma?", "fatima"),
    ("¿qué toma samuel?", "samuel"),
    ("what does esther take?", "esther"),
])
def test_a_rare_word_where_a_subject_stands_is_someone(said, name):
    assert subject_lower_names(said) == [name]


@pytest.mark.parametrize("said", ["whats she on", "is he on", "whats mum on", "is the patient on",
                                  "whats everyone on", "elle prend quoi ?", "o que ela toma?",
                                  "¿qué toma ella?", "que toma el paciente?", "whats grace on",
                                  "is oxygen on", "what does she take?", "what takes priority?",
                                  "que prend le patient ?", "is catheter on", "is hep on",
                                  "is enteral on"])
def test_near_words_pronouns_and_common_words_name_no_one(said):
    assert subject_lower_names(said) == []


# --- a low value told in alarm: the replacement protocol

@pytest.mark.parametrize("said", ["K 3.1!", "potassium 2.9 - urgent", "potássio 3,2!! urgente",
                                  "kaliémie 2,8 !"])
def test_a_low_value_told_in_alarm_is_the_replacement_protocol(said):
    assert actions(said) == ["protocol"]
    assert workflow_of(said).protocol == "potassium_oral"


@pytest.mark.parametrize(("said", "want"), [
    ("K+ 6.2 on gas!!", ["plan"]),               # raised: its plan
    ("potassium 6.4!! lab just called", ["plan"]),
    ("potassium chloride 40 mmol!", []),          # a drug with its dose
    # a question with another drug; the replacement itself asked ("…, give kcl?") is its
    # protocol since probe36_intl (tests/reading/test_probe36_intl_rules.py)
    ("potassium 2.9 - urgent, give furosemide?", []),
])
def test_near_words_raised_or_a_drug_is_no_replacement(said, want):
    assert actions(said) == want


# --- a patient described by an arrival and its time; a sibling fed at the breast

@pytest.mark.parametrize("said", [
    "el paciente que ingresó ayer por la noche, ¿tiene alergias?",
    "le patient arrivé cette nuit, il a des allergies ?",
    "o doente que internou ontem tem alergias?",
    "the patient admitted last night - allergies?",
    "mum's on sertraline, is that ok while breastfeeding his baby brother?",
    "elle prend de la sertraline, ok en allaitant son petit frère ?",
    "amamantando a su hermanito, puede tomar ibuprofeno?",
])
def test_someone_described_or_fed_is_someone_else(said):
    assert beside_people(said)


@pytest.mark.parametrize("said", [
    "this patient was admitted last night, allergies?",
    "he was admitted last night, any allergies?",
    "ce patient est arrivé cette nuit, allergies ?",
    "el paciente ingresó por neumonía, ¿tiene alergias?",
    "the patient who was admitted with chest pain has K 5.9",
    "she is on sertraline, ok while breastfeeding?",
    "ok to give while breastfeeding her baby?",
    "is sertraline ok while feeding her son?",
])
def test_near_words_she_is_the_one_described(said):
    assert beside_people(said) == []


@pytest.mark.parametrize(("said", "drugs"), [
    ("potassium 2.9 - urgent", ()),                      # the result, no drug to check
    ("potassium 6.4!! lab just called", ("potassium",)),  # the raised plan: left as it was
    ("potassium chloride 40 mmol!", ("potassium chloride",)),
])
def test_the_analyte_before_its_low_value_told_in_alarm_is_no_drug(said, drugs):
    assert extract(said).drugs == drugs


@pytest.mark.parametrize(("said", "frequency"), [
    ("gliclazide 40mg with breakfast", "once daily with breakfast"),
    ("metformin 500 bd with breakfast and dinner", "twice daily"),  # its own frequency first
    ("did she have breakfast?", None),
])
def test_one_meal_named_is_once_daily(said, frequency):
    ent = extract(said)
    assert (ent.dose.frequency if ent.dose else None) == frequency
