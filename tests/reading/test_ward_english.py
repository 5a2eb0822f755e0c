"""Ward English as typed: deprescribing and "safe combo?" with no drug named are the whole-list
review; "the other pt", a title with an initial ("Mr O") and a name typed in capitals are
someone else; "P 92" is a pulse; "chuck him on …" orders; the highest and lowest result of a
window are a statistic. Each rule beside the near words it must not read. Pure: no HAPI."""
from __future__ import annotations

from datetime import UTC, datetime

import pytest
from smart_docgemma.agent.extraction import asks_chart, find_actions, find_names
from smart_docgemma.knowledge import analytes
from smart_docgemma.knowledge.mentions import find_drugs
from smart_docgemma.reading.people import beside_people, unshouted
from smart_docgemma.tools.chart.answers import chart_focus
from smart_docgemma.tools.chart.labs import LabResult
from smart_docgemma.tools.chart.windowanswers import extreme_answer
from smart_docgemma.tools.words.ward_words import readings
from smart_docgemma.tools.words.windows import Aggregate, asked, bounds


def _review(text: str) -> bool:
    drugs = find_drugs(text)
    return chart_focus(text) == "review" and asks_chart(text, find_actions(text), drugs)


@pytest.mark.parametrize("text", [
    "anything to stop?", "deprescribe?", "any room to deprescribe here", "safe combo?",
    "is this combination ok?", "rationalise his meds before discharge", "what can we stop for him?",
    "plan colon review medications for interactions full stop", "is his regimen safe",
    "too many pills?", "loads of tablets - can we trim?", "any of his tablets we could stop?",
    "which of her meds can go", "is she on anything sedating",
    "what's on board",
])
def test_the_whole_list_review_asked_with_no_drug_named(text):
    assert _review(text)


@pytest.mark.parametrize("text", [
    "anything to stop the bleeding?", "what's the rationale for warfarin?",
    "is amoxicillin and clavulanate a safe combo?", "stop the aspirin", "combo inhaler technique",
    "what stopped the pain?", "how many pills left in the box", "is gentamicin nephrotoxic?",
    "is she sedated", "is the board round at 10",
])
def test_near_words_are_no_whole_list_review(text):
    assert not _review(text)


@pytest.mark.parametrize(("text", "who"), [
    ("and the other pt, whats her creat?", "the other pt"),
    ("another patient's INR", "another patient"),
    ("l'autre patiente a des allergies ?", "l'autre patiente"),
    ("y la otra paciente?", "la otra paciente"),
    ("o outro doente tem alergia?", "o outro doente"),
])
def test_someone_named_only_as_not_her_is_someone_else(text, who):
    assert beside_people(text) == [who]


@pytest.mark.parametrize("text", [
    "the other day he fell", "other patients with CKD do fine", "another dose?", "outra vez",
    "on the other hand", "la otra pierna",
])
def test_other_without_a_person_names_no_one(text):
    assert beside_people(text) == []


@pytest.mark.parametrize(("text", "names"), [
    ("DOES AMARA NWOSU HAVE ANY ALLERGIES", ["Amara Nwosu"]),
    ("WHAT ABOUT GRACE?", ["Grace"]),
    ("MRS THOMPSON'S EGFR?", ["Thompson"]),
    ("did Mr O get his a1c done?", ["O"]),
    ("Mrs T's bloods back?", ["T"]),
    ("Mr J Smith in bay 2", ["J Smith", "bay 2"]),
])
def test_a_name_typed_in_capitals_or_as_an_initial(text, names):
    assert find_names(text, find_drugs(text)) == names


@pytest.mark.parametrize("text", [
    "ANY PROBLEMS WITH HIS CURRENT MEDS", "LEVOFLOXACIN 500 OD FOR HIS CHEST - OK?",
    "RECORD BP 158/88", "PLS SEND LIPIDS AND TSH WITH AM BLOODS", "AMOXICILLIN 90MG/KG/DAY BD",
    "MAG PROTOCOL", "ANY NAUSEA?", "ask Dr O about it", "vitamin D level", "SORRY 2.5MG",
])
def test_capitals_and_initials_that_name_no_one(text):
    assert find_names(text, find_drugs(text)) == []


def test_a_message_with_a_lower_case_letter_keeps_its_capitals():
    assert unshouted("BP 150/95 for Grace") == "BP 150/95 for Grace"
    assert unshouted("HOW IS KOFI'S WEIGHT") == "How Is Kofi's Weight"


