"""The reading's leftovers as general rules (pure, no HAPI): a fraction of a tablet of a stated
strength is that part of the strength; a ward fraction of a week, year or month ("3/7", "2/52",
"6/12") is the order's duration, never a date, a pressure or an interval."""
from __future__ import annotations

import pytest
from smart_docgemma.agent.extraction import find_dose
from smart_docgemma.languages import fold
from smart_docgemma.reading.drugs import unrecognised_drug
from smart_docgemma.reading.ward import read_ward
from smart_docgemma.tools.chart.answers import focus_of
from smart_docgemma.tools.words.windows import asked


@pytest.mark.parametrize(("said", "dose"), [
    ("half a tab of bisoprolol 2.5mg od", "1.25 mg"),
    ("bisoprolol 5mg ½ tab od", "2.5 mg"),
    ("bisoprolol 5mg 1/2 cp od", "2.5 mg"),
    ("1.5 tabs of metformin 500mg bd", "750 mg"),
    ("bisoprolol 2,5 mg un demi comprimé le matin", "1.25 mg"),
    ("meio comprimido de bisoprolol 5 mg 1x/dia", "2.5 mg"),
    ("medio comprimido de bisoprolol 2.5mg cada 24h", "1.25 mg"),
    ("a quarter tablet of warfarin 1mg nocte", "0.25 mg"),
])
def test_a_fraction_of_a_tablet_is_that_part_of_its_strength(said, dose):
    assert (find_dose(said) or {})["dose"].split(" (")[0] == dose


@pytest.mark.parametrize(("said", "dose"), [
    ("half the dose of bisoprolol 5mg", "5 mg"),  # no tablet named: the strength as written
    ("bisoprolol 2.5mg od", "2.5 mg"),
    ("give half of the 10mg", "10 mg"),
    ("half a tab od", None),  # no strength: nothing worked out
])
def test_near_words_are_no_fraction_of_a_tablet(said, dose):
    assert (find_dose(said) or {}).get("dose") == dose


@pytest.mark.parametrize(("said", "duration"), [
    ("co-trimoxazole 960 bd 3/7", "3 days"),
    ("nitrofurantoin 50mg qds 2/52", "2 weeks"),
    ("atorvastatin 20mg nocte 6/12", "6 months"),
    ("amoxicillin 500mg tds 5/7", "5 days"),
    ("doxy 100 mg daily 7/7", "7 days"),
])
def test_a_ward_fraction_of_a_week_year_or_month_is_the_duration(said, duration):
    assert (find_dose(said) or {}).get("duration") == duration


@pytest.mark.parametrize("said", [
    "amoxicillin 500mg tds started 3/7/2026",  # a date
    "ramipril 5mg od bp 120/70",  # a pressure
    "amoxi 500 12/12h",  # an interval
    "amoxi 500 8/8 h",
    "paracetamol 1g qds 24/7",  # always, not 24 days
    "amlodipine 5mg od since 03/07",
])
def test_dates_pressures_and_intervals_are_no_duration(said):
    assert (find_dose(said) or {}).get("duration") is None


@pytest.mark.parametrize("said", [
    "hemocultivos x2 ya", "hemoculturas x2 agora", "hémocs x2 maintenant", "blood cx x2 stat",
    "2 hemocultivos ahora", "hémocultures x2 svp", "hemoculturas já",
])
def test_blood_cultures_counted_or_timed_are_an_order(said):
    ward = read_ward(said)
    assert ward.tests == ("blood culture",) and ward.timed


@pytest.mark.parametrize("said", [
    "¿ya se sacaron los hemocultivos?",  # "ya" before a verb: already
    "ya tiene hemocultivos",
    "k x3",  # a count of a result is a series asked, not an order
    "500 mg magnesium",
])
def test_already_and_a_count_of_results_are_no_order(said):
    assert not read_ward(said).timed


@pytest.mark.parametrize(("said", "count"), [
    ("last 3 Ks", 3), ("k x3", 3), ("the last two INRs", 2), ("les 3 derniers K ?", 3),
    ("últimos 2 INR", 2), ("últimas 5 creatininas", 5), ("egfr x4 pls", 4),
])
def test_a_number_of_results_asked_is_read(said, count):
    assert asked(said).count == count


@pytest.mark.parametrize("said", [
    "K in the last 3 days",  # a window, not a count
    "k last 48h", "last K", "INR x 2 weeks", "last 24 hours glucose",
])
def test_a_window_or_the_latest_is_no_count(said):
    assert asked(said).count is None


@pytest.mark.parametrize(("said", "focus"), [
    ("last 3 Ks", "lab:Potassium"), ("k x3", "lab:Potassium"), ("last few Ks", "lab:Potassium"),
    ("vitamin k x3", None), ("kcl 20 x 3 days", None),
])
def test_a_series_of_k_is_a_potassium_question(said, focus):
    assert focus_of(said) == focus


