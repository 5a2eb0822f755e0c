"""Rules from the forty-first unseen English set (probe41_en): each a pure reading of words, with
the near words that must not trigger it."""
from __future__ import annotations

import pytest
from smart_docgemma.agent import clarification
from smart_docgemma.agent.extraction import read


def _asked(before: str) -> list[dict[str, str]]:
    return [{"role": "user", "content": before}, {"role": "assistant", "content": "…"}]


def _several(said: str, before: str):
    r = read(said)
    return clarification.several_discussed(said, r.entities, _asked(before))


# "stop it" after two drugs (p41-15): main's walk 68-70 rule (``several_discussed``) answers it;
# the probe's wordings pinned here
@pytest.mark.parametrize(("said", "before"), [
    ("ok stop it then", "is clarithromycin ok with his warfarin?"),  # p41-15
    ("stop it", "is tramadol ok with his sertraline"),
    ("ok hold that", "aspirin and warfarin together ok?"),
    ("ok d/c that", "aspirin and warfarin both needed?"),
])
def test_an_act_on_it_after_two_drugs_asks_which(said, before):
    assert len(_several(said, before)) == 2


@pytest.mark.parametrize(("said", "before"), [
    ("stop it", "is clarithromycin ok for him?"),  # one drug: that drug (acts_on_discussed)
    ("stop the warfarin", "is clarithromycin ok with his warfarin?"),  # a drug named
    ("stop it", "is Mrs Banda on amoxicillin and warfarin?"),  # someone else's
    ("what's his INR?", "is clarithromycin ok with his warfarin?"),  # no act on it
])
def test_no_question_back_without_two_drugs_and_a_pronoun(said, before):
    assert not _several(said, before)


@pytest.mark.parametrize(("said", "drug"), [
    ("child having fever since morning, shall we give Ecosprin?", "aspirin"),  # p41-8
    ("ecosprin 75 od", "aspirin"),
])
def test_ecosprin_is_aspirin(said, drug):
    from smart_docgemma.agent.extraction import extract
    assert drug in extract(said).drugs and not extract(said).patient_names


@pytest.mark.parametrize("said", [
    "shall we give Zentrolax?",
    "can I give Feverall for the temp",
    "can we give Zentrolax to him",
    "ok to give Zentrolax?",
    "can give Zentrolax?",
])
def test_a_word_the_clinician_gives_is_the_thing_given(said):
    from smart_docgemma.agent.extraction import extract
    assert not extract(said).patient_names


@pytest.mark.parametrize(("said", "name"), [
    ("can I give Kofi his meds", "Kofi"),  # a possessive after it: the one given to
    ("give Kofi his meds", "Kofi"),
    ("what did you give Kofi?", "Kofi"),  # "you": asked of a person
    ("can you give Kofi?", "Kofi"),
    ("did you give Okafor the handover?", "Okafor"),
    ("¿cuánto pesa Kofi?", "Kofi"),  # a question's last word after another verb
    ("give Zentrolax now", "Zentrolax"),  # no one giving it said: kept a person (fail-safe)
])
def test_a_person_given_to_or_asked_of_stays_a_person(said, name):
    from smart_docgemma.agent.extraction import extract
    assert name in extract(said).patient_names


@pytest.mark.parametrize(("said", "action"), [
    ("K 3.1, plan?", "protocol"),  # p41-37: the replacement protocol, never hyperkalaemia's
    ("K is 3.1, plan?", "protocol"),
    ("potassium 2.9 - what should I do?", "protocol"),
    ("K is 5.6 - plan?", "plan"),  # raised: its plan
    ("K 6.1, plan?", "plan"),
    ("INR 1.2 plan?", "plan"),  # no replacement protocol of the INR
])
def test_a_low_value_whose_plan_is_asked_gets_its_replacement_protocol(said, action):
    from smart_docgemma.agent.ward_requests import _low, workflow_actions, workflow_of
    assert workflow_actions(_low(said), workflow_of(said)) == [action]


@pytest.mark.parametrize(("said", "who"), [
    ("his sibling weighs 14kg, amox dose?", "sibling"),  # the walk: answered for this child
    ("her twin's inr?", "twin"),
    ("his sibling's inr?", "sibling"),
])
def test_an_unnamed_brother_sister_or_twin_is_another_person(said, who):
    from smart_docgemma.agent.extraction import read
    subject = read(said).subject
    assert subject.about == "other" and who in subject.others


@pytest.mark.parametrize("said", [
    "sibling rivalry at home, sleep poor - melatonin?",
    "twin pregnancy - aspirin ok?",
    "is she a twin?",
    "la nueva dosis",  # "sis" is no relative: it ends "dosis"
    "o dobro da dose",  # nor "bro"
])
def test_the_words_not_owned_stay_hers(said):
    from smart_docgemma.agent.extraction import read
    assert read(said).subject.about == "patient"


@pytest.mark.parametrize(("said", "action"), [
    ("potassium 3.3 - what do you suggest?", "protocol"),  # the walk: checked as a drug
    ("K 6.2 suggestions?", "plan"),
    ("K 6.2, any ideas?", "plan"),
    ("INR 4.5 what would you recommend", "plan"),
])
def test_a_value_with_a_suggestion_asked_is_its_plan(said, action):
    from smart_docgemma.agent.ward_requests import _low, workflow_actions, workflow_of
    assert workflow_actions(_low(said), workflow_of(said)) == [action]


@pytest.mark.parametrize("said", [
    "what do you suggest for his cough?",
    "what antibiotic do you suggest?",
])
def test_a_suggestion_asked_with_no_value_plans_nothing(said):
    from smart_docgemma.agent.ward_requests import _low, workflow_actions, workflow_of
    assert workflow_actions(_low(said), workflow_of(said)) == []


