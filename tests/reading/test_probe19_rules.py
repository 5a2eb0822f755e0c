"""probe19_en's rules: a test sent with the ward's next bloods is a lab order; a word that is a
drug and a test, timed by the part of the day, is the test; potassium asked as a drug is checked
against a high potassium; a bare number after a drug whose orders count tablets or sachets is
that count; British brand names are their drugs. Each with near words that must not trigger."""
from __future__ import annotations

import pytest
from smart_docgemma.agent.extraction import extract
from smart_docgemma.checks import drug_safety
from smart_docgemma.checks.context import HookData
from smart_docgemma.reading.ward import read_ward


@pytest.mark.parametrize("said, tests", [
    ("potassium on the am bloods pls", ("serum potassium",)),
    ("potassium tmrw am pls", ("serum potassium",)),
    ("magnesium tmrw morning", ("serum magnesium",)),
    ("kaliémie demain matin", ("serum potassium",)),
    # a drug given, or no time: not a test
    ("start potassium with the bloods", ()), ("potassium tomorrow", ()),
    ("potassium chloride on the am round", ()),
])
def test_a_word_of_drug_and_test_is_the_test_when_sent_or_timed(said, tests):
    assert read_ward(said).tests == tests


@pytest.mark.parametrize("said", ["hba1c and lipids with the next bloods", "U&E on the am bloods"])
def test_tests_sent_with_the_next_bloods_are_ordered(said):
    assert read_ward(said).order_words


def test_potassium_asked_as_a_drug_is_checked_against_a_high_potassium():
    lab = {"resourceType": "Observation", "id": "k1", "status": "final",
           "code": {"coding": [{"system": "http://loinc.org", "code": "2823-3"}]},
           "valueQuantity": {"value": 5.6, "unit": "mmol/L"}, "effectiveDateTime": "2026-11-10"}
    data = HookData(resources={"conditions": [], "pregnancy": [], "labs": [lab]})
    found = [f.summary for f in drug_safety.check(["potassium"], data, None, True).findings]
    assert any(s.startswith("Do not start potassium — potassium 5.6") for s in found)


@pytest.mark.parametrize("said, drug, written", [
    ("senokot 2 at night", "senna", "2 tab"), ("senna 15 nocte", "senna", "15 mg"),
    ("lactulose 10 bd", "lactulose", "10 ml"), ("movicol 1 od", "polyethylene glycol", "1 sachet"),
    ("co-codamol 2 qds prn", "acetaminophen/codeine", "2 tab"),
    ("warfarin 3 od", "warfarin", "3 mg"), ("bisoprolol 2.5 od", "bisoprolol", "2.5 mg"),
])
def test_a_bare_number_counts_the_form_only_where_orders_count_it(said, drug, written):
    found = extract(said)
    assert found.drugs == (drug,) and found.dose is not None and found.dose.written == written


@pytest.mark.parametrize("said, drug", [
    ("sando-k 2 tabs bd", "potassium chloride"), ("floxapen 500 qds", "flucloxacillin"),
    ("ponstan for her knee?", "mefenamic acid"), ("tritace 2.5 od", "ramipril"),
    ("zimovane 7.5 nocte", "zopiclone"), ("arcoxia 60 od", "etoricoxib"),
])
def test_british_brands_are_their_drugs(said, drug):
    assert extract(said).drugs == (drug,)


@pytest.mark.parametrize("said, drugs", [
    ("turmeric supplements ok with his warfarin?", ("curcumin", "warfarin")),
    ("omega 3 caps ok?", ("omega-3 fatty acids",)),
])
def test_supplements_are_read_by_the_names_they_are_taken_under(said, drugs):
    assert extract(said).drugs == drugs


def test_a_dose_skipped_keeps_its_time_from_the_recheck():
    from smart_docgemma.reading.ward import when_words

    assert when_words("INR's 3.4, skip tonight's warfarin and recheck Thursday") == "thursday"


