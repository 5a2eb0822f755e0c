"""probe29_intl's rules, each with near words that must not trigger: a day named after a word of
since ("depuis le 1er décembre", "desde el 1 de diciembre") starts a window running to now, while
the day said alone stays that day; her prescriptions as "rx" after a plural possessive, looked
over or doubted, are the whole-list review, while "rx" as an order's verb or with a time after it
is not; "terapêutica" names her list, the masculine adjective does not. And the last stop's misses:
"les 72 dernières heures" is a span, no count; "mais uma toma ao dia" steps the card's frequency
and "toma" as a noun asks no list; the conditional ("podia receitar-lhe") asks whether the drug
is safe; "de seis em seis horas" is read in digits."""
from __future__ import annotations

from datetime import UTC, datetime

import pytest
from smart_docgemma.agent import amendments, extraction
from smart_docgemma.reading.numbers import in_digits
from smart_docgemma.tools.chart.answers import chart_focus
from smart_docgemma.tools.words import windows

NOW = datetime(2026, 12, 7, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize(("said", "key"), [
    ("glycémies depuis le 1er décembre", "from12-1"), ("magnesio mas bajo desde el 1 de diciembre",
                                                       "from12-1"),
    ("K desde o dia 1 de dezembro", "from12-1"), ("creat since Dec 1st", "from12-1"),
    ("INR depuis le 3 novembre 2025", "from11-3-2025"),
])
def test_a_day_after_since_starts_a_window_to_now(said, key):
    asked = windows.asked(said)
    assert asked.window == key
    window = windows.bounds(key, NOW, UTC)
    assert window.end == NOW and window.start.day == int(key.split("-")[1])
    assert window.label.startswith("since ")


@pytest.mark.parametrize(("said", "key"), [
    ("glycémie le 1er décembre", "on12-1"),       # the day alone: that day only
    ("K on 3 May", "on5-3"),
    ("creat depuis décembre", "m12"),             # a month after since: from its first day
    ("INR depuis lundi", "since-0"),              # a weekday after since
])
def test_near_words_day_alone_or_month_after_since(said, key):
    assert windows.asked(said).window == key


def test_the_day_since_a_future_date_this_year_is_last_years():
    window = windows.bounds("from12-20", NOW, UTC)
    assert window.start == datetime(2025, 12, 20, tzinfo=UTC) and window.end == NOW


@pytest.mark.parametrize("said", [
    "fais-moi le tour de ses rx, y a-tu de quoi qui cloche?", "revisá sus rx",
    "algum risco nos seus rx?", "faz-me a revisão da terapêutica desta senhora",
])
def test_her_rx_looked_over_and_the_therapeutics_are_the_review(said):
    assert chart_focus(said) == "review"


@pytest.mark.parametrize(("said", "focus"), [
    ("terapêutica habitual?", "medications"),     # her list named, no review asked
    ("ses rx de la semaine", None),               # a time after it: not her list judged
    ("rx amoxicilline 500 mg", None),             # "rx" as the order's verb
    ("check ses rx pour demain", None),
    ("nível terapêutico da vancomicina?", None),  # the masculine adjective
    ("INR na faixa terapêutica?", "lab:INR"),     # the INR's range, a lab first
])
def test_near_words_rx_as_a_verb_and_the_adjective(said, focus):
    assert chart_focus(said) == focus


# --- the last stop's misses (probe28_intl), fixed at the fifteenth stop

@pytest.mark.parametrize(("said", "window"), [
    ("combien de kaliémies sous 4 sur les 72 dernières heures", "3d"),
    ("glicemias nas 48 últimas horas", "48h"),
])
def test_a_span_said_with_derniers_is_no_count_of_results(said, window):
    asked = windows.asked(said)
    assert asked.window == window and asked.count is None


@pytest.mark.parametrize(("said", "count"), [
    ("les 3 dernières kaliémies", 3), ("os 3 últimos resultados", 3),
    ("les 2 dernières valeurs de K", 2),
])
def test_near_words_a_count_of_results_stays_a_count(said, count):
    assert windows.asked(said).count == count


@pytest.mark.parametrize("said", ["mais uma toma ao dia", "mais uma tomada", "uma toma a mais"])
def test_one_more_intake_a_day_steps_the_cards_frequency(said):
    assert amendments._stepped_frequency(said, "twice daily") == "three times daily"


@pytest.mark.parametrize("said", ["non, mais une prise par jour",   # the French "but"
                                  "mais um comprimido"])            # no intake word
def test_near_words_mais_as_but_steps_nothing(said):
    assert amendments._stepped_frequency(said, "twice daily") is None


@pytest.mark.parametrize("said", ["mais uma toma ao dia", "uma toma a mais",
                                  "la toma de la noche"])
def test_toma_as_a_noun_asks_no_medication_list(said):
    assert chart_focus(said) is None


@pytest.mark.parametrize("said", ["o que ela toma?", "toma aspirina?", "qué toma la paciente",
                                  "quantas vezes toma ao dia?"])
def test_near_words_toma_as_the_verb_asks_her_list(said):
    assert chart_focus(said) == "medications"


@pytest.mark.parametrize("said", ["podia receitar-lhe amoxicilina?", "poderia dar-lhe ibuprofeno?",
                                  "pourrais-je lui prescrire de l'amoxicilline ?"])
def test_the_conditional_asks_whether_the_drug_is_safe(said):
    assert "give" in extraction.read(said).entities.actions


@pytest.mark.parametrize("said", ["receitar amoxicilina 500 mg 8/8h",   # an order
                                  "podia ver a creatinina?",            # the conditional, no drug
                                  "pourrais-je avoir sa kaliémie ?"])
def test_near_words_orders_and_other_conditionals_give_nothing(said):
    assert "give" not in extraction.read(said).entities.actions


@pytest.mark.parametrize(("said", "typed"), [
    ("paracetamol quinze miligramas por quilo por dose de seis em seis horas",
     "paracetamol 15 mg/kg por dose de 6 em 6 horas"),
    ("de doze em doze horas", "de 12 em 12 horas"),
])
def test_an_interval_in_words_is_read_in_digits(said, typed):
    assert in_digits(said) == typed


@pytest.mark.parametrize("said", ["dois em dois", "uma em cada duas"])  # no time after
def test_near_words_an_interval_without_hours_stays_words(said):
    assert in_digits(said) == said
