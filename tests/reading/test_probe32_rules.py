"""probe32_en's and probe33_mix's rules, each with near words that must not trigger: a route or a
length alone completes the order line before it (which then asks what it still lacks); a month
named in full after "of"/"de" is that month's window; "what's the INR?" is her value; a word in
lower case standing as a question's subject, and her own name after "the younger", name someone
else; a day's mg/kg "split into 4" is divided; "anything to stop?" after what prompts it is the
whole-list review; "cap glucose" and "ue" are the ward's words."""
from __future__ import annotations

import pytest
from smart_docgemma.agent import clarification
from smart_docgemma.agent.extraction import asks_chart, extract, find_dose
from smart_docgemma.knowledge import weight_dose
from smart_docgemma.reading.people import questioned_people
from smart_docgemma.reading.unknown_words import subject_lower_names
from smart_docgemma.tools.chart.answers import focus_of
from smart_docgemma.tools.words import windows
from smart_docgemma.tools.words.ward_words import lab_tests, readings


def _history(*said: str) -> list[dict[str, str]]:
    out = []
    for text in said:
        out += [{"role": "user", "content": text}, {"role": "assistant", "content": "(checked)"}]
    return out


@pytest.mark.parametrize("said", ["iv, for 5 days", "IV, pendant 5 jours", "IV por 7 días",
                                  "oral 7/7"])
def test_a_route_or_length_alone_completes_the_order_line(said):
    got = clarification.completed(said, _history("ceftriaxone 1g"))
    assert got == f"start ceftriaxone 1g {said}"


@pytest.mark.parametrize(("said", "before"), [
    ("IV", "what is his latest weight?"),          # no order line before
    ("iv for 5 days?", "ceftriaxone 1g"),          # a question of its own
    ("he has been on it IV for the past 5 days now", "ceftriaxone 1g"),  # a sentence, not fields
])
def test_near_words_route_or_length_completes_nothing(said, before):
    assert not clarification.completed(said, _history(before)).startswith("start ")


def test_the_line_and_its_route_are_the_request_its_frequency_answers():
    history = [{"role": "user", "content": "ceftriaxone 1g"},
               {"role": "assistant", "content": "(checked)"},
               {"role": "user", "content": "IV por 7 días"},
               {"role": "assistant", "content": "To prepare the medication order (needs your "
                                                "approval), what frequency should I use?"}]
    assert clarification.pending_request(history) == ["ceftriaxone 1g", "IV por 7 días"]


@pytest.mark.parametrize(("said", "key"), [
    ("qual foi o INR de agosto de 2026?", "c8-2026"), ("inr de agosto", "c8"),
    ("l'INR d'août 2026 ?", "c8-2026"), ("glucosa de mayo de 2026", "c5-2026"),
    ("INR in Aug 2026", "c8-2026"),
])
def test_a_month_in_full_after_of_is_its_window(said, key):
    assert windows.asked(said).window == key


@pytest.mark.parametrize("said", ["a dose de dez mg", "tomar de mar", "dose of dec",
                                  "nacido de mayo"])
def test_near_words_a_short_month_after_of_is_no_window(said):
    assert windows.asked(said).window is None


def _asks_chart(said: str) -> bool:
    ent = extract(said)
    return asks_chart(said.lower(), list(ent.actions), [])


@pytest.mark.parametrize("said", ["what's the INR?", "what is the INR?", "qual o INR?",
                                  "cual es el INR?", "quel est l'INR ?", "what was the last K"])
def test_what_is_the_result_asks_her_value(said):
    assert _asks_chart(said)


@pytest.mark.parametrize("said", ["what is INR?", "what is the normal INR?",
                                  "¿qué es el INR?", "what is the target INR range for AF?"])
def test_near_words_a_definition_or_values_in_general(said):
    assert not _asks_chart(said)


def test_a_lower_case_subject_no_list_knows_is_someone():
    assert subject_lower_names("btw what dose of metformin is okoro on") == ["okoro"]
    assert subject_lower_names("does mensah have any allergies") == ["mensah"]


@pytest.mark.parametrize("said", ["is he on warfarin", "is she still on it", "is warfarin on "
                                  "hold", "does metformin have side effects", "is pt on insulin"])
def test_near_words_subjects_the_lists_know(said):
    assert subject_lower_names(said, {"warfarin", "metformin", "insulin"}) == []


@pytest.mark.parametrize("said", ["is the younger james wilson (1990) on sertraline?",
                                  "is james wilson (b. 1990) on sertraline?"])
def test_two_lower_case_words_told_apart_by_age_or_year(said):
    assert questioned_people(said) == ["james wilson"]