def _k(value: float, day: str) -> dict:
    return {"resourceType": "Observation", "id": f"k{day}", "status": "final",
            "code": {"coding": [{"system": "http://loinc.org", "code": "2823-3"}]},
            "valueQuantity": {"value": value, "unit": "mmol/L"}, "effectiveDateTime": day}


@pytest.mark.parametrize("question, said", [
    ("highest potassium?", "Highest potassium on file: 5.6 mmol/L"),
    ("lowest potassium?", "Lowest potassium on file: 4.6 mmol/L"),
    ("average potassium?", "Mean potassium on file: 5.1 mmol/L (mean of 3 results)"),
])
def test_a_statistic_with_no_window_is_of_every_result_read(question, said):
    from smart_docgemma.knowledge import analytes
    from smart_docgemma.tools.chart import labanswers, labs
    from smart_docgemma.tools.words.windows import asked

    a = analytes.analyte("potassium")
    found = labs.results([_k(5.6, "2026-11-10"), _k(5.2, "2026-08-20"), _k(4.6, "2026-02-03")], a)
    assert labanswers.of_all_read(a, found, asked(question), labanswers.UTC).startswith(said)


def test_a_full_page_says_older_results_were_not_read():
    from smart_docgemma.knowledge import analytes
    from smart_docgemma.tools.chart import labanswers, labs
    from smart_docgemma.tools.words.windows import asked

    a = analytes.analyte("potassium")
    page = [_k(4.0 + i / 1000, f"20{20 + i // 300:02d}-{1 + i // 28 % 12:02d}-{1 + i % 28:02d}")
            for i in range(labs.STATISTIC_WINDOW)]
    said = labanswers.of_all_read(a, labs.results(page, a), asked("highest potassium?"),
                                  labanswers.UTC)
    assert "older ones not read" in said and said.startswith("Highest potassium in the newest")


@pytest.mark.parametrize("said, ordered", [
    ("paed dose of calpol 15mg/kg qds prn", True), ("dose of calpol 15mg/kg qds prn", True),
    ("what dose of calpol 15mg/kg qds prn?", False), ("paed dose of amoxicillin?", False),
    ("is the dose of calpol 15mg/kg qds ok?", False),
])
def test_a_dose_of_a_drug_written_out_is_the_order_and_asked_is_not(said, ordered):
    assert ("order_line" in extract(said).actions) is ordered


@pytest.mark.parametrize("said, tests", [
    ("check her K tomorrow", ("serum potassium",)), ("and check her K tomorrow", ("serum potassium",)),
    ("check her K", ()), ("check potassium chloride dose tomorrow", ()),
])
def test_a_drug_and_test_word_ordered_for_a_time_ahead_is_the_test(said, tests):
    assert read_ward(said).tests == tests


@pytest.mark.parametrize("said, kind", [
    ("her GP letter says she's on ramipril 5 - is that ok with the K?", None),
    ("according to the discharge summary he takes bisoprolol", None),
    ("GP letter please", "discharge"),
])
def test_a_document_quoted_as_a_source_drafts_nothing(said, kind):
    from smart_docgemma.tools.writes.drafts import request_kind

    assert request_kind(said) == kind


def _history(*said: str) -> list[dict]:
    out: list[dict] = []
    for text in said:
        out += [{"role": "user", "content": text}, {"role": "assistant", "content": "…"}]
    return out


@pytest.mark.parametrize("message, before, understood", [
    ("ok do that then, 100 bd x5", "what about doxy instead?", "doxy 100 bd x5 instead"),
    ("ok start it 400 tds", "is ibuprofen ok for her?", "ibuprofen 400 tds"),
    # the card's own change, or the card's own drug discussed: the card is amended as before
    ("make it 400 tds", "is ibuprofen ok for her?", None),
    ("ok 250 tds", "is amoxicillin ok for her kidneys?", None),
])
def test_the_drug_just_offered_is_ordered_not_the_card_changed(message, before, understood):
    from smart_docgemma.agent import amendments, clarification

    found = clarification.ordered_instead(message, extract(message), _history(before),
                                          "amoxicillin", amendments.switch_words())
    assert found == understood