@pytest.mark.parametrize(("text", "pulse"), [
    ("obs 0800: bp 168/92, p 92, t 37.8", 92.0), ("P 88 BP 142/78 @ 1600", 88.0),
])
def test_p_with_a_number_is_the_pulse(text, pulse):
    assert [r.values for r in readings(text) if r.vital == "heart rate"] == [(pulse,)]


@pytest.mark.parametrize("text", [
    "amoxicillin 500mg p.o. tds", "amoxicillin 500mg po tds", "G2P1 at 30 weeks", "page 2",
    "the p value was 0.05",
])
def test_p_that_is_no_pulse(text):
    assert not [r for r in readings(text) if r.vital == "heart rate"]


@pytest.mark.parametrize("text", [
    "chuck him on naproxen for the knee", "pop her on amlodipine 5mg", "stick him on co-amoxiclav",
])
def test_putting_the_patient_on_a_drug_orders_it(text):
    assert "prescribe_drug" in find_actions(text)


@pytest.mark.parametrize(("text", "statistic", "window"), [
    ("highest K in the last 6 months?", Aggregate.MAX, "180d"),
    ("lowest egfr this yr", Aggregate.MIN, "365d"),
    ("lowest BM in the last 24h?", Aggregate.MIN, "24h"),
    ("K max sur 1 an", Aggregate.MAX, "365d"),
    ("potássio máximo em 6 meses", Aggregate.MAX, "180d"),
    ("la glucemia más baja hoy", Aggregate.MIN, "today"),
])
def test_the_highest_and_the_lowest_are_a_statistic(text, statistic, window):
    said = asked(text)
    assert (said.statistic, said.window) == (statistic, window)


@pytest.mark.parametrize("text", [
    "max dose of paracetamol for her", "what's the most recent K", "highest dose in 24h",
    "maximum infusion rate of potassium",
])
def test_a_dose_or_the_latest_is_no_extreme(text):
    assert asked(text).statistic is None


@pytest.mark.parametrize(("text", "focus"), [
    ("highest K in 6 months", "lab:Potassium"), ("K le plus haut sur 1 an", "lab:Potassium"),
    ("lowest BM today", "lab:Capillary glucose"), ("vitamin k max", None),
])
def test_k_or_bm_with_an_extreme_is_the_result(text, focus):
    assert chart_focus(text) == focus


def _k(value: float, day: int) -> LabResult:
    when = datetime(2026, 11, day, 8, tzinfo=UTC)
    return LabResult("Potassium", "2823-3", "serum/plasma", value, "mmol/L", f"{value} mmol/L",
                     when, f"Observation/k{day}")


def test_the_extreme_answer_names_the_value_its_time_and_the_count():
    k = analytes.table()["Potassium"]
    inside = [_k(5.2, 20), _k(5.6, 10), _k(4.9, 1)]  # newest first, as the chart reads them
    w = bounds("30d", datetime(2026, 11, 30, tzinfo=UTC), UTC)
    high = extreme_answer(k, inside, asked("highest K in the last 30 days"), w, UTC)
    low = extreme_answer(k, inside, asked("lowest K in the last 30 days"), w, UTC)
    assert high == ("Highest potassium in the last 30 days: 5.6 mmol/L at 08:00 (2026-11-10) "
                    "(of 3 results).")
    assert low is not None and low.startswith("Lowest potassium in the last 30 days: 4.9 mmol/L")
    assert extreme_answer(k, inside, asked("mean K in the last 30 days"), w, UTC) is None


# ------------------------------------------------------------------ the walk-through's rules
@pytest.mark.parametrize("text", [
    "can you sanity-check everything he's on", "his tablets - any clashes?", "any drug-drug issues",
    "current rx - any concerns", "DDIs?", "check his tablets",
])
def test_clashes_and_everything_she_is_on_are_the_whole_list_review(text):
    assert _review(text)


@pytest.mark.parametrize("text", [
    "does he take all his tablets", "her tablets are in the locker", "give her tablets with food",
    "ibuprofen and warfarin clash?",
])
def test_tablets_without_a_question_of_them_are_no_review(text):
    assert not _review(text)


@pytest.mark.parametrize(("text", "who"), [
    ("how's Samuel doing", ["Samuel"]), ("did Kofi get weighed today", ["Kofi"]),
    ("has Esther had her insulin", ["Esther"]),
    ("the man next door is asking for paracetamol, ok?", ["the man next door"]),
    ("la dame d'à côté a mal", ["la dame d'a cote"]),
])
def test_a_first_name_after_an_auxiliary_or_a_person_beside_her(text, who):
    assert find_names(text, find_drugs(text)) == who