@pytest.mark.parametrize(("said", "count"), [
    ("cefalexin 25 mg/kg/day split into 4", 4), ("amox 90 mg/kg/day divided into 2", 2),
    ("amoxicilline 80 mg/kg/j divisé en 3", 3), ("amoxicilina 50 mg/kg/día repartido en 2", 2),
    ("amoxicilina 50 mg/kg/dia dividido em 3", 3),
])
def test_a_days_amount_split_into_a_count_is_divided(said, count):
    found = weight_dose.read(said)
    assert found is not None and found.per == "day" and found.doses_per_day == count
    assert (find_dose(said) or {}).get("frequency")


@pytest.mark.parametrize("said", ["x 20 mg/kg/day divided into 2 ml",
                                  "x 25 mg/kg/day split into 4 hours"])
def test_near_words_a_count_with_its_unit_divides_nothing(said):
    found = weight_dose.read(said)
    assert found is not None and found.doses_per_day is None


@pytest.mark.parametrize("said", ["she's just found out she's pregnant - anything to stop?",
                                  "anything to stop in pregnancy?",
                                  "eGFR down to 25, anything to stop now?"])
def test_anything_to_stop_after_its_reason_is_the_review(said):
    assert focus_of(said) == "review"


def test_near_words_anything_to_stop_the_bleeding():
    assert focus_of("anything to stop the bleeding?") != "review"


def test_cap_glucose_and_ue_are_ward_words():
    assert [r.vital for r in readings("cap glucose 14.2 pre-lunch, please document")] == [
        "capillary glucose"]
    assert "basic metabolic panel" in lab_tests("bloods: ue + mg tomorrow 0800")


@pytest.mark.parametrize("said", ["don't forget the recheck", "n'oubliez pas le contrôle",
                                  "no olvides el control", "não esqueça de repetir"])
def test_a_reminder_takes_no_card_back(said):
    from smart_docgemma.agent import amendments
    assert not amendments.cancels(said) and not amendments.cancels_a_card(said)


@pytest.mark.parametrize("said", ["don't", "cancel the recheck", "don't, I'll recheck it"])
def test_near_words_a_refusal_still_takes_it_back(said):
    from smart_docgemma.agent import amendments
    assert amendments.cancels(said) or amendments.cancels_a_card(said)


@pytest.mark.parametrize("said", ["K+ 6.2 on gas!!", "INR 7.9 - lab just called",
                                  "kaliémie 6,4 !", "potássio 6,5 urgente"])
def test_a_value_told_in_alarm_asks_its_plan(said):
    from smart_docgemma.agent.ward_requests import workflow_actions, workflow_of
    from smart_docgemma.languages import fold
    low = " ".join(fold(said).lower().split())
    assert workflow_actions(low, workflow_of(said)) == ["plan"]


# "K 6.2" told alone (its value and nothing else) asks its plan since the sixteenth stop
# (tests/reading/test_walk62_rules.py): it answered nothing before
@pytest.mark.parametrize("said", ["repeat K urgent!", "K 6.2 - give calcium gluconate!",
                                  "K 6.2! is that right?", "K 6.2 after the haemolysed sample"])
def test_near_words_a_value_told_with_an_ask_or_a_story(said):
    from smart_docgemma.agent.ward_requests import workflow_actions, workflow_of
    from smart_docgemma.languages import fold
    low = " ".join(fold(said).lower().split())
    assert workflow_actions(low, workflow_of(said)) != ["plan"]


@pytest.mark.parametrize("said", ["su hijo quiere saber si puede tomar ibuprofeno él",
                                  "a filha quer saber se pode tomar dipirona ela?"])
def test_a_relative_asking_with_the_pronoun_last_asks_for_themself(said):
    from smart_docgemma.reading.people import beside_people
    assert beside_people(said)


@pytest.mark.parametrize("said", ["su hijo quiere saber si puede tomar ibuprofeno",
                                  "su hijo quiere saber si puede darle ibuprofeno a él"])
def test_near_words_the_relative_asks_for_the_patient(said):
    from smart_docgemma.reading.people import beside_people
    assert not beside_people(said)


def _pending(dosage: str, frequency: str):
    from smart_docgemma.approval.types import PendingOrder
    return PendingOrder(proposal_id="p1", patient_id="pt-jw-1971", medication="amoxicillin",
                        ingredient="amoxicillin", dosage=dosage, frequency=frequency, notes=None)


@pytest.mark.parametrize("said", ["split it into two doses", "divide it bd",
                                  "divise la dose en deux prises", "reparte en dos tomas"])
def test_a_days_amount_shared_out_keeps_the_day(said):
    from smart_docgemma.agent import amendments
    from smart_docgemma.agent.extraction import read
    change = amendments.read(read(said), _pending("1 g", "once daily"))
    assert change is not None and change.dose == "500 mg"