def test_fewer_results_read_than_the_server_counted_are_not_said_to_be_all():
    from smart_docgemma.knowledge import analytes
    from smart_docgemma.tools.chart import labanswers, labs
    from smart_docgemma.tools.words.windows import asked

    a = analytes.analyte("potassium")
    found = labs.results([_k(5.6, "2026-11-10"), _k(5.2, "2026-08-20")], a)
    q = asked("highest potassium?")
    assert "older ones not read" in labanswers.of_all_read(a, found, q, labanswers.UTC, total=9)
    assert "on file" in labanswers.of_all_read(a, found, q, labanswers.UTC, total=2)


@pytest.mark.parametrize("said, cancelled", [
    ("withdraw that", True), ("annule ça", True), ("cancela isso", True), ("anula eso", True),
    ("withdraw the amlodipine", False), ("withdraw that and start amlodipine 5", False),
])
def test_every_cancel_word_takes_a_pronoun_as_its_object(said, cancelled):
    from smart_docgemma.agent.amendments import cancels

    assert cancels(said) is cancelled


@pytest.mark.parametrize("said, kg", [
    ("kofi weighs 22kg now - amoxicillin dose?", 22.0), ("wt 22 kg", 22.0),
    ("elle pèse 22,5 kg", 22.5), ("ela pesa 18 kg", 18.0),
    # a per-kg dose, a date, a number with no unit: no weight said
    ("amoxicillin 15 mg/kg tds", None), ("weight of 2026-11-19?", None), ("weighs 22", None),
])
def test_her_weight_is_said_only_with_its_unit(said, kg):
    from smart_docgemma.reading.states import said_weight

    assert said_weight(said) == kg


@pytest.mark.parametrize("said, focus", [
    ("med rec please", "medications"), ("reconcile her meds", "medications"),
    ("medication reconciliation pls", "medications"),
])
def test_a_reconciliation_asked_with_no_drug_shows_the_list_and_its_review(said, focus):
    from smart_docgemma.tools.chart.answers import focus_of

    assert focus_of(said) == focus


@pytest.mark.parametrize("message, before, understood", [
    ("vale, 100 mg cada 12 horas", "¿y doxiciclina en su lugar?", "doxiciclina 100 mg cada 12 horas instead"),
    ("ok, vas-y, 100 mg 2x/j", "et la doxycycline plutôt ?", "doxycycline 100 mg 2x/j instead"),
])
def test_the_drug_offered_in_the_cards_place_in_every_language(message, before, understood):
    from smart_docgemma.agent import amendments, clarification

    found = clarification.ordered_instead(message, extract(message), _history(before),
                                          "amoxicillin", amendments.switch_words())
    assert found == understood


@pytest.mark.parametrize("said", ["retire isso", "quita eso", "enlève ça", "remove that"])
def test_removing_the_card_in_words_withdraws_it(said):
    from smart_docgemma.agent.amendments import cancels

    assert cancels(said)


@pytest.mark.parametrize("said", ["vérifier la kaliémie demain matin", "checar o potássio amanhã cedo"])
def test_check_in_every_language_orders_a_test_for_later(said):
    assert read_ward(said).tests == ("serum potassium",)


@pytest.mark.parametrize("said, names", [
    ("Robert and Margaret both need their INR checked tomorrow", ("Robert", "Margaret")),
    ("Warfarin and Aspirin together?", ()), ("FBC and CRP tomorrow", ()),
    ("Monday and Tuesday bloods", ()), ("Paracetamol and Ibuprofen alternating", ()),
])
def test_two_first_names_joined_are_two_people(said, names):
    assert extract(said).patient_names == names


@pytest.mark.parametrize("said", ["nope, go back to the first one", "no, back to the original",
                                  "volta pro primeiro", "vuelve al primero"])
def test_the_card_a_switch_replaced_is_asked_back(said):
    from smart_docgemma.agent import card_picks

    assert card_picks.points_at_other(said)