def test_the_analyte_word_with_its_plan_asked_is_no_drug():
    from smart_docgemma.agent.ward_requests import value_drugs_out
    from smart_docgemma.knowledge.mentions import find_drugs
    said = "potassium 3.3 - what do you suggest?"
    assert value_drugs_out(said, find_drugs(said.lower())) == []
    kept = "potassium chloride 40 mmol - what do you suggest?"
    assert value_drugs_out(kept, find_drugs(kept.lower()))


@pytest.mark.parametrize(("said", "value", "unit"), [
    ("mg 0.58 mmol/l on today's bloods - replace", 0.58, "mmol/L"),  # the walk: "no unit"
    ("magnesium 1.2 mg/dl replace per protocol", 1.2, "mg/dL"),
    ("mg 0.5 this am - replace per protocol", 0.5, None),  # no unit: none said
])
def test_a_result_stated_with_its_unit_keeps_it(said, value, unit):
    from smart_docgemma.agent.ward_requests import protocol_stated_unit, protocol_stated_value
    assert protocol_stated_value(said, "magnesium_iv") == value
    assert protocol_stated_unit(said, "magnesium_iv") == unit


@pytest.mark.parametrize("said", [
    "k 40 mmol - k protocol",  # a dose's unit: no result stated
    "mg 2 g iv per protocol",
    "mg 0.58 mmol per protocol",
])
def test_a_dose_unit_states_no_result(said):
    from smart_docgemma.agent.ward_requests import protocol_stated_value
    assert protocol_stated_value(said, "magnesium_iv") is None


@pytest.mark.parametrize(("said", "who"), [
    ("mama Kofi is asking for paracetamol for herself, dose?", "mama"),  # the walk: the
    ("mum wants ibuprofen for herself", "mum"),                          # child's dose given
    ("his dad wants some ibuprofen for himself - ok?", "dad"),
])
def test_a_relative_asking_for_themself_is_another_person(said, who):
    from smart_docgemma.agent.extraction import read
    subject = read(said).subject
    assert subject.about == "other" and who in subject.others


@pytest.mark.parametrize("said", [
    "mum asking if she can give him calpol",
    "mum is asking for calpol for him",
    "mum will give it herself",
    "he wants to inject the insulin himself",
    "mama says he has had fever for 2 days",
])
def test_a_relative_asking_for_the_patient_stays_hers(said):
    from smart_docgemma.agent.extraction import read
    assert read(said).subject.about == "patient"


@pytest.mark.parametrize(("said", "focus"), [
    ("any temps over 38 in the last 48h?", "lab:Temperature"),  # p41-38
    ("how many times has she spiked >38 in the last 72h", "lab:Temperature"),  # p40-39
    ("highest temperature since yesterday", "lab:Temperature"),
    ("temp in the last 24h", "lab:Temperature"),
    ("latest temp?", "vitals"),  # no window: the vital signs, as before
    ("temp spiking?", "vitals"),
    ("temp and pulse in the last 24h", "vitals"),  # another sign: together
    ("can he have aspirin for the temp?", "vitals"),
])
def test_a_temperature_over_a_window_is_its_own_series(said, focus):
    from smart_docgemma.tools.chart.answers import chart_focus
    assert chart_focus(said) == focus


def test_the_temperature_window_counts_its_values_over_the_threshold():
    from datetime import UTC, datetime, timedelta

    from smart_docgemma.tools.chart.answers import answer
    from smart_docgemma.tools.chart.chartdata import ChartData, ChartPatient
    from smart_docgemma.tools.words.windows import asked

    now = datetime(2026, 12, 7, 12, tzinfo=UTC)

    def temp(i, value, hours, unit="Cel"):
        return {"resourceType": "Observation", "id": f"t{i}", "status": "final",
                "code": {"coding": [{"system": "http://loinc.org", "code": "8310-5"}]},
                "effectiveDateTime": (now - timedelta(hours=hours)).isoformat(),
                "valueQuantity": {"value": value, "unit": unit, "code": unit}}

    # a reading in Fahrenheit is converted (101.2 °F = 38.4 °C), never mixed in as it is
    observations = [temp(1, 38.4, 10), temp(2, 37.2, 30), temp(3, 38.9, 60),
                    temp(4, 101.2, 5, "[degF]")]
    patient = ChartPatient(id="p", name="Test", gender="female", birth_date="1950-01-01")
    said = answer("lab:Temperature", ChartData(patient=patient), asked=asked(
        "any temps over 38 in the last 48h?"), observations=observations, now=now)
    assert "2 values over 38 °C" in said, said
    assert "38.9" not in said and "101.2" not in said  # outside the window; converted


@pytest.mark.parametrize("said", [
    "can u check the Rx for this lady, 28/40",  # the third walk: asked what drug to order
    "can u check the Rx, 28/40",  # "rx" alone orders only with a drug named: none here
    "review the drug chart pls",
    "go through the kardex for me",
])
def test_the_prescription_chart_checked_is_the_review(said):
    from smart_docgemma.tools.chart.answers import chart_focus
    assert chart_focus(said) == "review"


def test_the_rx_for_the_one_described_orders_nothing():
    from smart_docgemma.agent.extraction import find_actions
    assert not {"prescribe", "prescribe_drug", "administer"} & set(
        find_actions("can u check the rx for this lady, 28/40"))


@pytest.mark.parametrize("said", [
    "rx for amoxicillin 500 tds",
    "new rx for this lady: amoxicillin 500 tds",
    "check the rx for amoxicillin 500 tds",
])
def test_an_rx_naming_a_drug_still_orders(said):
    from smart_docgemma.agent.extraction import find_actions
    assert "prescribe" in find_actions(said)