@pytest.mark.parametrize("said", ["make it bd", "twice a day instead"])
def test_near_words_a_frequency_changed_keeps_the_dose(said):
    from smart_docgemma.agent import amendments
    from smart_docgemma.agent.extraction import read
    change = amendments.read(read(said), _pending("1 g", "once daily"))
    assert change is not None and change.dose in (None, "")


@pytest.mark.parametrize("said", ["Mensah, Robert, nascido a 30 de setembro de 1950 - INR?",
                                  "the 3rd of may 2026 inr"])
def test_near_words_a_days_date_is_no_month_window(said):
    assert not (windows.asked(said).window or "").startswith("c")


@pytest.mark.parametrize("said", ["a glicemia das 6h estava em quanto", "el potasio de las 6 am"])
def test_an_hour_of_the_day_after_das_is_no_window(said):
    assert windows.asked(said).window is None


@pytest.mark.parametrize(("said", "key"), [("glicemias das 24h", "24h"),
                                          ("glicemia das últimas 6h", "6h")])
def test_near_words_a_span_of_hours_stays_a_window(said, key):
    assert windows.asked(said).window == key


@pytest.mark.parametrize("said", ["el potasio de las 6 am en cuánto quedó",
                                  "a glicemia das 6h estava em quanto",
                                  "le potassium de ce matin était à combien"])
def test_how_much_it_came_to_asks_her_value(said):
    assert _asks_chart(said)


def test_tira_takes_the_named_test_card_back():
    from smart_docgemma.agent import amendments
    assert amendments.cancels_what("tira o hemograma") == "hemograma"
    assert amendments.cancels_what("tira a pressão dele às 18h") is None  # a reading taken


@pytest.mark.parametrize("said", ["então amoxicilina 40 mg/kg/dia de 8/8h",
                                  "alors amoxicilline 40 mg/kg/j en 3 prises",
                                  "ok ibuprofen 100mg tds"])
def test_an_order_line_after_a_word_going_on_is_an_order(said):
    assert "order_line" in extract(said).actions


@pytest.mark.parametrize("said", ["elle a déjà été plus haute ?", "já esteve mais alto?",
                                  "has it been higher?", "¿alguna vez estuvo más alto?"])
def test_a_value_beyond_the_latest_points_back_at_it(said):
    got = clarification.completed(said, _history("dernière kaliémie ?"))
    assert got.endswith(said) and got != said


def test_near_words_a_comparative_after_no_result_points_at_nothing():
    assert clarification.completed("plus haute ?", _history("what's the weather")) == (
        "plus haute ?")


@pytest.mark.parametrize("said", ["the man in the next cubicle is also on warfarin - INR?",
                                  "K for the lady in the bed opposite"])
def test_someone_in_the_next_cubicle_is_another(said):
    from smart_docgemma.reading.people import beside_people
    assert beside_people(said)


def test_near_words_her_own_cubicle():
    from smart_docgemma.reading.people import beside_people
    assert not beside_people("she was moved to a cubicle - INR?")


@pytest.mark.parametrize(("said", "name"), [("what about robert - any allergies?", "robert"),
                                            ("quick one about okoro - is his metformin ok?",
                                             "okoro")])
def test_a_lower_case_name_turned_to_is_someone(said, name):
    from smart_docgemma.reading.unknown_words import about_lower_names
    assert about_lower_names(said) == [name]


@pytest.mark.parametrize("said", ["what about tomorrow - INR?", "what about his kidneys?",
                                  "what about mobility - PT?", "what about renal - ok?",
                                  "what about amlodipine?", "what about nutrition - dietitian?"])
def test_near_words_topics_turned_to_are_no_names(said):
    from smart_docgemma.reading.unknown_words import about_lower_names
    assert about_lower_names(said, {"amlodipine"}) == []


@pytest.mark.parametrize("said", ["anything on her list unsafe now she is expecting?",
                                  "is his anticoagulation safe as it stands",
                                  "is there anything in his meds that is dangerous"])
def test_a_harm_sought_on_her_list_is_the_review(said):
    assert focus_of(said) == "review"


@pytest.mark.parametrize("said", ["anything on the list for theatre today?",
                                  "is his anticoagulation clinic appointment booked"])
def test_near_words_other_lists_are_no_review(said):
    assert focus_of(said) != "review"


@pytest.mark.parametrize(("said", "stat"), [("qual a menor glicemia de maio de 2026?", "MIN"),
                                            ("la mayor glucosa de julio de 2026", "MAX")])
def test_the_least_and_the_most_with_their_article(said, stat):
    got = windows.asked(said).statistic
    assert got is not None and got.name == stat


@pytest.mark.parametrize("said", ["glicemia menor que 70 em julho de 2026?",
                                  "glucosa menor de 70 en julio de 2026"])
def test_near_words_less_than_is_a_threshold(said):
    asked = windows.asked(said)
    assert asked.statistic is None and asked.thresholds