@pytest.mark.parametrize(("said", "word"), [
    ("start zorbitex 20mg od", "zorbitex"), ("can she have flurbamol?", "flurbamol"),
    ("prescrire vantoprex 10 mg", "vantoprex"), ("¿interacciones con quenaldix?", "quenaldix"),
    ("iniciar tromboral 5 mg", "tromboral"), ("is plixarin safe with her meds", "plixarin"),
])
def test_a_word_in_a_drugs_place_is_named(said, word):
    assert unrecognised_drug(fold(said), set()) == word


@pytest.mark.parametrize("said", [
    "start a progress note", "can she have a scan?", "give 40 mg IV furosemide",
    "is it safe?", "add 2 units", "interactions with her meds",
])
def test_words_that_are_no_drug_are_not_named(said):
    assert unrecognised_drug(fold(said), set()) is None


@pytest.mark.parametrize(("said", "dose", "loading"), [
    ("doxycycline 200mg stat then 100mg od", "100 mg", "200 mg stat"),
    ("doxy 200 mg on day 1 then 100 mg daily 7/7", "100 mg", "200 mg on day 1"),
    ("doxycycline 200 mg le premier jour puis 100 mg/j", "100 mg", "200 mg le premier jour"),
    ("doxiciclina 200 mg dosis de carga y luego 100 mg cada 24 h", "100 mg",
     "200 mg dosis de carga"),
    ("doxiciclina 200 mg de ataque depois 100 mg 1x/dia", "100 mg", "200 mg de ataque"),
])
def test_a_loading_dose_then_maintenance_cards_the_maintenance_and_keeps_the_loading(
        said, dose, loading):
    found = find_dose(said) or {}
    assert (found.get("dose"), found.get("loading")) == (dose, loading)


@pytest.mark.parametrize("said", [
    "amoxicillin 500mg tds then review",  # no second dose
    "paracetamol 1g then ibuprofen 400mg",  # another drug, not maintenance
    "amoxicillin 500mg tds",
])
def test_no_loading_dose_without_a_dose_right_after_then(said):
    assert "loading" not in (find_dose(said) or {})


@pytest.mark.parametrize("said", [
    "hypos last week?", "any hypos in the last 7 days", "des hypos cette semaine ?",
    "¿hipoglucemias esta semana?", "hipoglicemias na última semana?",
])
def test_hypos_are_each_glucose_under_4_mmol_in_the_window(said):
    read = asked(said)
    assert focus_of(said) == "lab:Glucose" and read.window == "7d"
    [limit] = read.thresholds
    assert (limit.comparator.value, limit.value, limit.unit) == ("lt", 4.0, "mmol/L")


@pytest.mark.parametrize("said", ["hyponatraemia?", "glucose < 3.5 today", "hypokalaemia"])
def test_near_words_and_a_stated_limit_keep_their_own_reading(said):
    limits = asked(said).thresholds
    assert all(t.value != 4.0 for t in limits)


@pytest.mark.parametrize(("said", "focus"), [
    ("lipids?", "lab:Cholesterol"), ("¿perfil lipídico?", "lab:Cholesterol"),
    ("bilan lipidique ?", "lab:Cholesterol"), ("ldl?", "lab:LDL"),
    ("height?", "vitals:height"), ("¿y la talla?", "vitals:height"),
    ("and his height?", "vitals:height"), ("e a altura?", "vitals:height"),
])
def test_lipids_and_the_height_are_chart_questions(said, focus):
    assert focus_of(said) == focus


def test_a_drug_she_already_takes_is_said_with_the_dose_she_is_on():
    from smart_docgemma.checks.drug_safety import Report

    report = Report(drugs=["warfarin"], taking=[
        "warfarin sodium 5 MG Oral Tablet — 5 mg by mouth once daily in the evening"])
    assert ("Already on the patient's list: warfarin sodium 5 MG Oral Tablet — 5 mg by mouth "
            "once daily in the evening.") in report.lines()
    assert not any("Already on" in line for line in Report(drugs=["warfarin"]).lines())


@pytest.mark.parametrize(("said", "dose", "duration"), [
    ("nitrofurantoin 50mg qds 2/52", "50 mg", "2 weeks"),
    ("atorvastatin 20mg nocte 6/12", "20 mg", "6 months"),
    ("co-codamol 8/500 2 qds 5/7", "2 × 8/500 mg", "5 days"),
])
def test_a_ward_fraction_is_never_a_combinations_strengths(said, dose, duration):
    found = find_dose(said) or {}
    assert (found.get("dose"), found.get("duration")) == (dose, duration)