@pytest.mark.parametrize("text", [
    "is Warfarin ok", "is Monday ok for the bloods", "can Tylenol be given", "is CKD a problem",
    "was Dr Smith told",
])
def test_no_person_after_an_auxiliary_when_the_word_is_known(text):
    assert find_names(text, find_drugs(text)) == []


@pytest.mark.parametrize(("text", "window"), [
    ("min egfr past 6/12", "180d"), ("mean K over the last 2/52", "14d"), ("inr last 3/7", "3d"),
])
def test_a_span_written_as_the_ward_writes_durations(text, window):
    assert asked(text).window == window


@pytest.mark.parametrize("text", ["repeat HbA1c in 3/12", "repeat lactate in 30 min",
                                  "bp 120/80 last 12"])
def test_an_order_or_a_reading_is_no_window_nor_extreme(text):
    said = asked(text)
    assert said.window is None and said.statistic is None


def test_a_week_ahead_and_a_day_of_the_week_are_an_orders_day():
    from zoneinfo import ZoneInfo

    from smart_docgemma.tools.words.when import parse

    saturday = datetime(2026, 12, 5, 5, 0, tzinfo=ZoneInfo("UTC"))
    said = {t: parse(t, "UTC", saturday).at for t in (
        "HbA1c and lipids next week", "BNP and ferritin on monday", "bloods saturday 8am",
        "el lunes a las 7", "na segunda às 8h", "lundi matin", "mon patient")}
    assert [a.date().isoformat() if a else None for a in said.values()] == [
        "2026-12-12", "2026-12-07", "2026-12-12", "2026-12-07", "2026-12-07", "2026-12-07", None]


@pytest.mark.parametrize(("text", "dose"), [
    ("halve it", "150 mg"), ("double the dose", "600 mg"), ("la moitié", "150 mg"),
    ("dobra a dose", "600 mg"), ("la mitad", "150 mg"),
])
def test_a_dose_changed_by_a_factor_of_the_pending_one(text, dose):
    from smart_docgemma.agent.amendments import _by_factor

    assert _by_factor(" ".join(text.lower().split()).replace("é", "e"), "300 mg") == dose


@pytest.mark.parametrize("text", ["double check the dose", "half an hour later", "ok"])
def test_no_factor_said(text):
    from smart_docgemma.agent.amendments import _by_factor

    assert _by_factor(text, "300 mg") is None


# ------------------------------------------------------------------ the second walk-through's rules
@pytest.mark.parametrize("text", [
    "is he on anything he shouldn't be", "pharmacist asked for a med check", "STOPP/START?",
    "beers criteria check", "any potentially inappropriate meds",
])
def test_screening_words_are_the_whole_list_review(text):
    assert _review(text)


@pytest.mark.parametrize("text", ["stop the aspirin please", "a few beers a night",
                                  "is he on anything for pain"])
def test_near_screening_words_are_no_review(text):
    assert not _review(text)


def test_a_drug_asked_of_with_her_allergy_in_mind_is_checked_and_records_nothing():
    actions = find_actions("needs abx - is cefalexin alright given her allergy?")
    assert {"give", "allergy_question"} <= set(actions)
    assert "allergy_question" not in find_actions("record her allergy to penicillin - rash")


@pytest.mark.parametrize(("text", "period"), [
    ("paracetamol 15 mg/kg 6 hourly", 6), ("ibuprofen 10mg/kg 8 hrly", 8),
    ("morphine 2.5mg 4-hourly prn", 4),
])
def test_n_hourly_is_every_n_hours(text, period):
    from smart_docgemma.agent.extraction import read
    from smart_docgemma.tools.writes.orders import parse_timing

    said = read(text)
    assert "order_line" in said.entities.actions
    assert parse_timing(said.entities.dose.frequency or "")["period"] == period


def test_my_next_patient_and_a_wristband_name():
    # both name someone else: the next patient, and her name
    assert "my next patient" in find_names("my next patient, Fatima, is she allergic to anything?",
                                           [])
    text = "Mensah, Robert (DOB 30/09/1950) INR"
    assert asks_chart(text, find_actions(text), find_drugs(text))


@pytest.mark.parametrize("text", ["average sbp this year", "mean systolic over 6 months"])
def test_systolic_names_the_blood_pressure(text):
    assert chart_focus(text) == "vitals:bp"


# ------------------------------------------------------------------ the third walk-through's rules
def _here():
    from smart_docgemma.reading.subject import InContext

    return InContext(name="Robert Mensah", id="pt-warfarin", mrn="MRN-100587", born="1950-09-30")


