"""probe28_en's rules, each with near words that must not trigger: a change of mind said before a
bare number changes the pending card; "just the a1c" keeps one of the pending lab cards and
withdraws the rest; a month cut short after a word of time is a window; "is he due an a1c? if
so order it" runs the test's reorder protocol, not the whole care-gap list."""
from __future__ import annotations

import pytest
from smart_docgemma.agent import amendments
from smart_docgemma.agent.ward_requests import actions
from smart_docgemma.tools.words import windows


@pytest.mark.parametrize("said", [
    "on second thoughts 5", "on second thought, 2.5", "thinking about it, 250",
    "à la réflexion 500", "pensando bem, 10", "pensándolo bien, 20", "on reflection 40",
])
def test_a_change_of_mind_changes_the_card(said):
    assert amendments.changes_a_field(amendments._folded(said))


@pytest.mark.parametrize("said", ["thoughts?", "K 6.1 - any thoughts?", "my thinking is 5"])
def test_near_words_a_thought_asked_is_no_change(said):
    assert not amendments._change_words().search(amendments._folded(said))


@pytest.mark.parametrize("said", [
    "actually just the a1c", "only the lipids please", "juste la NFS", "apenas o hemograma",
    "solo el INR", "just the INR",
])
def test_the_one_kept_said_alone_keeps_only_it(said):
    assert amendments.keeps_only(said)


@pytest.mark.parametrize("said", [
    "just the 2 of them", "only the 5 mg", "is the a1c just due?", "the INR only?",
])
def test_near_words_no_keep_only(said):
    assert not amendments.keeps_only(said)


@pytest.mark.parametrize(("said", "key"), [
    ("mean glucose in sept 2026", "c9-2026"), ("glucose since feb", "m2"),
    ("k in dec 2025", "c12-2025"), ("since mar 2026 egfr", "m3-2026"),
    ("glicemias em dez de 2025", "c12-2025"), ("glucosas en ene 2026", "c1-2026"),
])
def test_a_month_cut_short_after_a_time_word_is_a_window(said, key):
    assert windows._window(said) == key


@pytest.mark.parametrize("said", [
    "dec dose", "jan from the ward said", "mar del plata", "oct results?",
])
def test_near_words_a_short_month_alone_is_no_window(said):
    assert windows._window(said) is None


@pytest.mark.parametrize("said", [
    "is he due an a1c? if so order it", "a1c due? si oui, demande-la",
    "hba1c em atraso? se sim, pede", "¿le toca la hba1c? si es así, pídela",
])
def test_due_asked_then_if_so_runs_the_reorder_protocol(said):
    assert actions(said) == ["protocol"]


@pytest.mark.parametrize(("said", "want"), [
    ("is he due an a1c?", ["care_gaps"]), ("what's he overdue for? if so order them", ["care_gaps"]),
])
def test_near_words_due_without_if_so_is_the_care_gaps(said, want):
    assert actions(said) == want


@pytest.mark.parametrize(("said", "pressures"), [
    ("bp 168/98 sitting, 160/95 standing - document", [(168, 98), (160, 95)]),
    ("TA 150/90 couché, 130/80 debout, à noter", [(150, 90), (130, 80)]),
    ("PA 140/90 braço D, 150/95 braço E", [(140, 90), (150, 95)]),
])
def test_a_pressure_said_again_in_another_position_is_two_readings(said, pressures):
    from smart_docgemma.tools.words.ward_words import readings
    got = [r.values for r in readings(said) if r.vital == "blood pressure"]
    assert got == [tuple(float(v) for v in p) for p in pressures]


@pytest.mark.parametrize("said", [
    "bp 150/95 sitting, for 2/7", "BP 150/95 sitting up, HR 88", "bp 150/90 hr 88",
    "bp 150/95, was 140/90 last week",
])
def test_near_words_one_pressure_stays_one_reading(said):
    from smart_docgemma.tools.words.ward_words import readings
    assert len([r for r in readings(said) if r.vital == "blood pressure"]) == 1


@pytest.mark.parametrize("said", [
    "pharmacist asked me to review his anticoag + antiplatelet", "can you check his blood thinners",
    "revoir ses anticoagulants stp", "revisar los antiagregantes", "review her painkillers",
])
def test_a_class_on_her_list_reviewed_by_name_is_the_whole_list_review(said):
    from smart_docgemma.tools.chart.answers import chart_focus
    assert chart_focus(said) == "review"


@pytest.mark.parametrize("said", ["check INR before his anticoag dose", "what is an antiplatelet?"])
def test_near_words_a_class_named_without_a_review(said):
    from smart_docgemma.tools.chart.answers import chart_focus
    assert chart_focus(said) != "review"


@pytest.mark.parametrize(("said", "dose"), [
    ("metformin 500 daily", "500 mg"), ("aspirin 75 daily", "75 mg"),
    ("gabapentin 300 daily", "300 mg"),
])
def test_a_bare_dose_of_ten_or_more_before_daily_is_mg(said, dose):
    from smart_docgemma.agent.extraction import read
    found = read(said).entities.dose
    assert found is not None and found.written == dose


@pytest.mark.parametrize("said", ["senna 2 daily", "paracetamol 2 daily", "metformin 500mg 2 daily"])
def test_near_words_a_small_number_before_daily_counts_tablets(said):
    from smart_docgemma.agent.extraction import read
    found = read(said).entities.dose
    assert found is None or found.written in (None, "500 mg")
