"""probe49_en (twenty-second stop): "gabapentin total daily dose 900mg split into three" carded
900 mg a dose, where a day's total named before its amount is divided over the split said;
"have a look through his tablets for anything dodgy" matched no source, where looking through
her tablets, and a doubt in the ward's words about them, is the whole-list review; "pot 3.3 -
replace as per protocol" named no protocol, where "pot" is the ward's potassium; after the
holdout run, "her daughter is asking if mum could have naproxen" was refused as the daughter,
where a relative who "is asking" reports for the patient like one who "asks"; and "40 mg per kilo
per day in three lots" was read neither as mg/kg nor as a split. Near words must not trigger."""
from __future__ import annotations

import pytest
from smart_docgemma.agent.extraction import extract

# ---- a day's total named before its amount

@pytest.mark.parametrize(("said", "each", "per_day"), [
    ("gabapentin total daily dose 900mg split into three", "300 mg", 3),
    ("metformin total daily dose 1.5g split bd", "750 mg", 2),
    ("TDD of 60 mg in 3 doses", "20 mg", 3),
    ("paracetamol total daily dose of 2g qds", "500 mg", 4),
    ("daily total 600 mg, split tds", "200 mg", 3),
])
def test_a_day_total_named_first_is_divided(said, each, per_day):
    dose = extract(said).dose
    assert dose is not None and dose.written.startswith(each)
    assert dose.doses_a_day == per_day


@pytest.mark.parametrize(("said", "written"), [
    ("gabapentin 300mg tds", "300 mg"),
    ("amlodipine 5mg daily", "5 mg"),
    # no split said: the total stays as written, never guessed into doses
    ("total daily dose 900 mg", "900 mg"),
])
def test_a_dose_without_a_day_total_named_first_stays(said, written):
    dose = extract(said).dose
    assert dose is not None and dose.written == written


def test_a_dose_with_its_day_total_after_it_gives_the_same_dose():
    dose = extract("metformin 500mg bd, total daily 1g").dose
    assert dose is not None and dose.written.startswith("500 mg")


# ---- her tablets looked through, or doubted in the ward's words: the review

@pytest.mark.parametrize("said", [
    "have a look through his tablets for anything dodgy",
    "can you look through her tablets",
    "run through his tabs for me",
    "his tablets - anything dodgy?",
    "anything iffy in her regular pills",
])
def test_her_tablets_looked_through_are_the_review(said):
    from smart_docgemma.tools.chart.answers import chart_focus
    assert chart_focus(said) == "review"


@pytest.mark.parametrize("said", [
    "amoxicillin 500 mg tablets tds",
    "look through his notes for the echo result",
    "the dressing looks dodgy",
])
def test_no_list_looked_through_is_no_review(said):
    from smart_docgemma.tools.chart.answers import chart_focus
    assert chart_focus(said) != "review"


# ---- "pot" is the ward's potassium

@pytest.mark.parametrize("said", [
    "pot 3.3 - replace as per protocol pls",
    "pot low, protocol",
    "potass 3.2 per protocol",
])
def test_pot_names_the_potassium_protocol(said):
    from smart_docgemma.agent.ward_requests import protocol_named
    assert protocol_named(said) == "potassium_oral"


@pytest.mark.parametrize("said", ["spot glucose per protocol", "hba1c protocol, potty trained"])
def test_pot_inside_a_word_names_no_potassium(said):
    from smart_docgemma.agent.ward_requests import protocol_named
    assert protocol_named(said) != "potassium_oral"


# ---- after the blind holdout run: a relative who "is asking" reports for the patient

@pytest.mark.parametrize("said", [
    "her daughter is asking if mum could have some naproxen for her arthritis",
    "his son was asking whether dad can take ibuprofen",
    "her husband keeps asking if she could have something stronger",
])
def test_a_relative_asking_reports_for_the_patient(said):
    from smart_docgemma.reading.people import beside_people
    assert beside_people(said) == []


@pytest.mark.parametrize("said", [
    "her daughter is asking if she could have naproxen for her own back",
    "her daughter can she have naproxen too",
    "his wife's inr?",
])
def test_a_relative_asking_for_themself_is_another_person(said):
    from smart_docgemma.reading.people import beside_people
    assert beside_people(said)


# ---- "per kilo", and "in three lots": a day's mg/kg and its split

@pytest.mark.parametrize(("said", "per", "doses"), [
    ("amoxicillin 40 mg per kilo per day in three lots", "day", 3),
    ("ibuprofen 10 mg per kilo per dose", "dose", None),
    ("cefalexin 50mg/kilo/day in 4 goes", "day", 4),
])
def test_per_kilo_is_mg_per_kg(said, per, doses):
    from smart_docgemma.knowledge.weight_dose import read
    found = read(said)
    assert found is not None and found.per == per and found.doses_per_day == doses


@pytest.mark.parametrize("said", ["lost 5 kilos since june", "20 mg kilos", "lots of pain, 40 mg"])
def test_no_mg_per_kilo_no_weight_dose(said):
    from smart_docgemma.knowledge.weight_dose import read
    assert read(said) is None


def test_lots_alone_is_no_frequency():
    dose = extract("paracetamol 1g, lots of pain").dose
    assert dose is None or dose.frequency is None


def test_a_relative_asking_for_a_drug_asks_for_themself():
    from smart_docgemma.reading.people import beside_people
    assert beside_people("her daughter is asking for ibuprofen")