@pytest.mark.parametrize(("name", "own"), [
    ("R Mensah", True), ("Mensah", True), ("M", True), ("J Mensah", False), ("O", False),
])
def test_an_initial_is_hers_when_a_word_of_her_name_begins_with_it(name, own):
    from smart_docgemma.reading.subject import is_own_name

    assert is_own_name(name, _here()) is own


@pytest.mark.parametrize(("text", "kind"), [
    ("Robert Mensah born 1960 - allergies?", "other"), ("Robert Mensah born 1950 - allergies?",
                                                       "patient"),
    ("Robert Mensah DOB 1951, INR?", "other"),
])
def test_a_birth_year_alone_is_compared_with_hers(text, kind):
    from smart_docgemma.agent.extraction import born_words
    from smart_docgemma.reading.subject import said_birth_year, subject_of

    born = said_birth_year(text, born_words())
    assert subject_of(["Robert Mensah"], [], born, _here()).about == kind


@pytest.mark.parametrize(("text", "drug"), [
    ("pen V for her strep throat?", "penicillin v"), ("K supplements?", "potassium chloride"),
])
def test_ward_names_of_a_drug(text, drug):
    assert [d.name for d in find_drugs(text)] == [drug]


@pytest.mark.parametrize("text", ["can u run a safety check on his list",
                                  "any bleeding risk from his current therapy"])
def test_her_list_or_her_therapy_asked_about_is_the_review(text):
    assert _review(text)


@pytest.mark.parametrize("text", ["her physical therapy today", "his list of questions"])
def test_a_list_or_a_therapy_that_is_no_medication(text):
    assert not _review(text)


# ------------------------------------------------------------------ probe6_en's misses
@pytest.mark.parametrize(("text", "names"), [
    ("Margaret T - creat?", ["Margaret T"]), ("Grace A's allergies", ["Grace A"]),
    ("Esther B, glucose?", ["Esther B"]),
])
def test_a_name_and_an_initial_is_a_person(text, names):
    assert find_names(text, find_drugs(text)) == names


@pytest.mark.parametrize("text", [
    "Vitamin D level", "Hepatitis B serology?", "troponin T at 3h", "Can I give it",
    "Group B strep swab", "Bay C - INR", "Factor V Leiden", "Warfarin X",
])
def test_a_thing_named_by_a_letter_is_no_person(text):
    assert find_names(text, find_drugs(text)) == []


def test_the_vocabulary_holds_no_patients_name():
    """Words of the vocabulary's data files are never names: an example sentence with a name in
    a comment of those files would stop that name being read as a person anywhere."""
    from smart_docgemma.reading.people import not_name_words

    names = {"kofi", "asante", "robert", "mensah", "grace", "adeyemi", "margaret", "thompson",
             "samuel", "okoro", "esther", "banda", "amara", "nwosu", "fatima", "diallo"}
    assert names & not_name_words() == set()


@pytest.mark.parametrize(("text", "focus"), [
    ("Kofi Asante DOB 15/06/2020 - weight", "vitals:weight"), ("what is his dob?", "identifiers"),
    ("dob?", "identifiers"), ("date of birth: 1950-09-30, INR?", "lab:INR"),
])
def test_a_birth_date_given_asks_nothing_a_birth_date_asked_does(text, focus):
    assert chart_focus(text) == focus


@pytest.mark.parametrize(("text", "dose"), [
    ("let's do 2.5 instead", "2.5"), ("make it 100", "100"), ("ok", None),
    ("2 or 3 instead", None),
])
def test_the_one_number_before_a_word_of_change(text, dose):
    from smart_docgemma.agent.amendments import _bare_dose

    assert _bare_dose(text) == dose


# ------------------------------------------------------------------ probe5_en holdout's misses
@pytest.mark.parametrize(("text", "dose"), [
    ("pls prescribe amoxicillin 40 mg per kg per day split into three doses", "40 mg/kg/day"),
    ("paracetamol 15 mg per kg qds", "15 mg/kg"),
    ("amoxicilina 50 mg por kg por dia em 3 tomadas", "50 mg/kg/day"),
])
def test_mg_per_kg_in_words_is_a_dose_by_weight(text, dose):
    from smart_docgemma.agent.extraction import read

    assert read(text).entities.dose.written == dose


def test_resp_and_wt_as_the_ward_writes_them():
    assert [r.vital for r in readings("pulse 110 irregular, resp 24 - document pls")] == [
        "heart rate", "respiratory rate"]
    assert chart_focus("kofi asante wt?") == "vitals:weight"
    assert not [r for r in readings("resp failure on bipap") if r.vital == "respiratory rate"]
